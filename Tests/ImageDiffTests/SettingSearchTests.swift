import XCTest

@testable import ImageDiff
@testable import ToleranceTuning

/// `imgdiff tune`'s search: candidates × allowance trained on labelled pairs, canaries as hard
/// limits, and leave-one-out cross-validation.
final class SettingSearchTests: XCTestCase {
    let candidates = [
        TuningCandidate(metric: .channel(tolerance: 0)), TuningCandidate(metric: .channel(tolerance: 8)),
    ]

    func pair(_ name: String, _ label: PairEvaluation.Label, _ counts: [Int]) -> PairEvaluation {
        PairEvaluation(name: name, label: label, counts: counts)
    }

    func testTrainingPicksTheWidestSeparationAndAnAllowanceInTheGap() throws {
        let pairs = [
            pair("n1", .noise, [500, 4]), pair("n2", .noise, [800, 0]),
            pair("c1", .change, [900, 100]), pair("c2", .change, [2000, 40]),
        ]
        let trained = try XCTUnwrap(SettingSearch.train(pairs, candidates: candidates, safetyMargin: 0.25))
        XCTAssertEqual(trained.candidateIndex, 1, "41/5 apart beats 901/801")
        XCTAssertEqual(trained.maxDiffPixels, 5, "4 + 25 %, rounded up")
        XCTAssertEqual(trained.misjudged, [])
        XCTAssertEqual(trained.worstNoise?.name, "n1")
        XCTAssertEqual(trained.weakestChange?.name, "c2")

        XCTAssertEqual(trained, try XCTUnwrap(SettingSearch.train(pairs, candidates: candidates, safetyMargin: 0.25)))
        var renamed = pairs
        renamed[0].name = "n1-renamed"
        XCTAssertNotEqual(trained, try XCTUnwrap(SettingSearch.train(renamed, candidates: candidates, safetyMargin: 0.25)),
                          "settings that name another worst noise pair are not equal")
    }

    /// Both candidates judge every pair right and pass no noise pixel, but the first leaves a
    /// noise cluster at 7/8 of the size from which it fails: within the 25 % safety margin, so
    /// the second wins though its change sits closer; with no margin the first, wider, wins.
    func testNoiseWithinTheSafetyMarginOfFailingLosesToNoiseClearOfIt() throws {
        func headroom(_ pixels: Int) -> NoiseHeadroom {
            let cluster = DifferenceCluster(pixels: pixels, boundingBox: PixelRect(minX: 0, minY: 0, maxX: 3, maxY: 3), maxDeltaE: 20, fails: false)
            return NoiseHeadroom(rule: StructuralRule(), noise: [("n", [cluster])])
        }
        let pairs = [
            PairEvaluation(name: "n", label: .noise, counts: [0, 0], headroom: [headroom(7), headroom(4)]),
            pair("c", .change, [90, 30]),
        ]
        let trained = try XCTUnwrap(SettingSearch.train(pairs, candidates: candidates, safetyMargin: 0.25))
        XCTAssertEqual(trained.candidateIndex, 1)
        XCTAssertEqual(trained.noiseNearness, 0.5)
        XCTAssertEqual(try XCTUnwrap(SettingSearch.train(pairs, candidates: candidates, safetyMargin: 0)).candidateIndex, 0)
        let misjudging = pairs + [pair("c2", .change, [40, 0])]
        XCTAssertEqual(
            try XCTUnwrap(SettingSearch.train(misjudging, candidates: candidates, safetyMargin: 0.25)).candidateIndex, 0,
            "judging the pairs right comes first")
    }

    func testAllowanceStopsHalfWayToACloseChange() throws {
        let pairs = [pair("n", .noise, [1000, 100]), pair("c", .change, [1000, 110])]
        let trained = try XCTUnwrap(SettingSearch.train(pairs, candidates: candidates, safetyMargin: 0.25))
        XCTAssertEqual(trained.candidateIndex, 1)
        XCTAssertEqual(trained.maxDiffPixels, 104)
    }

    func testNoSettingMayPassACanary() throws {
        let pairs = [
            pair("n", .noise, [0, 0]), pair("c", .change, [50, 50]), pair("n + faint-spot", .canary, [30, 0]),
        ]
        let trained = try XCTUnwrap(SettingSearch.train(pairs, candidates: candidates, safetyMargin: 0.25))
        XCTAssertEqual(trained.candidateIndex, 0, "the second candidate passes the canary")
        XCTAssertLessThan(trained.maxDiffPixels, 30)
        XCTAssertNil(SettingSearch.train([pair("n", .noise, [0]), pair("k", .canary, [0])], candidates: [candidates[0]]))
    }

    func testWithoutSeparationTheFewestPairsAreMisjudged() throws {
        let pairs = [
            pair("n1", .noise, [10, 10]), pair("n2", .noise, [20, 20]), pair("n3", .noise, [300, 300]),
            pair("c1", .change, [200, 200]), pair("c2", .change, [400, 400]),
        ]
        let trained = try XCTUnwrap(SettingSearch.train(pairs, candidates: [candidates[0]]))
        XCTAssertEqual(trained.misjudged.count, 1, "\(trained.misjudged)")
    }

