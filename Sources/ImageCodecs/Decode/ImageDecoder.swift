import CImageCodecs
import ImageDiff

/// Decodes PNG, JPEG and anything ImageMagick reads into an ``RGBAImage`` with raw samples:
/// no gamma, cHRM or ICC conversion.
///
/// The format is chosen by the leading bytes, never by the file name: the PNG signature goes to
/// libpng, `FF D8 FF` to libjpeg-turbo, everything else to ImageMagick (first frame only).
public enum ImageDecoder {
    /// Reads and decodes the image file at `path`, refusing anything beyond `limits`.
    ///
    /// - Throws: ``ImageFileError`` naming `path`.
    public static func decode(
        contentsOf path: String, limits: DecodingLimits = .default
    ) throws(ImageFileError) -> RGBAImage {
        let bytes = try ImageFile.read(path, maxBytes: limits.maxFileSize)
        return try decode(bytes, name: path, limits: limits)
    }

    /// Decodes an encoded image held in memory; `name` only labels errors.
    ///
    /// - Throws: ``ImageFileError`` naming `name`.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: DecodingLimits = .default
    ) throws(ImageFileError) -> RGBAImage {
        try decode(bytes, name: name, limits: limits, inflatesWhole: true)
    }

    /// The same, choosing how an 8-bit PNG's image data is inflated: at once by libdeflate
    /// (`inflatesWhole`, up to ``PNGRowStream/wholeInflateBytes``; on screenshots' flat streams
    /// several times as fast, while the filtered rows are held beside the image), or a
    /// cache-sized chunk at a time by ISA-L. The pixels are the same either way.
    ///
    /// - Throws: ``ImageFileError`` naming `name`.
    package static func decode(
        _ bytes: [UInt8], name: String, limits: DecodingLimits, inflatesWhole: Bool
    ) throws(ImageFileError) -> RGBAImage {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(ImageCodecError) in
                try decode(buffer, limits: limits, inflatesWhole: inflatesWhole)
            }
        } catch {
            throw ImageFileError(path: name, error: error)
        }
    }

    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits, inflatesWhole: Bool = true
    ) throws(ImageCodecError) -> RGBAImage {
        guard bytes.count <= limits.maxFileSize else { throw .fileTooLarge(limit: limits.maxFileSize) }
        switch ContainerFormat(sniffing: bytes) {
        case .empty:
            throw .emptyFile
        case .png:
            return try PNGDecoder.decode(bytes, limits: limits, inflatesWhole: inflatesWhole)
        case .jpeg:
            if let image = try JPEGDecoder.decode(bytes, limits: limits) { return image }
            return try MagickDecoder.decode(bytes, limits: limits)
        case .other:
            return try MagickDecoder.decode(bytes, limits: limits)
        }
    }

    /// Allocates the image's final sample buffer and lets `fill` write every sample into it
    /// (RGBA, 8-bit, or native-endian 16-bit when `sixteenBit`). Returns nil when `fill` fails.
    static func makeImage(
        width: Int, height: Int, sixteenBit: Bool, hasAlpha: Bool,
        fill: (UnsafeMutableRawBufferPointer) -> Bool
    ) -> RGBAImage? {
        let sampleCount = width * height * 4
        var filled = false
        if sixteenBit {
            let samples = [UInt16](filling: sampleCount) { buffer, count in
                filled = fill(UnsafeMutableRawBufferPointer(buffer))
                count = filled ? sampleCount : 0
            }
            return filled ? RGBAImage(width: width, height: height, samples16: samples, hasAlpha: hasAlpha) : nil
        }
        let pixels = [UInt8](filling: sampleCount) { buffer, count in
            filled = fill(UnsafeMutableRawBufferPointer(buffer))
            count = filled ? sampleCount : 0
        }
        return filled ? RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha) : nil
    }
}

