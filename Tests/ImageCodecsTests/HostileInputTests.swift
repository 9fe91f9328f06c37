import CMagickWand
import Foundation
import TestSupport
import XCTest

@testable import ImageCodecs
import ImageDiff

/// Hostile inputs (Fixtures/hostile, made by its make-hostile-fixtures.py): decompression bombs,
/// resource limits, ImageMagick payloads, and the inputs fuzzing found. Truncation, CRC, zlib,
/// zero sizes and file errors are in ErrorTests.
final class HostileInputTests: XCTestCase {
    static let hostile = TestPaths.packageRoot.appendingPathComponent("Fixtures/hostile")

    func hostile(_ name: String) throws -> [UInt8] {
        let path = Self.hostile.appendingPathComponent(name).path
        guard let data = FileManager.default.contents(atPath: path) else {
            XCTFail("missing fixture \(path): run Fixtures/hostile/make-hostile-fixtures.py")
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](data)
    }

    /// Decoding fails with exactly `expected`.
    func assertFails(
        _ name: String, limits: DecodingLimits = .default, with expected: ImageCodecError,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let bytes = try hostile(name)
        XCTAssertThrowsError(try ImageDecoder.decode(bytes, name: name, limits: limits), file: file, line: line) { error in
            XCTAssertEqual(error as? ImageFileError, ImageFileError(path: name, error: expected), file: file, line: line)
        }
    }

    // MARK: Decompression bombs and limits

    func testDecompressionBombsFailFromTheHeader() throws {
        try assertFails("bomb-100000x100000.png", with: .tooLarge(width: 100_000, height: 100_000, limit: .width(65_535)))
        let wide = DecodingLimits(maxWidth: 1 << 20, maxHeight: 1 << 20)
        try assertFails(
            "bomb-100000x100000.png", limits: wide,
            with: .tooLarge(width: 100_000, height: 100_000, limit: .pixels(1 << 28)))
        try assertFails(
            "bomb-65500x65500.jpg", with: .tooLarge(width: 65_500, height: 65_500, limit: .pixels(1 << 28)))
        // 256 M pixels are allowed, but 16-bit samples take 12 bytes a pixel: 3 GB.
        try assertFails(
            "bomb-16bit-16000x16000.png", with: .tooLarge(width: 16_000, height: 16_000, limit: .memory(1 << 31)))
        try assertFails(
            "width-2147483647.png", with: .tooLarge(width: 2_147_483_647, height: 1, limit: .width(65_535)))
    }

    func testEachLimitAppliesAtItsBoundary() throws {
        let good = try hostile("good-8x6.png")
        let fits = [
            DecodingLimits(maxWidth: 8), DecodingLimits(maxHeight: 6), DecodingLimits(maxPixels: 48),
            DecodingLimits(maxFileSize: good.count),
        ]
        for limits in fits {
            XCTAssertEqual(try ImageDecoder.decode(good, name: "good", limits: limits).size, ImageSize(width: 8, height: 6))
        }
        let exceeded: [(DecodingLimits, ImageCodecError)] = [
            (DecodingLimits(maxWidth: 7), .tooLarge(width: 8, height: 6, limit: .width(7))),
            (DecodingLimits(maxHeight: 5), .tooLarge(width: 8, height: 6, limit: .height(5))),
            (DecodingLimits(maxPixels: 47), .tooLarge(width: 8, height: 6, limit: .pixels(47))),
            (DecodingLimits(maxFileSize: good.count - 1), .fileTooLarge(limit: good.count - 1)),
        ]
        for (limits, expected) in exceeded {
            XCTAssertThrowsError(try ImageDecoder.decode(good, name: "good", limits: limits)) { error in
                XCTAssertEqual((error as? ImageFileError)?.error, expected)
            }
        }
        // 7 x 5 16-bit RGBA keeps 16-bit samples and an 8-bit copy: 12 bytes a pixel.
        let sixteenBit = try TestPaths.fixture("rgba16.png")
        XCTAssertEqual(try ImageDecoder.decode(sixteenBit, name: "16", limits: DecodingLimits(maxMemory: 420)).size.width, 7)
        XCTAssertThrowsError(try ImageDecoder.decode(sixteenBit, name: "16", limits: DecodingLimits(maxMemory: 419))) {
            XCTAssertEqual(($0 as? ImageFileError)?.error, .tooLarge(width: 7, height: 5, limit: .memory(419)))
        }
    }

