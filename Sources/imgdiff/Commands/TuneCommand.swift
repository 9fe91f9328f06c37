import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs
import ImageDiff
import ImagePipeline
import SnapshotFiles
import SnapshotRule
import ToleranceTuning

/// `imgdiff tune NOISE_DIR [--must-fail CHANGED_DIR]`: the tightest tolerances that pass known
/// render noise, checked against known real changes.
struct TuneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Find tolerances that pass render noise (e.g. Intel vs ARM) but still catch real changes.",
        discussion: """
            Folder layout: each folder of pairs holds ref/ and new/, paired by
            relative path (as `imgdiff batch ref new` pairs them):
              NOISE_DIR/ref/login.png    NOISE_DIR/new/login.png    must pass
              NOISE_DIR/ref/a/b.png      NOISE_DIR/new/a/b.png
              CHANGED_DIR/ref/cart.png   CHANGED_DIR/new/cart.png   must fail
            Files without a counterpart are skipped with a warning.

            Per pair it measures: the share of differing pixels; the histogram of
            the largest channel delta; max and 99.9th percentile of ΔE94 and
            ΔE2000; the largest pixelmatch YIQ delta, with and without
            anti-aliased pixels; the differing pixels left after anti-aliasing
            detection.

            It searches every mode together with an allowance of differing
            pixels (--max-diff-pixels): structural (noise ΔE x shift radius x
            cluster size x text reflow x scattered noise), ssim-cie94, cie94 and
            ciede2000, yiq with and without --antialiasing, channel. From up to --canary-pairs noise pairs it makes
            must-fail canaries out of your own snapshots (a word-sized patch and a
            50-px spot moved by ΔE94 3, a block moved 2 px, a 1-px line painted
            over); no setting that passes a canary is recommended. Of the rest it
            picks the one misjudging the fewest pairs, then the widest separation,
            and prints its leave-one-out accuracy (95% interval), the pairs that
            limit it and by how much. --write-config FILE keeps it as a settings
            file: batch reads REF_DIR/imgdiff.json, compare reads --config FILE,
            the snapshot adapter ImageSnapshotComparison(contentsOf:).

            It also prints the single-threshold view (no pixel may differ), the
            tightest value passing every noise pair plus the safety margin:
              snapshot-testing   swift-snapshot-testing precision and
                                 perceptualPrecision (with a warning when they
                                 pass a canary)
              channel, cie94, ciede2000, yiq, yiq-antialiasing

            Examples:
              imgdiff tune Fixtures/tune/noise --must-fail Fixtures/tune/changes
              imgdiff tune noise --json | jq -r '.recommendation.cliArguments | join(" ")'
              imgdiff tune noise --safety-margin 10%
              imgdiff tune noise --must-fail changes --write-config ref/imgdiff.json

            Exit status: 0 the recommendation passes all noise and fails every
            change and canary; 1 no setting does, or none fails every canary;
            2 error. A noise pair whose sizes differ is an error: no tolerance
            passes it.
            """
    )

    @Argument(help: ArgumentHelp("Pairs of render noise: NOISE_DIR/ref/** and NOISE_DIR/new/**.", valueName: "NOISE_DIR"))
    var noiseDirectory: String

    @Option(help: ArgumentHelp(
        "Pairs with real changes, laid out the same way: CHANGED_DIR/ref/** and CHANGED_DIR/new/**.",
        valueName: "CHANGED_DIR"))
    var mustFail: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "How far beyond the worst noise to set each threshold: a percentage (10%) or a fraction (0.1), at most 1000%.",
        valueName: "P%"))
    var safetyMargin = SafetyMargin(fraction: 0.25)

    @Flag(help: "Print measurements and recommendations as JSON.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Make must-fail canaries from this many noise pairs (spread over the folder; 0 for none).", valueName: "N"))
    var canaryPairs = 8

    @Option(help: ArgumentHelp(
        "Write the recommended setting to FILE, for `compare --config`, `batch` (as REF_DIR/imgdiff.json) and the snapshot adapter.",
        valueName: "FILE"))
    var writeConfig: String?

    @Option(help: ArgumentHelp(
        "Write the canaries to DIR, a new or empty folder, laid out as a CHANGED_DIR (DIR/ref/**, DIR/new/**): to look at, or to give as --must-fail or to `batch`.",
        valueName: "DIR"))
    var writeCanaries: String?

    @Option(parsing: .unconditional, help: "Pairs measured at once (default: one per core).")
    var jobs: Int?

    @OptionGroup(title: "Input limits")
    var limits: DecodingLimitsArguments

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if canaryPairs < 0 { throw ValidationError("--canary-pairs must be >= 0") }
        if writeConfig?.isEmpty == true { throw ValidationError("--write-config is empty; name the settings file") }
        if writeCanaries?.isEmpty == true { throw ValidationError("--write-canaries is empty; name the folder") }
    }

    func run() async throws {
        do {
            throw ExitCode(try await tune())
        } catch let error as CommandLineError {
            Console.error(error.description)
            throw ExitCode(2)
        }
    }

    func tune() async throws(CommandLineError) -> Int32 {
        if let writeConfig {
            if let writeCanaries, SnapshotFolder.isSameOrInside(writeConfig, writeCanaries) {
                throw CommandLineError(
                    "\(writeConfig): lies in the --write-canaries folder \(writeCanaries); put the settings file elsewhere")
            }
            try Self.checkSettingsDestination(writeConfig)
        }
        let canaryFolder = try writeCanaries.map { path throws(CommandLineError) in
            try CanaryFolder(path, apartFrom: [noiseDirectory, mustFail].compactMap { $0 })
        }
        do {
            return try await tune(writingCanariesTo: canaryFolder)
        } catch {
            canaryFolder?.discard()
            throw error
        }
    }

    /// Refuses a `--write-config` path that holds anything but a settings file, before the
    /// pairs are measured: a settings file from an earlier run is replaced, but a reference
    /// image (one tune reads, say) or any other file is never overwritten.
    static func checkSettingsDestination(_ path: String) throws(CommandLineError) {
        if SnapshotFolder.hasImageExtension(Array(PathText.lastComponent(path).utf8)) {
            throw CommandLineError(
                "\(path): named like an image, which a snapshot folder would list as one; name the settings file \(ComparisonSettings.defaultFileName)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let folder = PathText.parent(of: SnapshotFolder.resolved(path))
            guard SnapshotFolder.isDirectory(folder) else {
                throw CommandLineError("\(path): its folder does not exist; --write-config creates only the file")
            }
            guard access(folder, W_OK) == 0 else {
                throw CommandLineError("\(path): cannot write into its folder (\(ImageFile.systemMessage(errno)))")
            }
            return
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CommandLineError("\(path): not a regular file; --write-config writes a settings file")
        }
        do {
            _ = try ComparisonSettings.load(contentsOf: path)
        } catch {
            throw CommandLineError(
                "\(path): exists and does not read as an imgdiff settings file (\(error.problem)); --write-config replaces only a settings file: fix or remove it, or choose another path")
        }
    }

    func tune(writingCanariesTo canaryFolder: CanaryFolder?) async throws(CommandLineError) -> Int32 {
        var noise = try await measure(noiseDirectory, label: .noise, writingCanariesTo: canaryFolder)
        guard !noise.isEmpty else {
            throw CommandLineError("\(noiseDirectory): no pairs: no file in ref/ has a counterpart in new/")
        }
        var changes: [MeasuredPair] = []
        if let mustFail {
            changes = try await measure(mustFail, label: .change, writingCanariesTo: nil)
            guard !changes.isEmpty else {
                throw CommandLineError("\(mustFail): no pairs: no file in ref/ has a counterpart in new/")
            }
        }
        Self.distinguishSharedNames(&noise, &changes)
        let canaries = noise.flatMap(\.canaries)
        if canaryPairs > 0 && canaries.isEmpty {
            warn("no canary could be made from the noise pairs (too small or flat to paint a change into): nothing checks that the advice still catches a change the noise does not hold")
        }
        let report = Tuning.recommend(
            noise: noise.map(\.sample), mustFail: changes.map(\.sample), safetyMargin: safetyMargin.fraction)
        let evaluations = (noise + changes + canaries).map(\.evaluation)
        let search = SearchOutcome(
            evaluations: evaluations, canarySource: Self.canarySources(noise: noise, firstCanary: noise.count + changes.count),
            safetyMargin: safetyMargin.fraction, snapshotTesting: report.setting(.snapshotTesting),
            canaries: canaries.map(\.sample))
        let output = TuneOutput(
            noiseDirectory: noiseDirectory, mustFailDirectory: mustFail, noise: noise.map(\.sample),
            mustFail: changes.map(\.sample), canaries: canaries.map(\.sample), report: report, search: search)
        // The canaries first: a settings file is written only beside canaries put in place.
        try canaryFolder?.commit()
        if let writeConfig, let settings = search.settings {
            do {
                try ImageFile.write(settings.encoded(), to: writeConfig)
            } catch {
                throw CommandLineError(error.description)
            }
        } else if let writeConfig {
            warn("\(writeConfig): settings file not written: \(search.untrainedReason)")
        }
        print(json ? try output.json() : output.text())
        if let chosen = report.recommendedSetting, let warning = TuneOutput.outlierWarning(chosen) { warn(warning) }
        if let warning = search.snapshotTestingWarning { warn(warning) }
        guard let trained = search.trained else { return 1 }
        return trained.misjudged.isEmpty ? 0 : 1
    }

    /// For the canaries of `noise`, listed in order from index `firstCanary` on, the index of
    /// the noise pair each was made from.
    static func canarySources(noise: [MeasuredPair], firstCanary: Int) -> [Int: Int] {
        var sources: [Int: Int] = [:]
        var index = firstCanary
        for (source, pair) in noise.enumerated() {
            for _ in pair.canaries {
                sources[index] = source
                index += 1
            }
        }
        return sources
    }

    /// Names a noise pair and a change that share a relative path apart, as `NAME (noise)` and
    /// `NAME (must fail)`, so that every line and list of the report names one pair.
    static func distinguishSharedNames(_ noise: inout [MeasuredPair], _ changes: inout [MeasuredPair]) {
        let shared = Set(noise.map(\.sample.name)).intersection(changes.map(\.sample.name))
        guard !shared.isEmpty else { return }
        for index in noise.indices where shared.contains(noise[index].sample.name) {
            noise[index].rename(noise[index].sample.name + " (noise)")
        }
        for index in changes.indices where shared.contains(changes[index].sample.name) {
            changes[index].rename(changes[index].sample.name + " (must fail)")
        }
    }

    /// A pair measured for both the per-pixel profile and the search, with the canaries made
    /// from it.
    struct MeasuredPair: Sendable {
        var sample: TuningSample
        var evaluation: PairEvaluation
        var canaries: [MeasuredPair] = []
        mutating func rename(_ name: String) {
            sample.name = name
            evaluation.name = name
        }
    }

    /// Decodes, profiles and evaluates every pair under `directory`/ref and `directory`/new,
    /// making canaries from the first ``canaryPairs`` noise pairs.
    func measure(
        _ directory: String, label: PairEvaluation.Label, writingCanariesTo canaryFolder: CanaryFolder?
    ) async throws(CommandLineError) -> [MeasuredPair] {
        try SnapshotFolder.requireDirectory(directory)
        let referenceRoot = PathText.join(directory, "ref"), newRoot = PathText.join(directory, "new")
        for root in [referenceRoot, newRoot] {
            guard SnapshotFolder.isDirectory(root) else {
                throw CommandLineError("\(directory): expected the folders ref/ and new/ inside (see 'imgdiff tune --help')")
            }
        }
        let pairing = try FolderPairing(reference: referenceRoot, new: newRoot)
        for path in pairing.onlyInReference {
            warn("\(PathText.join(referenceRoot, path)): no counterpart in \(newRoot); skipped")
        }
        for path in pairing.onlyInNew {
            warn("\(PathText.join(newRoot, path)): no counterpart in \(referenceRoot); skipped")
        }
        let canarySources = label == .noise ? Set(Self.spread(pairing.common, count: canaryPairs)) : []
        var progress = ProgressLine(total: pairing.common.count, noun: "pairs")
        let limits = limits.decodingLimits
        let memory = MemoryBudget(total: limits.maxMemory)
        let results = await mapConcurrently(pairing.common, jobs: jobs ?? defaultJobCount, progress: &progress) {
            path -> Result<MeasuredPair, CommandLineError> in
            let referenceFile = PathText.join(referenceRoot, path), newFile = PathText.join(newRoot, path)
            let encoded: (reference: EncodedImage, actual: EncodedImage)
            do throws(ImageFileError) {
                encoded = (try EncodedImage(contentsOf: referenceFile, limits: limits), try EncodedImage(contentsOf: newFile, limits: limits))
            } catch {
                return .failure(CommandLineError(error.description))
            }
            // A canary source also holds its canaries, each an image of the pair's size, while
            // they are measured: about as much again as the pair, twice over.
            let pairMemory = Pipeline.wholeImageMemory(encoded.reference, encoded.actual) ?? 0
            let makesCanaries = canarySources.contains(path)
            let reserved = makesCanaries ? (pairMemory > Int.max / 3 ? Int.max : pairMemory * 3) : pairMemory
            return memory.withReservation(reserved) {
                Self.measure(path, encoded, label: label, limits: limits, makesCanaries: makesCanaries, canaryFolder: canaryFolder)
            }
        }
        var pairs: [MeasuredPair] = []
        for result in results {
            switch result {
            case .success(let pair): pairs.append(pair)
            case .failure(let error): throw error
            }
        }
        return pairs
    }

    /// Decodes and measures one pair, with the canaries made from it when `makesCanaries`
    /// (written into `canaryFolder`, if any).
    static func measure(
        _ path: String, _ encoded: (reference: EncodedImage, actual: EncodedImage), label: PairEvaluation.Label,
        limits: DecodingLimits, makesCanaries: Bool, canaryFolder: CanaryFolder?
    ) -> Result<MeasuredPair, CommandLineError> {
        do {
            let (reference, actual) = try Pipeline.decodePair(
                encoded.reference, encoded.actual, request: ComparisonRequest(limits: limits, parallelism: .callingThread))
            if label == .noise, reference.size != actual.size {
                return .failure(CommandLineError(
                    "\(encoded.actual.name): size \(actual.size) differs from the reference's \(reference.size); no tolerance passes a size change, so it cannot be noise"))
            }
            var pair = measured(path, label: label, reference: reference, actual: actual)
            if makesCanaries {
                let made = Canaries.make(reference: reference, actual: actual)
                try canaryFolder?.write(reference, canaries: made, for: path)
                pair.canaries = made.map { kind, image in
                    measured("\(path) + \(kind.rawValue)", label: .canary, reference: reference, actual: image)
                }
            }
            return .success(pair)
        } catch let error as ImageFileError {
            return .failure(CommandLineError(error.description))
        } catch let error as CommandLineError {
            return .failure(error)
        } catch {
            return .failure(CommandLineError("\(error)"))
        }
    }

    static func measured(_ name: String, label: PairEvaluation.Label, reference: RGBAImage, actual: RGBAImage) -> MeasuredPair {
        MeasuredPair(
            sample: TuningSample(name: name, profile: DifferenceProfile(reference: reference, actual: actual)),
            evaluation: PairEvaluation(name: name, label: label, reference: reference, actual: actual, bands: 1))
    }

    /// `count` of `items`, evenly spread (all of them when there are fewer).
    static func spread<Item>(_ items: [Item], count: Int) -> [Item] {
        guard items.count > count, count > 0 else { return count > 0 ? items : [] }
        return (0..<count).map { items[$0 * items.count / count] }
    }

    func warn(_ message: String) {
        Console.warning(message)
    }
}