/// The container a byte stream claims to be, by its first bytes.
package enum ContainerFormat: Equatable {
    case empty, png, jpeg, other

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// A stream shorter than a signature but matching its start counts as that (truncated) format.
    package init(sniffing bytes: UnsafeBufferPointer<UInt8>) {
        func starts(with signature: [UInt8]) -> Bool {
            let length = min(bytes.count, signature.count)
            return length >= 2 && bytes.prefix(length).elementsEqual(signature.prefix(length))
        }
        if bytes.isEmpty {
            self = .empty
        } else if starts(with: Self.pngSignature) {
            self = .png
        } else if starts(with: Self.jpegSignature) {
            self = .jpeg
        } else {
            self = .other
        }
    }

    /// Whether web browsers show an image in these bytes by its leading bytes: PNG, JPEG, GIF,
    /// BMP and WebP. TIFF, the PNM family and the other formats ImageMagick reads are not shown.
    package static func isShownByBrowsers(_ bytes: [UInt8]) -> Bool {
        func starts(with text: String, at offset: Int = 0) -> Bool {
            bytes.count >= offset + text.utf8.count && bytes[offset...].starts(with: text.utf8)
        }
        return bytes.starts(with: pngSignature) || bytes.starts(with: jpegSignature)
            || starts(with: "GIF87a") || starts(with: "GIF89a") || starts(with: "BM")
            || (starts(with: "RIFF") && starts(with: "WEBP", at: 8))
    }

    /// The size a PNG's header declares, unchecked: a hint for choosing how to decode, never a
    /// substitute for decoding. Nil when `bytes` do not start with a PNG signature and IHDR.
    package static func declaredPNGSize(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 24, bytes.starts(with: pngSignature), bytes[12..<16].elementsEqual("IHDR".utf8) else {
            return nil
        }
        func bigEndian(at offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return ImageSize(width: bigEndian(at: 16), height: bigEndian(at: 20))
    }

    /// The bytes an image of a declared size takes decoded, counted in `Double`: a PNG header
    /// may declare 2³¹ − 1 pixels each way, whose bytes no `Int` holds.
    package static func decodedBytes(_ declared: (size: ImageSize, bytesPerPixel: Int)) -> Double {
        Double(declared.size.width) * Double(declared.size.height) * Double(declared.bytesPerPixel)
    }

    /// The size and the decoded bytes per pixel a PNG's or a JPEG's header declares,
    /// unchecked: enough to budget memory before decoding. Nil for other formats, or when no
    /// header is found.
    package static func declaredDecodedSize(_ bytes: [UInt8]) -> (size: ImageSize, bytesPerPixel: Int)? {
        if let size = declaredPNGSize(bytes) {
            let sixteenBit = bytes.count > 24 && bytes[24] == 16
            return (size, DecodingLimits.decodedBytesPerPixel(sixteenBit: sixteenBit))
        }
        guard bytes.starts(with: jpegSignature) else { return nil }
        var offset = 2
        while offset + 9 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                return (ImageSize(width: width, height: height), DecodingLimits.decodedBytesPerPixel(sixteenBit: false))
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }
}

extension DecodingLimits {
    /// The most scans a progressive JPEG may have: real encoders write about ten, and each scan
    /// makes libjpeg revisit the whole image (libjpeg-turbo's fuzzers use 500 too).
    static let maximumJPEGScans: UInt32 = 500

    /// The limits as the C layer takes them.
    var library: cic_decode_limits {
        cic_decode_limits(
            max_width: UInt32(clamping: maxWidth), max_height: UInt32(clamping: maxHeight),
            max_memory: max(maxMemory, 1), max_scans: Self.maximumJPEGScans)
    }
}

/// A buffer for the C layer's error messages.
struct CMessage {
    static let capacity = 512
    var bytes = [CChar](repeating: 0, count: capacity)

    var text: String {
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        let text = String(decoding: bytes[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "unknown error" : text
    }
}
