import CImageCodecs
import ImageDiff

/// libjpeg-turbo with ImageMagick's settings: islow IDCT, fancy upsampling. Grayscale becomes
/// R=G=B; A is 255 and `hasAlpha` false.
enum JPEGDecoder {
    /// Returns nil for CMYK and YCCK JPEGs, which ImageMagick converts instead.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> RGBAImage? {
        var message = CMessage()
        var decoder: OpaquePointer?
        var info = cic_image_info()
        let status = cic_jpeg_open(bytes.baseAddress, bytes.count, &decoder, &info, &message.bytes, CMessage.capacity)
        if status == CIC_UNSUPPORTED { return nil }
        guard status == CIC_OK, let decoder else {
            throw .corruptJPEG(status == CIC_OUT_OF_MEMORY ? "out of memory" : message.text)
        }
        defer { cic_jpeg_close(decoder) }
        let (width, height) = try ImageDecoder.checkedSize(info.width, info.height)
        var readStatus = CIC_ERROR
        let image = ImageDecoder.makeImage(width: width, height: height, sixteenBit: false, hasAlpha: false) { buffer in
            readStatus = cic_jpeg_read(
                decoder, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count,
                &message.bytes, CMessage.capacity)
            return readStatus == CIC_OK
        }
        guard let image else {
            throw .corruptJPEG(readStatus == CIC_OUT_OF_MEMORY ? "out of memory" : message.text)
        }
        return image
    }
}
