import XCTest
@testable import ImageDiff
@testable import SnapshotRule
@testable import ToleranceTuning

/// `DifferenceProfile` against the comparison it predicts, and `Tuning.recommend` checked by
/// running the real comparison with every setting it recommends.
final class TuningTests: XCTestCase {
    // MARK: Profile

    func testIdenticalImagesHaveAnEmptyProfile() {
        let image = Scene.screen()
        let profile = DifferenceProfile(reference: image, actual: image)
        XCTAssertEqual(profile.differentPixels, 0)
        XCTAssertEqual(profile.maxChannelDeltaHistogram, [image.pixelCount])
        XCTAssertEqual(profile.deltaE94, .init(max: 0, percentile999: 0))
        XCTAssertEqual(profile.maxYIQDelta, 0)
        XCTAssertTrue(profile.premultipliedEqual)
        XCTAssertEqual(profile.perceptualFailures, Array(repeating: 0, count: SnapshotTestingGrid.perceptualPrecisions.count))
    }

    func testProfileAgreesWithTheComparison() {
        let reference = Scene.screen()
        let actual = Scene.screen(accent: RGBA(40, 99, 235), textOffset: 0.25)
        let profile = DifferenceProfile(reference: reference, actual: actual)

        let exact = compare(reference, actual, options: ComparisonOptions(metric: .exact, reportedDeltaE: .cie94))
        XCTAssertEqual(profile.differentPixels, exact.differentPixels)
        XCTAssertEqual(profile.maxChannelDelta, exact.maxChannelDelta)
        XCTAssertEqual(profile.maxChannelDeltaHistogram, Array(exact.maxChannelDeltaHistogram[...exact.maxChannelDelta]))
        XCTAssertEqual(profile.deltaE94.max, exact.maxDeltaE)
        let ciede2000 = compare(reference, actual, options: ComparisonOptions(metric: .exact, reportedDeltaE: .ciede2000))
        XCTAssertEqual(profile.deltaE2000.max, ciede2000.maxDeltaE)

        let withoutAntialiasing = compare(reference, actual, options: ComparisonOptions(metric: .exact, ignoreAntialiasing: true))
        XCTAssertGreaterThan(profile.antialiasedPixels, 0)
        XCTAssertEqual(profile.antialiasedPixels, withoutAntialiasing.antialiasedPixels)
        XCTAssertEqual(profile.pixelsLeftAfterAntialiasing, withoutAntialiasing.differentPixels)
    }

    func testPercentileIsNearestRankOverAllPixels() {
        let reference = RGBAImage(width: 40, height: 25, filledWith: RGBA(100, 100, 100))
        var oneDifferent = reference
        oneDifferent[0, 0] = RGBA(110, 100, 100)
        let single = DifferenceProfile(reference: reference, actual: oneDifferent)
        XCTAssertGreaterThan(single.deltaE94.max, 0)
        XCTAssertEqual(single.deltaE94.percentile999, 0, "rank 999 of 1000 falls on an identical pixel")

        var twoDifferent = oneDifferent
        twoDifferent[1, 0] = RGBA(102, 100, 100)
        let pair = DifferenceProfile(reference: reference, actual: twoDifferent)
        let small = DeltaE.cie94(LabColor(r: 100, g: 100, b: 100), LabColor(r: 102, g: 100, b: 100))
        XCTAssertEqual(pair.deltaE94.percentile999, small, "rank 999 is the smaller of the two differences")
        XCTAssertEqual(pair.deltaE94.max, single.deltaE94.max)
    }

