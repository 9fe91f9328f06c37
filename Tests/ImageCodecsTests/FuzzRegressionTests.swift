import Foundation
import ImageCodecs
import ImageDiff
import XCTest

/// Inputs the fuzzers (scripts/fuzz) reported, kept in Fuzz/regressions/: each must decode or
/// fail with a typed error, quickly, under the default limits and under the fuzzers' own.
final class FuzzRegressionTests: XCTestCase {
    static let regressions = TestPaths.packageRoot.appendingPathComponent("Fuzz/regressions")
    /// The limits the decoder harnesses run with.
    static let fuzzLimits = DecodingLimits(
        maxWidth: 4096, maxHeight: 4096, maxPixels: 1 << 22, maxMemory: 1 << 26, maxFileSize: 1 << 20)

    func reportedInputs() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: Self.regressions, includingPropertiesForKeys: nil)
        let files = (enumerator?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath }
        XCTAssertFalse(files.isEmpty, "no inputs in \(Self.regressions.path)")
        return files.sorted { $0.path < $1.path }
    }

    func testEveryReportedInputIsHandledQuickly() throws {
        for url in try reportedInputs() {
            let bytes = try [UInt8](Data(contentsOf: url))
            for limits in [DecodingLimits.default, Self.fuzzLimits] {
                let start = Date()
                _ = try? ImageDecoder.decode(bytes, name: url.lastPathComponent, limits: limits)
                XCTAssertLessThan(Date().timeIntervalSince(start), 2, url.lastPathComponent)
            }
        }
    }

    /// FuzzJPEGDecode once timed this 710-byte JPEG (a 65,500 × 65,500 frame header followed
    /// by a bogus Huffman table) at 329 s: the machine was paused; it fails in milliseconds.
    func testSlowUnitJPEG() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.regressions.appendingPathComponent("jpeg/slow-unit-5041a844.jpg")))
        for limits in [DecodingLimits.default, Self.fuzzLimits] {
            XCTAssertThrowsError(try ImageDecoder.decode(bytes, name: "slow", limits: limits)) {
                XCTAssertEqual(($0 as? ImageFileError)?.error, .corruptJPEG("Bogus Huffman table definition"))
            }
        }
    }
}
