/// How large an input the decoders accept.
///
/// Sizes are checked from the image header, before any pixel memory is allocated, so a
/// decompression bomb (a small file claiming 100,000 × 100,000 pixels) fails at once with
/// ``ImageCodecError/tooLarge(width:height:limit:)``. The same limits are handed to the
/// libraries: libpng's user limits, libjpeg's memory limit, ImageMagick's resource limits.
///
/// The defaults accept every real screenshot and photograph we know of (a 16K × 16K image, a
/// 3,446 × 10,728 full-page capture) and refuse what would exhaust a CI machine's memory.
public struct DecodingLimits: Sendable, Hashable {
    /// The widest image accepted, in pixels. Default 65,535 (JPEG's own maximum).
    public var maxWidth: Int
    /// The tallest image accepted, in pixels. Default 65,535.
    public var maxHeight: Int
    /// The most pixels (width × height) accepted. Default 268,435,456 (16,384 × 16,384).
    public var maxPixels: Int
    /// The most memory one decode may need, in bytes: the decoded image (4 bytes a pixel for
    /// 8-bit sources; 12 for 16-bit ones, which keep their 16-bit samples and an 8-bit copy),
    /// plus ImageMagick's 8-byte-a-pixel cache for the formats it decodes, plus libjpeg's working
    /// memory. Default 2 GiB.
    public var maxMemory: Int
    /// The largest input file accepted, in bytes. Default 1 GiB.
    public var maxFileSize: Int

    /// Limits in pixels and bytes; one left out takes the default its property gives.
    public init(
        maxWidth: Int = 65_535,
        maxHeight: Int = 65_535,
        maxPixels: Int = 1 << 28,
        maxMemory: Int = 1 << 31,
        maxFileSize: Int = 1 << 30
    ) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixels = maxPixels
        self.maxMemory = maxMemory
        self.maxFileSize = maxFileSize
    }

    /// The defaults described on each property.
    public static let `default` = DecodingLimits()

    /// Checks a header's size against the limits, `bytesPerPixel` being what the decoder will
    /// allocate for each pixel.
    ///
    /// - Throws: ``ImageCodecError/unsupportedSize(width:height:)`` for a side of zero or less,
    ///   ``ImageCodecError/tooLarge(width:height:limit:)`` naming the first limit exceeded.
    package func check(width: Int, height: Int, bytesPerPixel: Int) throws(ImageCodecError) {
        guard width > 0, height > 0 else { throw .unsupportedSize(width: width, height: height) }
        if width > maxWidth { throw .tooLarge(width: width, height: height, limit: .width(maxWidth)) }
        if height > maxHeight { throw .tooLarge(width: width, height: height, limit: .height(maxHeight)) }
        let (pixels, pixelsOverflow) = width.multipliedReportingOverflow(by: height)
        if pixelsOverflow || pixels > maxPixels {
            throw .tooLarge(width: width, height: height, limit: .pixels(maxPixels))
        }
        let (bytes, bytesOverflow) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
        if bytesOverflow || bytes > maxMemory {
            throw .tooLarge(width: width, height: height, limit: .memory(maxMemory))
        }
    }

    /// Checks a size a decoder reported in its own integer type.
    func check(
        width: some BinaryInteger, height: some BinaryInteger, bytesPerPixel: Int
    ) throws(ImageCodecError) -> (width: Int, height: Int) {
        let w = Int(clamping: width), h = Int(clamping: height)
        try check(width: w, height: h, bytesPerPixel: bytesPerPixel)
        return (w, h)
    }

    /// Bytes a decoded ``ImageDiff/RGBAImage`` takes per pixel: RGBA 8-bit, plus RGBA 16-bit
    /// samples for 16-bit sources.
    static func decodedBytesPerPixel(sixteenBit: Bool) -> Int { sixteenBit ? 12 : 4 }
}

/// The limit an image exceeded, with the limit's value.
public enum DecodingLimit: Sendable, Hashable {
    /// ``DecodingLimits/maxWidth``, in pixels.
    case width(Int)
    /// ``DecodingLimits/maxHeight``, in pixels.
    case height(Int)
    /// ``DecodingLimits/maxPixels``.
    case pixels(Int)
    /// ``DecodingLimits/maxMemory``, in bytes.
    case memory(Int)
}

/// `1073741824` → "1 GiB", `1500` → "1500 bytes".
func formatByteCount(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size && bytes % size == 0 {
        return "\(bytes / size) \(unit)"
    }
    return "\(bytes) bytes"
}
