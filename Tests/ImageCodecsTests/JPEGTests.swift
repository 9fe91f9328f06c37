import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// JPEG decodes exactly as ImageMagick's (libjpeg-turbo, islow, fancy upsampling): the PNGs next
/// to each JPEG are ImageMagick's decode.
final class JPEGTests: XCTestCase {
    private func assertDecodesLike(_ jpegPath: String, _ pngPath: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let jpeg = try ImageDecoder.decode(contentsOf: SharedData.url(jpegPath, file: file, line: line).path)
        let reference = try ImageDecoder.decode(contentsOf: SharedData.url(pngPath, file: file, line: line).path)
        XCTAssertFalse(jpeg.hasAlpha, file: file, line: line)
        XCTAssertFalse(jpeg.is16Bit, file: file, line: line)
        XCTAssertEqual(jpeg.width, reference.width, file: file, line: line)
        XCTAssertEqual(jpeg.height, reference.height, file: file, line: line)
        if jpeg.pixels != reference.pixels {
            let differing = zip(jpeg.pixels, reference.pixels).filter { $0 != $1 }.count
            XCTFail("\(jpegPath): \(differing) samples differ from \(pngPath)", file: file, line: line)
        }
    }

    func testTigerMatchesImageMagick() throws {
        try assertDecodesLike("corpus/tiger/a.jpg", "corpus/tiger/a.png")
        try assertDecodesLike("corpus/tiger/b.jpg", "corpus/tiger/b.png")
    }

    func testConformanceJPEGsMatchImageMagick() throws {
        try assertDecodesLike("conformance/imagemagick/cases/16_jpeg/ref.jpg", "conformance/imagemagick/cases/16_jpeg/ref.jpg.decoded.png")
        try assertDecodesLike("conformance/imagemagick/cases/16_jpeg/fail.jpg", "conformance/imagemagick/cases/16_jpeg/fail.jpg.decoded.png")
    }
}
