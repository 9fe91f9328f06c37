import ArgumentParser
import ImageCodecs
import ImageDiff
import SnapshotRule
import ImagePipeline

/// The comparison options every command shares (`compare`, and any command that compares
/// pairs).
struct ComparisonArguments: ParsableArguments {
    @Option(help: "How pixels are judged (the metrics are listed above).")
    var metric: ComparisonMetric = .yiq(threshold: 0.1)

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Threshold in the metric's own unit (default: channel 0 levels, yiq 0.1, ΔE 2.0, structural ΔE 2.3; unused by exact and ae).",
        valueName: "T"))
    var threshold: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "ImageMagick fuzz for `--metric ae` and --diff: a percentage (5%) or Q16 units (3277).",
        valueName: "P%"))
    var fuzz: Fuzz = Fuzz(distance: 0)

    @Option(help: ArgumentHelp(
        "swift-snapshot-testing `precision`: the fraction of bytes (or, with --perceptual-precision, pixels) that must match.",
        valueName: "0...1"))
    var precision: Float?

    @Option(help: ArgumentHelp(
        "swift-snapshot-testing `perceptualPrecision`: a pixel matches iff ΔE94 <= (1 - P) * 100.",
        valueName: "0...1"))
    var perceptualPrecision: Float?

    @Option(parsing: .singleValue, help: ArgumentHelp(
        "Leave rectangles out, inclusive corners; repeat the option or separate with commas.",
        valueName: "x1:y1-x2:y2[,...]"))
    var ignore: [IgnoreRegions] = []

    @Option(help: ArgumentHelp("Leave out pixels that are non-black and non-transparent in this image.", valueName: "FILE"))
    var ignoreMask: String?

    @Flag(help: "Do not count pixels that look anti-aliased (pixelmatch's detector).")
    var antialiasing = false

    @Option(help: "Overlay and diff rounding: im7 (ImageMagick 7 HDRI, default) or im6 (ImageMagick 6 Q16).")
    var rounding: ImageMagickRounding = .im7

    @OptionGroup(title: "Input limits")
    var limits: DecodingLimitsArguments

    func validate() throws {
        if let threshold, !(threshold >= 0) || !threshold.isFinite {
            throw ValidationError("--threshold must be a number >= 0")
        }
        if case .yiq = metric, let threshold, threshold > 1 {
            throw ValidationError("--threshold for yiq is between 0 and 1 (pixelmatch's scale), got \(threshold)")
        }
        for (name, value) in [("--precision", precision), ("--perceptual-precision", perceptualPrecision)] {
            if let value, !(0...1).contains(value) {
                throw ValidationError("\(name) must be between 0 and 1, got \(value)")
            }
        }
    }

    /// The metric at the threshold (or, for `ae`, the fuzz) given.
    var chosenMetric: ComparisonMetric {
        if case .imageMagickAE = metric { return metric.with(threshold: fuzz.distance) }
        return threshold.map { metric.with(threshold: $0) } ?? metric
    }

    /// The library options; decodes the ignore mask if one was named.
    func options() throws(CommandLineError) -> ComparisonOptions {
        var options = ComparisonOptions(
            metric: chosenMetric, ignoreAntialiasing: antialiasing, ignoreRegions: ignore.flatMap(\.rects))
        if let ignoreMask { options.ignoreMask = try decode(ignoreMask, limits: limits.decodingLimits) }
        return options
    }

    /// The pipeline's request for these options: `outputs` rendered under `policy`.
    func request(
        outputs: Set<ReviewOutput>, policy: OutputPolicy, parallelism: Parallelism = .allCores
    ) throws(CommandLineError) -> ComparisonRequest {
        ComparisonRequest(
            options: try options(), snapshotPrecision: snapshotPrecision, outputs: outputs,
            outputPolicy: policy, rounding: rounding, differenceFuzz: fuzz.distance, limits: limits.decodingLimits,
            parallelism: parallelism)
    }

    /// swift-snapshot-testing's rule, when either precision was given.
    var snapshotPrecision: SnapshotPrecision? {
        guard precision != nil || perceptualPrecision != nil else { return nil }
        return SnapshotPrecision(precision: precision ?? 1, perceptualPrecision: perceptualPrecision ?? 1)
    }
}
