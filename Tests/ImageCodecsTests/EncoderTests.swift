import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

final class EncoderTests: XCTestCase {
    /// Deterministic noise, so that every sample value and filter path occurs.
    private func noise(count: Int, seed: UInt64) -> [UInt64] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { _ in generator.next() }
    }

    private func image8(width: Int, height: Int, alpha: Bool, seed: UInt64 = 1) -> RGBAImage {
        var pixels = noise(count: width * height * 4, seed: seed).map { UInt8(truncatingIfNeeded: $0) }
        if !alpha { for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 } }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
    }

    private func image16(width: Int, height: Int, alpha: Bool, seed: UInt64 = 2) -> RGBAImage {
        var samples = noise(count: width * height * 4, seed: seed).map { UInt16(truncatingIfNeeded: $0) }
        if !alpha { for i in stride(from: 3, to: samples.count, by: 4) { samples[i] = 65535 } }
        return RGBAImage(width: width, height: height, samples16: samples, hasAlpha: alpha)
    }

    /// Compares two images without printing megabytes of samples on failure.
    private func assertSameImage(_ actual: RGBAImage, _ expected: RGBAImage, _ message: String = "",
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.width, expected.width, message, file: file, line: line)
        XCTAssertEqual(actual.height, expected.height, message, file: file, line: line)
        XCTAssertEqual(actual.hasAlpha, expected.hasAlpha, message, file: file, line: line)
        XCTAssertEqual(actual.is16Bit, expected.is16Bit, message, file: file, line: line)
        if actual.pixels.count == expected.pixels.count,
           let index = actual.pixels.indices.first(where: { actual.pixels[$0] != expected.pixels[$0] }) {
            XCTFail("\(message): 8-bit samples differ first at \(index)", file: file, line: line)
        }
        if let a = actual.samples16, let e = expected.samples16, a != e {
            XCTFail("\(message): 16-bit samples differ", file: file, line: line)
        }
        XCTAssertTrue(actual == expected, message, file: file, line: line)
    }

    /// IHDR's bit depth and colour type bytes.
    private func header(_ png: [UInt8]) -> (bitDepth: UInt8, colorType: UInt8) { (png[24], png[25]) }

    func testRoundTrip8BitRGBA() throws {
        let image = image8(width: 37, height: 23, alpha: true)
        for level in [0, 1, PNGEncoder.defaultCompressionLevel, 3] {
            let png = try PNGEncoder.encode(image, compressionLevel: level)
            XCTAssertTrue(header(png) == (8, 6))
            assertSameImage(try ImageDecoder.decode(png, name: "rgba8"), image, "level \(level)")
        }
    }

    /// Every width from 1 to 21 (the writer packs RGBA rows to RGB four pixels at a time,
    /// and the last few one by one), and a wide image.
    func testRoundTrip8BitRGB() throws {
        for width in Array(1...21) + [40, 1170] {
            let image = image8(width: width, height: 3, alpha: false, seed: UInt64(width))
            let png = try PNGEncoder.encode(image)
            XCTAssertTrue(header(png) == (8, 2))
            assertSameImage(try ImageDecoder.decode(png, name: "rgb8"), image, "width \(width)")
        }
    }

    /// Masks of every width from 1 to 21 and a wide one (the writer packs eight mask bytes at a
    /// time, the rest one by one), sparse and dense, any nonzero byte marking a pixel: marked
    /// pixels decode in the colour, the others transparent.
    func testMaskRoundTrip() throws {
        var generator = SplitMix(seed: 0x1B17)
        let colour = RGBA(255, 0, 0, 255)
        for width in Array(1...21) + [1170] {
            for density: UInt64 in [2, 50, 98] {
                let bits = (0..<(width * 3)).map { _ -> UInt8 in
                    generator.next() % 100 < density ? UInt8(1 + generator.next() % 255) : 0
                }
                let mask = DifferenceMask(width: width, height: 3, bits: bits)
                let decoded = try ImageDecoder.decode(PNGEncoder.encode(mask: mask, color: colour), name: "mask")
                let expected = bits.flatMap { $0 != 0 ? [UInt8(255), 0, 0, 255] : [UInt8(0), 0, 0, 0] }
                XCTAssertTrue(decoded.pixels == expected, "width \(width), \(density) % marked")
            }
        }
    }

    func testRoundTrip16Bit() throws {
        for alpha in [true, false] {
            let image = image16(width: 19, height: 11, alpha: alpha)
            let png = try PNGEncoder.encode(image)
            XCTAssertTrue(header(png) == (16, alpha ? 6 : 2))
            assertSameImage(try ImageDecoder.decode(png, name: "16-bit"), image, "alpha \(alpha)")
        }
    }

    func testOpaqueImagesDropAlpha() throws {
        let translucent = image8(width: 5, height: 4, alpha: true, seed: 9)
        let opaque = RGBAImage(width: 5, height: 4, pixels: translucent.pixels, hasAlpha: false)
        let decoded = try ImageDecoder.decode(PNGEncoder.encode(opaque), name: "rgb")
        XCTAssertFalse(decoded.hasAlpha)
        for i in 0..<decoded.pixels.count {
            XCTAssertEqual(decoded.pixels[i], i % 4 == 3 ? 255 : translucent.pixels[i])
        }
    }

    func testSamples16TakePrecedenceOverPixels() throws {
        let image = image16(width: 3, height: 2, alpha: true)
        let decoded = try ImageDecoder.decode(PNGEncoder.encode(image), name: "16")
        XCTAssertTrue(decoded.samples16 == image.samples16)
    }

    func testInvalidImagesAndLevelsAreErrorsNotCrashes() {
        XCTAssertThrowsError(try PNGEncoder.encode(RGBAImage(width: 0, height: 0, pixels: [])))
        let image = image8(width: 2, height: 2, alpha: true)
        XCTAssertThrowsError(try PNGEncoder.encode(image, compressionLevel: 4))
        XCTAssertThrowsError(try PNGEncoder.encode(image, compressionLevel: -1))
    }

    /// igzip's level-1 kernel hashes the third byte of a stream without history from the address
    /// of the stream's own struct, so the deflated bytes changed with where the heap put each
    /// deflater (one blend in several batch runs differed). Many deflaters alive at once sit at
    /// many addresses. Each deflates rows whose filtered bytes repeat their first four with a
    /// period of four, as a short last piece (few hash buckets): wherever the stray hash lands
    /// on the first four bytes' bucket, the match at the second period is lost. Against the
    /// unguarded encoder, two to four of the sixteen rows came out two ways in each of 3 runs.
    func testDeflatedBytesDoNotDependOnWhereTheDeflaterLives() throws {
        let width = 6
        let layout = PNGWriter.Layout(rendered: true)
        // Pixels (x, y, z, 2) filter to 2, x, y, z, 2, x, y, z, ...: the Up filter's type byte is 2.
        let rows: [[UInt8]] = (0..<16).map { (k: Int) -> [UInt8] in
            let pixel: [UInt8] = [k * 13 + 1, k * 29 + 3, k * 7 + 5, 2].map { UInt8(truncatingIfNeeded: $0) }
            return Array([[UInt8]](repeating: pixel, count: width).joined())
        }
        let deflaters = (0..<64).compactMap { _ in
            PNGWriter.BandDeflater(layout: layout, width: width, maxRows: 1, level: PNGEncoder.defaultCompressionLevel)
        }
        XCTAssertEqual(deflaters.count, 64)
        for row in rows {
            let pieces = deflaters.map { deflater -> (bytes: [UInt8], adler: UInt32) in
                let piece = deflater.deflate(0..<1, final: true) { _, output in output.update(from: row, count: row.count) }
                return piece.map { (Array($0.bytes), $0.adler) } ?? ([], 0)
            }
            let encodings = Set(pieces.map { $0.bytes })
            XCTAssertEqual(encodings.count, 1, "row \(row.prefix(4)): \(encodings.count) different encodings")
            var zlib = PNGWriter.ZlibStream()
            pieces[0].bytes.withUnsafeBufferPointer { zlib.append($0, adler: pieces[0].adler, filteredCount: row.count + 1) }
            let file = PNGWriter.file(zlib, width: width, height: 1, layout: layout)
            XCTAssertEqual(try ImageDecoder.decode(file, name: "row").pixels, row)
        }
    }

    func testEncodedFilesHaveNoColourChunks() throws {
        let png = try PNGEncoder.encode(image8(width: 4, height: 4, alpha: true))
        XCTAssertEqual(pngChunks(png).map(\.type).filter { $0 != "IDAT" }, ["IHDR", "IEND"])
    }

    // MARK: - ImageFile

    func testWritePNGIsReadBackAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.path("out.png")
        let first = image8(width: 9, height: 9, alpha: true, seed: 3)
        try ImageFile.writePNG(first, to: path)
        assertSameImage(try ImageDecoder.decode(contentsOf: path), first)

        let second = image16(width: 4, height: 6, alpha: false)
        try ImageFile.writePNG(second, to: path)
        assertSameImage(try ImageDecoder.decode(contentsOf: path), second)
        XCTAssertEqual(try directory.contents(), ["out.png"])
    }

    func testWriteAndReadBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try ImageFile.write(bytes, to: directory.path("data.bin"))
        XCTAssertEqual(try ImageFile.read(directory.path("data.bin")), bytes)
        try ImageFile.write([], to: directory.path("empty"))
        XCTAssertEqual(try ImageFile.read(directory.path("empty")), [])
        XCTAssertEqual(try directory.contents(), ["data.bin", "empty"])
    }

    func testCreateWritesANewFileAndNeverReplacesOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try ImageFile.create(bytes, at: directory.path("new.bin"))
        XCTAssertEqual(try ImageFile.read(directory.path("new.bin")), bytes)
        XCTAssertThrowsError(try ImageFile.create([9], at: directory.path("new.bin"))) { error in
            XCTAssertEqual((error as? ImageFileError)?.path, directory.path("new.bin"))
        }
        XCTAssertEqual(try ImageFile.read(directory.path("new.bin")), bytes)
        XCTAssertEqual(symlink(directory.path("new.bin"), directory.path("link.bin")), 0)
        XCTAssertThrowsError(try ImageFile.create([9], at: directory.path("link.bin")))
        XCTAssertEqual(try ImageFile.read(directory.path("new.bin")), bytes)
        XCTAssertThrowsError(try ImageFile.create([9], at: directory.path("missing/x.bin"))) { error in
            XCTAssertEqual((error as? ImageFileError)?.error, .cannotWrite("no such directory"))
        }
        XCTAssertEqual(try directory.contents(), ["link.bin", "new.bin"])
    }

    func testRelativePathsWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory.url.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        try ImageFile.write([1, 2, 3], to: "relative.bin")
        XCTAssertEqual(try ImageFile.read(directory.path("relative.bin")), [1, 2, 3])
    }

    func testWriteIntoMissingDirectoryFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.path("missing/out.png")
        XCTAssertThrowsError(try ImageFile.writePNG(image8(width: 2, height: 2, alpha: true), to: path)) { error in
            XCTAssertEqual(error as? ImageFileError, ImageFileError(path: path, error: .cannotWrite("no such directory")))
            XCTAssertEqual("\(error)", "\(path): cannot write: no such directory")
        }
        XCTAssertEqual(try directory.contents(), [])
    }

    func testWriteOverADirectoryFailsAndLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.path("sub"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try ImageFile.write([1], to: directory.path("sub"))) { error in
            XCTAssertEqual((error as? ImageFileError)?.error, .cannotWrite("is a directory"))
        }
        XCTAssertThrowsError(try ImageFile.write([1], to: directory.url.path + "/")) { error in
            XCTAssertEqual((error as? ImageFileError)?.error, .cannotWrite("is a directory"))
        }
        XCTAssertEqual(try directory.contents(), ["sub"])
    }

    func testWriteIntoReadOnlyDirectoryFails() throws {
        try XCTSkipIf(getuid() == 0, "root ignores directory permissions")
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path) }
        XCTAssertThrowsError(try ImageFile.write([1], to: directory.path("x.png"))) { error in
            XCTAssertEqual((error as? ImageFileError)?.error, .cannotWrite("permission denied"))
        }
    }
}
