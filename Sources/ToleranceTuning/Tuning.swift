import ImageDiff
import SnapshotRule
import RealModule

/// A measured pair, named for reports.
public struct TuningSample: Sendable, Equatable, Codable {
    /// The pair's name in reports (`imgdiff tune` uses its path under `ref/` and `new/`).
    public var name: String
    /// How the pair's pixels differ.
    public var profile: DifferenceProfile

    public init(name: String, profile: DifferenceProfile) {
        self.name = name
        self.profile = profile
    }
}

/// The tolerance settings `imgdiff tune` recommends values for.
public enum TuningMode: String, Sendable, Equatable, Codable, CaseIterable {
    /// swift-snapshot-testing's `precision` + `perceptualPrecision` (also `imgdiff --precision
    /// P --perceptual-precision Q`).
    case snapshotTesting = "snapshot-testing"
    /// `--metric channel --threshold T`: the largest channel difference, in levels.
    case channel
    /// `--metric cie94 --threshold T`.
    case cie94
    /// `--metric ciede2000 --threshold T`.
    case ciede2000
    /// `--metric yiq --threshold T` (pixelmatch).
    case yiq
    /// `--metric yiq --threshold T --antialiasing`.
    case yiqAntialiasing = "yiq-antialiasing"

    /// The order in which ties are broken, and the choice without must-fail pairs: perceptual
    /// measures first.
    public static let preference: [TuningMode] = [
        .ciede2000, .cie94, .yiqAntialiasing, .yiq, .channel, .snapshotTesting,
    ]
}

/// How well one setting tells noise from real changes.
public struct Separation: Sendable, Equatable, Codable {
    /// Under this setting every noise pair passes and every must-fail pair fails.
    public var separates: Bool
    /// `(changeLimit − noiseLimit) / max(changeLimit, noiseLimit)`, from −1 to 1: the share of
    /// the weakest change's score that the worst noise leaves unused (negative: they overlap).
    public var margin: Double
    /// The worst noise pair's score; `nil` when it cannot pass at all (size differs).
    public var noiseLimit: Double?
    /// The weakest change's score; `nil` when every change differs in size.
    public var changeLimit: Double?
    /// The must-fail pair closest to the noise.
    public var weakestChange: String?
    /// Noise pairs scoring at or above the weakest change.
    public var overlappingNoise: [String]
    /// Must-fail pairs scoring at or below the worst noise.
    public var overlappingChanges: [String]
}

/// The recommendation for one mode.
public struct TunedSetting: Sendable, Equatable, Codable {
    /// The tolerance setting this recommendation is for.
    public var mode: TuningMode
    /// Whether the recommended value passes every noise pair (false when no value can: a size
    /// difference, or a YIQ threshold that would have to exceed 1).
    public var passesAllNoise: Bool
    /// The tightest value that passes every noise pair, in the mode's own unit.
    public var noiseLimit: Double?
    /// The noise pair that sets ``noiseLimit``.
    public var limitingNoisePair: String?
    /// The score of the noise pair after ``limitingNoisePair``, when the limiting pair's is more
    /// than ``Tuning/outlierFactor`` times it: that one pair alone sets the tolerance, and may
    /// hold a real change rather than noise.
    public var nextNoiseLimit: Double?
    /// The recommended threshold (all modes but swift-snapshot-testing).
    public var threshold: Double?
    /// The recommended `precision` and `perceptualPrecision` (swift-snapshot-testing mode).
    public var snapshotTesting: SnapshotPrecision?
    /// The 99.9th percentile of noise ΔE94 that `perceptualPrecision` was chosen to cover
    /// (swift-snapshot-testing mode).
    public var noiseDeltaE94Percentile999: Double?
    /// The noise pair whose 99.9th percentile is ``noiseDeltaE94Percentile999``.
    public var noiseDeltaE94PercentilePair: String?
    /// How far the recommended value sits beyond ``noiseLimit``, relative to it: the requested
    /// safety margin, less when a must-fail pair is closer, more where rounding added some.
    public var safetyMargin: Double?
    /// The imgdiff options applying the setting, to append to `imgdiff REF NEW`.
    public var cliArguments: [String]
    /// Present when must-fail pairs were given.
    public var separation: Separation?
}

