import CImageCodecs
import ImageDiff

/// The fast path for 8-bit RGB and RGBA PNGs that are not interlaced (screenshots): with
/// `inflatesWhole`, libdeflate inflates the image data at once (up to
/// ``PNGRowStream/wholeInflateBytes``), otherwise ISA-L a cache-sized chunk of rows at a time,
/// and the rows are unfiltered straight into their place. Returns nil for every PNG it does not
/// take, which then goes to libpng.
enum FastPNGDecoder {
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits = .default, inflatesWhole: Bool = true
    ) throws(ImageCodecError) -> RGBAImage? {
        guard let rows = try PNGRowStream(bytes, limits: limits) else { return nil }
        if inflatesWhole { rows.inflateWhole(upTo: PNGRowStream.wholeInflateBytes) }
        let sampleCount = rows.width * rows.height * 4
        var failure: ImageCodecError?
        let pixels = [UInt8](filling: sampleCount) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            HugePages.advise(base, count: buffer.count)
            do throws(ImageCodecError) {
                try rows.read(rows.height, into: base)
                count = sampleCount
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        guard pixels.count == sampleCount else { throw .corruptPNG("out of memory") }
        return RGBAImage(width: rows.width, height: rows.height, pixels: pixels, hasAlpha: rows.hasAlpha)
    }
}

/// A PNG decoded a band of rows at a time, for callers that never hold the whole image (the
/// streaming comparison) and for the whole-image decode alike. Only the fast path's PNGs
/// (8-bit RGB or RGBA, not interlaced) open; the bytes must outlive the stream.
package final class PNGRowStream {
    package let width: Int
    package let height: Int
    package let hasAlpha: Bool
    package private(set) var rowsRead = 0
    private let stream: OpaquePointer

    /// Nil when the PNG is not for the fast path; throws when it is broken or beyond `limits`.
    package init?(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(ImageCodecError) {
        guard let base = bytes.baseAddress else { return nil }
        var info = cic_png_fast_info()
        guard cic_png_fast_probe(base, bytes.count, &info) == CIC_FAST_OK else { return nil }
        let (width, height) = try limits.check(
            width: info.width, height: info.height, bytesPerPixel: DecodingLimits.decodedBytesPerPixel(sixteenBit: false))
        var message = CMessage()
        var stream: OpaquePointer?
        switch cic_png_stream_open(base, bytes.count, &stream, &message.bytes, CMessage.capacity) {
        case CIC_FAST_OK:
            guard let stream else { throw .corruptPNG("out of memory") }
            self.stream = stream
        case CIC_FAST_NOT_ELIGIBLE:
            return nil
        default:
            throw .corruptPNG(message.text)
        }
        self.width = width
        self.height = height
        hasAlpha = info.channels == 4
    }

    deinit { cic_png_stream_close(stream) }

    /// The largest image data, as filtered rows, that a whole-image decode inflates at once
    /// (``inflateWhole(upTo:)``): a 4K screenshot's. Larger images inflate a chunk at a time, so
    /// that decoding never holds a second copy of a large image.
    package static let wholeInflateBytes = 32 << 20

    /// Inflates the image data at once with libdeflate when its filtered rows take at most
    /// `maxBytes`, before the first read; the rows are then unfiltered from those bytes. On the
    /// flat, long-matched streams of screenshots that is several times as fast as ISA-L's
    /// chunked inflate, which stays for larger images and for any stream libdeflate does not
    /// take whole (corrupt, truncated, data after the rows): that inflate reports what is wrong.
    /// Returns whether the data was inflated at once.
    @discardableResult
    package func inflateWhole(upTo maxBytes: Int) -> Bool {
        guard maxBytes > 0 else { return false }
        return cic_png_stream_inflate_whole(stream, maxBytes) != 0
    }

    /// Whether the stream holds its image data inflated at once (``inflateWhole(upTo:)``) and
    /// not yet released by reading the last row: ``readAgainFromTop(_:into:)`` then works.
    package var holdsInflatedRows: Bool { cic_png_stream_holds_inflated_rows(stream) != 0 }

    /// Decodes the first `count` rows again as RGBA into `rows`, from the image data held
    /// inflated, without moving the stream: what a freshly opened stream would read, without
    /// inflating anything again. Only while ``holdsInflatedRows``.
    package func readAgainFromTop(_ count: Int, into rows: UnsafeMutablePointer<UInt8>) throws(ImageCodecError) {
        precondition(count >= 0 && count <= height, "read past the last row")
        var message = CMessage()
        guard cic_png_stream_reread_rows(stream, rows, UInt32(count), &message.bytes, CMessage.capacity) == CIC_FAST_OK else {
            throw .corruptPNG(message.text)
        }
    }

    /// Decodes the next `count` rows as RGBA into `rows` (`count * width * 4` bytes).
    package func read(_ count: Int, into rows: UnsafeMutablePointer<UInt8>) throws(ImageCodecError) {
        precondition(count >= 0 && count <= height - rowsRead, "read past the last row")
        var message = CMessage()
        guard cic_png_stream_read_rows(stream, rows, UInt32(count), &message.bytes, CMessage.capacity) == CIC_FAST_OK else {
            throw .corruptPNG(message.text)
        }
        rowsRead += count
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