    func testLimitsApplyToJPEGAndImageMagickFormats() throws {
        let jpeg = try XCTUnwrap(FileManager.default.contents(
            atPath: TestPaths.packageRoot.appendingPathComponent("Fuzz/corpus/jpeg/baseline.jpg").path))
        XCTAssertThrowsError(try ImageDecoder.decode([UInt8](jpeg), name: "j", limits: DecodingLimits(maxPixels: 383))) {
            XCTAssertEqual(($0 as? ImageFileError)?.error, .tooLarge(width: 24, height: 16, limit: .pixels(383)))
        }
        // A BMP goes to ImageMagick, whose size is checked from its header ("ping") first.
        let bmp = handWrittenBMP(width: 5, height: 3)
        XCTAssertEqual(try ImageDecoder.decode(bmp, name: "b", limits: DecodingLimits(maxPixels: 15)).size.width, 5)
        XCTAssertThrowsError(try ImageDecoder.decode(bmp, name: "b", limits: DecodingLimits(maxHeight: 2))) {
            XCTAssertEqual(($0 as? ImageFileError)?.error, .tooLarge(width: 5, height: 3, limit: .height(2)))
        }
    }

    /// A progressive JPEG's coefficient buffers are libjpeg's working memory, bounded by what
    /// the memory limit leaves after the decoded image.
    func testJPEGWorkingMemoryIsLimited() throws {
        let progressive = try XCTUnwrap(FileManager.default.contents(
            atPath: TestPaths.packageRoot.appendingPathComponent("Fuzz/corpus/jpeg/progressive.jpg").path))
        let decodedBytes = 64 * 48 * 4
        XCTAssertThrowsError(
            try ImageDecoder.decode([UInt8](progressive), name: "p", limits: DecodingLimits(maxMemory: decodedBytes + 1))
        ) {
            XCTAssertEqual(($0 as? ImageFileError)?.error, .tooLarge(width: 64, height: 48, limit: .memory(decodedBytes + 1)))
        }
        XCTAssertEqual(
            try ImageDecoder.decode([UInt8](progressive), name: "p", limits: DecodingLimits(maxMemory: 1 << 20)).size,
            ImageSize(width: 64, height: 48))
    }

    func testProgressiveJPEGWithTooManyScansIsRefused() throws {
        try assertFails("many-scans.jpg", with: .corruptJPEG("more than 500 scans"))
    }

    /// The largest image of the corpus (3,446 x 10,728, 37 M pixels) decodes with the defaults.
    func testLargestCorpusImageDecodesByDefault() throws {
        let path = try SharedData.url("corpus/cypress/a.png").path
        let image = try ImageDecoder.decode(contentsOf: path)
        XCTAssertEqual(image.size, ImageSize(width: 3446, height: 10728))
    }

