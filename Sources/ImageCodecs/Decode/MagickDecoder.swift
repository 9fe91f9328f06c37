#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CImageCodecs
import ImageDiff

/// ImageMagick (MagickWand) for every format that is neither PNG nor JPEG, and for CMYK JPEGs.
///
/// MagickWand is loaded on first use (`cic_magick_load`), so that the processes that never
/// meet such an input do not pay for loading its libraries; without it, those inputs fail with
/// ``ImageCodecError/imageMagickUnavailable(_:)``.
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

    /// Why MagickWand cannot be loaded, or nil once it is loaded and started (once per process).
    static let loadFailure: String? = {
        var reason: UnsafePointer<CChar>?
        guard cic_magick_load(&reason) == 1 else { return reason.map { String(cString: $0) } ?? "ImageMagick could not be loaded" }
        return nil
    }()

    /// Installs ``securityPolicy`` once; true when ImageMagick accepted it. ImageMagick takes one
    /// policy per process: if the host application installed its own first, that one stays.
    static let policyInstalled: Bool = loadFailure == nil && cic_magick_set_security_policy(securityPolicy) == 1

    /// ImageMagick's resource limits are process-wide: decodes with limits of their own take turns.
    private static let lock = Lock()

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(ImageCodecError) -> RGBAImage {
        if let loadFailure { throw .imageMagickUnavailable(loadFailure) }
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
            try checkPolicyAllows(width: pingedWidth, height: pingedHeight)

            guard let wand = cic_magick_new_wand() else { throw .corruptImage(format: format, message: "out of memory") }
            defer { cic_magick_destroy_wand(wand) }
            pinCoder(wand, format: format)
            let read = cic_magick_read_image_blob(wand, base, bytes.count) == CIC_MAGICK_TRUE
            var severity: Int32 = 0
            let message = takeString(cic_magick_get_exception(wand, &severity))
            guard read, severity < CIC_MAGICK_ERROR_EXCEPTION else {
                throw .corruptImage(format: format, message: cleaned(message))
            }
            cic_magick_set_first_iterator(wand)
            let sixteenBit = cic_magick_get_image_depth(wand) > 8
            let (width, height) = try limits.check(
                width: cic_magick_get_image_width(wand), height: cic_magick_get_image_height(wand),
                bytesPerPixel: cacheBytesPerPixel + DecodingLimits.decodedBytesPerPixel(sixteenBit: sixteenBit))
            let hasAlpha = cic_magick_get_image_alpha_channel(wand) == CIC_MAGICK_TRUE
            let colorspace = Int(cic_magick_get_image_colorspace(wand))
            let rgbOrGray = [
                CIC_MAGICK_SRGB_COLORSPACE, CIC_MAGICK_RGB_COLORSPACE, CIC_MAGICK_GRAY_COLORSPACE,
                CIC_MAGICK_LINEAR_GRAY_COLORSPACE, CIC_MAGICK_TRANSPARENT_COLORSPACE, CIC_MAGICK_UNDEFINED_COLORSPACE,
            ]
            if !rgbOrGray.contains(colorspace) {
                _ = cic_magick_transform_image_colorspace(wand, Int32(CIC_MAGICK_SRGB_COLORSPACE))
            }
            let image = ImageDecoder.makeImage(width: width, height: height, sixteenBit: sixteenBit, hasAlpha: hasAlpha) { buffer in
                cic_magick_export_image_pixels(
                    wand, 0, 0, width, height, "RGBA",
                    Int32(sixteenBit ? CIC_MAGICK_SHORT_PIXEL : CIC_MAGICK_CHAR_PIXEL), buffer.baseAddress
                ) == CIC_MAGICK_TRUE
            }
            guard let image else {
                throw .corruptImage(format: format, message: cleaned(takeString(cic_magick_get_exception(wand, &severity))))
            }
            return image
        }
    }

    /// Reads only the first frame, with the coder fixed to `format`.
    private static func pinCoder(_ wand: OpaquePointer, format: String) {
        _ = cic_magick_set_filename(wand, "image[0]")
        _ = cic_magick_set_format(wand, format)
    }

    /// The size from the header alone (`ping`), before any pixel memory is allocated.
    private static func ping(_ bytes: UnsafeBufferPointer<UInt8>, format: String) throws(ImageCodecError) -> (Int, Int) {
        guard let base = bytes.baseAddress, let wand = cic_magick_new_wand() else {
            throw .corruptImage(format: format, message: "out of memory")
        }
        defer { cic_magick_destroy_wand(wand) }
        pinCoder(wand, format: format)
        guard cic_magick_ping_image_blob(wand, base, bytes.count) == CIC_MAGICK_TRUE else {
            var severity: Int32 = 0
            let message = cleaned(takeString(cic_magick_get_exception(wand, &severity)))
            // ImageMagick refuses a size beyond its policy already here, as an allocation failure.
            if message.contains("memory allocation failed") || message.contains("exceeds limit") {
                throw .imageMagickPolicy(policy: policyLimits.description, width: nil, height: nil)
            }
            throw .corruptImage(format: format, message: message)
        }
        cic_magick_set_first_iterator(wand)
        return (Int(clamping: cic_magick_get_image_width(wand)), Int(clamping: cic_magick_get_image_height(wand)))
    }

    /// ImageMagick keeps its policy.xml's limits whatever a program asks for: an image within our
    /// limits but beyond those fails deep in ImageMagick as "memory allocation failed". Checked
    /// after ``applyResourceLimits(_:)``, from the limits in force, to say so instead.
    private static func checkPolicyAllows(width: Int, height: Int) throws(ImageCodecError) {
        let pixels = width.multipliedReportingOverflow(by: height)
        let limits = policyLimits
        if width > limits.width || height > limits.height || pixels.overflow || pixels.partialValue > limits.area {
            throw .imageMagickPolicy(policy: limits.description, width: width, height: height)
        }
    }

    /// The width, height and area ImageMagick allows now, our limits applied.
    private static var policyLimits: (width: Int, height: Int, area: Int, description: String) {
        let values = [CIC_MAGICK_WIDTH_RESOURCE, CIC_MAGICK_HEIGHT_RESOURCE, CIC_MAGICK_AREA_RESOURCE].map {
            Int(clamping: cic_magick_get_resource_limit(Int32($0)))
        }
        return (values[0], values[1], values[2], "width \(values[0]), height \(values[1]), \(values[2]) pixels")
    }

    /// ImageMagick's limits that the decoder sets.
    private static let limitedResources = [
        CIC_MAGICK_WIDTH_RESOURCE, CIC_MAGICK_HEIGHT_RESOURCE, CIC_MAGICK_AREA_RESOURCE, CIC_MAGICK_MEMORY_RESOURCE,
        CIC_MAGICK_MAP_RESOURCE, CIC_MAGICK_DISK_RESOURCE, CIC_MAGICK_LIST_LENGTH_RESOURCE,
    ].map { Int32($0) }

    /// Sets ImageMagick's own limits from ours for one decode and returns the previous ones.
    /// ImageMagick never raises a limit above its policy.xml's, and has no usable time limit
    /// (it counts from the first decode of the process and ends the process with a fatal
    /// error), so time is bounded by the size limits alone.
    private static func applyResourceLimits(_ limits: DecodingLimits) -> [(Int32, UInt64)] {
        let previous = limitedResources.map { ($0, UInt64(cic_magick_get_resource_limit($0))) }
        let values: [(Int32, Int)] = [
            (CIC_MAGICK_WIDTH_RESOURCE, limits.maxWidth), (CIC_MAGICK_HEIGHT_RESOURCE, limits.maxHeight),
            (CIC_MAGICK_AREA_RESOURCE, limits.maxPixels), (CIC_MAGICK_MEMORY_RESOURCE, limits.maxMemory),
            (CIC_MAGICK_MAP_RESOURCE, limits.maxMemory), (CIC_MAGICK_DISK_RESOURCE, limits.maxMemory),
            (CIC_MAGICK_LIST_LENGTH_RESOURCE, maximumFrames),
        ].map { (Int32($0.0), $0.1) }
        for (resource, value) in values {
            _ = cic_magick_set_resource_limit(resource, UInt64(max(value, 1)))
        }
        return previous
    }

    /// Puts back the limits other ImageMagick users in the process had.
    private static func restoreResourceLimits(_ previous: [(Int32, UInt64)]) {
        for (resource, value) in previous { _ = cic_magick_set_resource_limit(resource, value) }
    }

    /// The format ImageMagick detects from the leading bytes (its own detection, without decoding),
    /// if it is one of ``rasterFormats``.
    private static func identify(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> String {
        guard let base = bytes.baseAddress else { throw .notRecognised }
        var detected = [CChar](repeating: 0, count: 64)
        cic_magick_identify(base, bytes.count, &detected, detected.count)
        let format = String(decoding: detected.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard rasterFormats.contains(format) else { throw .notRecognised }
        return format
    }

    /// Copies and frees a string MagickWand allocated.
    private static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { cic_magick_relinquish_memory(pointer) }
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

/// A pthread mutex for code that must not run concurrently, or state that threads share: one
/// that ThreadSanitizer understands, in memory of its own so that it never moves.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
