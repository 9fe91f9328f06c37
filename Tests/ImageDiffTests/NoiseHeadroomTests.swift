import XCTest

@testable import ImageDiff
@testable import ToleranceTuning

/// How close the noise came to failing a structural setting: the passing cluster of each kind
/// nearest to failing, failing clusters left out.
final class NoiseHeadroomTests: XCTestCase {
    func cluster(_ pixels: Int, deltaE: Double, fails: Bool = false) -> DifferenceCluster {
        DifferenceCluster(pixels: pixels, boundingBox: PixelRect(minX: 0, minY: 0, maxX: 3, maxY: 3), maxDeltaE: deltaE, fails: fails)
    }

    func testLargestPassingClusterOfEachKindAcrossPairs() {
        let rule = StructuralRule(minimumClusterPixels: 16)
        let headroom = NoiseHeadroom(rule: rule, noise: [
            ("a.png", [cluster(5, deltaE: 40), cluster(12, deltaE: 4), cluster(30, deltaE: 60, fails: true)]),
            ("b.png", [cluster(7, deltaE: 10), cluster(3, deltaE: 9.99)]),
            ("c.png", []),
        ])
        XCTAssertEqual(headroom.strong, .init(pair: "b.png", pixels: 7, maxDeltaE: 10, amongScatteredNoise: false, failsFromPixels: 8))
        XCTAssertEqual(headroom.weak, .init(pair: "a.png", pixels: 12, maxDeltaE: 4, amongScatteredNoise: false, failsFromPixels: 16))
        XCTAssertEqual(
            headroom.explanation,
            "Noise headroom: the passing cluster of ΔE 10+ nearest to failing has 7 px (b.png, ΔE 10.0), where one of 8 px fails;"
                + " the fainter passing cluster nearest to failing has 12 px (a.png), where one of 16 px fails.")
    }

    /// On a page of 40+ strong clusters the scattered-noise model lets strong clusters under the
    /// cluster size pass: the line says that limit, not the strong one.
    func testStrongClusterOnScatteredNoiseNamesTheClusterSize() {
        let scattered = (0..<StructuralRule.scatteredNoiseClusters).map { _ in cluster(2, deltaE: 50) } + [cluster(20, deltaE: 70)]
        let headroom = NoiseHeadroom(rule: StructuralRule(), noise: [("page.png", scattered)])
        XCTAssertEqual(headroom.strong?.pixels, 20)
        XCTAssertEqual(headroom.strong?.amongScatteredNoise, true)
        XCTAssertNil(headroom.weak)
        XCTAssertTrue(headroom.explanation.contains("on a page of scattered noise, where only 40 px fail"), headroom.explanation)
        XCTAssertTrue(headroom.explanation.hasSuffix("none leaves a fainter one."), headroom.explanation)

        var off = StructuralRule()
        off.explainsScatteredNoise = false
        XCTAssertEqual(NoiseHeadroom(rule: off, noise: [("page.png", scattered)]).strong?.amongScatteredNoise, false)
    }

    /// Nearest to failing is by the share of the size from which a cluster fails: 6 of 8 px
    /// off scattered noise is nearer than 20 of 40 on it, although smaller.
    func testNearestIsTheLargestShareOfItsLimit() {
        let scattered = (0..<StructuralRule.scatteredNoiseClusters).map { _ in cluster(2, deltaE: 50) } + [cluster(20, deltaE: 70)]
        let headroom = NoiseHeadroom(rule: StructuralRule(), noise: [("scattered.png", scattered), ("quiet.png", [cluster(6, deltaE: 30)])])
        XCTAssertEqual(headroom.strong, .init(pair: "quiet.png", pixels: 6, maxDeltaE: 30, amongScatteredNoise: false, failsFromPixels: 8))
        let reversed = NoiseHeadroom(rule: StructuralRule(), noise: [("quiet.png", [cluster(6, deltaE: 30)]), ("scattered.png", scattered)])
        XCTAssertEqual(reversed.strong, headroom.strong)
    }

    func testNearnessIsTheNearerShare() {
        let headroom = NoiseHeadroom(rule: StructuralRule(minimumClusterPixels: 16), noise: [("a.png", [cluster(5, deltaE: 40), cluster(12, deltaE: 4)])])
        XCTAssertEqual(headroom.nearness, 0.75, "12 of 16 beats 5 of 8")
        XCTAssertEqual(NoiseHeadroom(rule: StructuralRule(), noise: [("a.png", [])]).nearness, 0)
    }

    /// Merged over pairs, the nearest of each kind across them, as if measured together.
    func testMergingEqualsMeasuringTogether() {
        let rule = StructuralRule(minimumClusterPixels: 16)
        let noise = [
            ("a.png", [cluster(5, deltaE: 40), cluster(12, deltaE: 4)]), ("b.png", [cluster(7, deltaE: 10), cluster(3, deltaE: 9.99)]),
            ("c.png", [cluster(12, deltaE: 2)]),
        ]
        let parts = noise.map { NoiseHeadroom(rule: rule, noise: [$0]) }
        XCTAssertEqual(NoiseHeadroom(merging: parts), NoiseHeadroom(rule: rule, noise: noise))
        XCTAssertEqual(NoiseHeadroom(merging: parts)?.weak?.pair, "a.png", "a tie keeps the first")
        XCTAssertNil(NoiseHeadroom(merging: []))
    }

    func testNoClustersAtAll() {
        let headroom = NoiseHeadroom(rule: StructuralRule(), noise: [("a.png", []), ("b.png", [cluster(50, deltaE: 3, fails: true)])])
        XCTAssertNil(headroom.strong)
        XCTAssertNil(headroom.weak)
        XCTAssertEqual(headroom.explanation, "Noise headroom: no noise pair leaves a cluster of ΔE 10+; none leaves a fainter one.")
    }

    /// Cluster sizes near `Int.max` are compared without overflowing.
    func testHugeClusterSizesCompareWithoutOverflow() {
        let rule = StructuralRule(minimumClusterPixels: .max)
        let headroom = NoiseHeadroom(rule: rule, noise: [("a.png", [cluster(5, deltaE: 4)]), ("b.png", [cluster(7, deltaE: 4)])])
        XCTAssertEqual(headroom.weak?.pixels, 7)
    }
}
