import CImageCodecs
import ImageDiff

/// Encodes images as PNG: rows filtered and deflated in bands on all cores.
public enum PNGEncoder {
    /// igzip (ISA-L) level 1 with the Up filter: screenshots come out about the size of zlib's
    /// level 1 at ten times its speed.
    public static let defaultCompressionLevel = 1

    /// Encodes `image` as a PNG file's bytes.
    ///
    /// Writes 16-bit samples when `image.samples16` is set, 8-bit otherwise; RGBA (colour
    /// type 6) when `image.hasAlpha`, RGB (colour type 2, alpha dropped) otherwise. No gAMA,
    /// sRGB or text chunks are written.
    ///
    /// - Parameter compressionLevel: igzip level, 0 (fastest) … 3 (smallest).
    /// - Throws: ``ImageCodecError/cannotEncode(_:)`` for an empty image, a level outside 0…3,
    ///   or no memory. (An image's samples always match its size: ``RGBAImage`` holds to it.)
    public static func encode(
        _ image: RGBAImage, compressionLevel: Int = defaultCompressionLevel
    ) throws(ImageCodecError) -> [UInt8] {
        try checkEncodable(width: image.width, height: image.height, level: compressionLevel)
        if let samples16 = image.samples16 {
            let layout = PNGWriter.Layout(
                format: image.hasAlpha ? CIC_ROWS_RGBA16 : CIC_ROWS_RGB16, bitDepth: 16,
                colourType: image.hasAlpha ? 6 : 2)
            return try samples16.withUnsafeBufferPointer { buffer throws(ImageCodecError) in
                try PNGWriter.encode(UnsafeRawBufferPointer(buffer), width: image.width, height: image.height, layout: layout, level: compressionLevel)
            }
        }
        let layout = PNGWriter.Layout(rendered: image.hasAlpha)
        return try image.pixels.withUnsafeBufferPointer { buffer throws(ImageCodecError) in
            try PNGWriter.encode(UnsafeRawBufferPointer(buffer), width: image.width, height: image.height, layout: layout, level: compressionLevel)
        }
    }

    /// Encodes a row-rendered image (the blend or diff of 8-bit images) band by band: the
    /// bands are rendered and compressed on all cores and the whole image is never held.
    public static func encode(
        _ renderer: some RowRenderer, compressionLevel: Int = defaultCompressionLevel
    ) throws(ImageCodecError) -> [UInt8] {
        try checkEncodable(width: renderer.width, height: renderer.height, level: compressionLevel)
        return try PNGWriter.encode(renderer, level: compressionLevel)
    }

    /// Encodes `renderer`'s rows deflated in the given `pieces` (row ranges covering the image
    /// in order): the same pieces give the same file bytes, whoever renders the rows.
    package static func encode(
        _ renderer: some RowRenderer, pieces: [Range<Int>], compressionLevel: Int = defaultCompressionLevel
    ) throws(ImageCodecError) -> [UInt8] {
        try checkEncodable(width: renderer.width, height: renderer.height, level: compressionLevel)
        return try PNGWriter.encode(renderer, level: compressionLevel, pieces: pieces)
    }

    /// Encodes a difference mask as a 1-bit palette PNG: differing pixels in `color`, the rest
    /// fully transparent. Far smaller and faster than the same mask as RGBA.
    public static func encode(
        mask: DifferenceMask, color: RGBA = RGBA(255, 0, 0, 255), compressionLevel: Int = defaultCompressionLevel
    ) throws(ImageCodecError) -> [UInt8] {
        try checkEncodable(width: mask.width, height: mask.height, level: compressionLevel)
        let layout = PNGWriter.Layout(
            format: CIC_ROWS_INDEX1, bitDepth: 1, colourType: 3,
            palette: [0, 0, 0, color.r, color.g, color.b], transparency: [0, color.a])
        return try mask.withUnsafeBytes { bytes throws(ImageCodecError) in
            try PNGWriter.encode(UnsafeRawBufferPointer(bytes), width: mask.width, height: mask.height, layout: layout, level: compressionLevel)
        }
    }

    static func checkEncodable(width: Int, height: Int, level: Int) throws(ImageCodecError) {
        guard (0...3).contains(level) else {
            throw .cannotEncode("compression level \(level) is not in 0…3")
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .cannotEncode("unsupported image size \(width)x\(height)")
        }
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount <= Int.max / 8 else {
            throw .cannotEncode("unsupported image size \(width)x\(height)")
        }
    }
}