/// `--safety-margin 25%` or `0.25`.
struct SafetyMargin: ExpressibleByArgument {
    let fraction: Double

    init(fraction: Double) { self.fraction = fraction }

    init?(argument: String) {
        let isPercent = argument.hasSuffix("%")
        guard let value = Double(isPercent ? String(argument.dropLast()) : argument), value >= 0, value.isFinite else {
            return nil
        }
        fraction = isPercent ? value / 100 : value
        guard fraction <= Tuning.largestSafetyMargin else { return nil }
    }

    var defaultValueDescription: String {
        let percent = fraction * 100
        return percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }
}

/// The search over every mode × allowance: the setting trained on every labelled pair and
/// canary, its leave-one-out accuracy, and why it was chosen.
struct SearchOutcome {
    let evaluations: [PairEvaluation]
    let trained: TrainedSetting?
    let crossValidation: CrossValidation
    /// How far beyond the worst noise a setting should stay (a fraction).
    let safetyMargin: Double
    /// swift-snapshot-testing's setting from the per-pixel tuning, checked against the changes
    /// and canaries too.
    let snapshotTesting: TunedSetting?

    /// The canaries swift-snapshot-testing's setting passes.
    let canariesPassingSnapshotTesting: [String]

    /// How close the noise came to failing the recommended setting, when it is structural.
    var noiseHeadroom: NoiseHeadroom? {
        guard let index = trained?.candidateIndex else { return nil }
        return NoiseHeadroom(merging: evaluations.filter { $0.label == .noise }.compactMap { $0.headroom[index] })
    }