    /// The search tries every structural rule with and without the text model and the
    /// scattered-noise model, and a rule without one says so in its arguments and its label.
    func testStructuralRulesAreSearchedWithAndWithoutTextReflow() throws {
        let rules = TuningCandidate.grid.compactMap { candidate -> StructuralRule? in
            guard case .structural(let rule) = candidate.metric else { return nil }
            return rule
        }
        XCTAssertEqual(rules.filter(\.explainsTextReflow).count, rules.filter { !$0.explainsTextReflow }.count)
        XCTAssertEqual(rules.filter(\.explainsScatteredNoise).count, rules.filter { !$0.explainsScatteredNoise }.count)
        XCTAssertEqual(Set(rules).count, rules.count)
        let off = TuningCandidate(metric: .structural(StructuralRule(explainsTextReflow: false)))
        XCTAssertEqual(off.cliArguments.last, "--no-text-reflow")
        XCTAssertTrue(off.label.hasSuffix("no-text-reflow"), off.label)
        XCTAssertFalse(TuningCandidate(metric: .structural(StructuralRule())).cliArguments.contains("--no-text-reflow"))
        let scatteredOff = TuningCandidate(metric: .structural(StructuralRule(explainsScatteredNoise: false)))
        XCTAssertEqual(scatteredOff.cliArguments.last, "--no-scattered-noise")
        XCTAssertTrue(scatteredOff.label.hasSuffix("no-scattered-noise"), scatteredOff.label)
        XCTAssertFalse(TuningCandidate(metric: .structural(StructuralRule())).cliArguments.contains("--no-scattered-noise"))
        let counted = TuningCandidate(metric: .structural(StructuralRule(explainsAntialiasing: false)))
        XCTAssertEqual(counted.cliArguments.last, "--count-antialiased")
        XCTAssertTrue(counted.label.hasSuffix("count-antialiased"), counted.label)
    }

    func testLeaveOneOutScoresEachPairByTheOthers() {
        // n3 alone needs an allowance of 300: trained without it, the setting fails it.
        let pairs = [
            pair("n1", .noise, [10]), pair("n2", .noise, [20]), pair("n3", .noise, [300]), pair("c1", .change, [400]),
            pair("n1 + spot", .canary, [500]),
        ]
        let cv = SettingSearch.crossValidate(pairs, canarySource: [4: 0], candidates: [candidates[0]])
        XCTAssertEqual(cv.pairs, 4)
        XCTAssertEqual(cv.misjudged, ["n3"])
        XCTAssertEqual(cv.accuracy, 0.75)
        XCTAssertLessThan(cv.lowerBound, 0.75)
        XCTAssertGreaterThan(cv.upperBound, 0.75)
    }

    /// A noise pair and a change of one name are left out one at a time: the change "x" left
    /// out, the noise "x" still trains the setting (whose allowance of 30 then passes the
    /// change), as it does when the change has a name of its own.
    func testLeaveOneOutTellsPairsOfOneNameApart() {
        func scored(changeName: String) -> CrossValidation {
            let pairs = [
                pair("n1", .noise, [10]), pair("x", .noise, [30]), pair(changeName, .change, [25]), pair("c2", .change, [400]),
            ]
            return SettingSearch.crossValidate(pairs, canarySource: [:], candidates: [candidates[0]])
        }
        let apart = scored(changeName: "x-change"), shared = scored(changeName: "x")
        XCTAssertEqual(apart.correct, shared.correct)
        XCTAssertEqual(apart.misjudged.map { $0 == "x-change" ? "x" : $0 }, shared.misjudged)
        XCTAssertEqual(shared.misjudged.filter { $0 == "x" }.count, 2, "each x is scored on its own: \(shared.misjudged)")
    }

    func testWilsonIntervalOfAPerfectScoreStaysBelowOne() {
        let (low, high) = CrossValidation.wilsonInterval(correct: 20, of: 20)
        XCTAssertEqual(high, 1, accuracy: 1e-12)
        XCTAssertEqual(low, 0.839, accuracy: 0.001)
    }

    /// A structural candidate's count from the shared clusters equals what `compare` reports
    /// under that candidate's own rule.
    func testEvaluationCountsEqualTheComparison() {
        var reference = RGBAImage(width: 60, height: 40, filledWith: RGBA(255, 255, 255))
        for y in 5..<35 { for x in 5..<25 { reference[x, y] = RGBA(30, 60, 200) } }
        var actual = reference
        for y in 10..<16 { for x in 30..<40 { actual[x, y] = RGBA(0, 0, 0) } }
        actual[50, 30] = RGBA(0, 0, 0)
        let evaluation = PairEvaluation(name: "p", label: .change, reference: reference, actual: actual)
        for (index, candidate) in TuningCandidate.grid.enumerated() {
            let options = ComparisonOptions(metric: candidate.metric, ignoreAntialiasing: candidate.antialiasing)
            XCTAssertEqual(evaluation.counts[index], compare(reference, actual, options: options).differentPixels, candidate.label)
        }
    }

