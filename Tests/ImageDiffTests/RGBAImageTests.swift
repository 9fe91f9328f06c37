import ImageDiff
import XCTest

/// A 16-bit image's two sample arrays never disagree: an edit to the 8-bit pixels makes it an
/// 8-bit image instead of being lost behind stale 16-bit samples.
final class RGBAImageTests: XCTestCase {
    func sixteenBitImage() -> RGBAImage {
        RGBAImage(width: 2, height: 1, samples16: [65535, 257, 0, 65535, 1000, 2000, 3000, 65535], hasAlpha: true)
    }

    func testSixteenBitImageDerivesItsPixels() {
        let image = sixteenBitImage()
        XCTAssertTrue(image.is16Bit)
        XCTAssertEqual(image.pixels, [255, 1, 0, 255, 3, 7, 11, 255])
    }

    func testEditingPixelsDropsTheSixteenBitSamples() {
        var image = sixteenBitImage()
        image.pixels[0] = 9
        XCTAssertFalse(image.is16Bit, "the edit wins; no stale 16-bit sample stays behind")
        XCTAssertEqual(image.pixels[0], 9)

        var replaced = sixteenBitImage()
        replaced.pixels = [1, 2, 3, 4, 5, 6, 7, 8]
        XCTAssertNil(replaced.samples16)

        var pixel = sixteenBitImage()
        pixel[1, 0] = RGBA(1, 2, 3, 4)
        XCTAssertNil(pixel.samples16)
        XCTAssertEqual(pixel.pixels, [255, 1, 0, 255, 1, 2, 3, 4])
    }

    func testReadingLeavesTheSixteenBitSamples() {
        let image = sixteenBitImage()
        var copy = image
        _ = copy.pixels.count
        XCTAssertEqual(copy.samples16, image.samples16)
        XCTAssertEqual(copy, image)
    }
}