    init(
        evaluations: [PairEvaluation], canarySource: [Int: Int], safetyMargin: Double, snapshotTesting: TunedSetting?,
        canaries: [TuningSample]
    ) {
        self.evaluations = evaluations
        canariesPassingSnapshotTesting = snapshotTesting?.snapshotTesting.map { setting in
            canaries.filter { Tuning.snapshotTestingPasses($0.profile, setting: setting) == true }.map(\.name)
        } ?? []
        trained = SettingSearch.train(evaluations, safetyMargin: safetyMargin)
        crossValidation = SettingSearch.crossValidate(evaluations, canarySource: canarySource, safetyMargin: safetyMargin)
        self.snapshotTesting = snapshotTesting
        self.safetyMargin = safetyMargin
    }

    /// The setting file's contents, with the explanation.
    var settings: ComparisonSettings? {
        guard let trained else { return nil }
        var options = ComparisonOptions(metric: trained.candidate.metric, ignoreAntialiasing: trained.candidate.antialiasing)
        options.allowance = DifferenceAllowance(maxPixels: trained.maxDiffPixels)
        var settings = ComparisonSettings(options: options, explanation: explanation)
        settings.maxDiffPixels = trained.maxDiffPixels
        return settings
    }

    var cliArguments: [String] {
        guard let trained else { return [] }
        return trained.candidate.cliArguments + ["--max-diff-pixels", String(trained.maxDiffPixels)]
    }