    func testCanariesChangeWhatTheyName() throws {
        var reference = RGBAImage(width: 200, height: 120, filledWith: RGBA(250, 250, 250))
        for x in 10..<190 { reference[x, 100] = RGBA(60, 60, 60) }
        for glyph in 0..<12 {
            for y in 20..<34 { for x in (20 + glyph * 12)..<(22 + glyph * 12) { reference[x, y] = RGBA(20, 20, 20) } }
            for x in (20 + glyph * 12)..<(28 + glyph * 12) { reference[x, 20 + (glyph % 3) * 6] = RGBA(20, 20, 20) }
        }
        let canaries = Canaries.make(reference: reference, actual: reference)
        XCTAssertEqual(canaries.map(\.kind), Canaries.Kind.allCases)
        for (kind, image) in canaries {
            let changed = Canaries.visiblyChangedPixels(reference, image)
            switch kind {
            case .faintPatch: XCTAssertGreaterThan(changed, 100, kind.rawValue)
            case .faintSpot: XCTAssertEqual(changed, 50, kind.rawValue)
            case .shiftedBlock: XCTAssertGreaterThan(changed, 8, kind.rawValue)
            case .removedLine: XCTAssertEqual(changed, 32, kind.rawValue)
            }
            if kind == .faintSpot || kind == .faintPatch {
                let result = compare(reference, image, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.99)))
                XCTAssertEqual(result.differentPixels, changed, "every changed pixel moves by ΔE94 3 or more")
                XCTAssertLessThan(result.maxDeltaE, 4.5)
            }
            XCTAssertFalse(compare(reference, image, options: ComparisonOptions(metric: .structural(StructuralRule()))).match, kind.rawValue)
        }
        XCTAssertTrue(Canaries.make(reference: reference, actual: RGBAImage(width: 10, height: 10, filledWith: RGBA(0, 0, 0))).isEmpty)
    }

    /// Where the noise pair's new image draws the rule a pixel higher or lower (other hinting,
    /// glyphs on whole pixels), the removed-line canary takes it away there: the canary holds
    /// no rule near the reference's, and fails. Painting the reference's row with the row
    /// above drew the moved rule twice instead, a change of nothing.
    func testARemovedLineCanaryFollowsARuleDrawnAPixelAside() throws {
        var reference = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
        for x in 10..<110 { reference[x, 20] = RGBA(42, 109, 244) }
        for offset in [-1, 0, 1] {
            var actual = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
            for x in 10..<110 { actual[x, 20 + offset] = RGBA(42, 109, 244) }
            let canary = try XCTUnwrap(Canaries.apply(.removedLine, reference: reference, to: actual), "offset \(offset)")
            XCTAssertEqual(Canaries.visiblyChangedPixels(actual, canary), 32, "offset \(offset)")
            let rule = (0..<40).filter { y in (10..<110).contains { x in canary[x, y] != RGBA(255, 255, 255) } }
            XCTAssertEqual(rule, [20 + offset], "offset \(offset): the rule stays only beyond the canary's 32 px")
            XCTAssertFalse(compare(reference, canary, options: ComparisonOptions(metric: .structural(StructuralRule()))).match, "offset \(offset)")
        }
    }

    /// Inputs the search makes or takes without checks: a noise pair of another size (counted
    /// as `Int.max`), a margin that is not a number, counts missing for a candidate, a canary
    /// count below 0. Each trapped.
    func testDegenerateInputsTrainWithoutTrapping() throws {
        let resized = [pair("resized", .noise, [Int.max, Int.max]), pair("c", .change, [90, 30])]
        XCTAssertNotNil(SettingSearch.train(resized, candidates: candidates))
        let pairs = [pair("n", .noise, [5, 4]), pair("c", .change, [90, 30])]
        for margin in [Double.nan, -.infinity, .infinity, 1e308] {
            XCTAssertEqual(SettingSearch.train(pairs, candidates: candidates, safetyMargin: margin),
                           SettingSearch.train(pairs, candidates: candidates, safetyMargin: Tuning.usableSafetyMargin(margin)), "\(margin)")
        }
        let short = [pair("n", .noise, [5]), pair("c", .change, [90, 30])]
        XCTAssertEqual(try XCTUnwrap(SettingSearch.train(short, candidates: candidates)).candidateIndex, 0, "the candidate without counts is passed over")
        _ = SettingSearch.crossValidate(short, canarySource: [:], candidates: candidates)
        XCTAssertNil(SettingSearch.train(pairs + [pair("canary", .canary, [Int.min, Int.min])], candidates: candidates))
    }
}
