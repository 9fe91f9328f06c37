#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CMagickWand
import ImageDiff

/// ImageMagick (MagickWand) for every format that is neither PNG nor JPEG, and for CMYK JPEGs.
///
/// ImageMagick is the widest attack surface here (ImageTragick), so it is fenced in three ways:
/// - only the raster formats in ``rasterFormats`` reach it, recognised by their leading bytes,
///   and the coder is pinned (`GIF:image[0]`) so that ImageMagick cannot switch to another coder
///   by content or name; nothing is ever read from a file name;
/// - a security policy installed at start-up lets ImageMagick read and write those formats
///   only, and refuses every delegate (external program) and indirect path (`@file`);
/// - the image's size is checked from `ping` (header only) against ``DecodingLimits`` before
///   decoding, and ImageMagick's own width, height, area, memory, map, disk and list-length
///   limits are set for the decode.
enum MagickDecoder {
    /// Raster formats handed to ImageMagick. Anything else it might detect (text, SVG, MVG, MSL,
    /// PostScript, HTML, URL, …) is "not a recognised image", so a stray text file never gets
    /// rendered and no coder that reads further files or runs programs is reachable.
    static let rasterFormats: Set<String> = [
        "AVIF", "BMP", "BMP2", "BMP3", "CUR", "DCX", "DDS", "DIB", "DPX", "EXR", "GIF", "GIF87",
        "HDR", "HEIC", "HEIF", "ICB", "ICO", "ICON", "J2C", "J2K", "JNG", "JP2", "JPC", "JPEG", "JPM",
        "JPT", "JXL", "MIFF", "MNG", "PAM", "PBM", "PCX", "PFM", "PGM", "PNG", "PNM", "PPM", "PSB",
        "PSD", "PTIF", "QOI", "RAS", "SGI", "SUN", "TGA", "TIF", "TIFF", "TIFF64", "VDA", "VIFF",
        "VST", "WBMP", "WEBP", "XBM", "XCF", "XPM",
    ]

    /// The most frames ImageMagick may hold while reading the first one.
    static let maximumFrames = 1024

    /// ImageMagick's pixel cache, Q16 RGBA: 8 bytes a pixel, on top of the decoded image.
    static let cacheBytesPerPixel = 8

    /// The security policy (ImageMagick's policy.xml format) installed once per process.
    static let securityPolicy = """
        <policymap>
          <policy domain="delegate" rights="none" pattern="*"/>
          <policy domain="path" rights="none" pattern="@*"/>
          <policy domain="coder" rights="none" pattern="*"/>
          <policy domain="coder" rights="read|write" pattern="{\(rasterFormats.sorted().joined(separator: ","))}"/>
        </policymap>
        """

    /// Starts MagickWand, once; true when it accepted ``securityPolicy``. ImageMagick takes one
    /// policy per process: if the host application installed its own first, that one stays.
    static let policyInstalled: Bool = {
        MagickWandGenesis()
        guard let exception = AcquireExceptionInfo() else { return false }
        defer { DestroyExceptionInfo(exception) }
        return SetMagickSecurityPolicy(securityPolicy, exception) == MagickTrue
    }()

    /// ImageMagick's resource limits are process-wide: decodes with limits of their own take turns.
    private static let lock = ProcessLock()

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(ImageCodecError) -> RGBAImage {
        _ = policyInstalled
        guard let base = bytes.baseAddress else { throw .emptyFile }
        let format = try identify(bytes)
        return try lock.withLock { () throws(ImageCodecError) -> RGBAImage in
            let previousLimits = applyResourceLimits(limits)
            defer { restoreResourceLimits(previousLimits) }
            let (pingedWidth, pingedHeight) = try ping(bytes, format: format)
            try limits.check(
                width: pingedWidth, height: pingedHeight,
                bytesPerPixel: cacheBytesPerPixel + DecodingLimits.decodedBytesPerPixel(sixteenBit: false))

            guard let wand = NewMagickWand() else { throw .corruptImage(format: format, message: "out of memory") }
            defer { DestroyMagickWand(wand) }
            pinCoder(wand, format: format)
            let read = MagickReadImageBlob(wand, base, bytes.count) == MagickTrue
            var severity = UndefinedException
            let message = takeString(MagickGetException(wand, &severity))
            guard read, severity.rawValue < ErrorException.rawValue else {
                throw .corruptImage(format: format, message: cleaned(message))
            }
            MagickSetFirstIterator(wand)
            let sixteenBit = MagickGetImageDepth(wand) > 8
            let (width, height) = try limits.check(
                width: MagickGetImageWidth(wand), height: MagickGetImageHeight(wand),
                bytesPerPixel: cacheBytesPerPixel + DecodingLimits.decodedBytesPerPixel(sixteenBit: sixteenBit))
            let hasAlpha = MagickGetImageAlphaChannel(wand) == MagickTrue
            let colorspace = MagickGetImageColorspace(wand)
            if ![sRGBColorspace, RGBColorspace, GRAYColorspace, LinearGRAYColorspace, TransparentColorspace,
                 UndefinedColorspace].contains(colorspace) {
                MagickTransformImageColorspace(wand, sRGBColorspace)
            }
            let image = ImageDecoder.makeImage(width: width, height: height, sixteenBit: sixteenBit, hasAlpha: hasAlpha) { buffer in
                MagickExportImagePixels(
                    wand, 0, 0, width, height, "RGBA", sixteenBit ? ShortPixel : CharPixel, buffer.baseAddress
                ) == MagickTrue
            }
            guard let image else {
                throw .corruptImage(format: format, message: cleaned(takeString(MagickGetException(wand, &severity))))
            }
            return image
        }
    }