    var canaries: [PairEvaluation] { evaluations.filter { $0.label == .canary } }

    /// Why no setting is recommended: the canaries every mode passes, or, when each fails under
    /// some mode, those the mode that passes the fewest still passes.
    var untrainedReason: String {
        let canaries = self.canaries
        let passedByAll = canaries.filter { $0.counts.allSatisfy { $0 <= 0 } }.map(\.name)
        if !passedByAll.isEmpty {
            return "No setting fails every canary: every mode passes \(Wording.names(passedByAll)), which \(passedByAll.count == 1 ? "differs" : "differ") from its reference in no pixel under any mode."
        }
        let nearest = TuningCandidate.grid.indices.map { index in
            (index, canaries.filter { !$0.counts.indices.contains(index) || $0.counts[index] <= 0 }.map(\.name))
        }.min { $0.1.count < $1.1.count }
        guard let nearest, !nearest.1.isEmpty else { return "No setting fails every canary." }
        return "No setting fails every canary: each mode passes one or more; the one that passes fewest, \(TuningCandidate.grid[nearest.0].label), passes \(Wording.names(nearest.1))."
    }

    /// Why the setting: which pairs limit it, by what margin, and how well it generalizes.
    var explanation: [String] {
        guard let trained else { return [untrainedReason] }
        var lines: [String] = []
        let noiseCount = evaluations.filter { $0.label == .noise }.count
        let changeCount = evaluations.filter { $0.label == .change }.count
        lines.append("Searched \(TuningCandidate.grid.count) modes x allowance over \(Wording.count(noiseCount, "noise pair")), \(Wording.count(changeCount, "change")) and \(Wording.count(canaries.count, "canary", plural: "canaries")).")
        if let noise = trained.worstNoise, noise.pixels > 0 {
            lines.append("Noise limit: \(noise.name) differs in \(Self.pixels(noise.pixels)) under this mode; allowed: \(trained.maxDiffPixels) px.")
        } else {
            lines.append("Noise: no pair differs under this mode; allowed: \(trained.maxDiffPixels) px.")
        }
        if let noiseHeadroom { lines.append(noiseHeadroom.explanation) }
        if !trained.keepsNoiseClear(by: safetyMargin) {
            lines.append(
                "A passing noise cluster comes within the \(PrintfFormat.fixed(safetyMargin * 100, decimals: 0))% safety margin of the size"
                    + " from which it fails, and no setting that judges the training pairs as well keeps the noise clear of it:"
                    + " expect unseen noise of that kind to fail; add such pairs to the noise.")
        }
        if let change = trained.weakestChange {
            let factor = trained.separationFactor
            let apart = factor.isFinite && (trained.worstNoise?.pixels ?? 0) > 0
                ? " (\(PrintfFormat.fixed(factor, decimals: 1))x the worst noise, counting both plus one)" : ""
            lines.append("Closest change: \(change.name) differs in \(Self.pixels(change.pixels))\(apart).")
        }
        lines += modelOffReasons(trained)
        if trained.misjudged.isEmpty {
            lines.append("Every training pair is judged right: noise passes, every change and canary fails.")
        } else {
            lines.append("Misjudged in training: \(trained.misjudged.joined(separator: ", ")).")
        }
        let cv = crossValidation
        lines.append(
            "Leave-one-out accuracy: \(cv.correct)/\(cv.pairs) = \(PrintfFormat.fixed(cv.accuracy, decimals: 3))"
                + " (95% interval \(PrintfFormat.fixed(cv.lowerBound, decimals: 2))-\(PrintfFormat.fixed(cv.upperBound, decimals: 2)))"
                + (cv.misjudged.isEmpty ? "." : "; misjudged when left out: \(cv.misjudged.joined(separator: ", ")).")) 
        return lines
    }

