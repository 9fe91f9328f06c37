import CImageCodecs
import ImageDiff

/// libpng's full read API through the C shim: every colour type and bit depth, interlacing,
/// palette and tRNS expansion, gray to RGB; no gamma handling.
enum PNGDecoder {
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits = .default, inflatesWhole: Bool = true
    ) throws(ImageCodecError) -> RGBAImage {
        if let header = PNGHeader(bytes) {
            try limits.check(
                width: header.width, height: header.height,
                bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: header.bitDepth == 16))
        }
        if let image = try FastPNGDecoder.decode(bytes, limits: limits, inflatesWhole: inflatesWhole) { return image }
        return try decodeWithLibPNG(bytes, limits: limits)
    }

    /// libpng alone, for every PNG the fast path does not take (and as its reference in tests).
    static func decodeWithLibPNG(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits = .default
    ) throws(ImageCodecError) -> RGBAImage {
        var message = CMessage()
        var decoder: OpaquePointer?
        var info = cic_image_info()
        var libraryLimits = limits.library
        let status = cic_png_open(
            bytes.baseAddress, bytes.count, &libraryLimits, &decoder, &info, &message.bytes, CMessage.capacity)
        guard status == CIC_OK, let decoder else {
            throw .corruptPNG(status == CIC_OUT_OF_MEMORY ? "out of memory" : message.text)
        }
        defer { cic_png_close(decoder) }
        let sixteenBit = info.bit_depth == 16
        let (width, height) = try limits.check(
            width: info.width, height: info.height,
            bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: sixteenBit))
        var readStatus = CIC_ERROR
        let image = ImageDecoder.makeImage(
            width: width, height: height, sixteenBit: sixteenBit, hasAlpha: info.has_alpha != 0
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

/// The size fields of a PNG's IHDR, read before any decoder sees the file so that the limits
/// are checked first. Nil when the file does not start with a well-formed IHDR (the decoder
/// then says what is wrong).
struct PNGHeader {
    let width: Int
    let height: Int
    let bitDepth: Int

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Signature (8), IHDR length (4) and type (4), then width, height and bit depth.
        guard bytes.count >= 25 else { return nil }
        func bigEndian32(at offset: Int) -> Int {
            (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
        }
        guard bigEndian32(at: 8) == 13, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        width = bigEndian32(at: 16)
        height = bigEndian32(at: 20)
        bitDepth = Int(bytes[24])
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else { return nil }
    }
}