    func testPerceptualFailuresFollowSwiftSnapshotTestingsFloatRule() {
        let reference = Scene.screen()
        let actual = Scene.jittered(Scene.screen(accent: RGBA(60, 90, 230)), amplitude: 3, seed: 3)
        let profile = DifferenceProfile(reference: reference, actual: actual)
        for (index, perceptualPrecision) in SnapshotTestingGrid.perceptualPrecisions.enumerated() {
            let rule = SnapshotPrecision(precision: 1, perceptualPrecision: perceptualPrecision)
            var failing = 0
            for y in 0..<reference.height {
                for x in 0..<reference.width where reference[x, y] != actual[x, y] {
                    let a = reference[x, y], b = actual[x, y]
                    if rule.pixelFails(deltaE: DeltaE.cie94(LabColor(r: a.r, g: a.g, b: a.b), LabColor(r: b.r, g: b.g, b: b.b))) {
                        failing += 1
                    }
                }
            }
            XCTAssertEqual(profile.perceptualFailures[index], failing, "perceptualPrecision \(perceptualPrecision)")
        }
    }

    // MARK: Recommendation

    func testRecommendationSeparatesNoiseFromChangesUnderTheRealComparison() {
        let base = Scene.screen()
        let noise = [
            sample("jitter-1", base, Scene.jittered(base, amplitude: 1, seed: 1)),
            sample("jitter-2", base, Scene.jittered(base, amplitude: 2, seed: 2)),
            sample("text-offset", base, Scene.screen(textOffset: 0.1)),
        ]
        let changes = [
            sample("recolour", base, Scene.screen(accent: RGBA(22, 163, 74))),
            sample("moved", base, Scene.screen(buttonOffset: 3)),
            sample("text", base, Scene.screen(textWidth: 14)),
        ]
        let report = Tuning.recommend(noise: noise, mustFail: changes)
        XCTAssertEqual(report.separates, true)
        let recommended = try? XCTUnwrap(report.recommendedSetting)
        XCTAssertEqual(recommended?.separation?.separates, true)
        XCTAssertEqual(recommended?.separation?.margin, report.settings.compactMap { $0.separation?.margin }.max())

        for setting in report.settings where setting.passesAllNoise {
            for pair in noise {
                XCTAssertTrue(passes(pair, setting), "\(setting.mode.rawValue) must pass noise \(pair.name)")
            }
            guard setting.separation?.separates == true else { continue }
            for pair in changes {
                XCTAssertFalse(passes(pair, setting), "\(setting.mode.rawValue) must fail change \(pair.name)")
            }
        }
    }

    func testSafetyMarginWithoutMustFailPairs() throws {
        let base = Scene.screen()
        let noise = [sample("jitter-2", base, Scene.jittered(base, amplitude: 2, seed: 5))]
        let report = Tuning.recommend(noise: noise, safetyMargin: 0.5)
        XCTAssertNil(report.separates)
        XCTAssertEqual(report.recommended, .ciede2000)
        for setting in report.settings where setting.mode != .snapshotTesting {
            let limit = try XCTUnwrap(setting.noiseLimit)
            let threshold = try XCTUnwrap(setting.threshold)
            if setting.mode == .channel {
                XCTAssertEqual(threshold, 3, "2 levels + 50%")
            } else {
                XCTAssertGreaterThanOrEqual(threshold, limit * 1.5, setting.mode.rawValue)
                XCTAssertLessThan(threshold, limit * 1.5 * 1.1, "rounding to two significant digits adds < 10%")
            }
        }
        let snapshot = try XCTUnwrap(report.setting(.snapshotTesting)?.snapshotTesting)
        XCTAssertEqual(snapshot.precision, 0.999, "at least the 0.1% the 99.9th percentile leaves out")
        XCTAssertGreaterThanOrEqual(Double((1 - snapshot.perceptualPrecision) * 100), noise[0].sample.profile.deltaE94.percentile999 * 1.5)
        XCTAssertEqual(report.recommendedSetting?.cliArguments.prefix(3), ["--metric", "ciede2000", "--threshold"])
    }

