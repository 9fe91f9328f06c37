import XCTest

@testable import ImageDiff
@testable import ToleranceTuning

/// A canary is a visible change of its reference: on a reference with a transparent background
/// every window is chosen among its opaque pixels, and a canary that cannot show is not made.
final class CanaryVisibilityTests: XCTestCase {
    /// A 200 × 100 reference: an opaque card (glyphs and a rule on light ground) between a
    /// transparent area whose colour is one black (the flattest) and one whose colour is noise
    /// (the busiest, were transparent pixels counted).
    func cardOnTransparentGround() -> RGBAImage {
        var image = RGBAImage(width: 200, height: 100, filledWith: RGBA(0, 0, 0, 0))
        for y in 0..<100 {
            for x in 150..<200 { image[x, y] = RGBA(UInt8((x * 37 + y * 91) % 256), UInt8((x * 11 + y * 53) % 256), UInt8((x * y) % 256), 0) }
        }
        for y in 10..<90 { for x in 40..<140 { image[x, y] = RGBA(245, 245, 245) } }
        for glyph in 0..<7 {
            for y in 20..<34 { for x in (50 + glyph * 12)..<(52 + glyph * 12) { image[x, y] = RGBA(20, 20, 20) } }
            for x in (50 + glyph * 12)..<(58 + glyph * 12) { image[x, 20 + (glyph % 3) * 6] = RGBA(20, 20, 20) }
        }
        for x in 45..<135 { image[x, 70] = RGBA(60, 60, 60) }
        return image
    }

    func testEveryCanaryOfATransparentBackgroundReferenceChangesWhatShows() throws {
        let reference = cardOnTransparentGround()
        var actual = reference
        for index in stride(from: 0, to: actual.pixels.count, by: 4) where actual.pixels[index + 3] == 0 {
            actual.pixels[index] = 255
            actual.pixels[index + 1] = 255
            actual.pixels[index + 2] = 255
        }
        let canaries = Canaries.make(reference: reference, actual: actual)
        XCTAssertEqual(canaries.map(\.kind), Canaries.Kind.allCases)
        for (kind, image) in canaries {
            XCTAssertGreaterThanOrEqual(
                Canaries.visiblyChangedPixels(actual, image), Canaries.minimumChangedPixels, kind.rawValue)
            var paintedTranslucent = 0
            for y in 0..<image.height {
                for x in 0..<image.width where actual[x, y].a != 255 && image[x, y] != actual[x, y] { paintedTranslucent += 1 }
            }
            XCTAssertEqual(paintedTranslucent, 0, "\(kind.rawValue) paints only opaque pixels")
            XCTAssertFalse(compare(reference, image, options: ComparisonOptions(metric: .channel(tolerance: 0))).match, kind.rawValue)
            XCTAssertFalse(
                compare(reference, image, options: ComparisonOptions(metric: .structural(StructuralRule()))).match, kind.rawValue)
        }
    }

    /// Without an opaque area a window fits in, no canary is made, whatever the colours of the
    /// transparent pixels.
    func testNoCanaryWithoutAnOpaqueWindow() {
        var reference = cardOnTransparentGround()
        for y in 0..<100 { for x in 0..<200 where x % 9 == 0 || y % 5 == 0 { reference[x, y].a = 0 } }
        XCTAssertTrue(Canaries.make(reference: reference, actual: reference).isEmpty)

        var translucent = cardOnTransparentGround()
        for y in 0..<100 { for x in 0..<200 where translucent[x, y].a == 255 { translucent[x, y].a = 254 } }
        XCTAssertTrue(Canaries.make(reference: translucent, actual: translucent).isEmpty, "alpha 254 shows ΔE94 3 fainter")
    }

    /// A window opaque in the reference whose pixels the noise pair's new image leaves fully
    /// transparent holds no visible change: the canary is not made.
    func testNoCanaryWhereTheNewImageIsTransparent() {
        let reference = RGBAImage(width: 30, height: 20, filledWith: RGBA(200, 200, 200))
        let actual = RGBAImage(width: 30, height: 20, filledWith: RGBA(200, 200, 200, 0))
        XCTAssertNotNil(Canaries.apply(.faintSpot, reference: reference, to: reference))
        XCTAssertNil(Canaries.apply(.faintSpot, reference: reference, to: actual))
    }
}
