import XCTest
@testable import ImageDiff

/// The band split every whole-image pass runs on: each row in exactly one band, results in
/// band order, whatever the thread that made them.
final class RowBandsTests: XCTestCase {
    func testMapCoversEveryRowOnceInBandOrder() {
        for (height, bands) in [(1000, 7), (5, 8), (1, 3), (64, 64), (97, 1)] {
            let results = RowBands.map(height: height, bands: bands) { band, rows in (band: band, rows: rows) }
            XCTAssertEqual(results.count, min(bands, height), "height \(height), bands \(bands)")
            XCTAssertEqual(results.map(\.band), Array(0..<results.count))
            XCTAssertEqual(results.first?.rows.lowerBound, 0)
            XCTAssertEqual(results.last?.rows.upperBound, height)
            for (before, after) in zip(results, results.dropFirst()) {
                XCTAssertEqual(before.rows.upperBound, after.rows.lowerBound)
            }
            XCTAssertEqual(results.reduce(0) { $0 + $1.rows.count }, height)
        }
    }

    func testMapOfNoRowsRunsOneEmptyBand() {
        let results = RowBands.map(height: 0, bands: 4) { _, rows in rows }
        XCTAssertEqual(results, [0..<0])
    }

    func testMapKeepsWhatEachBandComputed() {
        let sums = RowBands.map(height: 300, bands: 6) { _, rows in rows.reduce(0, +) }
        XCTAssertEqual(sums.reduce(0, +), (0..<300).reduce(0, +))
        XCTAssertEqual(sums, (0..<6).map { band in (band * 50..<(band + 1) * 50).reduce(0, +) })
    }
}
