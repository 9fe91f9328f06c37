import Foundation
import TestSupport
import XCTest

@testable import ImageCodecs
@testable import ImageDiff

/// The structural mode gives the same result, clusters and mask however its passes split the
/// image into row bands, on every noise pair of `Fixtures/render` and every change laid over
/// noise there: each of its models (recompression, colour drift, LCD text, neighbourhood
/// blends, text reflow) meets its own kind of pair.
///
/// These pages are 240 rows high, so by default every pass runs as one band on the calling
/// thread. Three bands run them on several threads at once, which is also what lets
/// ThreadSanitizer (`scripts/sanitize thread`) see the structural mode's banded passes.
final class StructuralBandSplitTests: XCTestCase {
    func testEveryBandSplitGivesTheSameResult() throws {
        let render = SharedData.packageRoot.appendingPathComponent("Fixtures/render")
        var checked = 0
        for kind in ["noise", "changes"] {
            let folder = render.appendingPathComponent(kind)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("new").path)
                .filter { $0.hasSuffix(".png") && (kind == "noise" || $0.contains("+")) }.sorted()
            for name in names {
                let reference = try ImageDecoder.decode(contentsOf: folder.appendingPathComponent("ref/\(name)").path)
                let actual = try ImageDecoder.decode(contentsOf: folder.appendingPathComponent("new/\(name)").path)
                var options = ComparisonOptions(metric: .structural(StructuralRule()), collectsMask: true)
                options.bands = 1
                let oneBand = compare(reference, actual, options: options)
                options.bands = 3
                let threeBands = compare(reference, actual, options: options)
                XCTAssertEqual(oneBand, threeBands, "\(kind)/\(name)")
                XCTAssertNotNil(threeBands.mask, "\(kind)/\(name)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 50)
    }
}
