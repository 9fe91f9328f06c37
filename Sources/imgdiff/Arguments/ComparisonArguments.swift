import ArgumentParser
import ImageCodecs
import ImageDiff
import ImagePipeline
import SnapshotFiles
import SnapshotRule

/// The comparison options every command shares (`compare`, and any command that compares
/// pairs).
struct ComparisonArguments: ParsableArguments {
    @Option(help: ArgumentHelp("How pixels are judged (default: yiq; `imgdiff help compare` says what each metric counts).", valueName: "metric"))
    var metric: ComparisonMetric?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Threshold in the metric's own unit (default: channel 0 levels, yiq 0.1, ΔE 2.0, structural ΔE 2.3, ssim-cie94 ΔE 1; exact takes none, ae takes --fuzz).",
        valueName: "T"))
    var threshold: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "ImageMagick fuzz for `--metric ae` and --diff: a percentage (5%) or Q16 units (3277) (default: 0, colours must be equal).",
        valueName: "P%"))
    var fuzz: Fuzz?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "swift-snapshot-testing `precision`: the fraction of bytes (or, with --perceptual-precision below 1, of pixels) that must match (default: 1 beside --perceptual-precision, else none: the metric judges).",
        valueName: "0...1"))
    var precision: Float?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "swift-snapshot-testing `perceptualPrecision`: a pixel matches iff ΔE94 <= (1 - P) * 100 (default: 1 beside --precision, else none).",
        valueName: "0...1"))
    var perceptualPrecision: Float?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Leave rectangles out, inclusive corners; repeat the option or separate with commas.",
        valueName: "x1:y1-x2:y2[,...]"))
    var ignore: [IgnoreRegions] = []

    @Option(help: ArgumentHelp("Leave out pixels that are non-black and non-transparent in this image.", valueName: "FILE"))
    var ignoreMask: String?

    @Flag(help: "Do not count pixels that look anti-aliased (pixelmatch's detector; not beside ae or ImageMagick's figures).")
    var antialiasing = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "A pair still matches with up to N differing pixels (Playwright's maxDiffPixels; default: 0).", valueName: "N"))
    var maxDiffPixels: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "A pair still matches with up to this share of its pixels differing (Playwright's maxDiffPixelRatio; beside --max-diff-pixels the smaller limit holds; default: 0).",
        valueName: "0...1"))
    var maxDiffRatio: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "structural: the largest displacement in pixels that explains a cluster as moved (default: 1; 0...\(StructuralRule.largestShiftRadius)).",
        valueName: "R"))
    var shiftRadius: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "structural: the smallest cluster, in pixels, that fails the pair at any contrast (default: \(StructuralRule().minimumClusterPixels)). Smaller ones fail from \(StructuralRule().minimumStrongClusterPixels) pixels with a ΔE94 of \(StructuralRule().strongDeltaE), and at any size with that ΔE94 on plain ground.",
        valueName: "N"))
    var minCluster: Int?

    @Flag(help: "structural: do not explain words moved along three or more lines as text set again by other hinting (default: explained).")
    var noTextReflow = false

    @Flag(help: "structural: on a page whose unexplained differences lie in \(StructuralRule.scatteredNoiseClusters) or more clusters of ΔE94 \(StructuralRule().strongDeltaE)+ (other hinting, LCD text), still fail a small cluster of strong contrast (default: taken for that noise).")
    var noScatteredNoise = false

    @Flag(help: "structural: count pixels that look anti-aliased unless a shift or a blend explains them; catches a changed glyph of small text, and fails more render noise (default: taken for noise, except on plain ground).")
    var countAntialiased = false

    @Option(help: ArgumentHelp(
        "Judge pairs by the setting in this file (as `imgdiff tune --write-config` writes it), instead of the options above.",
        valueName: "FILE"))
    var config: String?

    @Option(help: "Overlay and diff rounding: im7 (ImageMagick 7 HDRI, default) or im6 (ImageMagick 6 Q16).")
    var rounding: ImageMagickRounding = .im7

    @OptionGroup(title: "Input limits")
    var limits: DecodingLimitsArguments

    func validate() throws {
        if config?.isEmpty == true { throw ValidationError("--config is empty; name the settings file") }
        if ignoreMask?.isEmpty == true { throw ValidationError("--ignore-mask is empty; name the mask image") }
        if config != nil, let given = judgingOptionsGiven.first {
            throw ValidationError("--config sets the metric and tolerances; leave out \(given), or edit the file")
        }
        if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must be >= 0") }
        if let maxDiffRatio, !(0...1).contains(maxDiffRatio) { throw ValidationError("--max-diff-ratio must be between 0 and 1") }
        if shiftRadius != nil || minCluster != nil || noTextReflow || noScatteredNoise || countAntialiased,
            metric?.name != "structural"
        {
            throw ValidationError(
                "--shift-radius, --min-cluster, --no-text-reflow, --no-scattered-noise and --count-antialiased belong to --metric structural")
        }
        if let shiftRadius, !(0...StructuralRule.largestShiftRadius).contains(shiftRadius) {
            throw ValidationError("--shift-radius must be between 0 and \(StructuralRule.largestShiftRadius)")
        }
        if let minCluster, minCluster < 1 { throw ValidationError("--min-cluster must be at least 1") }
        if let threshold, !(threshold >= 0) || !threshold.isFinite {
            throw ValidationError("--threshold must be a number >= 0")
        }
        if threshold != nil, case .exact? = metric {
            throw ValidationError("--metric exact takes no --threshold; for a tolerance, use --metric channel --threshold N")
        }
        if threshold != nil, case .imageMagickAE? = metric {
            throw ValidationError("--metric ae takes its tolerance as --fuzz (a percentage or Q16 units), not --threshold")
        }
        if case .yiq = metric ?? .yiq(threshold: 0.1), let threshold, threshold > 1 {
            throw ValidationError("--threshold for yiq is between 0 and 1 (pixelmatch's scale), got \(threshold)")
        }
        for (name, value) in [("--precision", precision), ("--perceptual-precision", perceptualPrecision)] {
            if let value, !(0...1).contains(value) {
                throw ValidationError("\(name) must be between 0 and 1, got \(value)")
            }
        }
        if precision != nil || perceptualPrecision != nil, maxDiffPixels != nil || maxDiffRatio != nil {
            throw ValidationError(
                "--max-diff-pixels and --max-diff-ratio do not apply beside --precision and --perceptual-precision, whose rule gives the verdict; keep one or the other")
        }
    }

    /// The options that set how pixels are judged, as given: `--config` replaces them all.
    var judgingOptionsGiven: [String] {
        var given: [String] = []
        if metric != nil { given.append("--metric") }
        if threshold != nil { given.append("--threshold") }
        if antialiasing { given.append("--antialiasing") }
        if maxDiffPixels != nil { given.append("--max-diff-pixels") }
        if maxDiffRatio != nil { given.append("--max-diff-ratio") }
        if shiftRadius != nil { given.append("--shift-radius") }
        if minCluster != nil { given.append("--min-cluster") }
        if noTextReflow { given.append("--no-text-reflow") }
        if noScatteredNoise { given.append("--no-scattered-noise") }
        if countAntialiased { given.append("--count-antialiased") }
        if precision != nil { given.append("--precision") }
        if perceptualPrecision != nil { given.append("--perceptual-precision") }
        return given
    }

    /// The metric at the threshold (or, for `ae`, the fuzz) and structural settings given.
    var chosenMetric: ComparisonMetric {
        let metric = self.metric ?? .yiq(threshold: 0.1)
        if case .imageMagickAE = metric { return metric.with(threshold: fuzzDistance) }
        var chosen = threshold.map { metric.with(threshold: $0) } ?? metric
        if case .structural(var rule) = chosen {
            if let shiftRadius { rule.shiftRadius = shiftRadius }
            if let minCluster { rule.minimumClusterPixels = minCluster }
            if noTextReflow { rule.explainsTextReflow = false }
            if noScatteredNoise { rule.explainsScatteredNoise = false }
            if countAntialiased { rule.explainsAntialiasing = false }
            chosen = .structural(rule)
        }
        return chosen
    }

    /// `--fuzz` in Q16 units; none when not given.
    var fuzzDistance: Double { fuzz?.distance ?? 0 }

    /// The settings file named by `--config`, read once.
    func settings() throws(CommandLineError) -> ComparisonSettings? {
        guard let config else { return nil }
        do {
            return try ComparisonSettings.load(contentsOf: config)
        } catch {
            throw CommandLineError(error.description)
        }
    }

    /// The library options, from `settings` (read from `settingsFile`, `--config` when nil)
    /// when given; decodes the ignore mask if one was named.
    func options(settings: ComparisonSettings? = nil, settingsFile: String? = nil) throws(CommandLineError) -> ComparisonOptions {
        let settingsFile = settingsFile ?? config ?? ComparisonSettings.defaultFileName
        var options = ComparisonOptions(
            metric: chosenMetric, ignoreAntialiasing: antialiasing, ignoreRegions: ignore.flatMap(\.rects),
            allowance: DifferenceAllowance(maxPixels: maxDiffPixels, maxRatio: maxDiffRatio))
        if let settings {
            if fuzz != nil, settings.metric == "ae" {
                throw CommandLineError(
                    "\(settingsFile): judges by ae, whose fuzz is the file's threshold (0 without one); leave out --fuzz, or edit the file")
            }
            do {
                options = try settings.applied(to: options)
            } catch {
                throw CommandLineError("\(settingsFile): \(error.problem)")
            }
        }
        if let ignoreMask { options.ignoreMask = try decode(ignoreMask, limits: limits.decodingLimits) }
        return options
    }

    /// The pipeline's request for these options (or `settings`, from `--config` or found
    /// beside the references at `settingsFile`): `outputs` rendered under `policy`.
    func request(
        outputs: Set<ReviewOutput>, policy: OutputPolicy, parallelism: Parallelism = .allCores,
        settings: ComparisonSettings? = nil, settingsFile: String? = nil
    ) throws(CommandLineError) -> ComparisonRequest {
        let settingsFile = settingsFile ?? config ?? ComparisonSettings.defaultFileName
        var snapshotPrecision = self.snapshotPrecision
        if let settings {
            do {
                snapshotPrecision = try settings.snapshotRule()
            } catch {
                throw CommandLineError("\(settingsFile): \(error.problem)")
            }
        }
        let options = try options(settings: settings, settingsFile: settingsFile)
        if let problem = options.judgingProblem {
            throw CommandLineError(settings == nil ? problem : "\(settingsFile): \(problem)")
        }
        if fuzz != nil, !outputs.contains(.difference), options.metric.name != "ae" {
            throw CommandLineError(
                "--fuzz is the tolerance of --metric ae and of --diff's image; judged by \(options.metric.name) with no --diff, it would change nothing: leave it out")
        }
        return ComparisonRequest(
            options: options, snapshotPrecision: snapshotPrecision,
            snapshotPrecisionAfterMetric: settings != nil || judgesBeyondPrecision, outputs: outputs,
            outputPolicy: policy, rounding: rounding, differenceFuzz: fuzzDistance, limits: limits.decodingLimits,
            parallelism: parallelism)
    }

    /// Whether an option besides the precisions sets which pixels count (a metric, a threshold,
    /// anti-aliasing, ignored regions): a precision then judges only those pixels.
    var judgesBeyondPrecision: Bool {
        !judgingOptionsGiven.filter { !["--precision", "--perceptual-precision"].contains($0) }.isEmpty
            || !ignore.isEmpty || ignoreMask != nil
    }

    /// swift-snapshot-testing's rule, when either precision was given.
    var snapshotPrecision: SnapshotPrecision? {
        guard precision != nil || perceptualPrecision != nil else { return nil }
        return SnapshotPrecision(precision: precision ?? 1, perceptualPrecision: perceptualPrecision ?? 1)
    }
}
