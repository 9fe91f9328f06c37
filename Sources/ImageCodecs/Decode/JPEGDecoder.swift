import CImageCodecs
import ImageDiff

/// libjpeg-turbo with ImageMagick's settings: islow IDCT, fancy upsampling. Grayscale becomes
/// R=G=B; A is 255 and `hasAlpha` false.
enum JPEGDecoder {
    /// Returns nil for CMYK and YCCK JPEGs, which ImageMagick converts instead.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(ImageCodecError) -> RGBAImage? {
        var message = CMessage()
        var decoder: OpaquePointer?
        var info = cic_image_info()
        var libraryLimits = limits.library
        let status = cic_jpeg_open(
            bytes.baseAddress, bytes.count, &libraryLimits, &decoder, &info, &message.bytes, CMessage.capacity)
        if status == CIC_UNSUPPORTED { return nil }
        if status == CIC_LIMIT_EXCEEDED {
            let (width, height) = try limits.check(
                width: info.width, height: info.height, bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: false))
            throw .tooLarge(width: width, height: height, limit: .memory(limits.maxMemory))
        }
        guard status == CIC_OK, let decoder else {
            throw .corruptJPEG(status == CIC_OUT_OF_MEMORY ? "out of memory" : message.text)
        }
        defer { cic_jpeg_close(decoder) }
        let (width, height) = try limits.check(
            width: info.width, height: info.height, bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: false))
        var readStatus = CIC_ERROR
        let image = ImageDecoder.makeImage(width: width, height: height, sixteenBit: false, hasAlpha: false) { buffer in
            readStatus = cic_jpeg_read(
                decoder, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count,
                &message.bytes, CMessage.capacity)
            return readStatus == CIC_OK
        }
        guard let image else {
            switch readStatus {
            case CIC_LIMIT_EXCEEDED: throw .tooLarge(width: width, height: height, limit: .memory(limits.maxMemory))
            case CIC_OUT_OF_MEMORY: throw .corruptJPEG("out of memory")
            default: throw .corruptJPEG(message.text)
            }
        }
        return image
    }
}
