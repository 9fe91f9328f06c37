import Foundation
import ImageDiff
import SnapshotFiles
import SnapshotRule

/// How an image snapshot is judged: swift-snapshot-testing's `precision` and
/// `perceptualPrecision` rule, applied after imgdiff's own options have decided which pixels
/// count as different at all.
///
/// With the default options (``ComparisonMetric/exact``, nothing ignored) the verdict and its
/// message are exactly those of swift-snapshot-testing's image strategies on Apple platforms
/// (Docs/comparison-semantics.md §3). The other options only ever make a snapshot
/// pass more easily: a pixel the options judge equal (within a per-channel tolerance or a ΔE
/// threshold, inside an ignored region, or anti-aliased) is treated as identical to the
/// reference before ``SnapshotPrecision`` counts bytes or pixels.
public struct ImageSnapshotComparison: Sendable {
    /// swift-snapshot-testing's thresholds.
    public var precision: SnapshotPrecision
    /// Which pixels count as different before `precision` is applied. `collectsMask` is always
    /// turned on: the mask decides which pixels are forgiven and is written as an artifact.
    public var options: ComparisonOptions
    /// Whose verdict counts: swift-snapshot-testing's rule (the default), or imgdiff's own
    /// (the metric, then ``ComparisonOptions/allowance``), as a settings file without
    /// precisions asks.
    public var verdictRule: VerdictRule = .snapshotTesting

    /// Who decides whether a snapshot matches.
    public enum VerdictRule: Sendable {
        /// swift-snapshot-testing's `precision` and `perceptualPrecision`, after the options
        /// forgave what they forgive.
        case snapshotTesting
        /// imgdiff's verdict, as `imgdiff compare` with the same options gives it.
        case imgdiff
    }

    /// - Parameters:
    ///   - precision: The fraction of bytes (or, with `perceptualPrecision < 1`, of pixels) that
    ///     must match, as in swift-snapshot-testing.
    ///   - perceptualPrecision: A pixel matches iff its CIE94 ΔE is at most
    ///     `(1 − perceptualPrecision) · 100`, as in swift-snapshot-testing.
    ///   - options: Which pixels count as different in the first place; the default counts every
    ///     changed pixel, as swift-snapshot-testing does.
    public init(
        precision: Float = 1,
        perceptualPrecision: Float = 1,
        options: ComparisonOptions = ComparisonOptions(metric: .exact)
    ) {
        self.precision = SnapshotPrecision(precision: precision, perceptualPrecision: perceptualPrecision)
        self.options = options
    }

    /// The setting of a settings file, as `imgdiff tune --write-config` writes it, so that the
    /// tests and `imgdiff compare --config` / `imgdiff batch` judge alike. With swift-snapshot-
    /// testing's precisions in the file its rule decides, after the file's metric; without
    /// them imgdiff's own verdict does.
    public init(settings: ComparisonSettings) throws(SettingsError) {
        let options = try settings.applied(to: ComparisonOptions())
        if let rule = try settings.snapshotRule() {
            self.init(precision: rule.precision, perceptualPrecision: rule.perceptualPrecision, options: options)
        } else {
            self.init(options: options)
            verdictRule = .imgdiff
        }
    }

    /// The setting in the settings file at `path` (for instance `__Snapshots__/imgdiff.json`).
    ///
    /// - Throws: ``SettingsError`` naming the file and the problem.
    public init(contentsOf path: String) throws(SettingsError) {
        try self.init(settings: ComparisonSettings.load(contentsOf: path))
    }

    /// Judges `actual` against the recorded `reference`.
    public func evaluate(reference: RGBAImage, actual: RGBAImage) -> ImageSnapshotEvaluation {
        if let problem = options.judgingProblem {
            return ImageSnapshotEvaluation(verdict: .failed("imgdiff: \(problem)"), difference: nil, settingsProblem: problem)
        }
        if verdictRule == .imgdiff {
            var options = self.options
            options.collectsMask = true
            let difference = compare(reference, actual, options: options)
            let verdict = difference.match ? SnapshotVerdict.passed : .failed("Newly-taken snapshot does not match reference.")
            return ImageSnapshotEvaluation(verdict: verdict, difference: difference.match ? nil : difference)
        }
        let strictVerdict = precision.verdict(reference: reference, actual: actual)
        guard !strictVerdict.passed else {
            return ImageSnapshotEvaluation(verdict: strictVerdict, difference: nil)
        }
        var options = self.options
        options.collectsMask = true
        let difference = compare(reference, actual, options: options)
        return ImageSnapshotEvaluation(verdict: precision.verdict(reference: reference, actual: actual, after: difference), difference: difference)
    }
}

/// The outcome of an ``ImageSnapshotComparison``.
public struct ImageSnapshotEvaluation: Sendable {
    /// swift-snapshot-testing's verdict and message.
    public var verdict: SnapshotVerdict
    /// What imgdiff measured, with the mask of the pixels that count as different; `nil` when
    /// the images passed as they are, before any option was needed.
    public var difference: DiffResult?
    /// Why the comparison's options cannot judge any pair (a negative or NaN threshold): the
    /// test fails on its setting, not on the images, so no failure is left to review.
    public var settingsProblem: String? = nil

    /// One line that says where and how much the images differ.
    public var summary: String {
        if let settingsProblem { return "imgdiff: \(settingsProblem)." }
        guard let difference else { return "imgdiff: the images match." }
        return "imgdiff: " + difference.summary + "."
    }
}
