import CImageCodecs
import CMagickWand
import Foundation
import ImageCodecs
import ImageDiff
import XCTest

/// Formats only ImageMagick reads. The inputs are written by ImageMagick itself (or by hand, for BMP).
final class MagickTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MagickWandGenesis()
    }

    /// Encodes frames of RGBA samples (8-bit, or 16-bit when `samples16` is given) with ImageMagick.
    private func magickEncode(
        width: Int, height: Int, frames: [[UInt8]] = [], samples16: [UInt16]? = nil, format: String,
        configure: (OpaquePointer) -> Void = { _ in }
    ) throws -> [UInt8] {
        let wand = try XCTUnwrap(NewMagickWand())
        defer { DestroyMagickWand(wand) }
        let background = try XCTUnwrap(NewPixelWand())
        defer { DestroyPixelWand(background) }
        PixelSetColor(background, "none")
        for frame in frames {
            XCTAssertEqual(MagickNewImage(wand, width, height, background), MagickTrue)
            XCTAssertEqual(MagickImportImagePixels(wand, 0, 0, width, height, "RGBA", CharPixel, frame), MagickTrue)
        }
        if let samples16 {
            XCTAssertEqual(MagickNewImage(wand, width, height, background), MagickTrue)
            XCTAssertEqual(MagickSetImageDepth(wand, 16), MagickTrue)
            XCTAssertEqual(MagickImportImagePixels(wand, 0, 0, width, height, "RGBA", ShortPixel, samples16), MagickTrue)
        }
        MagickResetIterator(wand)
        while MagickNextImage(wand) == MagickTrue {
            configure(wand)
            XCTAssertEqual(MagickSetImageFormat(wand, format), MagickTrue)
        }
        MagickSetFirstIterator(wand)
        XCTAssertEqual(MagickSetFormat(wand, format), MagickTrue)
        var length = 0
        let blob = try XCTUnwrap(MagickGetImagesBlob(wand, &length))
        defer { MagickRelinquishMemory(blob) }
        return Array(UnsafeBufferPointer(start: blob, count: length))
    }

    /// ImageMagick's own decode of `bytes`, as 8-bit RGBA.
    private func magickDecode(_ bytes: [UInt8]) throws -> [UInt8] {
        let wand = try XCTUnwrap(NewMagickWand())
        defer { DestroyMagickWand(wand) }
        XCTAssertEqual(MagickReadImageBlob(wand, bytes, bytes.count), MagickTrue)
        MagickSetFirstIterator(wand)
        let width = MagickGetImageWidth(wand)
        let height = MagickGetImageHeight(wand)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        XCTAssertEqual(MagickExportImagePixels(wand, 0, 0, width, height, "RGBA", CharPixel, &pixels), MagickTrue)
        return pixels
    }

    private func pattern(width: Int, height: Int, seed: Int = 0, transparentEvery: Int = 0) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let transparent = transparentEvery > 0 && (x + y) % transparentEvery == 0
                pixels += [UInt8((x * 37 + seed) % 256), UInt8((y * 59 + seed) % 256), UInt8((x * y * 11) % 256),
                           transparent ? 0 : 255]
            }
        }
        return pixels
    }

    /// A 24-bit bottom-up BMP written by hand.
    private func bmp(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let rowBytes = (width * 3 + 3) / 4 * 4
        var rows: [UInt8] = []
        for y in (0..<height).reversed() {
            var row: [UInt8] = []
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                row += [b, g, r]
            }
            rows += row + [UInt8](repeating: 0, count: rowBytes - row.count)
        }
        let header = Array("BM".utf8) + le32(54 + rows.count) + le32(0) + le32(54)
        let info = le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(rows.count)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
        return header + info + rows
    }

    func testHandWrittenBMP() throws {
        let pixel: (Int, Int) -> (UInt8, UInt8, UInt8) = { x, y in
            (UInt8(10 + x * 50), UInt8(20 + y * 100), UInt8(200 - x * 30 - y * 7))
        }
        let image = try ImageDecoder.decode(bmp(width: 3, height: 2, pixel: pixel), name: "hand.bmp")
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 2)
        XCTAssertFalse(image.hasAlpha)
        XCTAssertFalse(image.is16Bit)
        for y in 0..<2 {
            for x in 0..<3 {
                let (r, g, b) = pixel(x, y)
                XCTAssertEqual(image[x, y], RGBA(r, g, b, 255), "(\(x),\(y))")
            }
        }
    }

    func testGIFWithTransparency() throws {
        let (width, height) = (12, 7)
        let source = pattern(width: width, height: height, transparentEvery: 5)
        let gif = try magickEncode(width: width, height: height, frames: [source], format: "GIF")
        XCTAssertEqual(Array(gif.prefix(3)), Array("GIF".utf8))
        let image = try ImageDecoder.decode(gif, name: "t.gif")
        XCTAssertTrue(image.hasAlpha)
        XCTAssertEqual(image.width, width)
        XCTAssertEqual(image.pixels, try magickDecode(gif))
        for i in stride(from: 0, to: source.count, by: 4) {
            XCTAssertEqual(image.pixels[i + 3], source[i + 3], "pixel \(i / 4)")
        }
    }

    func testAnimatedGIFDecodesItsFirstFrame() throws {
        let (width, height) = (6, 4)
        let first = pattern(width: width, height: height, seed: 0)
        let second = pattern(width: width, height: height, seed: 100)
        let gif = try magickEncode(width: width, height: height, frames: [first, second, second], format: "GIF")
        let image = try ImageDecoder.decode(gif, name: "anim.gif")
        XCTAssertEqual(image.pixels, first)
    }

    func testLosslessWebP() throws {
        let (width, height) = (9, 5)
        let source = pattern(width: width, height: height, transparentEvery: 3)
        let webp = try magickEncode(width: width, height: height, frames: [source], format: "WEBP") { wand in
            MagickSetOption(wand, "webp:lossless", "true")
        }
        XCTAssertEqual(Array(webp[8..<12]), Array("WEBP".utf8))
        let image = try ImageDecoder.decode(webp, name: "x.webp")
        XCTAssertTrue(image.hasAlpha)
        for i in stride(from: 0, to: source.count, by: 4) where source[i + 3] == 255 {
            XCTAssertEqual(Array(image.pixels[i..<i + 4]), Array(source[i..<i + 4]), "pixel \(i / 4)")
        }
    }

    func testSixteenBitTIFFKeepsItsSamples() throws {
        let (width, height) = (5, 3)
        let samples = (0..<width * height * 4).map { UInt16(truncatingIfNeeded: $0 &* 4099 &+ 17) }
        let tiff = try magickEncode(width: width, height: height, samples16: samples, format: "TIFF")
        let image = try ImageDecoder.decode(tiff, name: "x.tiff")
        XCTAssertTrue(image.is16Bit)
        XCTAssertTrue(image.hasAlpha)
        XCTAssertEqual(image.samples16, samples)
    }

    func testGrayscaleJPEGMatchesImageMagick() throws {
        let (width, height) = (33, 17)
        let source = pattern(width: width, height: height)
        let jpeg = try magickEncode(width: width, height: height, frames: [source], format: "JPEG") { wand in
            MagickSetImageAlphaChannel(wand, DeactivateAlphaChannel)
            MagickSetImageType(wand, GrayscaleType)
            MagickSetImageCompressionQuality(wand, 85)
        }
        XCTAssertEqual(Array(jpeg.prefix(3)), [0xFF, 0xD8, 0xFF])
        let image = try ImageDecoder.decode(jpeg, name: "gray.jpg")
        XCTAssertFalse(image.hasAlpha)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            XCTAssertTrue(image.pixels[i] == image.pixels[i + 1] && image.pixels[i] == image.pixels[i + 2])
        }
        XCTAssertEqual(image.pixels, try magickDecode(jpeg))
    }

    /// The package's JPEGs (baseline, progressive, arithmetic-coded, 4:4:4 with restart markers,
    /// odd sizes, grey, re-compressed) decode to ImageMagick's samples exactly; JPEGTests checks
    /// the same against ImageMagick's recorded decodes of the reference material.
    func testPackageJPEGsMatchImageMagick() throws {
        let jpegs = ["420-arithmetic", "444-restart", "baseline", "gray", "odd-size", "progressive"].map { "Fuzz/corpus/jpeg/\($0).jpg" }
            + ["Fixtures/tune/noise/ref/jpeg-recompress.jpg", "Fixtures/tune/noise/new/jpeg-recompress.jpg"]
        for path in jpegs {
            let jpeg = try [UInt8](Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)))
            let ours = try ImageDecoder.decode(jpeg, name: path)
            let theirs = try magickDecode(jpeg)
            XCTAssertEqual(ours.pixels.count, theirs.count, path)
            XCTAssertEqual(zip(ours.pixels, theirs).filter { $0 != $1 }.count, 0, "\(path): samples differ from ImageMagick's")
        }
    }

    func testCMYKJPEGIsConverted() throws {
        let (width, height) = (16, 16)
        var source: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { source += x < 8 ? (y < 8 ? [200, 40, 40, 255] : [40, 200, 40, 255]) : [40, 40, 200, 255] }
        }
        let jpeg = try magickEncode(width: width, height: height, frames: [source], format: "JPEG") { wand in
            MagickSetImageAlphaChannel(wand, DeactivateAlphaChannel)
            MagickTransformImageColorspace(wand, CMYKColorspace)
            MagickSetImageCompressionQuality(wand, 95)
        }
        let image = try ImageDecoder.decode(jpeg, name: "cmyk.jpg")
        XCTAssertFalse(image.hasAlpha)
        XCTAssertEqual(image.width, width)
        let worst = zip(image.pixels, source).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 12, "CMYK JPEG decoded far from its source colours")
    }

    func testConcurrentDecoding() throws {
        let gif = try magickEncode(width: 8, height: 8, frames: [pattern(width: 8, height: 8)], format: "GIF")
        let png = try TestPaths.fixture("rgba8_adam7.png")
        let expectedGIF = try ImageDecoder.decode(gif, name: "gif")
        let expectedPNG = try ImageDecoder.decode(png, name: "png")
        let failures = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let ok = i % 2 == 0
                ? (try? ImageDecoder.decode(gif, name: "gif")) == expectedGIF
                : (try? ImageDecoder.decode(png, name: "png")) == expectedPNG
            if !ok { failures.withLock { $0 += 1 } }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
    }

    /// The enum values the lazily loaded decoder declares (cic_magick.h) are ImageMagick's own.
    func testLoaderDeclaresImageMagicksValues() {
        let pairs: [(declared: Int, headers: Int, name: String)] = [
            (Int(CIC_MAGICK_TRUE), Int(MagickTrue.rawValue), "MagickTrue"),
            (Int(CIC_MAGICK_FALSE), Int(MagickFalse.rawValue), "MagickFalse"),
            (Int(CIC_MAGICK_CHAR_PIXEL), Int(CharPixel.rawValue), "CharPixel"),
            (Int(CIC_MAGICK_SHORT_PIXEL), Int(ShortPixel.rawValue), "ShortPixel"),
            (Int(CIC_MAGICK_UNDEFINED_COLORSPACE), Int(UndefinedColorspace.rawValue), "UndefinedColorspace"),
            (Int(CIC_MAGICK_RGB_COLORSPACE), Int(RGBColorspace.rawValue), "RGBColorspace"),
            (Int(CIC_MAGICK_GRAY_COLORSPACE), Int(GRAYColorspace.rawValue), "GRAYColorspace"),
            (Int(CIC_MAGICK_TRANSPARENT_COLORSPACE), Int(TransparentColorspace.rawValue), "TransparentColorspace"),
            (Int(CIC_MAGICK_SRGB_COLORSPACE), Int(sRGBColorspace.rawValue), "sRGBColorspace"),
            (Int(CIC_MAGICK_LINEAR_GRAY_COLORSPACE), Int(LinearGRAYColorspace.rawValue), "LinearGRAYColorspace"),
            (Int(CIC_MAGICK_AREA_RESOURCE), Int(AreaResource.rawValue), "AreaResource"),
            (Int(CIC_MAGICK_DISK_RESOURCE), Int(DiskResource.rawValue), "DiskResource"),
            (Int(CIC_MAGICK_MAP_RESOURCE), Int(MapResource.rawValue), "MapResource"),
            (Int(CIC_MAGICK_MEMORY_RESOURCE), Int(MemoryResource.rawValue), "MemoryResource"),
            (Int(CIC_MAGICK_WIDTH_RESOURCE), Int(WidthResource.rawValue), "WidthResource"),
            (Int(CIC_MAGICK_HEIGHT_RESOURCE), Int(HeightResource.rawValue), "HeightResource"),
            (Int(CIC_MAGICK_LIST_LENGTH_RESOURCE), Int(ListLengthResource.rawValue), "ListLengthResource"),
            (Int(CIC_MAGICK_ERROR_EXCEPTION), Int(ErrorException.rawValue), "ErrorException"),
        ]
        for pair in pairs { XCTAssertEqual(pair.declared, pair.headers, pair.name) }
        XCTAssertEqual(MemoryLayout<MagickSizeType>.size, MemoryLayout<UInt64>.size)
    }

    /// The loader's format detection equals SetImageInfo's `magick` field read through the headers.
    func testLoaderIdentifiesFormatsAsSetImageInfoDoes() throws {
        var reason: UnsafePointer<CChar>?
        XCTAssertEqual(cic_magick_load(&reason), 1, reason.map { String(cString: $0) } ?? "")
        let pixels = pattern(width: 6, height: 5)
        var blobs: [(String, [UInt8])] = [("text", Array("hello, not an image\n".utf8)), ("empty-ish", [0, 0, 0, 0])]
        for format in ["GIF", "BMP", "TIFF", "WEBP", "PSD", "PCX", "SGI", "SUN", "PAM", "PPM", "MIFF", "XPM", "JPEG", "PNG"] {
            blobs.append((format, try magickEncode(width: 6, height: 5, frames: [pixels], format: format)))
        }
        for (name, blob) in blobs {
            let info = try XCTUnwrap(AcquireImageInfo())
            defer { DestroyImageInfo(info) }
            let exception = try XCTUnwrap(AcquireExceptionInfo())
            defer { DestroyExceptionInfo(exception) }
            SetImageInfoBlob(info, blob, blob.count)
            SetImageInfo(info, 0, exception)
            let expected = withUnsafeBytes(of: &info.pointee.magick) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var detected = [CChar](repeating: 0, count: 64)
            cic_magick_identify(blob, blob.count, &detected, detected.count)
            XCTAssertEqual(String(decoding: detected.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), expected, name)
        }
    }

    func testTruncatedGIFIsAnError() throws {
        let gif = try magickEncode(width: 40, height: 30, frames: [pattern(width: 40, height: 30)], format: "GIF")
        assertDecodeFails(Array(gif.prefix(gif.count / 2)), "half a GIF") { error in
            if case .corruptImage(let format, let message) = error { return format == "GIF" && !message.isEmpty }
            return false
        }
    }
}

/// A minimal lock-protected value for the concurrency test.
final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
