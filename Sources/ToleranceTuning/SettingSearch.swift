import ImageDiff
import RealModule

/// How pixels are judged in one setting `imgdiff tune` tries; the allowance of differing
/// pixels is the search's other dimension, chosen per candidate.
public struct TuningCandidate: Sendable, Equatable {
    /// The metric and its threshold, or the structural rule, that judge each pixel.
    public var metric: ComparisonMetric
    /// Whether pixels pixelmatch's detector finds anti-aliased are left out (`--antialiasing`).
    public var antialiasing: Bool

    public init(metric: ComparisonMetric, antialiasing: Bool = false) {
        self.metric = metric
        self.antialiasing = antialiasing
    }

    /// The imgdiff options judging pixels this way (the allowance comes after them).
    public var cliArguments: [String] {
        var arguments = ["--metric", metric.name]
        switch metric {
        case .exact: break
        case .structural(let rule):
            arguments += [
                "--threshold", rule.noiseDeltaE.plainText, "--shift-radius", String(rule.shiftRadius),
                "--min-cluster", String(rule.minimumClusterPixels),
            ]
            if !rule.explainsTextReflow { arguments.append("--no-text-reflow") }
            if !rule.explainsScatteredNoise { arguments.append("--no-scattered-noise") }
            if !rule.explainsAntialiasing { arguments.append("--count-antialiased") }
        default: arguments += ["--threshold", metric.threshold.plainText]
        }
        if antialiasing { arguments.append("--antialiasing") }
        return arguments
    }

    /// Short and readable: `structural 2.3 1 40`, `structural 2.3 1 40 no-text-reflow`, `yiq 0.1 aa`.
    public var label: String {
        var words = cliArguments.filter { !$0.hasPrefix("--") }
        if case .structural(let rule) = metric {
            if !rule.explainsTextReflow { words.append("no-text-reflow") }
            if !rule.explainsScatteredNoise { words.append("no-scattered-noise") }
            if !rule.explainsAntialiasing { words.append("count-antialiased") }
        }
        return words.joined(separator: " ") + (antialiasing ? " aa" : "")
    }

    /// Every candidate: the structural mode over noise ΔE × shift radius × cluster size × text
    /// set again explained or not × scattered noise explained or not,
    /// Playwright's ssim-cie94 at ΔE 1, 2 and 3, per-pixel tolerances of each metric, with and
    /// without anti-aliasing where pixelmatch has it. The allowance of differing pixels
    /// multiplies them all.
    public static let grid: [TuningCandidate] = {
        var grid: [TuningCandidate] = []
        for rule in structuralRules { grid.append(TuningCandidate(metric: .structural(rule))) }
        for threshold in [1.0, 2, 3] { grid.append(TuningCandidate(metric: .ssimCIE94(maxDeltaE: threshold))) }
        for threshold in [1.0, 2, 3, 5] {
            grid.append(TuningCandidate(metric: .deltaE(.ciede2000, threshold: threshold)))
            grid.append(TuningCandidate(metric: .deltaE(.cie94, threshold: threshold)))
        }
        for threshold in [0.05, 0.1, 0.15, 0.2, 0.3] {
            grid.append(TuningCandidate(metric: .yiq(threshold: threshold), antialiasing: true))
            grid.append(TuningCandidate(metric: .yiq(threshold: threshold)))
        }
        for tolerance in [0, 2, 4, 8, 16, 32] { grid.append(TuningCandidate(metric: .channel(tolerance: tolerance))) }
        return grid
    }()

    static var structuralRules: [StructuralRule] {
        var rules: [StructuralRule] = []
        for noiseDeltaE in [2.3, 1.5, 3.5] {
            for shiftRadius in [1, 0, 2] {
                for minimumClusterPixels in [40, 16, 96] {
                    for explainsTextReflow in [true, false] {
                        for explainsScatteredNoise in [true, false] {
                            rules.append(StructuralRule(
                                noiseDeltaE: noiseDeltaE, shiftRadius: shiftRadius, minimumClusterPixels: minimumClusterPixels,
                                explainsTextReflow: explainsTextReflow, explainsScatteredNoise: explainsScatteredNoise))
                        }
                    }
                }
            }
        }
        return rules
    }
}