    /// Why a structural setting leaves a noise model off: for each model it turns off, the
    /// canaries it would pass with it, or that it judges the training pairs no better.
    func modelOffReasons(_ trained: TrainedSetting) -> [String] {
        guard case .structural(let rule) = trained.candidate.metric else { return [] }
        let models: [(flag: String, model: String, isOn: WritableKeyPath<StructuralRule, Bool>)] = [
            ("--no-text-reflow", "the text model (words moved along their lines taken for other hinting)", \.explainsTextReflow),
            ("--no-scattered-noise", "the scattered-noise model (small strong clusters on a page of \(StructuralRule.scatteredNoiseClusters)+ strong clusters taken for that noise)", \.explainsScatteredNoise),
        ]
        return models.compactMap { flag, model, isOn in
            guard !rule[keyPath: isOn] else { return nil }
            var withModel = rule
            withModel[keyPath: isOn] = true
            let twin = TuningCandidate(metric: .structural(withModel), antialiasing: trained.candidate.antialiasing)
            guard let index = TuningCandidate.grid.firstIndex(of: twin) else { return nil }
            let passing = canaries.filter { $0.counts[index] == 0 }.map(\.name)
            if passing.isEmpty { return "\(flag): \(model) judges the training pairs no better." }
            return "\(flag): with \(model), \(Wording.names(passing)) would pass."
        }
    }