    /// Reads only the first frame, with the coder fixed to `format`.
    private static func pinCoder(_ wand: OpaquePointer, format: String) {
        MagickSetFilename(wand, "image[0]")
        MagickSetFormat(wand, format)
    }

    /// The size from the header alone (`ping`), before any pixel memory is allocated.
    private static func ping(_ bytes: UnsafeBufferPointer<UInt8>, format: String) throws(ImageCodecError) -> (Int, Int) {
        guard let base = bytes.baseAddress, let wand = NewMagickWand() else {
            throw .corruptImage(format: format, message: "out of memory")
        }
        defer { DestroyMagickWand(wand) }
        pinCoder(wand, format: format)
        guard MagickPingImageBlob(wand, base, bytes.count) == MagickTrue else {
            var severity = UndefinedException
            throw .corruptImage(format: format, message: cleaned(takeString(MagickGetException(wand, &severity))))
        }
        MagickSetFirstIterator(wand)
        return (Int(clamping: MagickGetImageWidth(wand)), Int(clamping: MagickGetImageHeight(wand)))
    }

    /// ImageMagick's limits that the decoder sets.
    private static let limitedResources = [
        WidthResource, HeightResource, AreaResource, MemoryResource, MapResource, DiskResource, ListLengthResource,
    ]

    /// Sets ImageMagick's own limits from ours for one decode and returns the previous ones.
    /// ImageMagick never raises a limit above its policy.xml's, and has no usable time limit
    /// (it counts from the first decode of the process and ends the process with a fatal
    /// error), so time is bounded by the size limits alone.
    private static func applyResourceLimits(_ limits: DecodingLimits) -> [(ResourceType, MagickSizeType)] {
        let previous = limitedResources.map { ($0, MagickGetResourceLimit($0)) }
        let values: [(ResourceType, Int)] = [
            (WidthResource, limits.maxWidth), (HeightResource, limits.maxHeight), (AreaResource, limits.maxPixels),
            (MemoryResource, limits.maxMemory), (MapResource, limits.maxMemory), (DiskResource, limits.maxMemory),
            (ListLengthResource, maximumFrames),
        ]
        for (resource, value) in values {
            MagickSetResourceLimit(resource, MagickSizeType(max(value, 1)))
        }
        return previous
    }

    /// Puts back the limits other ImageMagick users in the process had.
    private static func restoreResourceLimits(_ previous: [(ResourceType, MagickSizeType)]) {
        for (resource, value) in previous { MagickSetResourceLimit(resource, value) }
    }

    /// The format ImageMagick detects from the leading bytes (its own detection, without decoding),
    /// if it is one of ``rasterFormats``.
    private static func identify(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> String {
        guard let base = bytes.baseAddress, let info = AcquireImageInfo() else { throw .notRecognised }
        defer { DestroyImageInfo(info) }
        guard let exception = AcquireExceptionInfo() else { throw .notRecognised }
        defer { DestroyExceptionInfo(exception) }
        SetImageInfoBlob(info, base, bytes.count)
        SetImageInfo(info, 0, exception)
        let format = withUnsafeBytes(of: &info.pointee.magick) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard rasterFormats.contains(format) else { throw .notRecognised }
        return format
    }

    /// Copies and frees a string MagickWand allocated.
    private static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { MagickRelinquishMemory(pointer) }
        let text = String(cString: pointer)
        return text.isEmpty ? nil : text
    }

    /// ImageMagick's exception text without the source location and empty file name it appends.
    private static func cleaned(_ message: String?) -> String {
        guard var text = message else { return "ImageMagick could not decode it" }
        if let at = text.firstRange(of: " @ ") { text = String(text[..<at.lowerBound]) }
        for suffix in [" `'", " `image[0]'", " `image'"] where text.hasSuffix(suffix) {
            text.removeLast(suffix.count)
        }
        return text.isEmpty ? "ImageMagick could not decode it" : text
    }
}

/// A pthread mutex for code that must not run concurrently.
final class ProcessLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
