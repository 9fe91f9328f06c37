/// Why an image could not be read, decoded, encoded or written.
///
/// Each ``description`` is one human-readable line naming the problem, without the file path;
/// ``ImageFileError`` adds the path.
public enum ImageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchFile
    case isDirectory
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
    /// ImageMagick recognised the format but could not decode it.
    case corruptImage(format: String, message: String)
    /// The image is larger than ``ImageDecoder/maximumPixelCount`` or has a zero side.
    case unsupportedSize(width: Int, height: Int)
    /// The PNG encoder failed (libpng's message, or an invalid image).
    case cannotEncode(String)
    /// The output file could not be written (e.g. "no such directory").
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .noSuchFile: "no such file"
        case .isDirectory: "is a directory"
        case .permissionDenied: "permission denied"
        case .emptyFile: "empty file"
        case .cannotRead(let reason): "cannot read: \(reason)"
        case .notRecognised: "not a recognised image (PNG, JPEG, or a format ImageMagick reads)"
        case .corruptPNG(let message): "truncated or corrupt PNG: \(message)"
        case .corruptJPEG(let message): "truncated or corrupt JPEG: \(message)"
        case .corruptImage(let format, let message): "truncated or corrupt \(format): \(message)"
        case .unsupportedSize(let width, let height):
            width <= 0 || height <= 0
                ? "unsupported image size \(width)x\(height)"
                : "image too large: \(width)x\(height) (at most \(ImageDecoder.maximumPixelCount / 1_000_000) megapixels)"
        case .cannotEncode(let message): "cannot encode PNG: \(message)"
        case .cannotWrite(let reason): "cannot write: \(reason)"
        }
    }
}

/// An ``ImageCodecError`` together with the file (or name) it concerns.
///
/// The description is `"PATH: problem"`, for example `"a.png: empty file"`; write failures read
/// `"cannot write PATH: reason"`, for example `"cannot write out/diff.png: no such directory"`.
public struct ImageFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var error: ImageCodecError

    public init(path: String, error: ImageCodecError) {
        self.path = path
        self.error = error
    }

    public var description: String {
        if case .cannotWrite(let reason) = error { return "cannot write \(path): \(reason)" }
        return "\(path): \(error)"
    }
}
