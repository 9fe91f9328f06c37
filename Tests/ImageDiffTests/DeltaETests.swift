import XCTest
import TestSupport
@testable import ImageDiff

/// ΔE against published and reference tables. The Sharma pairs are in the repository
/// (Fixtures/deltae); the sRGB tables are reference material, skipped without it.
final class DeltaETests: XCTestCase {
    func testSharmaCIEDE2000Pairs() throws {
        let rows = try csvRows(at: SharedData.packageRoot.appendingPathComponent("Fixtures/deltae/sharma-ciede2000.csv"))
        XCTAssertEqual(rows.count, 34)
        for row in rows {
            let p = lab(row, "L1", "a1", "b1"), q = lab(row, "L2", "a2", "b2")
            let expected = try XCTUnwrap(Double(row["dE00"] ?? ""))
            XCTAssertEqual(DeltaE.ciede2000(p, q), expected, accuracy: 1e-4, "pair \(row["pair"] ?? "?")")
            XCTAssertEqual(DeltaE.ciede2000(q, p), expected, accuracy: 1e-4, "pair \(row["pair"] ?? "?") swapped")
        }
    }

    func testSRGBToLab() throws {
        let rows = try SharedData.csv("conformance/deltae/srgb_lab.csv")
        XCTAssertEqual(rows.count, 4296)
        for row in rows {
            let color = LabColor(r: byte(row, "R"), g: byte(row, "G"), b: byte(row, "B"))
            let expected = lab(row, "L", "a", "b")
            XCTAssertEqual(color.l, expected.l, accuracy: 1e-6)
            XCTAssertEqual(color.a, expected.a, accuracy: 1e-6)
            XCTAssertEqual(color.b, expected.b, accuracy: 1e-6)
        }
    }

    /// The Lab conversion's own cube root: exact on exact cubes, and within a unit in the last
    /// place of `pow(t, 1/3)` over the range Lab takes it on (t above CIE's ε up to just past
    /// white), where the rounding of 1/3 moves `pow` less than a unit from the exact root.
    /// (glibc's `cbrt` is up to 1.8 units from it there, which is why Lab no longer uses it.)
    func testCubeRootIsWithinAUnitInTheLastPlace() {
        for numerator in 1...512 {
            let root = Double(numerator) / 256
            XCTAssertEqual(LabColor.cubeRoot(root * root * root), root, "\(root)³")
        }
        let samples = 200_000
        for step in 0...samples {
            let t = 216.0 / 24389 + (1.01 - 216.0 / 24389) * Double(step) / Double(samples)
            let (fast, power) = (LabColor.cubeRoot(t), pow(t, 1.0 / 3))
            XCTAssertLessThanOrEqual(abs(fast - power), power.ulp, "cube root of \(t)")
        }
    }

