import CImageCodecs
import ImageDiff

/// libpng's full read API through the C shim: every colour type and bit depth, interlacing,
/// palette and tRNS expansion, gray to RGB; no gamma handling.
enum PNGDecoder {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> RGBAImage {
        if let image = try FastPNGDecoder.decode(bytes) { return image }
        return try decodeWithLibPNG(bytes)
    }

    /// libpng alone, for every PNG the fast path does not take (and as its reference in tests).
    static func decodeWithLibPNG(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> RGBAImage {
        var message = CMessage()
        var decoder: OpaquePointer?
        var info = cic_image_info()
        let status = cic_png_open(bytes.baseAddress, bytes.count, &decoder, &info, &message.bytes, CMessage.capacity)
        guard status == CIC_OK, let decoder else {
            throw .corruptPNG(status == CIC_OUT_OF_MEMORY ? "out of memory" : message.text)
        }
        defer { cic_png_close(decoder) }
        let (width, height) = try ImageDecoder.checkedSize(info.width, info.height)
        var readStatus = CIC_ERROR
        let image = ImageDecoder.makeImage(
            width: width, height: height, sixteenBit: info.bit_depth == 16, hasAlpha: info.has_alpha != 0
        ) { buffer in
            readStatus = cic_png_read(decoder, buffer.baseAddress, buffer.count, &message.bytes, CMessage.capacity)
            return readStatus == CIC_OK
        }
        guard let image else {
            throw .corruptPNG(readStatus == CIC_OUT_OF_MEMORY ? "out of memory" : message.text)
        }
        return image
    }
}

/// Encodes an ``RGBAImage`` as PNG with libpng.
public enum PNGEncoder {
    /// zlib level 3 with the Up filter: on a 4K screenshot about 2.5× faster than level 6 with
    /// adaptive filtering, for files about 13 % larger.
    public static let defaultCompressionLevel = 3

    /// Encodes `image` as a PNG file's bytes.
    ///
    /// Writes 16-bit samples when `image.samples16` is set, 8-bit otherwise; RGBA (colour
    /// type 6) when `image.hasAlpha`, RGB (colour type 2, alpha dropped) otherwise. No gAMA,
    /// sRGB or text chunks are written.
    ///
    /// - Parameter compressionLevel: zlib level, 0 (store) … 9 (smallest); levels 6 and up also
    ///   switch to libpng's adaptive row filtering.
    /// - Throws: ``ImageCodecError/cannotEncode(_:)`` for an empty image, inconsistent sample
    ///   buffers, a level outside 0…9 or a libpng failure.
    public static func encode(
        _ image: RGBAImage, compressionLevel: Int = defaultCompressionLevel
    ) throws(ImageCodecError) -> [UInt8] {
        guard (0...9).contains(compressionLevel) else {
            throw .cannotEncode("compression level \(compressionLevel) is not in 0…9")
        }
        guard image.width > 0, image.height > 0,
              image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .cannotEncode("unsupported image size \(image.width)x\(image.height)")
        }
        let (pixelCount, overflow) = image.width.multipliedReportingOverflow(by: image.height)
        guard !overflow, pixelCount <= Int.max / 4 else {
            throw .cannotEncode("unsupported image size \(image.width)x\(image.height)")
        }
        let sampleCount = pixelCount * 4
        let result: Result<[UInt8], ImageCodecError>
        if let samples16 = image.samples16 {
            guard samples16.count == sampleCount else {
                throw .cannotEncode("16-bit sample buffer does not match \(image.width)x\(image.height)")
            }
            result = samples16.withUnsafeBytes {
                encodeRows($0.baseAddress, of: image, bitDepth: 16, compressionLevel: compressionLevel)
            }
        } else {
            guard image.pixels.count == sampleCount else {
                throw .cannotEncode("pixel buffer does not match \(image.width)x\(image.height)")
            }
            result = image.pixels.withUnsafeBytes {
                encodeRows($0.baseAddress, of: image, bitDepth: 8, compressionLevel: compressionLevel)
            }
        }
        return try result.get()
    }

    private static func encodeRows(
        _ pixels: UnsafeRawPointer?, of image: RGBAImage, bitDepth: Int32, compressionLevel: Int
    ) -> Result<[UInt8], ImageCodecError> {
        var message = CMessage()
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let status = cic_png_encode(
            pixels, UInt32(image.width), UInt32(image.height), bitDepth, image.hasAlpha ? 1 : 0,
            Int32(compressionLevel), &output, &outputSize, &message.bytes, CMessage.capacity)
        defer { cic_free(output) }
        guard status == CIC_OK, let output else {
            return .failure(.cannotEncode(status == CIC_OUT_OF_MEMORY ? "out of memory" : message.text))
        }
        return .success(Array(UnsafeBufferPointer(start: output, count: outputSize)))
    }
}