    func testThresholdMovesIntoTheGapWhenAChangeIsClose() throws {
        let base = RGBAImage(width: 20, height: 20, filledWith: RGBA(120, 120, 120))
        var noisy = base, changed = base
        noisy[3, 3] = RGBA(122, 120, 120)
        for y in 0..<20 { for x in 0..<20 { changed[x, y] = RGBA(123, 120, 120) } }
        let report = Tuning.recommend(noise: [sample("noise", base, noisy)], mustFail: [sample("change", base, changed)])
        let channel = try XCTUnwrap(report.setting(.channel))
        XCTAssertEqual(channel.noiseLimit, 2)
        XCTAssertEqual(channel.threshold, 2, "2 + 25% rounds to 3, which would pass the change")
        XCTAssertEqual(channel.separation?.separates, true)
        XCTAssertEqual(try XCTUnwrap(channel.separation?.margin), 1.0 / 3, accuracy: 1e-12)
    }

    func testNoSeparationNamesTheOverlappingPairs() {
        let base = Scene.screen()
        let noise = [
            sample("calm", base, Scene.jittered(base, amplitude: 1, seed: 1)),
            sample("wild", base, Scene.jittered(base, amplitude: 40, seed: 2)),
        ]
        var tiny = base
        tiny[5, 5] = RGBA(tiny[5, 5].r &+ 3, tiny[5, 5].g, tiny[5, 5].b)
        let report = Tuning.recommend(noise: noise, mustFail: [sample("tiny", base, tiny)])
        XCTAssertEqual(report.separates, false)
        let separation = report.recommendedSetting?.separation
        XCTAssertEqual(separation?.separates, false)
        XCTAssertEqual(separation?.overlappingChanges, ["tiny"])
        XCTAssertTrue(separation?.overlappingNoise.contains("wild") ?? false)
        XCTAssertLessThan(separation?.margin ?? 1, 0)
    }

    /// swift-snapshot-testing's precision lets through at least 0.1 % of the pixels, more than
    /// noise that leaves none beyond the perceptual limit. Where a change within that limit
    /// cannot be separated, the setting passes a small strong change too, though its share is
    /// above the noise's: the separation names both.
    func testSnapshotTestingNamesTheChangesItsPrecisionPasses() throws {
        let base = RGBAImage(width: 100, height: 100, filledWith: RGBA(120, 120, 120))
        var noisy = base, faint = base, spot = base
        for x in 0..<100 { noisy[x, 3] = RGBA(121, 120, 120) }
        for y in 40..<60 { for x in 40..<60 { faint[x, y] = RGBA(121, 120, 120) } }
        for x in 0..<5 { spot[x, 80] = RGBA(250, 20, 20) }
        let report = Tuning.recommend(noise: [sample("noise", base, noisy)], mustFail: [sample("faint", base, faint), sample("spot", base, spot)])
        let setting = try XCTUnwrap(report.setting(.snapshotTesting))
        XCTAssertEqual(setting.noiseLimit, 0)
        let precision = try XCTUnwrap(setting.snapshotTesting)
        XCTAssertEqual(precision.precision, 0.999)
        XCTAssertEqual(Tuning.snapshotTestingPasses(sample("spot", base, spot).sample.profile, setting: precision), true)
        XCTAssertEqual(setting.separation?.separates, false)
        XCTAssertEqual(setting.separation?.overlappingChanges, ["faint", "spot"], "5 px of 10,000 is within the 0.1 % precision lets through")
    }

    /// The tuner's verdict of a measured pair is the rule's, on the CPU path and on the Metal
    /// path, which reads the share of failing pixels back as a half float.
    func testSnapshotTestingPassesAsTheRuleJudgesOnEitherArithmetic() {
        let base = RGBAImage(width: 10, height: 10, filledWith: RGBA(120, 120, 120))
        var actual = base
        for x in 0..<3 { actual[x, 0] = RGBA(160, 120, 120) }
        let profile = sample("three", base, actual).sample.profile
        let halfShare = 1 - Float(Float16(Float(3) / 100))
        XCTAssertNotEqual(halfShare, 1 - Float(3) / 100)
        var verdicts: [Bool] = []
        for arithmetic in [SnapshotPrecision.PerceptualArithmetic.cpu, .metal] {
            for precision in [0.96, 1 - Float(3) / 100, halfShare, 0.99] as [Float] {
                let setting = SnapshotPrecision(precision: precision, perceptualPrecision: 0.98, arithmetic: arithmetic)
                let rule = setting.verdict(reference: base, actual: actual).passed
                XCTAssertEqual(Tuning.snapshotTestingPasses(profile, setting: setting), rule, "\(arithmetic) \(precision)")
                verdicts.append(rule)
            }
        }
        XCTAssertEqual(verdicts, [true, true, false, false, true, true, true, false], "the two paths part at the half float's share")
    }

