import CMagickWand
import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// The structural mode's model of JPEG's chroma subsampling (``ChromaSubsampling``) draws what a
/// real 4:2:0 round trip draws: an image with saturated 1-px lines and strokes on white, written
/// by libjpeg through MagickWand at quality 100 (so that quantization barely adds to it) and
/// read back with libjpeg's triangular upsampling (imgdiff's decoder) and with replicated
/// chroma (MagickWand, `jpeg:fancy-upsampling=off`).
final class ChromaSubsamplingTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MagickWandGenesis()
    }

    /// The model's reconstructions lie within a few levels of the decoded JPEG everywhere, where
    /// the reference itself is tens of levels away around the coloured strokes.
    func testReconstructionsDrawWhatA420RoundTripDraws() throws {
        let image = Self.colouredStrokes(width: 61, height: 37)
        let jpeg = try jpegBytes(of: image)
        let chroma = try XCTUnwrap(ChromaSubsampling(image))
        let reconstructions = ChromaSubsampling.Upsampling.allCases.map { chroma.reconstruction(upsampling: $0) }
        for (upsampling, reconstruction) in zip(ChromaSubsampling.Upsampling.allCases, reconstructions) {
            let decoded = try decode(jpeg, upsampling: upsampling)
            XCTAssertLessThanOrEqual(Self.largestDistance(reconstruction, decoded), 4, "\(upsampling)")
            XCTAssertGreaterThan(Self.largestDistance(image, decoded), 40, "\(upsampling): the strokes lose their colour")
        }
        XCTAssertGreaterThan(Self.largestDistance(reconstructions[0], reconstructions[1]), 10, "the upsamplings differ")
    }

    /// libjpeg's quantization is read off a round trip (``JPEGQuantization``): a rendered page
    /// written by MagickWand's libjpeg at quality 50, 75 and 90 and read back by imgdiff's decoder
    /// gives that quality, and quantizing explains its luma. The quantized reconstruction comes
    /// closer to the decoded JPEG than subsampling alone: a quarter of the pixels beyond 3
    /// levels, and half the largest distance. (ImageMagick drives libjpeg its own way and draws
    /// up to 12 levels from cjpeg's output at quality 90, which the model follows more closely:
    /// see `RenderNoiseModelTests.testQuantizationReadOffThePairExplainsARoundTrip`.) The page
    /// against itself shows no quantization.
    func testQuantizationIsReadOffARoundTripAndDrawnAgain() throws {
        let page = try ImageDecoder.decode(
            contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/render-blind/noise/ref/dialog--jpeg-q90.png").path)
        let chroma = try XCTUnwrap(ChromaSubsampling(page))
        for quality in [50, 75, 90] {
            let decoded = try decode(try jpegBytes(of: page, quality: quality), upsampling: ChromaSubsampling.Upsampling.triangular)
            let estimate = try XCTUnwrap(JPEGQuantization.estimate(page, decoded))
            XCTAssertEqual(estimate.quality, quality)
            XCTAssertTrue(estimate.explainsDifference, "\(quality): \(estimate)")
            let quantized = chroma.quantized(quality: quality).reconstruction(upsampling: ChromaSubsampling.Upsampling.triangular)
            let subsampled = chroma.reconstruction(upsampling: ChromaSubsampling.Upsampling.triangular)
            XCTAssertLessThan(Self.largestDistance(quantized, decoded), Self.largestDistance(subsampled, decoded), "\(quality)")
            XCTAssertLessThan(Self.differing(quantized, decoded) * 3, Self.differing(subsampled, decoded), "\(quality)")
        }
        XCTAssertFalse(try XCTUnwrap(JPEGQuantization.estimate(page, page)).explainsDifference)
    }

    /// A page cut from a larger capture after that was written as JPEG: the page inside a blue
    /// frame one pixel wide, through MagickWand's libjpeg at quality 90, 4:2:0, the frame cut
    /// away. 4:2:0 averaged the frame's blue into the page's outermost pixels, which hold a hue
    /// nothing of the page has; the chroma rule leaves the image's edges unbounded
    /// (``RecompressionNoise/ChromaRange/edgeReach``), and the pair passes. The same page with its
    /// title and fields tinted yellow, cut from the same kind of capture, still fails.
    func testAPageCutFromItsJPEGAfterEncodingPasses() throws {
        let page = try ImageDecoder.decode(
            contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/render/noise/ref/login--jpeg-q90.png").path)
        func cutFromFramedJPEG(_ image: RGBAImage) throws -> RGBAImage {
            var framed = RGBAImage(width: image.width + 2, height: image.height + 2, filledWith: RGBA(30, 60, 200), hasAlpha: false)
            for y in 0..<image.height {
                for x in 0..<image.width { framed[x + 1, y + 1] = image[x, y] }
            }
            let decoded = try decode(try jpegBytes(of: framed, quality: 90), upsampling: .triangular)
            var cut = RGBAImage(width: image.width, height: image.height, filledWith: RGBA(0, 0, 0), hasAlpha: false)
            for y in 0..<image.height {
                for x in 0..<image.width { cut[x, y] = decoded[x + 1, y + 1] }
            }
            return cut
        }
        let structural = ComparisonOptions(metric: .structural(StructuralRule()))
        let result = compare(page, try cutFromFramedJPEG(page), options: structural)
        XCTAssertTrue(result.match, result.summary)
        var tinted = page
        for y in 20..<130 {
            for x in 56..<200 {
                let c = tinted[x, y]
                tinted[x, y] = RGBA(UInt8(min(255, Int(c.r) + 10)), UInt8(min(255, Int(c.g) + 10)), UInt8(max(0, Int(c.b) - 10)), c.a)
            }
        }
        XCTAssertFalse(compare(page, try cutFromFramedJPEG(tinted), options: structural).match)
    }

    /// Pixels of two opaque images of one size that differ by more than 3 levels in a channel.
    static func differing(_ first: RGBAImage, _ second: RGBAImage) -> Int {
        compare(first, second, options: ComparisonOptions(metric: .channel(tolerance: 3))).differentPixels
    }

    /// JPEG cannot hold translucent pixels: no reconstruction is offered for them.
    func testNoReconstructionOfTranslucentImages() {
        var image = RGBAImage(width: 8, height: 8, filledWith: RGBA(220, 38, 38))
        image.pixels[3] = 200
        XCTAssertNil(ChromaSubsampling(image))
    }

    /// White, with red and blue 1-px lines and 2-px strokes at odd and even offsets, a green
    /// block and a gray gradient: opaque, no alpha channel.
    static func colouredStrokes(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, filledWith: RGBA(255, 255, 255), hasAlpha: false)
        func paint(_ x: Int, _ y: Int, _ colour: RGBA) {
            guard x < width, y < height else { return }
            let k = (y * width + x) * 4
            (image.pixels[k], image.pixels[k + 1], image.pixels[k + 2]) = (colour.r, colour.g, colour.b)
        }
        for x in 2..<(width - 2) {
            paint(x, 5, RGBA(220, 38, 38))
            paint(x, 10, RGBA(37, 99, 235))
            paint(x, 11, RGBA(37, 99, 235))
        }
        for y in 14..<(height - 2) {
            paint(7, y, RGBA(220, 38, 38))
            paint(12, y, RGBA(22, 163, 74))
            paint(13, y, RGBA(22, 163, 74))
            for x in 20..<(width - 2) where (x + y) % 5 == 0 { paint(x, y, RGBA(190, 24, 93)) }
        }
        for y in 30..<min(height, 36) {
            for x in 0..<width { paint(x, y, RGBA(UInt8(x * 255 / width), UInt8(x * 255 / width), UInt8(x * 255 / width))) }
        }
        return image
    }

    /// The largest difference of any sample between two opaque images.
    static func largestDistance(_ first: RGBAImage, _ second: RGBAImage) -> Int {
        compare(first, second, options: ComparisonOptions(metric: .exact)).maxChannelDelta
    }

    /// `image` as a 4:2:0 JPEG of `quality`, written by MagickWand's libjpeg.
    func jpegBytes(of image: RGBAImage, quality: Int = 100) throws -> [UInt8] {
        let png = try PNGEncoder.encode(image)
        let wand = try XCTUnwrap(NewMagickWand())
        defer { DestroyMagickWand(wand) }
        XCTAssertEqual(MagickReadImageBlob(wand, png, png.count), MagickTrue)
        XCTAssertEqual(MagickSetImageFormat(wand, "JPEG"), MagickTrue)
        XCTAssertEqual(MagickSetImageCompressionQuality(wand, quality), MagickTrue)
        // One factor a component, each for both directions (MagickWand joins them into
        // "2,1,1"): Y 2 × 2, Cb and Cr 1 × 1, which is 4:2:0.
        let factors: [Double] = [2, 1, 1]
        XCTAssertEqual(MagickSetSamplingFactors(wand, factors.count, factors), MagickTrue)
        var length = 0
        let bytes = try XCTUnwrap(MagickGetImageBlob(wand, &length))
        defer { MagickRelinquishMemory(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    func decode(_ jpeg: [UInt8], upsampling: ChromaSubsampling.Upsampling) throws -> RGBAImage {
        switch upsampling {
        case .triangular:
            return try ImageDecoder.decode(jpeg, name: "round trip.jpg")
        case .replicated:
            let wand = try XCTUnwrap(NewMagickWand())
            defer { DestroyMagickWand(wand) }
            XCTAssertEqual(MagickSetOption(wand, "jpeg:fancy-upsampling", "off"), MagickTrue)
            XCTAssertEqual(MagickReadImageBlob(wand, jpeg, jpeg.count), MagickTrue)
            XCTAssertEqual(MagickSetImageFormat(wand, "PNG"), MagickTrue)
            var length = 0
            let bytes = try XCTUnwrap(MagickGetImageBlob(wand, &length))
            defer { MagickRelinquishMemory(bytes) }
            return try ImageDecoder.decode(Array(UnsafeBufferPointer(start: bytes, count: length)), name: "round trip.png")
        }
    }
}