/// What `imgdiff tune` concludes.
public struct TuningReport: Sendable, Equatable, Codable {
    /// The requested safety margin: recommended thresholds are the noise limit times `1 + margin`.
    public var safetyMargin: Double
    /// One recommendation per mode, in the order of `TuningMode.allCases`, whether it passes
    /// all noise or not.
    public var settings: [TunedSetting]
    /// The mode to use: with must-fail pairs the one separating them from the noise by the
    /// widest margin, otherwise the first of ``TuningMode/preference`` passing all noise.
    public var recommended: TuningMode?
    /// With must-fail pairs: whether the recommended setting separates them from the noise.
    public var separates: Bool?

    /// The setting of ``recommended``; nil when no mode passes all noise.
    public var recommendedSetting: TunedSetting? { settings.first { $0.mode == recommended } }

    /// The recommendation for `mode`; nil when the report holds none for it.
    public func setting(_ mode: TuningMode) -> TunedSetting? { settings.first { $0.mode == mode } }
}

/// Finds the tightest tolerances that pass known render noise, and checks them against real
/// changes.
///
/// For each threshold mode a pair's *score* is the smallest threshold that passes it (its
/// largest channel delta, largest ΔE, or smallest passing YIQ threshold). The recommended
/// threshold is the worst noise score times `1 + safetyMargin`, rounded up to a short decimal;
/// when that would let a must-fail pair pass, it moves to the middle of the gap.
///
/// For swift-snapshot-testing, `perceptualPrecision` is the tightest of
/// ``SnapshotTestingGrid/perceptualPrecisions`` whose ΔE94 limit covers the noise's 99.9th
/// percentile times `1 + safetyMargin`; `precision` then lets through the pixels beyond it:
/// the worst noise pair's share times `1 + safetyMargin`, and at least the 0.1 % the
/// percentile leaves out. When that does not separate the must-fail pairs, the other grid
/// values are tried and the widest margin wins.
public enum Tuning {
    /// How far the worst noise pair must stand above the next for ``TunedSetting/nextNoiseLimit``
    /// to flag it.
    public static let outlierFactor = 3.0

    /// Recommends a value for every ``TuningMode``: one that passes all of `noise` and, where it
    /// can, fails all of `mustFail`; `safetyMargin` is a fraction (0.25: 25 % beyond the worst
    /// noise), taken within 0…``largestSafetyMargin`` (NaN as 0).
    public static func recommend(
        noise: [TuningSample], mustFail: [TuningSample] = [], safetyMargin: Double = 0.25
    ) -> TuningReport {
        let safetyMargin = usableSafetyMargin(safetyMargin)
        var settings: [TunedSetting] = []
        for mode in TuningMode.allCases {
            if mode == .snapshotTesting {
                settings.append(snapshotTestingSetting(noise: noise, mustFail: mustFail, safetyMargin: safetyMargin))
            } else if let rule = ThresholdRule(mode) {
                settings.append(rule.setting(noise: noise, mustFail: mustFail, safetyMargin: safetyMargin))
            }
        }
        let candidates = settings.filter(\.passesAllNoise)
        let recommended: TunedSetting?
        if mustFail.isEmpty {
            recommended = TuningMode.preference.lazy.compactMap { mode in candidates.first { $0.mode == mode } }.first
        } else {
            recommended = candidates.max { a, b in
                let (sa, sb) = (a.separation, b.separation)
                if sa?.separates != sb?.separates { return sb?.separates == true }
                if sa?.margin != sb?.margin { return (sa?.margin ?? -1) < (sb?.margin ?? -1) }
                return preferenceRank(a.mode) > preferenceRank(b.mode)
            }
        }
        return TuningReport(
            safetyMargin: safetyMargin, settings: settings, recommended: recommended?.mode,
            separates: mustFail.isEmpty ? nil : (recommended?.separation?.separates ?? false))
    }

    static func preferenceRank(_ mode: TuningMode) -> Int {
        TuningMode.preference.firstIndex(of: mode) ?? TuningMode.preference.count
    }

    // MARK: swift-snapshot-testing