    static func pixels(_ count: Int) -> String { count == Int.max ? "size" : "\(count) px" }

    /// The must-fail pairs and canaries that swift-snapshot-testing's setting passes, when it
    /// passes all noise.
    var pairsPassingSnapshotTesting: [String] {
        guard let setting = snapshotTesting, setting.passesAllNoise else { return [] }
        return (setting.separation?.overlappingChanges ?? []) + canariesPassingSnapshotTesting
    }

    /// Set when swift-snapshot-testing's two numbers cannot tell the changes and canaries from
    /// the noise, which the search's setting can.
    var snapshotTestingWarning: String? {
        let passing = pairsPassingSnapshotTesting
        guard !passing.isEmpty else { return nil }
        let problem = "swift-snapshot-testing's precision and perceptualPrecision cannot express this separation: set to pass all noise, they let \(Wording.names(passing)) pass"
        guard settings != nil else { return problem }
        return problem + "; write the setting with --write-config and use it in tests with .image(ImageSnapshotComparison(contentsOf: path))"
    }
}

/// What `imgdiff tune` prints: a table, or the JSON document.
struct TuneOutput: Encodable {
    let noiseDirectory: String
    let mustFailDirectory: String?
    let noise: [TuningSample]
    let mustFail: [TuningSample]
    let canaries: [TuningSample]
    let report: TuningReport
    let search: SearchOutcome

    /// The recommendation in the form scripts consume.
    struct Recommendation: Encodable {
        struct SnapshotTesting: Encodable {
            let precision: Float
            let perceptualPrecision: Float
        }

