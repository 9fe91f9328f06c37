import Foundation
import ImageDiff
import ImageDiffSnapshotTesting
import SnapshotTesting
import XCTest

/// The numbers behind the Intel vs ARM advice in Docs/SnapshotTesting.md: what a drift of ±1 or
/// ±2 levels per channel costs in ΔE94 (and so in `perceptualPrecision`), and what a share of
/// changed bytes needs in `precision`.
///
/// The colour search runs over every 8th level (plus 255) in each channel, which holds the worst
/// case; `IMGDIFF_EXHAUSTIVE_DRIFT=1` searches all 16.7 million colours, which confirms every
/// number here (about 7 minutes in a release build).
final class DriftToleranceTests: XCTestCase {
    /// Every reference colour moved by every per-channel drift in −k…k: the largest ΔE94
    /// (reference = the recorded colour) is 1.8444 for ±1 and 3.6752 for ±2, both at the dark
    /// grey (24, 24, 24), where sRGB's linear segment makes a level count most.
    func testWorstCaseDeltaE94OfOneAndTwoLevelDrift() {
        let one = Self.largestDeltaE94(drift: 1)
        XCTAssertEqual(one.deltaE, 1.844381, accuracy: 1e-6)
        XCTAssertEqual(one.reference, RGBA(24, 24, 24))
        let two = Self.largestDeltaE94(drift: 2)
        XCTAssertEqual(two.deltaE, 3.675240, accuracy: 1e-6)
        XCTAssertEqual(two.reference, RGBA(24, 24, 24))
        print("ΔE94 worst case: ±1 → \(one), ±2 → \(two)")
    }

    /// The largest `perceptualPrecision`, in steps of 0.001, that forgives every ±k drift, and
    /// the verdicts of the values teams use.
    func testPerceptualPrecisionThatForgivesDrift() {
        XCTAssertEqual(Self.largestForgivingPerceptualPrecision(deltaE: 1.844381), 0.981)
        XCTAssertEqual(Self.largestForgivingPerceptualPrecision(deltaE: 3.675240), 0.963)

        let grey = RGBAImage(width: 2, height: 2, filledWith: RGBA(24, 24, 24))
        var oneLevel = grey, twoLevels = grey
        oneLevel[1, 1] = RGBA(23, 25, 23)
        twoLevels[1, 1] = RGBA(26, 22, 26)
        func passes(_ actual: RGBAImage, _ perceptualPrecision: Float) -> Bool {
            ImageSnapshotComparison(perceptualPrecision: perceptualPrecision)
                .evaluate(reference: grey, actual: actual).verdict.passed
        }
        XCTAssertTrue(passes(oneLevel, 0.98))
        XCTAssertFalse(passes(oneLevel, 0.99))
        XCTAssertFalse(passes(twoLevels, 0.97))
        XCTAssertTrue(passes(twoLevels, 0.96))
    }

    /// How much of colour space a ±2 drift can push past `perceptualPrecision: 0.97` (ΔE94
    /// 2.9999971 in `Float`): only dark colours. All 16.7 million colours give 22,627 (0.135 %),
    /// none with a channel above 93.
    func testShareOfColoursThatTwoLevelDriftPushesPastThree() {
        var over = 0, total = 0
        var darkest = 0
        for reference in Self.searchColors() {
            let deltaE = Self.largestDeltaE94(from: reference, drift: 2).deltaE
            total += 1
            if SnapshotPrecision(perceptualPrecision: 0.97).pixelFails(deltaE: deltaE) {
                over += 1
                darkest = max(darkest, Int(max(reference.r, reference.g, reference.b)))
            }
        }
        let share = Double(over) / Double(total)
        XCTAssertLessThan(share, 0.005)
        XCTAssertLessThanOrEqual(darkest, 93)
        print("±2 drift over ΔE94 3: \(over) of \(total) colours (\(share * 100) %), none with a channel above \(darkest)")
    }