    static func snapshotTestingSetting(
        noise: [TuningSample], mustFail: [TuningSample], safetyMargin: Double
    ) -> TunedSetting {
        let limits = SnapshotTestingGrid.deltaELimits
        let comparable = noise.filter { !$0.profile.premultipliedEqual }
        let widest = comparable.max { $0.profile.deltaE94.percentile999 < $1.profile.deltaE94.percentile999 }
        let percentile = widest?.profile.deltaE94.percentile999 ?? 0
        let wanted = percentile * (1 + safetyMargin)
        let ruleIndex = limits.firstIndex { Double($0) >= wanted } ?? limits.count - 1

        var best = snapshotTestingSetting(
            at: ruleIndex, noise: noise, mustFail: mustFail, safetyMargin: safetyMargin)
        if !mustFail.isEmpty, best.separation?.separates != true {
            for index in limits.indices where index != ruleIndex {
                let other = snapshotTestingSetting(
                    at: index, noise: noise, mustFail: mustFail, safetyMargin: safetyMargin)
                guard other.passesAllNoise, other.separation?.separates == true else { continue }
                if best.separation?.separates != true || (other.separation?.margin ?? -1) > (best.separation?.margin ?? -1) {
                    best = other
                }
            }
        }
        best.noiseDeltaE94Percentile999 = percentile
        best.noiseDeltaE94PercentilePair = widest?.name
        return best
    }

    static func snapshotTestingSetting(
        at index: Int, noise: [TuningSample], mustFail: [TuningSample], safetyMargin: Double
    ) -> TunedSetting {
        let perceptualPrecision = SnapshotTestingGrid.perceptualPrecisions[index]
        func share(_ profile: DifferenceProfile) -> Double {
            if profile.premultipliedEqual { return 0 }
            if profile.sizeDiffers || profile.totalPixels == 0 || !profile.perceptualFailures.indices.contains(index) { return .infinity }
            return Double(profile.perceptualFailures[index]) / Double(profile.totalPixels)
        }
        func passes(_ profile: DifferenceProfile, _ precision: Float) -> Bool {
            snapshotTestingPasses(
                profile, setting: SnapshotPrecision(precision: precision, perceptualPrecision: perceptualPrecision), perceptualIndex: index)
        }
        let scores = Scores(noise: noise, mustFail: mustFail, score: { share($0.profile) })
        var setting = TunedSetting(
            mode: .snapshotTesting, passesAllNoise: false, noiseLimit: finite(scores.noiseLimit),
            limitingNoisePair: scores.limitingNoisePair, nextNoiseLimit: scores.nextNoiseLimitIfOutlier, cliArguments: [])
        guard scores.noiseLimit.isFinite else {
            if !mustFail.isEmpty { setting.separation = scores.separation(separates: false) }
            return setting
        }
        var allowance = max(scores.noiseLimit * (1 + safetyMargin), 0.001)
        if let changeLimit = scores.changeLimit, allowance >= changeLimit, scores.noiseLimit < changeLimit {
            allowance = (scores.noiseLimit + changeLimit) / 2
        }
        var candidates: [Double] = (3...9).map { digits in
            let scale = Double.exp10(Double(digits))
            return ((1 - allowance) * scale + 1e-9).rounded(.down) / scale
        }
        candidates.append(1 - scores.noiseLimit)
        let choice = choose(candidates.map { Float($0) }) { precision in
            (noise.allSatisfy { passes($0.profile, precision) }, mustFail.allSatisfy { !passes($0.profile, precision) })
        }
        guard let (precision, separates) = choice else {
            if !mustFail.isEmpty { setting.separation = scores.separation(separates: false) }
            return setting
        }
        setting.passesAllNoise = true
        setting.snapshotTesting = SnapshotPrecision(precision: precision, perceptualPrecision: perceptualPrecision)
        setting.safetyMargin = scores.noiseLimit > 0 ? (1 - Double(precision)) / scores.noiseLimit - 1 : nil
        setting.cliArguments = [
            "--precision", precision.plainText, "--perceptual-precision", perceptualPrecision.plainText,
        ]
        if !mustFail.isEmpty {
            // The precision allows more than the noise's share (at least 0.1 % of the pixels, and
            // rounding): the changes it passes are those its verdict passes.
            let passing = mustFail.filter { passes($0.profile, precision) }.map(\.name)
            setting.separation = scores.separation(separates: separates, passingChanges: passing)
        }
        return setting
    }

    /// Whether swift-snapshot-testing passes the measured pair under `setting`, whose
    /// `perceptualPrecision` must be one of ``SnapshotTestingGrid/perceptualPrecisions``.
    public static func snapshotTestingPasses(_ profile: DifferenceProfile, setting: SnapshotPrecision) -> Bool? {
        guard let index = SnapshotTestingGrid.perceptualPrecisions.firstIndex(of: setting.perceptualPrecision),
              profile.perceptualFailures.indices.contains(index) else { return nil }
        return snapshotTestingPasses(profile, setting: setting, perceptualIndex: index)
    }

