import CImageCodecs
import ImageDiff

/// The fast path for 8-bit RGB and RGBA PNGs that are not interlaced (screenshots): libdeflate
/// inflates into the final pixel buffer and the rows are unfiltered into place. Returns nil for
/// every PNG it does not take, which then goes to libpng.
enum FastPNGDecoder {
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits = .default
    ) throws(ImageCodecError) -> RGBAImage? {
        guard let base = bytes.baseAddress else { return nil }
        var info = cic_png_fast_info()
        guard cic_png_fast_probe(base, bytes.count, &info) == CIC_FAST_OK else { return nil }
        let (width, height) = try limits.check(
            width: info.width, height: info.height, bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: false))
        guard info.buffer_size <= limits.maxMemory else {
            throw .tooLarge(width: width, height: height, limit: .memory(limits.maxMemory))
        }
        let sampleCount = width * height * 4
        var message = CMessage()
        var status = CIC_FAST_ERROR
        let pixels = [UInt8](unsafeUninitializedCapacity: info.buffer_size) { buffer, count in
            cic_advise_huge_pages(buffer.baseAddress, buffer.count)
            status = cic_png_fast_decode(base, bytes.count, &info, buffer.baseAddress, &message.bytes, CMessage.capacity)
            count = status == CIC_FAST_OK ? sampleCount : 0
        }
        switch status {
        case CIC_FAST_OK:
            return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: info.channels == 4)
        case CIC_FAST_NOT_ELIGIBLE:
            return nil
        default:
            throw .corruptPNG(message.text)
        }
    }
}

extension ImageDecoder {
    /// The size of a PNG whose structure is sound (signature, IHDR, every critical chunk's CRC,
    /// image data, IEND), without decoding its pixels; nil for anything that is not a PNG.
    ///
    /// Byte-identical inputs need no decoding to be compared: this is the check they get,
    /// ``DecodingLimits`` included.
    public static func structurallyValidPNGSize(
        _ bytes: [UInt8], name: String, limits: DecodingLimits = .default
    ) throws(ImageFileError) -> ImageSize? {
        var message = CMessage()
        let result: ImageSize?? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, ContainerFormat(sniffing: buffer) == .png else { return .some(nil) }
            guard cic_png_check_structure(base, buffer.count, &message.bytes, CMessage.capacity) == CIC_FAST_OK,
                buffer.count >= 24
            else { return nil }
            func be32(_ offset: Int) -> Int {
                (0..<4).reduce(0) { $0 << 8 | Int(buffer[offset + $1]) }
            }
            return .some(ImageSize(width: be32(16), height: be32(20)))
        }
        guard let size = result else { throw ImageFileError(path: name, error: .corruptPNG(message.text)) }
        guard let size else { return nil }
        guard size.width > 0, size.height > 0 else {
            throw ImageFileError(path: name, error: .corruptPNG("zero width or height"))
        }
        // The limits a decode would apply, so that an image is refused whichever path it takes.
        let sixteenBit = bytes.withUnsafeBufferPointer { PNGHeader($0)?.bitDepth == 16 }
        do {
            try limits.check(
                width: size.width, height: size.height,
                bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: sixteenBit))
        } catch {
            throw ImageFileError(path: name, error: error)
        }
        return size
    }
}
