#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ImageCodecs
import ImageDiff
import ToleranceTuning
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder `tune --write-canaries` fills: each canary as a pair that must fail, the noise
/// pair's reference beside the noise pair's new image with the change painted in.
///
/// The canaries are written into a staging folder beside the destination and put in place only
/// when tune has finished, so a run that fails leaves nothing behind and the next one starts
/// afresh.
struct CanaryFolder: Sendable {
    /// The folder named on the command line.
    let destination: String
    /// Where this run writes, until ``commit()``.
    let staging: String

    /// Checks that `destination` is new or an empty folder, and lies apart from the folders tune
    /// reads, and creates the staging folder with its ref/ and new/ folders.
    init(_ destination: String, apartFrom inputs: [String]) throws(CommandLineError) {
        self.destination = destination
        for input in inputs where SnapshotFolder.overlap(destination, input) {
            throw CommandLineError("\(destination): overlaps \(input), which tune reads; choose another --write-canaries folder")
        }
        var status = stat()
        if lstat(destination, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw CommandLineError("\(destination): not a folder; --write-canaries writes into a new or empty folder")
            }
            if let first = try ReportFolder.entries(of: destination, for: destination).sorted().first {
                throw CommandLineError("\(destination): holds \(first); --write-canaries writes only into a new or empty folder")
            }
        }
        staging = try ReportFolder.makeStagingFolder(
            beside: SnapshotFolder.spelledAbsolute(destination), for: destination, naming: "the folder", inputs: inputs)
        for side in ["ref", "new"] { try SnapshotFolder.createFolder(side, under: staging) }
    }

    /// The name of the canary of `kind` made from the pair at `path`: the path, then
    /// `--kind.png` (`a.jpg` gives `a.jpg--faint-patch.png`, apart from `a.png`'s).
    static func name(for path: String, kind: Canaries.Kind) -> String {
        "\(path)--\(kind.rawValue).png"
    }

    /// Writes each canary of `canaries` as new/NAME beside `reference` as ref/NAME
    /// (``name(for:kind:)``), the reference encoded once; a name already written is an error,
    /// never overwritten.
    func write(_ reference: RGBAImage, canaries: [(kind: Canaries.Kind, image: RGBAImage)], for path: String) throws(CommandLineError) {
        guard !canaries.isEmpty else { return }
        let referenceBytes = try encode(reference, shownAs: PathText.join(PathText.join(destination, "ref"), path))
        for (kind, image) in canaries {
            let file = Self.name(for: path, kind: kind)
            let canaryBytes = try encode(image, shownAs: PathText.join(PathText.join(destination, "new"), file))
            for (side, bytes) in [("ref", referenceBytes), ("new", canaryBytes)] {
                let root = PathText.join(staging, side)
                try SnapshotFolder.createFolders(for: file, under: root)
                do throws(ImageFileError) {
                    try ImageFile.create(bytes, at: PathText.join(root, file))
                } catch {
                    throw CommandLineError("\(PathText.join(PathText.join(destination, side), file)): \(error.error)")
                }
            }
        }
    }

    private func encode(_ image: RGBAImage, shownAs path: String) throws(CommandLineError) -> [UInt8] {
        do throws(ImageCodecError) {
            return try PNGEncoder.encode(image)
        } catch {
            throw CommandLineError("\(path): \(error)")
        }
    }

    /// Puts the canaries in place of `destination` (new, or an empty folder).
    func commit() throws(CommandLineError) {
        defer { InterruptCleanup.unregister(staging) }
        var status = stat()
        if lstat(destination, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { rmdir(destination) }
        guard rename(staging, destination) == 0 else {
            let code = errno
            discard()
            throw CommandLineError("\(destination): cannot put the canaries in place (\(ImageFile.systemMessage(code)))")
        }
    }

    /// Removes the staging folder.
    func discard() {
        try? FileManager.default.removeItem(atPath: staging)
        InterruptCleanup.unregister(staging)
    }
}