    /// Whether `setting` passes the measured pair, its perceptual precision the grid's value at
    /// `index`: the rule's own share test on the pixels the profile counted.
    static func snapshotTestingPasses(_ profile: DifferenceProfile, setting: SnapshotPrecision, perceptualIndex index: Int) -> Bool {
        if profile.sizeDiffers || profile.totalPixels == 0 || !profile.perceptualFailures.indices.contains(index) { return false }
        if profile.premultipliedEqual { return true }
        return !(setting.actualPixelPrecision(failingPixels: profile.perceptualFailures[index], of: profile.totalPixels) < setting.precision)
    }

    // MARK: Shared

    /// The widest safety margin, 1000 %: a wider one recommends thresholds past every scale's end.
    public static let largestSafetyMargin = 10.0

    /// `margin` within 0…``largestSafetyMargin``, NaN as 0: the margin a search takes.
    public static func usableSafetyMargin(_ margin: Double) -> Double {
        margin.isNaN ? 0 : min(max(margin, 0), largestSafetyMargin)
    }

    /// The first candidate that passes all noise and fails all changes, else the first that
    /// passes all noise, with whether it separates.
    static func choose<Value>(_ candidates: [Value], _ check: (Value) -> (passesNoise: Bool, failsChanges: Bool))
        -> (Value, Bool)?
    {
        var fallback: Value?
        for candidate in candidates {
            let (passesNoise, failsChanges) = check(candidate)
            guard passesNoise else { continue }
            if failsChanges { return (candidate, true) }
            if fallback == nil { fallback = candidate }
        }
        return fallback.map { ($0, false) }
    }

    /// `value` rounded up to `digits` significant digits.
    static func roundedUp(_ value: Double, significantDigits digits: Int) -> Double {
        guard value > 0, value.isFinite else { return value }
        let exponent = Double.log10(value).rounded(.down)
        let scale = Double.exp10(Double(digits) - 1 - exponent)
        return (value * scale * (1 - 1e-12)).rounded(.up) / scale
    }

    static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

}

/// Every pair's score in one mode, and what separates noise from changes.
struct Scores {
    let noise: [(name: String, score: Double)]
    let changes: [(name: String, score: Double)]

    init(noise: [TuningSample], mustFail: [TuningSample], score: (TuningSample) -> Double) {
        self.noise = noise.map { ($0.name, score($0)) }
        self.changes = mustFail.map { ($0.name, score($0)) }
    }

    var noiseLimit: Double { noise.map(\.score).max() ?? 0 }
    var limitingNoisePair: String? { noise.max { $0.score < $1.score }?.name }
    var changeLimit: Double? { changes.map(\.score).min() }

    /// The second-worst noise score, when the worst is finite and more than
    /// ``Tuning/outlierFactor`` times it (and it is above zero).
    var nextNoiseLimitIfOutlier: Double? {
        let sorted = noise.map(\.score).sorted(by: >)
        guard sorted.count >= 2, sorted[0].isFinite, sorted[1] > 0, sorted[0] > Tuning.outlierFactor * sorted[1] else {
            return nil
        }
        return sorted[1]
    }

    /// How the scores separate; `passingChanges`, when given, are the must-fail pairs the chosen
    /// setting passes, where they can be more than those scoring at or below the worst noise.
    func separation(separates: Bool, passingChanges: [String]? = nil) -> Separation {
        let weakest = changes.min { $0.score < $1.score }
        let noiseLimit = noiseLimit
        let changeLimit = weakest?.score ?? .infinity
        let margin: Double
        if changeLimit == .infinity {
            margin = noiseLimit.isFinite ? 1 : 0
        } else if noiseLimit == .infinity {
            margin = -1
        } else {
            let scale = max(changeLimit, noiseLimit)
            margin = scale == 0 ? 0 : (changeLimit - noiseLimit) / scale
        }
        return Separation(
            separates: separates, margin: margin,
            noiseLimit: Tuning.finite(noiseLimit), changeLimit: Tuning.finite(changeLimit),
            weakestChange: weakest?.name,
            overlappingNoise: noise.filter { $0.score >= changeLimit }.map(\.name),
            overlappingChanges: passingChanges ?? changes.filter { $0.score <= noiseLimit }.map(\.name))
    }
}

