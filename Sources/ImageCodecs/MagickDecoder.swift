import CMagickWand
import ImageDiff

private let magickWandStarted: Void = MagickWandGenesis()

/// ImageMagick (MagickWand) for every format that is neither PNG nor JPEG, and for CMYK JPEGs.
enum MagickDecoder {
    /// Raster formats handed to ImageMagick. Anything else it might detect (text, SVG, MVG, PostScript,
    /// HTML, …) is "not a recognised image", so a stray text file never gets rendered.
    static let rasterFormats: Set<String> = [
        "AVIF", "BMP", "BMP2", "BMP3", "CUR", "DCX", "DDS", "DIB", "DPX", "EXR", "GIF", "GIF87",
        "HDR", "HEIC", "HEIF", "ICB", "ICO", "ICON", "J2C", "J2K", "JNG", "JP2", "JPC", "JPEG", "JPM",
        "JPT", "JXL", "MIFF", "MNG", "PAM", "PBM", "PCX", "PFM", "PGM", "PNG", "PNM", "PPM", "PSB",
        "PSD", "PTIF", "QOI", "RAS", "SGI", "SUN", "TGA", "TIF", "TIFF", "TIFF64", "VDA", "VIFF",
        "VST", "WBMP", "WEBP", "XBM", "XCF", "XPM",
    ]

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> RGBAImage {
        _ = magickWandStarted
        guard let base = bytes.baseAddress else { throw .emptyFile }
        let format = try identify(bytes)
        guard let wand = NewMagickWand() else { throw .corruptImage(format: format, message: "out of memory") }
        defer { DestroyMagickWand(wand) }
        MagickSetFilename(wand, "image[0]")  // the first frame only
        MagickSetFormat(wand, format)
        let read = MagickReadImageBlob(wand, base, bytes.count) == MagickTrue
        var severity = UndefinedException
        let message = takeString(MagickGetException(wand, &severity))
        guard read, severity.rawValue < ErrorException.rawValue else {
            throw .corruptImage(format: format, message: cleaned(message))
        }
        MagickSetFirstIterator(wand)
        let (width, height) = try ImageDecoder.checkedSize(MagickGetImageWidth(wand), MagickGetImageHeight(wand))
        let sixteenBit = MagickGetImageDepth(wand) > 8
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