/// One pair measured under every candidate.
public struct PairEvaluation: Sendable, Equatable {
    /// What a pair must do under the chosen setting, and where it came from.
    public enum Label: String, Sendable, Codable {
        /// Render noise: must pass.
        case noise
        /// A real change: must fail.
        case change
        /// A change made by ``Canaries`` from a noise pair: must fail, and no setting that
        /// passes one is ever recommended.
        case canary
    }

    /// The pair's name in ``TrainedSetting/misjudged`` and ``CrossValidation/misjudged``.
    public var name: String
    /// Whether the pair must pass, or fail.
    public var label: Label
    /// Differing pixels under each candidate of the grid (`Int.max` when the sizes differ).
    public var counts: [Int]
    /// For a noise pair, how near each structural candidate came to failing it (its passing
    /// clusters nearest to failing); nil for other candidates and other pairs.
    public var headroom: [NoiseHeadroom?]

    /// A pair already measured: `counts` and `headroom` hold one entry per candidate of the grid
    /// searched, in its order; without `headroom`, no candidate has one.
    public init(name: String, label: Label, counts: [Int], headroom: [NoiseHeadroom?]? = nil) {
        self.name = name
        self.label = label
        self.counts = counts
        self.headroom = headroom ?? Array(repeating: nil, count: counts.count)
    }

    /// How near the candidate at `index` came to failing this pair (``NoiseHeadroom/nearness``;
    /// 0 without a headroom).
    func nearness(_ index: Int) -> Double { headroom.indices.contains(index) ? headroom[index]?.nearness ?? 0 : 0 }

    /// Compares the pair under every candidate of `candidates`. Structural candidates that
    /// differ only in cluster size or in scattered noise share one comparison: the clusters do
    /// not depend on them.
    public init(
        name: String, label: Label, reference: RGBAImage, actual: RGBAImage,
        candidates: [TuningCandidate] = TuningCandidate.grid, bands: Int = 0
    ) {
        self.name = name
        self.label = label
        guard reference.size == actual.size else {
            counts = Array(repeating: Int.max, count: candidates.count)
            headroom = Array(repeating: nil, count: candidates.count)
            return
        }
        var judgedByRule: [StructuralRule: (count: Int, headroom: NoiseHeadroom?)] = [:]
        let structuralRules = candidates.compactMap { candidate -> StructuralRule? in
            guard case .structural(let rule) = candidate.metric else { return nil }
            return rule
        }
        for rules in Dictionary(grouping: structuralRules, by: { $0.sharingComparison }).values {
            let options = ComparisonOptions(metric: .structural(rules[0]), bands: bands)
            let results = StructuralComparison.judged(reference, actual, rules: rules, options: options)
            for (rule, result) in zip(rules, results) {
                let headroom = label == .noise ? NoiseHeadroom(rule: rule, noise: [(name, result.clusters ?? [])]) : nil
                judgedByRule[rule] = (result.differentPixels, headroom)
            }
        }
        counts = candidates.map { candidate in
            if case .structural(let rule) = candidate.metric, let judged = judgedByRule[rule] { return judged.count }
            let options = ComparisonOptions(metric: candidate.metric, ignoreAntialiasing: candidate.antialiasing, bands: bands)
            return compare(reference, actual, options: options).differentPixels
        }
        headroom = candidates.map { candidate in
            guard case .structural(let rule) = candidate.metric else { return nil }
            return judgedByRule[rule]?.headroom
        }
    }

    var mustPass: Bool { label == .noise }
}

extension StructuralRule {
    /// The rule with what only judges the clusters left out (the cluster size, scattered noise):
    /// rules equal in the rest share one comparison.
    fileprivate var sharingComparison: StructuralRule {
        var shared = self
        shared.minimumClusterPixels = 0
        shared.explainsScatteredNoise = true
        return shared
    }
}

/// A candidate with its allowance, trained on labelled pairs.
public struct TrainedSetting: Sendable, Equatable {
    /// How pixels are judged; ``maxDiffPixels`` is the allowance beside it.
    public var candidate: TuningCandidate
    /// The index of ``candidate`` in the grid searched.
    public var candidateIndex: Int
    /// `--max-diff-pixels`: pairs with at most this many differing pixels pass.
    public var maxDiffPixels: Int
    /// Training pairs judged wrongly (canaries never are).
    public var misjudged: [String]
    /// The noise pair with the most differing pixels, and how many.
    public var worstNoise: (name: String, pixels: Int)?
    /// The change (or canary) with the fewest differing pixels, and how many.
    public var weakestChange: (name: String, pixels: Int)?
    /// How near the nearest noise pair came to failing a structural candidate
    /// (``NoiseHeadroom/nearness``); 0 for other candidates.
    public var noiseNearness: Double = 0