    /// In byte mode only the count of changed bytes matters, not by how much they changed, and
    /// the allowance `Int((1 − precision) · bytes)` is computed in `Float` and truncated: whether
    /// `precision = 1 − share` admits exactly that share is down to rounding, while 0.001 less
    /// always does.
    func testPrecisionForAShareOfChangedBytes() {
        func admits(_ precision: Float, changedBytes: Int, of byteCount: Int) -> Bool {
            changedBytes <= Int((1 - precision) * Float(byteCount))
        }
        let screenshot = 1170 * 2532 * 4
        for byteCount in [400, 4000, 40_000, screenshot] {
            for (percent, precision) in [(0.5, Float(0.995)), (1, 0.99), (1.5, 0.985), (2, 0.98)] {
                let changed = Int((Double(byteCount) * percent / 100).rounded())
                XCTAssertTrue(admits(precision - 0.001, changedBytes: changed, of: byteCount), "\(percent) % of \(byteCount)")
                print("\(percent) % of \(byteCount) bytes at precision \(precision):", admits(precision, changedBytes: changed, of: byteCount))
            }
        }
        XCTAssertFalse(admits(0.99, changedBytes: 4, of: 400))
        XCTAssertTrue(admits(0.985, changedBytes: 177_746, of: screenshot))

        // A ±1 drift usually changes R, G and B of a pixel: 3 of its 4 bytes. 20 such pixels of
        // 1000 are 60 of 4000 bytes, 1.5 %: 0.985 admits 59 of them, 0.984 all 60.
        let reference = RGBAImage(width: 1000, height: 1, filledWith: RGBA(120, 130, 140))
        var drifted = reference
        for x in 0..<20 { drifted[x, 0] = RGBA(121, 129, 141) }
        func passes(_ precision: Float) -> Bool {
            ImageSnapshotComparison(precision: precision).evaluate(reference: reference, actual: drifted).verdict.passed
        }
        XCTAssertFalse(passes(0.985))
        XCTAssertTrue(passes(0.984))
    }

    // MARK: - The search

    struct Worst: CustomStringConvertible, Equatable {
        var deltaE: Double
        var reference: RGBA
        var drifted: RGBA
        var description: String { "ΔE94 \(deltaE) from \(reference) to \(drifted)" }
    }

    static var exhaustive: Bool { ProcessInfo.processInfo.environment["IMGDIFF_EXHAUSTIVE_DRIFT"] == "1" }

    static func searchLevels() -> [Int] {
        exhaustive ? Array(0...255) : Array(stride(from: 0, through: 248, by: 8)) + [255]
    }

    static func searchColors() -> [RGBA] {
        let levels = searchLevels()
        return levels.flatMap { r in
            levels.flatMap { g in levels.map { b in RGBA(UInt8(r), UInt8(g), UInt8(b)) } }
        }
    }

    static func largestDeltaE94(drift: Int) -> Worst {
        var worst = Worst(deltaE: 0, reference: RGBA(0, 0, 0), drifted: RGBA(0, 0, 0))
        for reference in searchColors() {
            let candidate = largestDeltaE94(from: reference, drift: drift)
            if candidate.deltaE > worst.deltaE { worst = candidate }
        }
        return worst
    }

    static func largestDeltaE94(from reference: RGBA, drift: Int) -> Worst {
        let lab = LabColor(r: reference.r, g: reference.g, b: reference.b)
        var worst = Worst(deltaE: 0, reference: reference, drifted: reference)
        func moved(_ value: UInt8, _ delta: Int) -> UInt8? {
            let result = Int(value) + delta
            return (0...255).contains(result) ? UInt8(result) : nil
        }
        for dr in -drift...drift {
            guard let r = moved(reference.r, dr) else { continue }
            for dg in -drift...drift {
                guard let g = moved(reference.g, dg) else { continue }
                for db in -drift...drift {
                    guard let b = moved(reference.b, db) else { continue }
                    let deltaE = DeltaE.cie94(lab, LabColor(r: r, g: g, b: b))
                    if deltaE > worst.deltaE { worst = Worst(deltaE: deltaE, reference: reference, drifted: RGBA(r, g, b)) }
                }
            }
        }
        return worst
    }

    /// The largest multiple of 0.001 whose `Float` threshold `(1 − p) · 100` is at least `deltaE`.
    static func largestForgivingPerceptualPrecision(deltaE: Double) -> Double {
        let candidates = (900...1000).map { Double($0) / 1000 }
        return candidates.last { !SnapshotPrecision(perceptualPrecision: Float($0)).pixelFails(deltaE: deltaE) } ?? 0
    }
}