    /// `DeltaEBound` lets a run skip the Lab conversion of a pair, so its bounds must never be
    /// below ΔE76 or ΔE94 (imgdiff's, or Playwright's in its own constants), on random colours,
    /// on near neighbours (the pairs of anti-aliasing and noise) and on greys near black, where
    /// f(t) turns from linear to cube root. They must also be near enough to skip anything: on
    /// near neighbours within 2× of ΔE76 (1.48× measured) and 3× of ΔE94 (2.62×).
    func testDeltaEBoundHoldsAndIsClose() {
        var random = SplitMix(seed: 94)
        var worstNeighbourRatio = 0.0
        var worstNeighbourCeilingRatio = 0.0
        for index in 0..<300_000 {
            let (p, q) = Self.colourPair(index, &random)
            let isNeighbour = index % 3 != 0
            let first = LabColor(r: p.r, g: p.g, b: p.b), second = LabColor(r: q.r, g: q.g, b: q.b)
            let bound = DeltaEBound.squaredCIE76(
                LabColor.whiteRatios(r: p.r, g: p.g, b: p.b), LabColor.whiteRatios(r: q.r, g: q.g, b: q.b)
            ).squareRoot()
            let cie76 = DeltaE.cie76(first, second)
            XCTAssertLessThanOrEqual(cie76, bound * (1 + 1e-12) + 1e-12, "ΔE76 of \(p) and \(q)")
            XCTAssertLessThanOrEqual(DeltaE.cie94(first, second), bound * (1 + 1e-12) + 1e-12, "ΔE94 of \(p) and \(q)")
            let playwrightBound = DeltaEBound.squaredCIE76(
                PlaywrightLab.whiteRatios(SIMD3(p.r, p.g, p.b)), PlaywrightLab.whiteRatios(SIMD3(q.r, q.g, q.b))
            ).squareRoot()
            let playwrightDeltaE = PlaywrightLab.deltaE94(PlaywrightLab(SIMD3(p.r, p.g, p.b)), PlaywrightLab(SIMD3(q.r, q.g, q.b)))
            XCTAssertLessThanOrEqual(playwrightDeltaE, playwrightBound * (1 + 1e-12) + 1e-12, "Playwright's ΔE94 of \(p) and \(q)")
            let ceiling = DeltaEBound.squaredCIE94(
                LabColor.whiteRatios(r: p.r, g: p.g, b: p.b), LabColor.whiteRatios(r: q.r, g: q.g, b: q.b)
            ).squareRoot()
            XCTAssertLessThanOrEqual(DeltaE.cie94(first, second), ceiling * (1 + 1e-12) + 1e-12, "ΔE94 ceiling of \(p) and \(q)")
            let playwrightCeiling = DeltaEBound.squaredCIE94(
                PlaywrightLab.whiteRatios(SIMD3(p.r, p.g, p.b)), PlaywrightLab.whiteRatios(SIMD3(q.r, q.g, q.b))
            ).squareRoot()
            XCTAssertLessThanOrEqual(playwrightDeltaE, playwrightCeiling * (1 + 1e-12) + 1e-12, "Playwright's ΔE94 ceiling of \(p) and \(q)")
            if isNeighbour, playwrightDeltaE > 0.5 { worstNeighbourCeilingRatio = max(worstNeighbourCeilingRatio, playwrightCeiling / playwrightDeltaE) }
            if isNeighbour, cie76 > 0.5 { worstNeighbourRatio = max(worstNeighbourRatio, bound / cie76) }
        }
        XCTAssertLessThan(worstNeighbourRatio, 2)
        XCTAssertLessThan(worstNeighbourCeilingRatio, 3)
    }

    /// The shortcut of ``LabCache/cie94(_:_:isBelow:)`` answers as the full ΔE94 does, at the
    /// thresholds the structural mode compares with and at a colour pair's own ΔE.
    func testLabCacheThresholdTestMatchesTheFullDeltaE() {
        var random = SplitMix(seed: 2300)
        var labCache = LabCache()
        var outcomes = (below: 0, notBelow: 0)
        for index in 0..<100_000 {
            let (p, q) = Self.colourPair(index, &random)
            let full = labCache.cie94(p, q)
            for limit in [2.3, 4.6, 10, 20, full, full.nextUp] {
                let isBelow = labCache.cie94(p, q, isBelow: limit)
                XCTAssertEqual(isBelow, full < limit, "ΔE94 \(full) of \(p) and \(q) against \(limit)")
                if isBelow { outcomes.below += 1 } else { outcomes.notBelow += 1 }
            }
        }
        XCTAssertGreaterThan(outcomes.below, 100_000)
        XCTAssertGreaterThan(outcomes.notBelow, 100_000)
    }