    /// A device is refused before anything is read from it: `/dev/zero` would never end.
    func testDeviceIsRefusedBeforeReading() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/zero"))
        XCTAssertThrowsError(try ImageDecoder.decode(contentsOf: "/dev/zero")) {
            XCTAssertEqual(
                $0 as? ImageFileError, ImageFileError(path: "/dev/zero", error: .notRegularFile(kind: "a character device")))
        }
    }

    /// A FIFO that no one writes to is refused at once; opening it must not wait for a writer.
    func testFIFOIsRefusedWithoutBlocking() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pipe.png").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try ImageDecoder.decode(contentsOf: path)) {
            XCTAssertEqual($0 as? ImageFileError, ImageFileError(path: path, error: .notRegularFile(kind: "a FIFO")))
        }
    }

    // MARK: Corrupt data libpng would let through

    func testPaletteIndexOutsideThePaletteIsAnError() throws {
        try assertFails(
            "palette-index.png", with: .corruptPNG("palette index 200 at 4,0 is outside the 4-entry palette"))
    }

    // MARK: ImageMagick

    func testImageMagickScriptsAndVectorFormatsAreNotRecognised() throws {
        for name in ["payload.mvg", "payload.svg", "payload.msl", "payload-url.txt", "text.png"] {
            try assertFails(name, with: .notRecognised)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/imgdiff-msl-pwned"))
    }

    /// Names ImageMagick would interpret (coder prefixes, pipes, indirection) are only paths to us.
    func testImageMagickPseudoFileNamesAreOnlyPaths() {
        for name in ["url:http://127.0.0.1:9/x.png", "msl:payload.msl", "mvg:payload.mvg", "|echo pwned", "@list.txt",
                     "ephemeral:x.png", "xc:red"] {
            XCTAssertThrowsError(try ImageDecoder.decode(contentsOf: name)) {
                XCTAssertEqual(($0 as? ImageFileError)?.error, .noSuchFile, name)
            }
        }
    }

    /// Inside ImageMagick itself, the policy installed by the decoder refuses every coder but
    /// the raster formats, whoever asks.
    func testImageMagickPolicyAllowsOnlyRasterCoders() throws {
        _ = try ImageDecoder.decode(handWrittenBMP(width: 2, height: 2), name: "start ImageMagick")
        XCTAssertTrue(MagickDecoder.policyInstalled)
        for coder in ["MVG", "MSL", "SVG", "MSVG", "URL", "HTTP", "HTTPS", "FTP", "TEXT", "TXT", "LABEL", "CAPTION",
                      "EPHEMERAL", "INLINE", "PS", "EPS", "PDF", "XPS", "SHOW", "WIN", "X", "MPC", "HTML", "SCREENSHOT"] {
            XCTAssertEqual(IsRightsAuthorized(CoderPolicyDomain, ReadPolicyRights, coder), MagickFalse, coder)
        }
        for coder in ["GIF", "BMP", "TIFF", "WEBP", "PNG", "JPEG"] {
            XCTAssertEqual(IsRightsAuthorized(CoderPolicyDomain, ReadPolicyRights, coder), MagickTrue, coder)
        }
        XCTAssertEqual(IsRightsAuthorized(DelegatePolicyDomain, ExecutePolicyRights, "gs"), MagickFalse)
        XCTAssertEqual(IsRightsAuthorized(PathPolicyDomain, ReadPolicyRights, "@/etc/passwd"), MagickFalse)

        // Even asked directly, ImageMagick now refuses to draw MVG or to fetch a URL.
        let mvg = try hostile("payload.mvg")
        let wand = try XCTUnwrap(NewMagickWand())
        defer { DestroyMagickWand(wand) }
        MagickSetFormat(wand, "MVG")
        XCTAssertEqual(MagickReadImageBlob(wand, mvg, mvg.count), MagickFalse)
        XCTAssertEqual(MagickReadImage(wand, "url:http://127.0.0.1:9/x.png"), MagickFalse)
    }

    /// The coder is fixed before reading: ImageMagick does not switch to another one because
    /// of what the bytes look like.
    func testImageMagickKeepsThePinnedCoder() throws {
        _ = MagickDecoder.policyInstalled
        let png = try hostile("good-8x6.png")
        let wand = try XCTUnwrap(NewMagickWand())
        defer { DestroyMagickWand(wand) }
        MagickSetFilename(wand, "image[0]")
        MagickSetFormat(wand, "GIF")
        XCTAssertEqual(MagickReadImageBlob(wand, png, png.count), MagickFalse, "PNG bytes read as GIF must fail")
    }

    func testDescriptionsNameTheLimitAndTheFlag() {
        let cases: [(ImageCodecError, String)] = [
            (.tooLarge(width: 100_000, height: 5, limit: .width(65_535)),
             "image is 100000x5: its width exceeds the limit of 65535 pixels; raise it with --max-width"),
            (.tooLarge(width: 5, height: 100_000, limit: .height(65_535)),
             "image is 5x100000: its height exceeds the limit of 65535 pixels; raise it with --max-height"),
            (.tooLarge(width: 65_500, height: 65_500, limit: .pixels(1 << 28)),
             "image is 65500x65500 = 4290250000 pixels, exceeding the limit of 268435456 pixels; raise it with --max-pixels"),
            (.tooLarge(width: 16_000, height: 16_000, limit: .memory(1 << 31)),
             "image is 16000x16000: decoding it needs more than the memory limit of 2 GiB; raise it with --max-memory"),
            (.fileTooLarge(limit: 1 << 30), "file is larger than the limit of 1 GiB; raise it with --max-file-size"),
            (.fileTooLarge(limit: 1000), "file is larger than the limit of 1000 bytes; raise it with --max-file-size"),
        ]
        for (error, description) in cases {
            XCTAssertEqual(error.description, description)
        }
    }

    /// A 24-bit BMP, which only ImageMagick decodes here.
    func handWrittenBMP(width: Int, height: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let rowBytes = (width * 3 + 3) / 4 * 4
        let rows = [UInt8](repeating: 0x80, count: rowBytes * height)
        return Array("BM".utf8) + le32(54 + rows.count) + le32(0) + le32(54)
            + le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(rows.count)
            + le32(2835) + le32(2835) + le32(0) + le32(0) + rows
    }
}