        let mode: String?
        let cliArguments: [String]
        let separates: Bool?
        let separationFactor: Double?
        let crossValidation: CrossValidation
        /// How close the noise came to failing a structural recommendation.
        let noiseHeadroom: NoiseHeadroom?
        let explanation: [String]
        let snapshotTesting: SnapshotTesting?
        let snapshotTestingSeparates: Bool?
        /// The must-fail pairs and canaries that the swift-snapshot-testing setting passes.
        let snapshotTestingPasses: [String]
        let cliLine: String?
        let snapshotTestingLine: String?
    }

    var recommendation: Recommendation {
        let trained = search.trained
        let snapshotSetting = report.setting(.snapshotTesting)
        let snapshot = snapshotSetting?.snapshotTesting
        let factor = trained?.separationFactor
        return Recommendation(
            mode: trained.map { $0.candidate.metric.name },
            cliArguments: search.cliArguments,
            separates: trained.map { $0.misjudged.isEmpty },
            separationFactor: factor.flatMap { $0.isFinite ? $0 : nil },
            crossValidation: search.crossValidation,
            noiseHeadroom: search.noiseHeadroom,
            explanation: search.explanation,
            snapshotTesting: snapshot.map { .init(precision: $0.precision, perceptualPrecision: $0.perceptualPrecision) },
            snapshotTestingSeparates: snapshot == nil || (mustFail.isEmpty && canaries.isEmpty) ? nil : search.pairsPassingSnapshotTesting.isEmpty,
            snapshotTestingPasses: search.pairsPassingSnapshotTesting,
            cliLine: trained == nil ? nil : (["imgdiff", "REF", "NEW"] + search.cliArguments).joined(separator: " "),
            snapshotTestingLine: snapshot.map(Self.snapshotTestingLine))
    }

    static func snapshotTestingLine(_ precision: SnapshotPrecision) -> String {
        "assertSnapshot(of: view, as: .image(precision: \(precision.precision), perceptualPrecision: \(precision.perceptualPrecision)))"
    }

    enum CodingKeys: String, CodingKey {
        case noiseDirectory, mustFailDirectory, safetyMargin, perceptualPrecisionGrid, noise, mustFail, canaries, settings
        case recommendation
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(noiseDirectory, forKey: .noiseDirectory)
        try container.encode(mustFailDirectory, forKey: .mustFailDirectory)
        try container.encode(report.safetyMargin, forKey: .safetyMargin)
        try container.encode(SnapshotTestingGrid.perceptualPrecisions, forKey: .perceptualPrecisionGrid)
        try container.encode(noise, forKey: .noise)
        try container.encode(mustFail, forKey: .mustFail)
        try container.encode(canaries.map(\.name), forKey: .canaries)
        try container.encode(report.settings, forKey: .settings)
        try container.encode(recommendation, forKey: .recommendation)
    }

    func json() throws(CommandLineError) -> String {
        do {
            return String(decoding: try JSONOutput.encode(self), as: UTF8.self)
        } catch {
            throw CommandLineError("cannot encode the result as JSON (\(error))")
        }
    }

    // MARK: Text