    /// ``DeltaEBound/levelSteps`` bound the ΔE76 of one level's step in each channel from
    /// every 8-bit colour, and each is within a ten-thousandth of the largest such step.
    func testLevelStepsBoundEveryColoursStep() {
        var largest = SIMD3<Double>(repeating: 0)
        var plane = [LabColor](repeating: LabColor(l: 0, a: 0, b: 0), count: 256 * 256)
        var nextPlane = plane
        func fill(_ plane: inout [LabColor], red: Int) {
            for green in 0..<256 {
                for blue in 0..<256 { plane[green * 256 + blue] = LabColor(r: UInt8(red), g: UInt8(green), b: UInt8(blue)) }
            }
        }
        fill(&plane, red: 0)
        for red in 0..<256 {
            if red < 255 { fill(&nextPlane, red: red + 1) }
            for green in 0..<256 {
                for blue in 0..<256 {
                    let colour = plane[green * 256 + blue]
                    if red < 255 { largest.x = max(largest.x, DeltaE.cie76(colour, nextPlane[green * 256 + blue])) }
                    if green < 255 { largest.y = max(largest.y, DeltaE.cie76(colour, plane[(green + 1) * 256 + blue])) }
                    if blue < 255 { largest.z = max(largest.z, DeltaE.cie76(colour, plane[green * 256 + blue + 1])) }
                }
            }
            swap(&plane, &nextPlane)
        }
        let bound = SIMD3(DeltaEBound.levelSteps.r, DeltaEBound.levelSteps.g, DeltaEBound.levelSteps.b)
        for channel in 0..<3 {
            XCTAssertLessThanOrEqual(largest[channel], bound[channel], "channel \(channel)")
            XCTAssertGreaterThan(largest[channel], bound[channel] - 1e-4, "channel \(channel)")
        }
    }

    /// ``DeltaECache`` answers a pair either with its ΔE94 or, only when that is below the
    /// floor asked with, with nil: whatever it kept of the pair from a higher or a lower floor
    /// before. Each pair is asked three times in a row, at floors that rise and fall, and every
    /// kind of answer is seen.
    func testDeltaECacheAnswersAsTheFullDeltaEAtRisingAndFallingFloors() {
        var random = SplitMix(seed: 4096)
        var cache = DeltaECache(), labCache = LabCache()
        var answers = (measured: 0, below: 0)
        for index in 0..<30_000 {
            let (p, q) = Self.colourPair(index, &random)
            let (a, b) = ([p.r, p.g, p.b, 255], [q.r, q.g, q.b, 255])
            let exact = PixelDelta.deltaE(a, b, 0, formula: .cie94)
            for _ in 0..<3 {
                let floor = [0, 0.5, 1, 2.3, 4.6, 10, 30, 80][Int(random.next() % 8)]
                if let answer = cache.deltaE(a, b, 0, formula: .cie94, unlessBelow: floor, labCache: &labCache) {
                    XCTAssertEqual(answer, exact, "ΔE94 of \(p) and \(q)")
                    answers.measured += 1
                } else {
                    XCTAssertLessThan(exact, floor, "\(p) and \(q) answered below the floor \(floor)")
                    answers.below += 1
                }
            }
        }
        XCTAssertGreaterThan(answers.measured, 20_000)
        XCTAssertGreaterThan(answers.below, 20_000)
    }

    /// The ssim-cie94 mode decides every pixel whose ΔE is not within
    /// `PlaywrightLab.approximationMargin` of the threshold or of the largest so far by the
    /// approximate ΔE94 alone, so that must lie within a thousandth of the margin of
    /// Playwright's (its powers), on the same colours as the bounds above, in batches of every
    /// length (lanes beyond the pixels are filled in).
    func testApproximateDeltaE94StaysWithinItsMargin() {
        var random = SplitMix(seed: 1994)
        for batch in 0..<20_000 {
            var first: [SIMD3<UInt8>] = [], second: [SIMD3<UInt8>] = []
            for index in 0..<(batch % 13) {
                let (p, q) = Self.colourPair(batch * 13 + index, &random)
                first.append(SIMD3(p.r, p.g, p.b))
                second.append(SIMD3(q.r, q.g, q.b))
            }
            let approximate = PlaywrightLab.approximateDeltaE94(first, second)
            XCTAssertEqual(approximate.count, first.count)
            for (index, value) in approximate.enumerated() {
                let exact = PlaywrightLab.deltaE94(PlaywrightLab(first[index]), PlaywrightLab(second[index]))
                // Written so that a NaN fails too.
                guard abs(value - exact) <= PlaywrightLab.approximationMargin / 1000 else {
                    return XCTFail("ΔE94 of \(first[index]) and \(second[index]): \(value), Playwright's \(exact)")
                }
            }
        }
    }