    /// Whether the noise stays `safetyMargin` clear of failing: no passing noise cluster as large
    /// as `1 - safetyMargin` of the size from which it fails.
    public func keepsNoiseClear(by safetyMargin: Double) -> Bool { noiseNearness < 1 - safetyMargin }

    /// How many times the worst noise the weakest change's count is, both plus one: above 1
    /// the two are separated, and the larger the safer.
    public var separationFactor: Double {
        guard let weakest = weakestChange?.pixels else { return .infinity }
        guard weakest != Int.max else { return .infinity }
        return (Double(weakest) + 1) / (Double(worstNoise?.pixels ?? 0) + 1)
    }

    public static func == (a: TrainedSetting, b: TrainedSetting) -> Bool {
        a.candidate == b.candidate && a.candidateIndex == b.candidateIndex && a.maxDiffPixels == b.maxDiffPixels
            && a.misjudged == b.misjudged && a.noiseNearness == b.noiseNearness
            && a.worstNoise?.name == b.worstNoise?.name && a.worstNoise?.pixels == b.worstNoise?.pixels
            && a.weakestChange?.name == b.weakestChange?.name && a.weakestChange?.pixels == b.weakestChange?.pixels
    }
}

/// The expected accuracy of the search on pairs it has not seen.
public struct CrossValidation: Sendable, Equatable, Codable {
    /// Labelled pairs (noise and changes; canaries are not scored).
    public var pairs: Int
    /// Pairs the setting trained without them judged correctly.
    public var correct: Int
    /// `correct / pairs` (0 without pairs).
    public var accuracy: Double
    /// The lower end of the accuracy's 95 % Wilson score interval.
    public var lowerBound: Double
    /// The upper end of that interval.
    public var upperBound: Double
    /// Pairs judged wrongly when left out of training.
    public var misjudged: [String]

    init(pairs: Int, correct: Int, misjudged: [String]) {
        self.pairs = pairs
        self.correct = correct
        accuracy = pairs == 0 ? 0 : Double(correct) / Double(pairs)
        self.misjudged = misjudged
        (lowerBound, upperBound) = Self.wilsonInterval(correct: correct, of: pairs)
    }

    /// The 95 % Wilson score interval for `correct` successes in `total` trials.
    static func wilsonInterval(correct: Int, of total: Int) -> (Double, Double) {
        guard total > 0 else { return (0, 1) }
        let z = 1.959964, n = Double(total), p = Double(correct) / n
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / (1 + z * z / n)
        return (max(0, centre - half), min(1, centre + half))
    }
}

/// The search over every candidate × allowance, trained on labelled pairs.
public enum SettingSearch {
    /// Picks the candidate and allowance that judge the training pairs best: no canary may pass;
    /// then the fewest misjudged pairs; then a candidate whose noise stays `safetyMargin` clear
    /// of failing (``TrainedSetting/noiseNearness`` below `1 - safetyMargin`: no passing cluster
    /// within a quarter of the size from which it fails, by default) over one whose noise comes
    /// nearer, as the per-pixel thresholds keep that margin beyond the worst noise; then the
    /// widest ``TrainedSetting/separationFactor``; then the earlier candidate in the grid
    /// (structural first, then perceptual measures).
    ///
    /// The allowance is the worst noise pair's count plus `safetyMargin` of it, but no more than
    /// half-way to the weakest change; with no clean separation, the allowance that misjudges
    /// the fewest pairs. `safetyMargin` is taken within 0…``Tuning/largestSafetyMargin`` (NaN as
    /// 0), and a candidate that some pair has no count for is passed over.
    public static func train(
        _ pairs: [PairEvaluation], candidates: [TuningCandidate] = TuningCandidate.grid, safetyMargin: Double = 0.25
    ) -> TrainedSetting? {
        let safetyMargin = Tuning.usableSafetyMargin(safetyMargin)
        var best: TrainedSetting?
        for index in candidates.indices where pairs.allSatisfy({ $0.counts.indices.contains(index) }) {
            guard let setting = trained(index, candidates[index], pairs, safetyMargin: safetyMargin) else { continue }
            guard let current = best else {
                best = setting
                continue
            }
            let (clear, currentClear) = (setting.keepsNoiseClear(by: safetyMargin), current.keepsNoiseClear(by: safetyMargin))
            if setting.misjudged.count != current.misjudged.count {
                if setting.misjudged.count < current.misjudged.count { best = setting }
            } else if clear != currentClear {
                if clear { best = setting }
            } else if setting.separationFactor > current.separationFactor * (1 + 1e-9) {
                best = setting
            }
        }
        return best
    }

