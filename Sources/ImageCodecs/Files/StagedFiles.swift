#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageDiff

/// Output files written all or nothing.
///
/// Each file is written, as it is added, to a temporary file beside its destination; ``commit()``
/// renames them into place only once every one is complete. Until then nothing exists at the
/// destinations: a failure (an encoder error, a missing directory, a full disk) leaves no
/// output behind, and the temporary files are removed by ``discard()`` or when the value goes
/// away uncommitted.
public final class StagedFiles {
    private var staged: [(temporary: String, destination: String)] = []

    /// Nothing staged yet; whatever is added and not committed is removed when the value goes away.
    public init() {}

    deinit { discard() }

    /// Stages `bytes` for `path`. On failure every staged file is discarded.
    ///
    /// - Throws: ``ImageFileError`` with ``ImageCodecError/cannotWrite(_:)``.
    public func add(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
        do {
            staged.append((try ImageFile.writeTemporaryFile(bytes, for: path), path))
        } catch {
            discard()
            throw error
        }
    }

    /// Moves every staged file into place. If a rename fails, the files not yet moved are
    /// removed and the error names the first destination that could not be written.
    public func commit() throws(ImageFileError) {
        defer { discard() }
        while !staged.isEmpty {
            let next = staged.removeFirst()
            try ImageFile.moveIntoPlace(next.temporary, next.destination)
        }
    }

    /// Removes every staged temporary file.
    public func discard() {
        for file in staged { unlink(file.temporary) }
        staged.removeAll()
    }
}