    func text() -> String {
        var lines: [String] = []
        lines.append("Noise pairs (must pass): \(noise.count) in \(noiseDirectory)")
        lines += pairTable(noise)
        if let mustFailDirectory {
            lines.append("")
            lines.append("Must-fail pairs: \(mustFail.count) in \(mustFailDirectory)")
            lines += pairTable(mustFail)
        }
        lines.append("")
        let cap = mustFail.isEmpty ? "" : ", at most half-way to the weakest change"
        lines.append("Per-pixel thresholds passing every noise pair, plus a \(percent(report.safetyMargin)) safety margin\(cap) (no pixel may differ):")
        lines += settingsTable()
        lines.append("")
        lines += conclusion()
        // A file name may hold a line break or a terminal escape: each line is one line.
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    func pairTable(_ samples: [TuningSample]) -> [String] {
        let header = ["pair", "differ", "max Δ", "ΔE94 max", "p99.9", "ΔE2000 max", "p99.9", "AA", "left"]
        let rows = samples.map { sample -> [String] in
            let p = sample.profile
            return [
                sample.name + (p.sizeDiffers ? " (size differs)" : ""), percent(p.differentRatio), String(p.maxChannelDelta),
                fixed(p.deltaE94.max), fixed(p.deltaE94.percentile999), fixed(p.deltaE2000.max),
                fixed(p.deltaE2000.percentile999), String(p.antialiasedPixels), String(p.pixelsLeftAfterAntialiasing),
            ]
        }
        return table([header] + rows, rightAligned: Set(1..<header.count))
    }

    func settingsTable() -> [String] {
        let separating = !mustFail.isEmpty
        var header = ["setting", "noise limit", "recommended options"]
        if separating { header += ["separates", "margin"] }
        let rows = report.settings.map { setting -> [String] in
            var row = [
                setting.mode.rawValue,
                noiseLimit(setting),
                setting.passesAllNoise ? setting.cliArguments.joined(separator: " ") : "(nothing passes all noise)",
            ]
            if separating, let separation = setting.separation {
                row += [separation.separates ? "yes" : "no", signedPercent(separation.margin)]
            }
            return row
        }
        return table([header] + rows, rightAligned: [])
    }

    func noiseLimit(_ setting: TunedSetting) -> String {
        guard let limit = setting.noiseLimit else { return "-" }
        // Every pair limits a limit of zero: none is named.
        let pair = limit > 0 ? setting.limitingNoisePair.map { " (\($0))" } ?? "" : ""
        switch setting.mode {
        case .snapshotTesting:
            let covered = setting.noiseDeltaE94Percentile999.map { percentile in
                "p99.9 ΔE94 \(fixed(percentile))" + (setting.noiseDeltaE94PercentilePair.map { " (\($0))" } ?? "") + "; "
            } ?? ""
            return covered + "\(percent(limit)) of px beyond" + pair
        case .channel: return "\(Int(limit)) levels" + pair
        case .yiq, .yiqAntialiasing: return PrintfFormat.fixed(limit, decimals: 4) + pair
        case .cie94, .ciede2000: return fixed(limit) + pair
        }
    }

    func conclusion() -> [String] {
        var lines: [String] = []
        let recommendation = recommendation
        if let cliLine = recommendation.cliLine {
            lines.append(search.trained?.misjudged.isEmpty == true
                ? "Recommended: every mode x allowance searched, this one separates best:"
                : search.canaries.isEmpty
                    ? "No setting separates the noise from the changes; this one misjudges the fewest pairs:"
                    : "No setting separates the noise from the changes; of those that fail every canary, this one misjudges the fewest pairs:")
            lines.append("  " + cliLine)
        } else {
            lines.append("No setting fails every canary.")
        }
        lines += search.explanation.map { "  " + $0 }
        if let line = recommendation.snapshotTestingLine {
            lines.append("swift-snapshot-testing, closest:")
            let note = recommendation.snapshotTestingSeparates == false ? "  // passes changes or canaries: see the warning" : ""
            lines.append("  " + line + note)
        }
        if search.trained != nil {
            lines.append("Keep it beside the snapshots: imgdiff tune ... --write-config REF_DIR/imgdiff.json")
        }
        return lines
    }

    /// When one noise pair sets the setting's tolerance alone, far above the rest: a pair that
    /// may hold a real change, which would make the advice pass real changes.
    static func outlierWarning(_ setting: TunedSetting) -> String? {
        guard let next = setting.nextNoiseLimit, let limit = setting.noiseLimit, let pair = setting.limitingNoisePair else {
            return nil
        }
        let format = { (value: Double) in PrintfFormat.general(value, significantDigits: 4) }
        return "\(pair) alone sets the \(setting.mode.rawValue) tolerance: it needs \(format(limit)), over \(Int(Tuning.outlierFactor))x the next noise pair's \(format(next)); if it holds a real change, move it out of the noise folder (or into --must-fail)"
    }

    func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let rows = rows.map { $0.map(TerminalText.escaped) }
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
    }

    func fixed(_ value: Double) -> String { PrintfFormat.fixed(value, decimals: 2) }

    func percent(_ ratio: Double) -> String {
        let value = ratio * 100
        return value == 0 ? "0%" : value < 0.01 ? PrintfFormat.fixed(value, decimals: 4) + "%" : PrintfFormat.general(value, significantDigits: 3) + "%"
    }

    func signedPercent(_ ratio: Double) -> String { PrintfFormat.fixed(ratio * 100, decimals: 0, plusSign: true) + "%" }
}
