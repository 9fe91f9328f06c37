/// Why an image could not be read, decoded, encoded or written.
///
/// Each ``description`` is one human-readable line naming the problem, without the file path;
/// ``ImageFileError`` adds the path.
public enum ImageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchFile
    case isDirectory
    /// The path names a FIFO, a device or a socket: imgdiff reads regular files only.
    case notRegularFile(kind: String)
    case permissionDenied
    case emptyFile
    /// Reading failed for another reason (the system's message).
    case cannotRead(String)
    /// Neither PNG nor JPEG, and ImageMagick does not read it either.
    case notRecognised
    /// libpng rejected the data (its message).
    case corruptPNG(String)
    /// libjpeg rejected the data (its message).
    case corruptJPEG(String)
    /// The input is neither PNG nor JPEG, and ImageMagick, which reads the other formats, could
    /// not be loaded (why, and what to install).
    case imageMagickUnavailable(String)
    /// ImageMagick recognised the format but could not decode it.
    case corruptImage(format: String, message: String)
    /// The header gives a side of zero (or a size the platform cannot represent).
    case unsupportedSize(width: Int, height: Int)
    /// The header's size exceeds one of the ``DecodingLimits``; nothing was allocated for it.
    case tooLarge(width: Int, height: Int, limit: DecodingLimit)
    /// The file is larger than ``DecodingLimits/maxFileSize`` (the limit, in bytes).
    case fileTooLarge(limit: Int)
    /// The image is within imgdiff's limits but beyond ImageMagick's own policy (its policy.xml),
    /// which a program cannot raise.
    case imageMagickPolicy(policy: String, width: Int?, height: Int?)
    /// Comparing the pair whole would need about `needed` bytes (both images decoded, the mask
    /// and a rendered output), more than ``DecodingLimits/maxMemory``.
    case pairExceedsMemory(needed: Int, limit: Int)
    /// The PNG encoder failed (libpng's message, or an invalid image).
    case cannotEncode(String)
    /// The output file could not be written (e.g. "no such directory").
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .noSuchFile: "no such file"
        case .isDirectory: "is a directory"
        case .notRegularFile(let kind): "not a regular file (\(kind)); imgdiff reads image files only"
        case .permissionDenied: "permission denied"
        case .emptyFile: "empty file"
        case .cannotRead(let reason): "cannot read: \(reason)"
        case .notRecognised: "not a recognised image (PNG, JPEG, or a format ImageMagick reads)"
        case .corruptPNG(let message): "truncated or corrupt PNG: \(message)"
        case .corruptJPEG(let message): "truncated or corrupt JPEG: \(message)"
        case .imageMagickUnavailable(let reason): "not a PNG or JPEG, and \(reason)"
        case .corruptImage(let format, let message): "truncated or corrupt \(format): \(message)"
        case .unsupportedSize(let width, let height): "unsupported image size \(width)x\(height)"
        case .tooLarge(let width, let height, let limit): Self.describeTooLarge(width, height, limit)
        case .fileTooLarge(let limit):
            "file is larger than the limit of \(formatByteCount(limit)); raise it with --max-file-size"
        case .imageMagickPolicy(let policy, let width, let height):
            (width.flatMap { w in height.map { "image is \(w)x\($0), " } } ?? "")
                + "beyond what ImageMagick's security policy allows (\(policy)), which imgdiff cannot raise; raise it in ImageMagick's policy.xml ('convert -list policy' shows which file), or convert the image to PNG"
        case .pairExceedsMemory(let needed, let limit):
            "comparing this pair whole needs about \((needed + (1 << 20) - 1) >> 20) MiB (both images decoded, a mask and an overlay of the area they span, and any review image), more than the memory limit of \(formatByteCount(limit)); raise it with --max-memory"
        case .cannotEncode(let message): "cannot encode PNG: \(message)"
        case .cannotWrite(let reason): "cannot write: \(reason)"
        }
    }

    private static func describeTooLarge(_ width: Int, _ height: Int, _ limit: DecodingLimit) -> String {
        let size = "image is \(width)x\(height)"
        switch limit {
        case .width(let maximum):
            return "\(size): its width exceeds the limit of \(maximum) pixels; raise it with --max-width"
        case .height(let maximum):
            return "\(size): its height exceeds the limit of \(maximum) pixels; raise it with --max-height"
        case .pixels(let maximum):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let count = overflow ? "" : " = \(pixels) pixels"
            return "\(size)\(count), exceeding the limit of \(maximum) pixels; raise it with --max-pixels"
        case .memory(let maximum):
            return "\(size): decoding it needs more than the memory limit of \(formatByteCount(maximum)); "
                + "raise it with --max-memory"
        }
    }
}

/// An ``ImageCodecError`` together with the file (or name) it concerns.
///
/// The description is `"PATH: problem"`, for example `"a.png: empty file"` or
/// `"out/diff.png: cannot write: no such directory"`.
public struct ImageFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path, or the name given to bytes decoded from memory.
    public var path: String
    /// What went wrong with it.
    public var error: ImageCodecError

    public init(path: String, error: ImageCodecError) {
        self.path = path
        self.error = error
    }

    public var description: String { "\(path): \(error)" }
}
