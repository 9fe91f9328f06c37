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
    /// The bytes of the regular file at `path`; at most `maxBytes` of them.
    ///
    /// A FIFO, a device or a socket is refused before anything is read from it, so that
    /// `/dev/zero` or a pipe nobody writes to cannot stall or flood a run.
    ///
    /// - Throws: ``ImageFileError`` with ``ImageCodecError/noSuchFile``,
    ///   ``ImageCodecError/isDirectory``, ``ImageCodecError/notRegularFile(kind:)``,
    ///   ``ImageCodecError/permissionDenied``, ``ImageCodecError/fileTooLarge(limit:)`` or
    ///   ``ImageCodecError/cannotRead(_:)``.
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
        // O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure(EISDIR)
        default: throw ImageFileError(path: path, error: .notRegularFile(kind: fileKind(status.st_mode)))
        }
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
    /// (`.imgdiff-tmp-PID_START-RANDOM`), renamed over `path` once complete. On failure the temporary
    /// file is removed and `path` is untouched. An existing `path` must be a regular file: a
    /// symbolic link, a device or a FIFO is refused, never replaced.
    ///
    /// With `durable`, the file and then its folder are synced to disk before this returns, as
    /// a reference image deserves: after a power cut the path holds the old bytes or the new.
    ///
    /// - Throws: ``ImageFileError`` with ``ImageCodecError/cannotWrite(_:)``, e.g.
    ///   "out/diff.png: cannot write: no such directory".
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = false) throws(ImageFileError) {
        let temporaryPath = try writeTemporaryFile(bytes, for: path, durable: durable)
        try moveIntoPlace(temporaryPath, path, durable: durable)
    }

    /// The prefix of imgdiff's temporary files, followed by ``temporaryOwner`` (the writer),
    /// `-` and random hex digits. Short and fixed, so that a destination name of 255 bytes
    /// still has a temporary name; recognisable, so that a later run can remove what a killed
    /// one left.
    public static let temporaryPrefix = ".imgdiff-tmp-"

    /// This process in temporary names: its ID, and where the system says, `_` and its start
    /// time (`PID_START`), so that a later process given the same ID (PID 1 in every container
    /// run) is not taken for the writer.
    public static let temporaryOwner: String = {
        let pid = getpid()
        return startTime(of: pid).map { "\(pid)_\($0)" } ?? "\(pid)"
    }()

    /// A new temporary name of this process: the prefix, the owner, `-` and random hex digits.
    public static func temporaryName() -> String {
        "\(temporaryPrefix)\(temporaryOwner)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// Whether `name` is one of imgdiff's temporary names whose writer no longer runs: the
    /// leftover of a killed run, safe to remove. The writer is gone when no process has its ID,
    /// or when the one that has it started at another time.
    public static func isAbandonedTemporaryName(_ name: some Collection<UInt8>) -> Bool {
        guard let owner = temporaryOwner(of: name) else { return false }
        if kill(owner.pid, 0) != 0 && errno == ESRCH { return true }
        guard let started = owner.started, let running = startTime(of: owner.pid) else { return false }
        return started != running
    }

    /// Whether `name` is one of imgdiff's temporary names whose writer runs on this system: a
    /// process has its ID and started at the time the name records. False where the name records
    /// no start time, or the system does not say.
    public static func isRunningTemporaryOwner(_ name: some Collection<UInt8>) -> Bool {
        guard let owner = temporaryOwner(of: name), let started = owner.started, let running = startTime(of: owner.pid) else {
            return false
        }
        return started == running
    }

    /// The writer a temporary name records: its process ID, and its start time where recorded.
    /// Nil for a name that is not one of imgdiff's temporary names.
    static func temporaryOwner(of name: some Collection<UInt8>) -> (pid: Int32, started: UInt64?)? {
        guard name.starts(with: temporaryPrefix.utf8) else { return nil }
        let owner = String(decoding: name.dropFirst(temporaryPrefix.utf8.count).prefix { $0 != UInt8(ascii: "-") }, as: UTF8.self)
        let parts = owner.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pid = Int32(parts[0]), pid > 0 else { return nil }
        return (pid, parts.count == 2 ? UInt64(parts[1]) : nil)
    }

    /// When process `pid` started, in clock ticks since boot (`/proc/PID/stat`'s 22nd field);
    /// nil where the system does not say.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let bytes = try? read("/proc/\(pid)/stat", maxBytes: 4096),
            let close = bytes.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        // After the command's ")", fields 3 onwards: the start time is the 20th of them.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }

    /// Writes `bytes` into a new temporary file beside `path` and returns its path; nothing is
    /// left behind on failure. A file the new one replaces must be writable by this process, as
    /// a shell's `>` would require, and lends it its permissions (and, where the system lets
    /// it, its group, and for root its owner): replacing a private file does not make it
    /// readable to all, nor a group's file its writer's alone.
    static func writeTemporaryFile(_ bytes: [UInt8], for path: String, durable: Bool = false) throws(ImageFileError) -> String {
        let (directoryPrefix, name) = PathText.splitAfterLastSlash(path)
        guard !name.isEmpty, name != ".", name != ".." else { throw writeFailure(EISDIR, path) }
        let replaced = try requireReplaceable(path)
        if replaced != nil, faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0 { throw writeFailure(errno, path) }

        let temporaryPath = directoryPrefix + temporaryName()
        try createFile(bytes, at: temporaryPath, namedInErrors: path, durable: durable, like: replaced)
        return temporaryPath
    }

    /// Writes `bytes` into a file at `path` that must not exist yet, without a temporary file.
    ///
    /// For a folder that only this process writes and that is published whole once complete,
    /// such as a report's staging folder: there no reader can see a half-written file, and a
    /// rename per file would only cost time. Nothing is left at `path` on failure, and an
    /// existing file, link or folder there is never replaced.
    ///
    /// - Throws: ``ImageFileError`` with ``ImageCodecError/cannotWrite(_:)``, e.g.
    ///   "report/index.html: cannot write: file exists".
    public static func create(_ bytes: [UInt8], at path: String) throws(ImageFileError) {
        try createFile(bytes, at: path, namedInErrors: path, durable: false, like: nil)
    }

    /// Creates `path` (which must not exist), with the permissions of `original` when given
    /// (and, where the system lets it, its group, and for root its owner), writes `bytes` and
    /// closes it; removes it on failure. Errors name `shownPath`.
    private static func createFile(
        _ bytes: [UInt8], at path: String, namedInErrors shownPath: String, durable: Bool, like original: stat?
    ) throws(ImageFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard descriptor >= 0 else { throw writeFailure(errno, shownPath) }

        var written = 0
        var writeError: Int32 = 0
        if let original {
            // Best effort: root in a user namespace or on a squashed NFS share may not give the
            // file away, and a user may keep its group only if a member of it.
            _ = fchown(descriptor, geteuid() == 0 ? original.st_uid : uid_t.max, original.st_gid)
            if fchmod(descriptor, original.st_mode & 0o777) != 0 { writeError = errno }
        }
        bytes.withUnsafeBytes { buffer in
            guard writeError == 0, let base = buffer.baseAddress else { return }
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
        if durable, writeError == 0, fsync(descriptor) != 0 { writeError = errno }
        if close(descriptor) != 0, writeError == 0 { writeError = errno }
        if writeError != 0 {
            unlink(path)
            throw writeFailure(writeError, shownPath)
        }
    }

    /// Refuses to replace anything at `path` but a regular file; returns that file's status,
    /// nil when nothing is there.
    @discardableResult
    static func requireReplaceable(_ path: String) throws(ImageFileError) -> stat? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return status
        case S_IFDIR: throw writeFailure(EISDIR, path)
        default:
            throw ImageFileError(
                path: path, error: .cannotWrite("is \(fileKind(status.st_mode)); imgdiff replaces regular files only"))
        }
    }

    /// Renames a finished temporary file over `path`; removes it if that fails. With `durable`,
    /// syncs the folder so that the rename itself survives a crash.
    static func moveIntoPlace(_ temporaryPath: String, _ path: String, durable: Bool = false) throws(ImageFileError) {
        if rename(temporaryPath, path) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw writeFailure(code, path)
        }
        if durable {
            let descriptor = open(PathText.parent(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 {
                let synced = fsync(descriptor) == 0
                let code = errno
                close(descriptor)
                if !synced { throw writeFailure(code, path) }
            }
        }
    }

    /// "a FIFO", "a character device", …: what a non-regular file is, for messages.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        default: "not a regular file"
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
    public static func systemMessage(_ code: Int32) -> String {
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
