import CImageCodecs
import Foundation
import XCTest

@testable import ImageCodecs
@testable import ImageDiff

/// The libdeflate + SIMD-unfilter fast path decodes exactly what libpng decodes.
final class FastPNGTests: XCTestCase {
    var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func pngFiles() throws -> [URL] {
        var directories = [root.appendingPathComponent("Fixtures")]
        let shared = root.deletingLastPathComponent().appendingPathComponent("shared")
        for folder in ["corpus", "conformance/imagemagick/cases"] {
            let url = shared.appendingPathComponent(folder)
            guard FileManager.default.fileExists(atPath: url.path) else {
                XCTFail("missing reference material \(url.path)")
                continue
            }
            directories.append(url)
        }
        return directories.flatMap { directory -> [URL] in
            let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "png" }
        }
    }

    func testFastPathEqualsLibPNGOnEveryPNG() throws {
        var taken = 0
        for url in try pngFiles() {
            let bytes = try [UInt8](Data(contentsOf: url))
            if url.path.contains("cypress") || url.path.contains("syn-8k") { continue }
            try bytes.withUnsafeBufferPointer { buffer in
                let libpng = try PNGDecoder.decodeWithLibPNG(buffer)
                guard let fast = try FastPNGDecoder.decode(buffer) else { return }
                taken += 1
                XCTAssertEqual(fast, libpng, url.lastPathComponent)
            }
        }
        XCTAssertGreaterThan(taken, 20, "the fast path must take the 8-bit RGB/RGBA files")
    }

    /// Every filter type and both pixel sizes, on random rows of awkward lengths.
    func testSIMDUnfilterEqualsScalar() {
        var state: UInt64 = 0x5EED
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for bpp in [3, 4] {
            for pixels in [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 100] {
                let length = pixels * bpp
                for filter in 0...4 {
                    for hasPrevious in [false, true] {
                        let previous = (0..<length).map { _ in next() }
                        var fast = (0..<length).map { _ in next() }
                        var scalar = fast
                        previous.withUnsafeBufferPointer { up in
                            let upPointer = hasPrevious ? up.baseAddress : nil
                            XCTAssertEqual(cic_png_unfilter_row(Int32(filter), &fast, upPointer, length, Int32(bpp)), 1)
                            var reference = filter
                            if filter == 4 && !hasPrevious { reference = 1 }
                            cic_png_unfilter_row_scalar(Int32(reference), &scalar, upPointer, length, Int32(bpp))
                        }
                        XCTAssertEqual(fast, scalar, "filter \(filter) bpp \(bpp) pixels \(pixels) previous \(hasPrevious)")
                    }
                }
            }
        }
    }

    func testBrokenStreamsAreErrorsNotImages() throws {
        let url = root.appendingPathComponent("Fixtures/login/ref.png")
        let bytes = try [UInt8](Data(contentsOf: url))
        for cut in [40, bytes.count / 2, bytes.count - 13] {
            let truncated = Array(bytes.prefix(cut))
            XCTAssertThrowsError(try truncated.withUnsafeBufferPointer { try PNGDecoder.decode($0) }, "cut at \(cut)")
        }
    }
}
