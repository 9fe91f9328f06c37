import ArgumentParser
import Foundation
import ImageCodecs
import ImageDiff
import SnapshotRule
import ToleranceTuning
import ImagePipeline

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

            For each setting it finds the tightest value that passes every noise
            pair and adds the safety margin (default 25%):
              snapshot-testing   swift-snapshot-testing precision and
                                 perceptualPrecision: perceptualPrecision covers
                                 the noise's 99.9th percentile ΔE94 (+margin),
                                 precision lets through the pixels beyond it (the
                                 worst pair's share +margin, at least 0.1%)
              channel            --metric channel --threshold LEVELS
              cie94, ciede2000   --metric cie94|ciede2000 --threshold ΔE
              yiq                --metric yiq --threshold T
              yiq-antialiasing   --metric yiq --threshold T --antialiasing
            With --must-fail, each setting is checked: does every noise pair pass
            and every change fail, and by what margin: (weakest change - worst
            noise) / the larger of the two, in the setting's own unit. A value
            that would let a change pass moves into the middle of the gap. The
            setting with the widest margin is recommended; if none separates,
            the overlapping pairs are named. Without --must-fail: ciede2000
            (else cie94, yiq-antialiasing, yiq, channel).

            Output: a table, then the copy-paste lines `imgdiff REF NEW ...` and
            `assertSnapshot(of: view, as: .image(precision: P,
            perceptualPrecision: Q))`. --json holds every measurement, every
            setting, and recommendation.cliArguments (options to append to
            `imgdiff REF NEW`) and recommendation.snapshotTesting (precision,
            perceptualPrecision).

            Examples:
              imgdiff tune Fixtures/tune/noise --must-fail Fixtures/tune/changes
              imgdiff tune noise --json | jq -r '.recommendation.cliArguments | join(" ")'
              imgdiff tune noise --safety-margin 10%

            Exit status: 0 a recommendation passing all noise (and, with
            --must-fail, failing every change); 1 no setting separates noise from
            changes, or none passes all noise; 2 error. A noise pair whose sizes
            differ is an error: no tolerance passes it.
            """
    )

    @Argument(help: ArgumentHelp("Pairs of render noise: NOISE_DIR/ref/** and NOISE_DIR/new/**.", valueName: "NOISE_DIR"))
    var noiseDirectory: String

    @Option(help: ArgumentHelp(
        "Pairs with real changes, laid out the same way: CHANGED_DIR/ref/** and CHANGED_DIR/new/**.",
        valueName: "CHANGED_DIR"))
    var mustFail: String?

    @Option(help: ArgumentHelp(
        "How far beyond the worst noise to set each threshold: a percentage (10%) or a fraction (0.1), at most 1000%.",
        valueName: "P%"))
    var safetyMargin = SafetyMargin(fraction: 0.25)

    @Flag(help: "Print measurements and recommendations as JSON.")
    var json = false

    @Option(help: "Pairs measured at once (default: one per core).")
    var jobs: Int?

    @OptionGroup(title: "Input limits")
    var limits: DecodingLimitsArguments

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
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
        let noise = try await measure(noiseDirectory, isNoise: true)
        guard !noise.isEmpty else {
            throw CommandLineError("\(noiseDirectory): no pairs: no file in ref/ has a counterpart in new/")
        }
        var changes: [TuningSample] = []
        if let mustFail {
            changes = try await measure(mustFail, isNoise: false)
            guard !changes.isEmpty else {
                throw CommandLineError("\(mustFail): no pairs: no file in ref/ has a counterpart in new/")
            }
        }
        let report = Tuning.recommend(noise: noise, mustFail: changes, safetyMargin: safetyMargin.fraction)
        let output = TuneOutput(
            noiseDirectory: noiseDirectory, mustFailDirectory: mustFail, noise: noise, mustFail: changes, report: report)
        print(json ? try output.json() : output.text())
        if let chosen = report.recommendedSetting, let warning = TuneOutput.outlierWarning(chosen) { warn(warning) }
        if report.recommended == nil { return 1 }
        return report.separates == false ? 1 : 0
    }

    /// Decodes and profiles every pair under `directory`/ref and `directory`/new.
    func measure(_ directory: String, isNoise: Bool) async throws(CommandLineError) -> [TuningSample] {
        try SnapshotFolder.requireDirectory(directory)
        let referenceRoot = SnapshotFolder.join(directory, "ref"), newRoot = SnapshotFolder.join(directory, "new")
        var isDirectory: ObjCBool = false
        for root in [referenceRoot, newRoot] {
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandLineError("\(directory): expected the folders ref/ and new/ inside (see 'imgdiff tune --help')")
            }
        }
        let pairing = try FolderPairing(reference: referenceRoot, new: newRoot)
        for path in pairing.onlyInReference {
            warn("\(SnapshotFolder.join(referenceRoot, path)): no counterpart in \(newRoot); skipped")
        }
        for path in pairing.onlyInNew {
            warn("\(SnapshotFolder.join(newRoot, path)): no counterpart in \(referenceRoot); skipped")
        }
        var progress = ProgressLine(total: pairing.common.count, noun: "pairs")
        let limits = limits.decodingLimits
        let results = await mapConcurrently(pairing.common, jobs: jobs ?? defaultJobCount, progress: &progress) {
            path -> Result<TuningSample, CommandLineError> in
            let referenceFile = SnapshotFolder.join(referenceRoot, path), newFile = SnapshotFolder.join(newRoot, path)
            do throws(ImageFileError) {
                let (reference, actual) = try Pipeline.decodePair(
                    EncodedImage(contentsOf: referenceFile, limits: limits), EncodedImage(contentsOf: newFile, limits: limits),
                    request: ComparisonRequest(limits: limits, parallelism: .callingThread))
                if isNoise, reference.size != actual.size {
                    return .failure(CommandLineError(
                        "\(newFile): size \(actual.size) differs from the reference's \(reference.size); no tolerance passes a size change, so it cannot be noise"))
                }
                return .success(TuningSample(name: path, profile: DifferenceProfile(reference: reference, actual: actual)))
            } catch {
                return .failure(CommandLineError(error.description))
            }
        }
        var samples: [TuningSample] = []
        for result in results {
            switch result {
            case .success(let sample): samples.append(sample)
            case .failure(let error): throw error
            }
        }
        return samples
    }

    func warn(_ message: String) {
        Console.warning(message)
    }
}

/// `--safety-margin 25%` or `0.25`.
struct SafetyMargin: ExpressibleByArgument {
    let fraction: Double

    init(fraction: Double) { self.fraction = fraction }

    /// 1000 %: a wider margin recommends thresholds past every scale's end.
    static let largest = 10.0

    init?(argument: String) {
        let isPercent = argument.hasSuffix("%")
        guard let value = Double(isPercent ? String(argument.dropLast()) : argument), value >= 0, value.isFinite else {
            return nil
        }
        fraction = isPercent ? value / 100 : value
        guard fraction <= Self.largest else { return nil }
    }

    var defaultValueDescription: String {
        let percent = fraction * 100
        return percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }
}

/// What `imgdiff tune` prints: a table, or the JSON document.
struct TuneOutput: Encodable {
    let noiseDirectory: String
    let mustFailDirectory: String?
    let noise: [TuningSample]
    let mustFail: [TuningSample]
    let report: TuningReport

    /// The recommendation in the form scripts consume.
    struct Recommendation: Encodable {
        struct SnapshotTesting: Encodable {
            let precision: Float
            let perceptualPrecision: Float
        }

        let mode: String?
        let cliArguments: [String]
        let separates: Bool?
        let margin: Double?
        let snapshotTesting: SnapshotTesting?
        let cliLine: String?
        let snapshotTestingLine: String?
    }

    var recommendation: Recommendation {
        let chosen = report.recommendedSetting
        let snapshot = report.setting(.snapshotTesting)?.snapshotTesting
        return Recommendation(
            mode: chosen?.mode.rawValue,
            cliArguments: chosen?.cliArguments ?? [],
            separates: report.separates,
            margin: chosen?.separation?.margin,
            snapshotTesting: snapshot.map { .init(precision: $0.precision, perceptualPrecision: $0.perceptualPrecision) },
            cliLine: chosen.map { (["imgdiff", "REF", "NEW"] + $0.cliArguments).joined(separator: " ") },
            snapshotTestingLine: snapshot.map(Self.snapshotTestingLine))
    }

    static func snapshotTestingLine(_ precision: SnapshotPrecision) -> String {
        "assertSnapshot(of: view, as: .image(precision: \(precision.precision), perceptualPrecision: \(precision.perceptualPrecision)))"
    }

    enum CodingKeys: String, CodingKey {
        case noiseDirectory, mustFailDirectory, safetyMargin, perceptualPrecisionGrid, noise, mustFail, settings
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
        try container.encode(report.settings, forKey: .settings)
        try container.encode(recommendation, forKey: .recommendation)
    }

    func json() throws(CommandLineError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
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
        lines.append("Tightest settings passing every noise pair, plus a \(percent(report.safetyMargin)) safety margin:")
        lines += settingsTable()
        lines.append("")
        lines += conclusion()
        return lines.joined(separator: "\n")
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
                setting.mode.rawValue + (setting.mode == report.recommended ? " *" : ""),
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
        let pair = setting.limitingNoisePair.map { " (\($0))" } ?? ""
        switch setting.mode {
        case .snapshotTesting:
            let covered = setting.noiseDeltaE94Percentile999.map { "p99.9 ΔE94 \(fixed($0)); " } ?? ""
            return covered + "\(percent(limit)) of px beyond" + pair
        case .channel: return "\(Int(limit)) levels" + pair
        case .yiq, .yiqAntialiasing: return String(format: "%.4f", limit) + pair
        case .cie94, .ciede2000: return fixed(limit) + pair
        }
    }

    func conclusion() -> [String] {
        guard let chosen = report.recommendedSetting else {
            return ["No setting passes every noise pair."]
        }
        var lines: [String] = []
        if mustFail.isEmpty {
            lines.append("Recommended (\(chosen.mode.rawValue); give --must-fail to choose by separation):")
        } else if report.separates == true, let margin = chosen.separation?.margin {
            lines.append("Recommended: \(chosen.mode.rawValue), which separates every change from the noise with the widest margin (\(signedPercent(margin))):")
        } else {
            lines.append("No setting separates the noise from the changes.")
            if let separation = chosen.separation {
                lines.append("Closest: \(chosen.mode.rawValue) (margin \(signedPercent(separation.margin))).")
                if !separation.overlappingNoise.isEmpty {
                    lines.append("  noise pairs as different as the weakest change: " + separation.overlappingNoise.joined(separator: ", "))
                }
                if !separation.overlappingChanges.isEmpty {
                    lines.append("  changes no more different than the worst noise: " + separation.overlappingChanges.joined(separator: ", "))
                }
            }
            lines.append("Passing all noise (changes may pass too):")
        }
        let recommendation = recommendation
        if let cliLine = recommendation.cliLine { lines.append("  " + cliLine) }
        if let line = recommendation.snapshotTestingLine {
            let note = report.setting(.snapshotTesting)?.separation.map { $0.separates ? "" : "  // does not separate the changes" } ?? ""
            lines.append("  " + line + note)
        }
        return lines
    }

    /// When one noise pair sets the setting's tolerance alone, far above the rest: a pair that
    /// may hold a real change, which would make the advice pass real changes.
    static func outlierWarning(_ setting: TunedSetting) -> String? {
        guard let next = setting.nextNoiseLimit, let limit = setting.noiseLimit, let pair = setting.limitingNoisePair else {
            return nil
        }
        let format = { (value: Double) in String(format: "%.4g", value) }
        return "\(pair) alone sets the \(setting.mode.rawValue) tolerance: it needs \(format(limit)), over \(Int(Tuning.outlierFactor))x the next noise pair's \(format(next)); if it holds a real change, move it out of the noise folder (or into --must-fail)"
    }

    func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    func fixed(_ value: Double) -> String { String(format: "%.2f", value) }

    func percent(_ ratio: Double) -> String {
        let value = ratio * 100
        return value == 0 ? "0%" : value < 0.01 ? String(format: "%.4f%%", value) : String(format: "%.3g%%", value)
    }

    func signedPercent(_ ratio: Double) -> String { String(format: "%+.0f%%", ratio * 100) }
}