    static func trained(
        _ index: Int, _ candidate: TuningCandidate, _ pairs: [PairEvaluation], safetyMargin: Double
    ) -> TrainedSetting? {
        let noise = pairs.filter(\.mustPass).map { (name: $0.name, pixels: $0.counts[index]) }
        let changes = pairs.filter { $0.label == .change }.map { (name: $0.name, pixels: $0.counts[index]) }
        let canaries = pairs.filter { $0.label == .canary }.map { (name: $0.name, pixels: $0.counts[index]) }
        let ceiling = (canaries.map { max($0.pixels, 0) }.min() ?? Int.max) - 1
        guard ceiling >= 0 else { return nil }
        let worstNoise = noise.max { $0.pixels < $1.pixels }
        let weakestChange = (changes + canaries).min { $0.pixels < $1.pixels }
        let noiseLimit = worstNoise?.pixels ?? 0
        let changeLimit = weakestChange?.pixels ?? Int.max

        var allowance: Int
        if noiseLimit < changeLimit, noiseLimit != Int.max {
            let wanted = noiseLimit + Int((Double(noiseLimit) * safetyMargin).rounded(.up))
            let halfway = noiseLimit + (changeLimit == Int.max ? Int.max / 4 : (changeLimit - 1 - noiseLimit) / 2)
            allowance = min(wanted, halfway, ceiling)
        } else {
            // No clean cut: the allowance that misjudges the fewest pairs.
            let options = Set(noise.map(\.pixels) + changes.map { max($0.pixels, 1) - 1 } + [0]).filter { $0 <= ceiling }
            allowance = options.min { a, b in
                let (ea, eb) = (errors(a, noise, changes), errors(b, noise, changes))
                return ea != eb ? ea < eb : a < b
            } ?? 0
        }
        allowance = min(allowance, ceiling)
        let misjudged = noise.filter { $0.pixels > allowance }.map(\.name) + changes.filter { $0.pixels <= allowance }.map(\.name)
        return TrainedSetting(
            candidate: candidate, candidateIndex: index, maxDiffPixels: allowance, misjudged: misjudged,
            worstNoise: worstNoise, weakestChange: weakestChange,
            noiseNearness: pairs.filter(\.mustPass).map { $0.nearness(index) }.max() ?? 0)
    }

    static func errors(_ allowance: Int, _ noise: [(name: String, pixels: Int)], _ changes: [(name: String, pixels: Int)]) -> Int {
        noise.filter { $0.pixels > allowance }.count + changes.filter { $0.pixels <= allowance }.count
    }

    /// Leave-one-out: each noise or change pair judged by the setting trained on all the others
    /// (its own canaries left out too, since they carry its noise). `canarySource` maps the
    /// index in `pairs` of each canary to that of the noise pair it was made from. Pairs are
    /// told apart by their place in `pairs`, not by name: a noise pair and a change may share
    /// a file name, and two names may differ only in their Unicode normalisation.
    public static func crossValidate(
        _ pairs: [PairEvaluation], canarySource: [Int: Int], candidates: [TuningCandidate] = TuningCandidate.grid,
        safetyMargin: Double = 0.25
    ) -> CrossValidation {
        var correct = 0
        var misjudged: [String] = []
        for (leftOut, pair) in pairs.enumerated() where pair.label != .canary {
            let training = pairs.enumerated().filter { $0.offset != leftOut && canarySource[$0.offset] != leftOut }.map(\.element)
            guard let setting = train(training, candidates: candidates, safetyMargin: safetyMargin) else {
                misjudged.append(pair.name)
                continue
            }
            guard pair.counts.indices.contains(setting.candidateIndex) else {
                misjudged.append(pair.name)
                continue
            }
            let passes = pair.counts[setting.candidateIndex] <= setting.maxDiffPixels
            if passes == pair.mustPass {
                correct += 1
            } else {
                misjudged.append(pair.name)
            }
        }
        return CrossValidation(pairs: pairs.count { $0.label != .canary }, correct: correct, misjudged: misjudged)
    }
}
