import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// YIQ counts at threshold 0.1 against pixelmatch 7.2.0's, as the reference material's
/// corpus/INDEX.md lists them (``SharedData``).
final class PixelmatchCorpusTests: XCTestCase {
    /// (pair, AA counted, AA ignored) as INDEX.md lists them for pixelmatch 7.2.0.
    static let expected: [(String, Int, Int)] = [
        ("aa", 450, 38),
        ("orange", 1386, 1111),
        ("extreme-alpha", 0, 0),
        ("laptops", 8569, 8566),
        ("clouds", 191, 191),
        ("tiger", 7789, 7783),
    ]

    func testCountsListedInIndexAreTheOnesWeCheck() throws {
        let index = try String(contentsOf: SharedData.url("corpus/INDEX.md"), encoding: .utf8)
        for (pair, counted, ignored) in Self.expected {
            let label = pair == "tiger" ? "tiger (PNG copies)" : pair
            XCTAssertTrue(index.contains("| \(label) |"), pair)
            let row = index.split(separator: "\n").last { $0.hasPrefix("| \(label) |") }
            let cells = row?.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            XCTAssertEqual(cells.count >= 4 ? cells[2] : nil, String(counted), pair)
            XCTAssertEqual(cells.count >= 4 ? cells[3] : nil, String(ignored), pair)
        }
    }

    func testYIQCountsMatchPixelmatch() throws {
        for (pair, counted, ignored) in Self.expected {
            let a = try ImageDecoder.decode(contentsOf: SharedData.url("corpus/\(pair)/a.png").path)
            let b = try ImageDecoder.decode(contentsOf: SharedData.url("corpus/\(pair)/b.png").path)
            let withAA = compare(a, b, options: ComparisonOptions(metric: .yiq(threshold: 0.1)))
            XCTAssertEqual(withAA.differentPixels, counted, "\(pair), AA counted")
            let withoutAA = compare(a, b, options: ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true))
            XCTAssertEqual(withoutAA.differentPixels, ignored, "\(pair), AA ignored")
        }
    }
}
