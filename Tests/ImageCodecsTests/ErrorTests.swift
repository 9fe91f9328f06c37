import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

final class ErrorTests: XCTestCase {
    private func isCorruptPNG(_ error: ImageCodecError) -> Bool {
        if case .corruptPNG(let message) = error { return !message.isEmpty }
        return false
    }

    private func isCorruptJPEG(_ error: ImageCodecError) -> Bool {
        if case .corruptJPEG(let message) = error { return !message.isEmpty }
        return false
    }

    func testTruncatedPNGsAreErrors() throws {
        for fixture in ["rgb16_adam7.png", "palette8_trns.png", "gray1.png"] {
            let png = try TestPaths.fixture(fixture)
            for length in [2, 7, 8, 20, 33, png.count / 2, png.count - 13, png.count - 12, png.count - 1] {
                assertDecodeFails(Array(png.prefix(length)), "\(fixture) cut to \(length) bytes", matches: isCorruptPNG)
            }
        }
    }

    func testTruncatedLargePNGIsAnError() throws {
        let path = try SharedData.url("conformance/imagemagick/cases/01_ui_antialias/ref.png").path
        let png = try ImageFile.read(path)
        for fraction in [0.3, 0.6, 0.9] {
            let length = Int(Double(png.count) * fraction)
            assertDecodeFails(Array(png.prefix(length)), "ref.png cut to \(length) bytes", matches: isCorruptPNG)
        }
    }

    func testBadCRCsAreErrors() throws {
        let png = try TestPaths.fixture("rgba8.png")
        for type in ["IHDR", "IDAT", "IEND"] {
            let chunk = try XCTUnwrap(pngChunks(png).first { $0.type == type })
            var damaged = png
            damaged[chunk.offset + 8 + chunk.length] ^= 0x55
            assertDecodeFails(damaged, "\(type) CRC") { error in
                if case .corruptPNG(let message) = error { return message.contains("CRC") }
                return false
            }
        }
    }

    func testCorruptZlibDataIsAnError() throws {
        let png = try TestPaths.fixture("rgba8.png")
        let idat = try XCTUnwrap(pngChunks(png).first { $0.type == "IDAT" })
        // 0xFF as the first deflate byte: final block of reserved type 3.
        var badBlock = png
        badBlock[idat.offset + 10] = 0xFF
        fixCRC(&badBlock, chunkAt: idat.offset)
        assertDecodeFails(badBlock, "invalid deflate block", matches: isCorruptPNG)

        var badHeader = png
        badHeader[idat.offset + 8] = 0x00
        fixCRC(&badHeader, chunkAt: idat.offset)
        assertDecodeFails(badHeader, "invalid zlib header", matches: isCorruptPNG)
    }