    func testNoisePairOfAnotherSizeCannotPass() {
        let base = Scene.screen()
        let taller = RGBAImage(width: base.width, height: base.height + 1, filledWith: RGBA(0, 0, 0))
        let report = Tuning.recommend(noise: [sample("resized", base, taller)])
        XCTAssertNil(report.recommended)
        XCTAssertTrue(report.settings.allSatisfy { !$0.passesAllNoise && $0.cliArguments.isEmpty })
    }

    func testReadableNumbers() {
        XCTAssertEqual(Tuning.roundedUp(2.3, significantDigits: 2), 2.3)
        XCTAssertEqual(Tuning.roundedUp(2.301, significantDigits: 2), 2.4)
        XCTAssertEqual(Tuning.roundedUp(0.0829, significantDigits: 2), 0.083)
        XCTAssertEqual(3.0.plainText, "3")
        XCTAssertEqual(Float(0.98).plainText, "0.98")
    }

    // MARK: Helpers

    func sample(_ name: String, _ reference: RGBAImage, _ actual: RGBAImage) -> (name: String, reference: RGBAImage, actual: RGBAImage, sample: TuningSample) {
        (name, reference, actual, TuningSample(name: name, profile: DifferenceProfile(reference: reference, actual: actual)))
    }

    /// Whether the real comparison (or swift-snapshot-testing's verdict) passes the pair under `setting`.
    func passes(_ pair: (name: String, reference: RGBAImage, actual: RGBAImage, sample: TuningSample), _ setting: TunedSetting) -> Bool {
        if let snapshot = setting.snapshotTesting {
            return snapshot.verdict(reference: pair.reference, actual: pair.actual).passed
        }
        let threshold = setting.threshold ?? 0
        let options: ComparisonOptions
        switch setting.mode {
        case .channel: options = ComparisonOptions(metric: .channel(tolerance: Int(threshold)))
        case .cie94: options = ComparisonOptions(metric: .deltaE(.cie94, threshold: threshold))
        case .ciede2000: options = ComparisonOptions(metric: .deltaE(.ciede2000, threshold: threshold))
        case .yiq: options = ComparisonOptions(metric: .yiq(threshold: threshold))
        case .yiqAntialiasing: options = ComparisonOptions(metric: .yiq(threshold: threshold), ignoreAntialiasing: true)
        case .snapshotTesting: return false
        }
        return compare(pair.reference, pair.actual, options: options).match
    }

    /// A margin outside 0…10 (or NaN) is the nearest one inside, where a negative margin made
    /// negative thresholds and an infinite one trapped; a profile missing the grid's counts has
    /// no snapshot-testing verdict.
    func testMarginsAndProfilesOutsideTheirRanges() throws {
        let base = Scene.screen()
        var noisy = base
        noisy[3, 3] = RGBA(noisy[3, 3].r &+ 3, noisy[3, 3].g, noisy[3, 3].b)
        let noise = [sample("noise", base, noisy).sample]
        for (margin, usable) in [(-2.0, 0.0), (.nan, 0), (-.infinity, 0), (.infinity, 10), (1e300, 10)] {
            XCTAssertEqual(Tuning.usableSafetyMargin(margin), usable)
            let report = Tuning.recommend(noise: noise, safetyMargin: margin)
            XCTAssertEqual(report.safetyMargin, usable)
            XCTAssertEqual(report.settings, Tuning.recommend(noise: noise, safetyMargin: usable).settings, "\(margin)")
        }
        var profile = noise[0].profile
        profile.perceptualFailures = []
        XCTAssertNil(Tuning.snapshotTestingPasses(profile, setting: SnapshotPrecision(precision: 0.99, perceptualPrecision: 0.98)))
        _ = Tuning.recommend(noise: [TuningSample(name: "cut", profile: profile)])
    }
}

