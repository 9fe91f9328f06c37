#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageDiff

/// Reading whole files and writing them atomically.
public enum ImageFile {
    /// The bytes of the file at `path`, which may be a pipe or device; at most `maxBytes` of them.
    ///
    /// - Throws: ``ImageFileError`` with ``ImageCodecError/noSuchFile``,
    ///   ``ImageCodecError/isDirectory``, ``ImageCodecError/permissionDenied``,
    ///   ``ImageCodecError/fileTooLarge(limit:)`` or ``ImageCodecError/cannotRead(_:)``.
    public static func read(
        _ path: String, maxBytes: Int = DecodingLimits.default.maxFileSize
    ) throws(ImageFileError) -> [UInt8] {
        let maxBytes = max(maxBytes, 0)
        func failure(_ code: Int32) -> ImageFileError {
            let error: ImageCodecError = switch code {
            case ENOENT, ENOTDIR: .noSuchFile
            case EACCES, EPERM: .permissionDenied
            case EISDIR: .isDirectory
            default: .cannotRead(systemMessage(code))
            }
            return ImageFileError(path: path, error: error)
        }
        guard !path.isEmpty else { throw ImageFileError(path: path, error: .noSuchFile) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw failure(EISDIR) }
        let tooLarge = ImageFileError(path: path, error: .fileTooLarge(limit: maxBytes))
        if Int(status.st_size) > maxBytes { throw tooLarge }

        // One byte more than the size, so that a regular file ends without growing the buffer,
        // and a stream (a pipe, /dev/zero) stops one byte past the limit.
        let readLimit = maxBytes < Int.max ? maxBytes + 1 : maxBytes
        var bytes = [UInt8](repeating: 0, count: min(max(Int(status.st_size), 0) + 1, readLimit))
        var count = 0
        while true {
            if count == bytes.count {
                guard count < readLimit else { throw tooLarge }
                bytes.append(contentsOf: [UInt8](repeating: 0, count: min(max(bytes.count, 1 << 16), readLimit - count)))
            }
            let result = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemRead(descriptor, base + count, buffer.count - count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if result == 0 { break }
            count += result
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same directory
    /// (`.NAME.tmp-PID-RANDOM`), renamed over `path` once complete. On failure the temporary
    /// file is removed and `path` is untouched.
    ///
    /// - Throws: ``ImageFileError`` with ``ImageCodecError/cannotWrite(_:)``, e.g.
    ///   "out/diff.png: cannot write: no such directory".
    public static func write(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
        let temporaryPath = try writeTemporaryFile(bytes, for: path)
        try moveIntoPlace(temporaryPath, path)
    }

    /// Writes `bytes` into a new temporary file beside `path` (`.NAME.tmp-PID-RANDOM`) and
    /// returns its path; nothing is left behind on failure.
    static func writeTemporaryFile(_ bytes: [UInt8], for path: String) throws(ImageFileError) -> String {
        let directoryPrefix: Substring
        let name: Substring
        if let slash = path.lastIndex(of: "/") {
            directoryPrefix = path[...slash]
            name = path[path.index(after: slash)...]
        } else {
            directoryPrefix = ""
            name = path[...]
        }
        guard !name.isEmpty, name != ".", name != ".." else { throw writeFailure(EISDIR, path) }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw writeFailure(EISDIR, path) }

        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let temporaryPath = "\(directoryPrefix).\(name).tmp-\(getpid())-\(suffix)"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw writeFailure(errno, path) }

        var written = 0
        var writeError: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let result = systemWrite(descriptor, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    writeError = errno
                    return
                }
                written += result
            }
        }
        if close(descriptor) != 0, writeError == 0 { writeError = errno }
        if writeError != 0 {
            unlink(temporaryPath)
            throw writeFailure(writeError, path)
        }
        return temporaryPath
    }

    /// Renames a finished temporary file over `path`; removes it if that fails.
    static func moveIntoPlace(_ temporaryPath: String, _ path: String) throws(ImageFileError) {
        if rename(temporaryPath, path) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw writeFailure(code, path)
        }
    }

    private static func writeFailure(_ code: Int32, _ path: String) -> ImageFileError {
        let reason = switch code {
        case ENOENT, ENOTDIR: "no such directory"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "is a directory"
        default: systemMessage(code)
        }
        return ImageFileError(path: path, error: .cannotWrite(reason))
    }

    /// Encodes `image` as PNG (see ``PNGEncoder/encode(_:compressionLevel:)``) and writes it
    /// atomically to `path`.
    public static func writePNG(
        _ image: RGBAImage, to path: String, compressionLevel: Int = PNGEncoder.defaultCompressionLevel
    ) throws(ImageFileError) {
        let bytes: [UInt8]
        do {
            bytes = try PNGEncoder.encode(image, compressionLevel: compressionLevel)
        } catch {
            throw ImageFileError(path: path, error: error)
        }
        try write(bytes, to: path)
    }

    /// Renders and writes an image band by band (see ``PNGEncoder/encode(_:compressionLevel:)-(RowRenderer,_)``).
    public static func writePNG(_ renderer: some RowRenderer, to path: String) throws(ImageFileError) {
        let bytes: [UInt8]
        do {
            bytes = try PNGEncoder.encode(renderer)
        } catch {
            throw ImageFileError(path: path, error: error)
        }
        try write(bytes, to: path)
    }

    /// Writes a difference mask as a 1-bit palette PNG (see ``PNGEncoder/encode(mask:color:compressionLevel:)``).
    public static func writePNG(
        mask: DifferenceMask, color: RGBA = RGBA(255, 0, 0, 255), to path: String
    ) throws(ImageFileError) {
        let bytes: [UInt8]
        do {
            bytes = try PNGEncoder.encode(mask: mask, color: color)
        } catch {
            throw ImageFileError(path: path, error: error)
        }
        try write(bytes, to: path)
    }

    /// The system's message for an errno value, starting in lower case.
    static func systemMessage(_ code: Int32) -> String {
        guard let pointer = strerror(code) else { return "error \(code)" }
        let text = String(cString: pointer)
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }
}

// `ImageFile.read` and `ImageFile.write` shadow the C functions inside the type.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
