import Dispatch
import XCTest

@testable import ImageDiff

/// `Array(filling:)`: the elements `fill` writes, and for no elements an empty array made without
/// touching the storage that all empty arrays share.
final class UninitializedArrayTests: XCTestCase {
    func testKeepsTheElementsFillInitialized() {
        let squares = [Int](filling: 5) { buffer, initializedCount in
            for index in 0..<4 { buffer.initializeElement(at: index, to: index * index) }
            initializedCount = 4
        }
        XCTAssertEqual(squares, [0, 1, 4, 9])
    }

    func testNoElementsStillRunsFillOnAnEmptyBuffer() {
        var seen: (count: Int, hasBase: Bool)?
        let empty = [UInt8](filling: 0) { buffer, initializedCount in
            seen = (buffer.count, buffer.baseAddress != nil)
            initializedCount = 0
        }
        XCTAssertEqual(empty, [])
        XCTAssertEqual(seen?.count, 0)
        XCTAssertEqual(seen?.hasBase, false)
    }

    /// Under `scripts/sanitize thread` this fails with a report if an empty result writes to the
    /// shared empty-array storage: the standard library's initializer does, and a row of
    /// ssim-cie94 with no differing pixels once raced another band doing the same.
    func testEmptyResultsOnManyThreadsAtOnce() {
        let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { results.deallocate() }
        let shared = UncheckedSendable(results)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let noDeltas = PlaywrightLab.approximateDeltaE94([], [])
            let noBytes = [UInt8](filling: 0) { _, initializedCount in initializedCount = 0 }
            shared.value[index] = noDeltas.count + noBytes.count
        }
        XCTAssertEqual(Array(results), [Int](repeating: 0, count: 64))
    }
}