    func testImpossibleSizesAreErrorsWithoutHugeAllocations() throws {
        var png = try TestPaths.fixture("rgba8.png")
        for (width, height) in [(0, 5), (7, 0), (100_000, 100_000)] {
            for (i, value) in [width, height].enumerated() {
                for byte in 0..<4 { png[16 + i * 4 + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
            }
            fixCRC(&png, chunkAt: 8)
            assertDecodeFails(png, "\(width)x\(height)") { error in
                switch error {
                case .corruptPNG: width == 0 || height == 0
                case .tooLarge(let w, let h, .width(65_535)): w == width && h == height
                default: false
                }
            }
        }
    }

    func testTruncatedJPEGIsAnError() throws {
        let jpeg = try ImageFile.read(SharedData.url("corpus/tiger/a.jpg").path)
        for length in [3, 4, 100, jpeg.count / 2, jpeg.count - 2] {
            assertDecodeFails(Array(jpeg.prefix(length)), "a.jpg cut to \(length) bytes", matches: isCorruptJPEG)
        }
        // Libjpeg only warns about damaged entropy-coded data, so damage the frame header instead.
        let frame = try XCTUnwrap((2..<jpeg.count - 4).first { jpeg[$0] == 0xFF && [0xC0, 0xC1, 0xC2].contains(jpeg[$0 + 1]) })
        var badPrecision = jpeg
        badPrecision[frame + 4] = 13
        assertDecodeFails(badPrecision, "a.jpg with 13-bit precision", matches: isCorruptJPEG)
        var noComponents = jpeg
        noComponents[frame + 9] = 0
        assertDecodeFails(noComponents, "a.jpg with 0 components", matches: isCorruptJPEG)
    }

    func testNonImagesAreNotRecognised() {
        let texts = [
            "hello, this is not an image\n",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"/></svg>\n",
            "push graphic-context\nviewbox 0 0 10 10\nfill red\nrectangle 0,0 10,10\npop graphic-context\n",
            "%!PS-Adobe-3.0\n",
        ]
        for text in texts {
            assertDecodeFails(Array(text.utf8), "text \(text.prefix(20))") { $0 == .notRecognised }
        }
        assertDecodeFails([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07], "binary noise") { $0 == .notRecognised }
        assertDecodeFails([0x42], "one byte") { $0 == .notRecognised }
    }

    func testFileErrors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let text = directory.path("not-an-image.png")
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: text))
        let empty = directory.path("empty.png")
        try Data().write(to: URL(fileURLWithPath: empty))
        let missing = directory.path("missing.png")

        let expectations: [(String, ImageCodecError, String)] = [
            (text, .notRecognised, "\(text): not a recognised image (PNG, JPEG, or a format ImageMagick reads)"),
            (empty, .emptyFile, "\(empty): empty file"),
            (missing, .noSuchFile, "\(missing): no such file"),
            (directory.path("missing/x.png"), .noSuchFile, "\(directory.path("missing/x.png")): no such file"),
            (directory.url.path, .isDirectory, "\(directory.url.path): is a directory"),
            ("", .noSuchFile, ": no such file"),
        ]
        for (path, expected, description) in expectations {
            XCTAssertThrowsError(try ImageDecoder.decode(contentsOf: path), path) { error in
                XCTAssertEqual(error as? ImageFileError, ImageFileError(path: path, error: expected))
                XCTAssertEqual("\(error)", description)
            }
        }
    }

    func testUnreadableFile() throws {
        try XCTSkipIf(getuid() == 0, "root reads every file")
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.path("secret.png")
        try Data(TestPaths.fixture("gray8.png")).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        XCTAssertThrowsError(try ImageDecoder.decode(contentsOf: path)) { error in
            XCTAssertEqual((error as? ImageFileError)?.error, .permissionDenied)
        }
    }

    func testDescriptionsAreOneLine() {
        let errors: [ImageCodecError] = [
            .noSuchFile, .isDirectory, .permissionDenied, .emptyFile, .cannotRead("input/output error"),
            .notRecognised, .corruptPNG("IDAT: CRC error"), .corruptJPEG("Bogus marker length"),
            .corruptImage(format: "GIF", message: "corrupt image"), .unsupportedSize(width: 0, height: 3),
            .tooLarge(width: 100_000, height: 100_000, limit: .pixels(1 << 28)),
            .tooLarge(width: 9, height: 9, limit: .memory(100)), .fileTooLarge(limit: 1 << 30), .cannotEncode("out of memory"),
            .cannotWrite("no such directory"),
        ]
        for error in errors {
            XCTAssertFalse(error.description.isEmpty)
            XCTAssertFalse(error.description.contains("\n"), error.description)
        }
        XCTAssertEqual(ImageCodecError.corruptPNG("IDAT: CRC error").description, "truncated or corrupt PNG: IDAT: CRC error")
        XCTAssertEqual(ImageCodecError.corruptJPEG("x").description, "truncated or corrupt JPEG: x")
        XCTAssertEqual(ImageCodecError.cannotWrite("no such directory").description, "cannot write: no such directory")
        XCTAssertEqual(ImageFileError(path: "a.png", error: .emptyFile).description, "a.png: empty file")
    }
}