/// A mode whose verdict is one threshold against one per-pair score.
struct ThresholdRule {
    let mode: TuningMode

    init?(_ mode: TuningMode) {
        guard mode != .snapshotTesting else { return nil }
        self.mode = mode
    }

    /// The smallest threshold that passes the pair; infinite when none does.
    func score(_ profile: DifferenceProfile) -> Double {
        guard !profile.sizeDiffers else { return .infinity }
        switch mode {
        case .channel: return Double(profile.maxChannelDelta)
        case .cie94: return profile.deltaE94.max
        case .ciede2000: return profile.deltaE2000.max
        case .yiq: return (profile.maxYIQDelta / 35215).squareRoot()
        case .yiqAntialiasing: return (profile.maxYIQDeltaBeyondAntialiasing / 35215).squareRoot()
        case .snapshotTesting: return .infinity
        }
    }

    /// Whether `imgdiff` with this threshold finds no differing pixel, by the comparison's own rule.
    func passes(_ profile: DifferenceProfile, threshold: Double) -> Bool {
        guard !profile.sizeDiffers else { return false }
        switch mode {
        case .channel: return profile.maxChannelDelta <= Int(min(threshold, 256).rounded(.down))
        case .cie94: return profile.deltaE94.max <= threshold
        case .ciede2000: return profile.deltaE2000.max <= threshold
        case .yiq: return profile.maxYIQDelta <= PixelMatch.maximumDelta(threshold: threshold)
        case .yiqAntialiasing:
            return profile.maxYIQDeltaBeyondAntialiasing <= PixelMatch.maximumDelta(threshold: threshold)
        case .snapshotTesting: return false
        }
    }

    /// The largest threshold the CLI accepts.
    var maximum: Double {
        switch mode {
        case .yiq, .yiqAntialiasing: return 1
        default: return .infinity
        }
    }

    func arguments(threshold: Double) -> [String] {
        switch mode {
        case .channel: return ["--metric", "channel", "--threshold", threshold.plainText]
        case .cie94: return ["--metric", "cie94", "--threshold", threshold.plainText]
        case .ciede2000: return ["--metric", "ciede2000", "--threshold", threshold.plainText]
        case .yiq: return ["--metric", "yiq", "--threshold", threshold.plainText]
        case .yiqAntialiasing:
            return ["--metric", "yiq", "--threshold", threshold.plainText, "--antialiasing"]
        case .snapshotTesting: return []
        }
    }

    func setting(noise: [TuningSample], mustFail: [TuningSample], safetyMargin: Double) -> TunedSetting {
        let scores = Scores(noise: noise, mustFail: mustFail) { score($0.profile) }
        let noiseLimit = scores.noiseLimit
        var setting = TunedSetting(
            mode: mode, passesAllNoise: false, noiseLimit: Tuning.finite(noiseLimit),
            limitingNoisePair: scores.limitingNoisePair, nextNoiseLimit: scores.nextNoiseLimitIfOutlier, cliArguments: [])
        if !mustFail.isEmpty { setting.separation = scores.separation(separates: false) }
        guard noiseLimit <= maximum else { return setting }

        var target = noiseLimit * (1 + safetyMargin)
        if let changeLimit = scores.changeLimit, target >= changeLimit, noiseLimit < changeLimit {
            target = (noiseLimit + changeLimit) / 2
        }
        var candidates: [Double]
        if mode == .channel {
            // Levels stop at 255: a larger threshold says no more and reads as if it did.
            candidates = [min(target.rounded(.up), 255), noiseLimit]
        } else {
            candidates = (2...9).map { Tuning.roundedUp(target, significantDigits: $0) } + [target, noiseLimit]
        }
        candidates = candidates.filter { $0 <= maximum }
        let choice = Tuning.choose(candidates) { threshold in
            (noise.allSatisfy { passes($0.profile, threshold: threshold) },
             mustFail.allSatisfy { !passes($0.profile, threshold: threshold) })
        }
        guard let (threshold, separates) = choice else { return setting }
        setting.passesAllNoise = true
        setting.threshold = threshold
        setting.safetyMargin = noiseLimit > 0 ? threshold / noiseLimit - 1 : nil
        setting.cliArguments = arguments(threshold: threshold)
        if !mustFail.isEmpty { setting.separation = scores.separation(separates: separates) }
        return setting
    }
}
