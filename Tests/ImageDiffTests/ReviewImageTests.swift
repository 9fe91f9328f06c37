import XCTest

@testable import ImageDiff

/// The review image: reference | new | highlight over a line of numbers, where even a
/// one-level change shows and counted regions are boxed.
final class ReviewImageTests: XCTestCase {
    let white = RGBA(255, 255, 255)

    func testPanelsHighlightAndCaption() {
        let reference = RGBAImage(width: 100, height: 60, filledWith: RGBA(200, 200, 200))
        var actual = reference
        actual[5, 5] = RGBA(201, 200, 200)
        for y in 30..<40 { for x in 60..<80 { actual[x, y] = RGBA(0, 0, 0) } }
        let result = compare(reference, actual, options: ComparisonOptions(metric: .channel(tolerance: 2), collectsMask: true))
        XCTAssertEqual(result.differentPixels, 200)
        let image = ReviewImage.render(reference: reference, actual: actual, result: result)
        let panel = 100 + ReviewImage.gap
        XCTAssertGreaterThanOrEqual(image.width, 3 * 100 + 2 * ReviewImage.gap)
        XCTAssertEqual(image[10, 10], RGBA(200, 200, 200), "the reference")
        XCTAssertEqual(image[panel + 70, 35], RGBA(0, 0, 0), "the new image")
        XCTAssertEqual(image[100, 10], ReviewImage.gapColour)
        XCTAssertEqual(image[2 * panel + 5, 5], ReviewImage.changedColour, "a one-level change shows")
        XCTAssertEqual(image[2 * panel + 70, 35], ReviewImage.countedColour)
        XCTAssertEqual(image[2 * panel + 58, 35], ReviewImage.boxColour, "boxed two pixels out")
        XCTAssertEqual(image[2 * panel + 10, 50], RGBA(244, 244, 244), "the reference faded to a fifth of its contrast")
        XCTAssertEqual(ReviewImage.caption(result, changed: 201), "200/201 px  3.33%  dE 53.1".replacingOccurrences(
            of: "53.1", with: ReviewImage.decimal(result.maxDeltaE, 1)))
        let captionRows = (60..<image.height).filter { y in (0..<image.width).contains { image[$0, y] == RGBA(0, 0, 0) } }
        XCTAssertFalse(captionRows.isEmpty, "the numbers are drawn")
    }

    func testEveryCaptionCharacterHasAGlyph() {
        let result = compare(
            RGBAImage(width: 2, height: 1, filledWith: white), RGBAImage(width: 3, height: 1, filledWith: RGBA(0, 0, 0)))
        for character in ReviewImage.caption(result, changed: 1234567890) {
            XCTAssertNotNil(Glyphs.rows[character], "\(character)")
        }
    }

    func testImagesOfDifferentSizes() {
        let image = ReviewImage.render(
            reference: RGBAImage(width: 10, height: 20, filledWith: white), actual: RGBAImage(width: 30, height: 5, filledWith: white),
            result: compare(RGBAImage(width: 10, height: 20, filledWith: white), RGBAImage(width: 30, height: 5, filledWith: white)))
        XCTAssertGreaterThanOrEqual(image.width, 3 * 30 + 2 * ReviewImage.gap)
        XCTAssertEqual(image.height, 20 + Glyphs.height * ReviewImage.scale + 2 * ReviewImage.gap)
        let canvas = ReviewImage.canvasSize(width: 30, height: 20)
        XCTAssertEqual(canvas.height, image.height)
        XCTAssertEqual(canvas.width, 3 * 30 + 2 * ReviewImage.gap, "the caption, wider here, is not counted")
    }

    /// Of two sizes, the compared area's pixels outside either image are changed as they are
    /// counted: the caption never reads more counted than changed pixels.
    func testCountedPixelsOfTwoSizesAreChangedPixels() {
        let wide = RGBAImage(width: 20, height: 10, filledWith: white), tall = RGBAImage(width: 10, height: 20, filledWith: white)
        let result = compare(wide, tall)
        XCTAssertEqual(result.differentPixels, 300)
        XCTAssertEqual(ReviewImage.changedPixels(wide, tall, width: 20, height: 20), result.differentPixels)
    }
}