    /// Pairs of colours: random ones (one in six), a random one and a grey near black (one in six),
    /// and near neighbours, each channel up to 3 levels apart (the rest).
    static func colourPair(_ index: Int, _ random: inout SplitMix) -> ((r: UInt8, g: UInt8, b: UInt8), (r: UInt8, g: UInt8, b: UInt8)) {
        let p = (r: random.nextByte(), g: random.nextByte(), b: random.nextByte())
        if index % 3 != 0 {
            func nudge(_ value: UInt8) -> UInt8 {
                UInt8(clamping: Int(value) + Int(random.next() % 7) - 3)
            }
            return (p, (nudge(p.r), nudge(p.g), nudge(p.b)))
        } else if index % 6 == 0 {
            let level = UInt8(random.next() % 40)
            return (p, (level, level, level))
        }
        return (p, (random.nextByte(), random.nextByte(), random.nextByte()))
    }

    func testGreysAreExactlyNeutral() {
        for value in 0...255 {
            let grey = LabColor(r: UInt8(value), g: UInt8(value), b: UInt8(value))
            XCTAssertEqual(grey.a, 0, accuracy: 1e-12)
            XCTAssertEqual(grey.b, 0, accuracy: 1e-12)
        }
    }

    func testTwoThousandPairs() throws {
        let rows = try SharedData.csv("conformance/deltae/srgb_pairs_deltae.csv")
        XCTAssertEqual(rows.count, 2000)
        for row in rows {
            let p = LabColor(r: byte(row, "R1"), g: byte(row, "G1"), b: byte(row, "B1"))
            let q = LabColor(r: byte(row, "R2"), g: byte(row, "G2"), b: byte(row, "B2"))
            let id = row["id"] ?? "?"
            XCTAssertEqual(DeltaE.cie76(p, q), double(row, "dE76"), accuracy: 1e-6, "pair \(id)")
            XCTAssertEqual(DeltaE.cie94(p, q), double(row, "dE94"), accuracy: 1e-6, "pair \(id)")
            XCTAssertEqual(DeltaE.ciede2000(p, q), double(row, "dE2000"), accuracy: 1e-6, "pair \(id)")
        }
    }

    /// The per-pixel path (over-white blending, offsets into buffers) gives the table's values.
    func testPixelPathMatchesTable() throws {
        let rows = try SharedData.csv("conformance/deltae/srgb_pairs_deltae.csv").filter { $0["kind"] == "near" }
        XCTAssertEqual(rows.count, 400)
        let first: [UInt8] = rows.flatMap { [byte($0, "R1"), byte($0, "G1"), byte($0, "B1"), 255] }
        let second: [UInt8] = rows.flatMap { [byte($0, "R2"), byte($0, "G2"), byte($0, "B2"), 255] }
        first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                for (index, row) in rows.enumerated() {
                    let value = PixelDelta.deltaE(a.baseAddress!, b.baseAddress!, index * 4, formula: .cie94)
                    XCTAssertEqual(value, double(row, "dE94"), accuracy: 1e-6)
                }
            }
        }
    }

    func testCIE94IsAsymmetric() {
        let saturated = LabColor(r: 200, g: 30, b: 30), pale = LabColor(r: 190, g: 60, b: 60)
        XCTAssertNotEqual(DeltaE.cie94(saturated, pale), DeltaE.cie94(pale, saturated), accuracy: 1e-3)
    }

    private func lab(_ row: [String: String], _ l: String, _ a: String, _ b: String) -> LabColor {
        LabColor(l: double(row, l), a: double(row, a), b: double(row, b))
    }

    private func double(_ row: [String: String], _ key: String) -> Double {
        guard let value = row[key].flatMap(Double.init) else {
            XCTFail("no number in column \(key)")
            return .nan
        }
        return value
    }

    private func byte(_ row: [String: String], _ key: String) -> UInt8 {
        UInt8(double(row, key))
    }
}