extension Tuning {
    static func recommend(
        noise: [(name: String, reference: RGBAImage, actual: RGBAImage, sample: TuningSample)],
        mustFail: [(name: String, reference: RGBAImage, actual: RGBAImage, sample: TuningSample)] = [],
        safetyMargin: Double = 0.25
    ) -> TuningReport {
        recommend(noise: noise.map(\.sample), mustFail: mustFail.map(\.sample), safetyMargin: safetyMargin)
    }
}

/// Small synthetic screens: a header, a button, and "text" bars with anti-aliased edges.
enum Scene {
    static func screen(
        accent: RGBA = RGBA(37, 99, 235), textOffset: Double = 0, buttonOffset: Int = 0, textWidth: Double = 22
    ) -> RGBAImage {
        var image = RGBAImage(width: 64, height: 48, filledWith: RGBA(246, 247, 249))
        fill(&image, x0: 0, y0: 0, x1: 64, y1: 8, accent)
        fill(&image, x0: 36 + Double(buttonOffset), y0: 34, x1: 58 + Double(buttonOffset), y1: 42, accent)
        disc(&image, cx: 12 + textOffset, cy: 38.5, radius: 6, RGBA(245, 158, 11))
        for row in 0..<3 {
            let y = 13.5 + Double(row) * 6
            fill(&image, x0: 6.5 + textOffset, y0: y, x1: 6.5 + textOffset + textWidth - Double(row) * 4, y1: y + 2.5, RGBA(33, 37, 41))
        }
        return image
    }

    /// Composites `color` over the rectangle with exact box coverage at fractional edges.
    static func fill(_ image: inout RGBAImage, x0: Double, y0: Double, x1: Double, y1: Double, _ color: RGBA) {
        for y in max(0, Int(y0))..<min(image.height, Int(y1.rounded(.up))) {
            let cy = min(Double(y + 1), y1) - max(Double(y), y0)
            for x in max(0, Int(x0))..<min(image.width, Int(x1.rounded(.up))) {
                let coverage = (min(Double(x + 1), x1) - max(Double(x), x0)) * cy
                guard coverage > 0 else { continue }
                let p = image[x, y]
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - coverage) + Double(b) * coverage).rounded()) }
                image[x, y] = RGBA(mix(p.r, color.r), mix(p.g, color.g), mix(p.b, color.b))
            }
        }
    }

    /// A disc, its edge pixels covered in proportion to 4 × 4 samples.
    static func disc(_ image: inout RGBAImage, cx: Double, cy: Double, radius: Double, _ color: RGBA) {
        for y in max(0, Int(cy - radius))..<min(image.height, Int(cy + radius) + 1) {
            for x in max(0, Int(cx - radius))..<min(image.width, Int(cx + radius) + 1) {
                var hits = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let dx = Double(x) + (Double(sx) + 0.5) / 4 - cx, dy = Double(y) + (Double(sy) + 0.5) / 4 - cy
                        if dx * dx + dy * dy <= radius * radius { hits += 1 }
                    }
                }
                let coverage = Double(hits) / 16
                guard coverage > 0 else { continue }
                let p = image[x, y]
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - coverage) + Double(b) * coverage).rounded()) }
                image[x, y] = RGBA(mix(p.r, color.r), mix(p.g, color.g), mix(p.b, color.b))
            }
        }
    }

    /// Each channel moved by up to `amplitude` levels, deterministically.
    static func jittered(_ image: RGBAImage, amplitude: Int, seed: UInt64) -> RGBAImage {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var copy = image
        for index in copy.pixels.indices where index % 4 != 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let offset = Int(state >> 33) % (2 * amplitude + 1) - amplitude
            copy.pixels[index] = UInt8(clamping: Int(copy.pixels[index]) + offset)
        }
        return copy
    }
}
