#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ImageDiff
import SnapshotRule

/// A comparison setting kept in a file beside the snapshots (``defaultFileName``), so that the
/// CLI and the tests judge pairs alike: `imgdiff tune --write-config` writes it, and
/// `imgdiff compare --config`, `imgdiff batch` (from the reference folder, or `--config`) and
/// the snapshot adapter's `.image(settings:)` read it.
///
/// Every field but `metric` is optional; a missing one takes the CLI's default. Unknown keys
/// are refused, so that a misspelt tolerance never passes a pair silently.
public struct ComparisonSettings: Sendable, Equatable, Codable {
    /// The metric's CLI name (`imgdiff compare --help` lists them).
    public var metric: String
    /// The metric's threshold, in its own unit (`--threshold`); for `ae`, the fuzz in Q16
    /// units (`--fuzz`). `exact` takes none.
    public var threshold: Double?
    /// Leave out anti-aliased pixels (`--antialiasing`).
    public var antialiasing: Bool?
    /// The most differing pixels a matching pair may have (`--max-diff-pixels`).
    public var maxDiffPixels: Int?
    /// The largest differing share a matching pair may have (`--max-diff-ratio`).
    public var maxDiffRatio: Double?
    /// The structural mode's shift radius (`--shift-radius`).
    public var shiftRadius: Int?
    /// The structural mode's smallest failing cluster (`--min-cluster`).
    public var minimumClusterPixels: Int?
    /// Whether the structural mode explains text set again by other hinting (false:
    /// `--no-text-reflow`; absent: it does).
    public var textReflow: Bool?
    /// Whether the structural mode takes small strong clusters on a page of scattered noise for
    /// that noise (false: `--no-scattered-noise`; absent: it does).
    public var scatteredNoise: Bool?
    /// Whether the structural mode counts anti-aliased pixels (true: `--count-antialiased`;
    /// absent: it takes them for noise).
    public var countAntialiased: Bool?
    /// swift-snapshot-testing's `precision`; with either precision the verdict is its rule.
    public var precision: Float?
    /// swift-snapshot-testing's `perceptualPrecision`.
    public var perceptualPrecision: Float?
    /// Why this setting: written by `imgdiff tune`, read by people.
    public var explanation: [String]?

    /// The name `imgdiff batch` looks for in the reference folder.
    public static let defaultFileName = "imgdiff.json"

    /// A setting with the given fields, a nil one taking the CLI's default. Nothing is checked
    /// here: ``comparisonMetric()``, ``allowance()`` and ``snapshotRule()`` refuse invalid values.
    public init(
        metric: String, threshold: Double? = nil, antialiasing: Bool? = nil, maxDiffPixels: Int? = nil,
        maxDiffRatio: Double? = nil, shiftRadius: Int? = nil, minimumClusterPixels: Int? = nil, textReflow: Bool? = nil,
        scatteredNoise: Bool? = nil, countAntialiased: Bool? = nil, precision: Float? = nil, perceptualPrecision: Float? = nil,
        explanation: [String]? = nil
    ) {
        self.metric = metric
        self.threshold = threshold
        self.antialiasing = antialiasing
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.shiftRadius = shiftRadius
        self.minimumClusterPixels = minimumClusterPixels
        self.textReflow = textReflow
        self.scatteredNoise = scatteredNoise
        self.countAntialiased = countAntialiased
        self.precision = precision
        self.perceptualPrecision = perceptualPrecision
        self.explanation = explanation
    }

    /// The setting of `metric` with `options`' tolerances (and `snapshotPrecision`, if any).
    public init(options: ComparisonOptions, snapshotPrecision: SnapshotPrecision? = nil, explanation: [String]? = nil) {
        self.init(metric: options.metric.name, explanation: explanation)
        switch options.metric {
        case .exact: break
        case .structural(let rule):
            threshold = rule.noiseDeltaE
            shiftRadius = rule.shiftRadius
            minimumClusterPixels = rule.minimumClusterPixels
            if !rule.explainsTextReflow { textReflow = false }
            if !rule.explainsScatteredNoise { scatteredNoise = false }
            if !rule.explainsAntialiasing { countAntialiased = true }
        default: threshold = options.metric.threshold
        }
        if options.ignoreAntialiasing { antialiasing = true }
        // A zero limit means something only beside the other one, the smaller of the two holding.
        let allowance = options.allowance
        if let pixels = allowance.maxPixels, pixels > 0 || allowance.maxRatio != nil { maxDiffPixels = pixels }
        if let ratio = allowance.maxRatio, ratio > 0 || allowance.maxPixels != nil { maxDiffRatio = ratio }
        precision = snapshotPrecision?.precision
        perceptualPrecision = snapshotPrecision?.perceptualPrecision
    }

    /// The metric, with its threshold and the structural rule's settings applied.
    public func comparisonMetric() throws(SettingsError) -> ComparisonMetric {
        guard var metric = ComparisonMetric(name: self.metric) else {
            throw SettingsError("unknown metric \"\(self.metric)\"; one of \(ComparisonMetric.names.joined(separator: ", "))")
        }
        if let threshold {
            guard threshold >= 0, threshold.isFinite else { throw SettingsError("threshold must be a number >= 0") }
            if case .exact = metric { throw SettingsError("exact takes no threshold; for a tolerance, use channel") }
            metric = metric.with(threshold: threshold)
            if let problem = metric.thresholdProblem { throw SettingsError(problem) }
        }
        if shiftRadius != nil || minimumClusterPixels != nil || textReflow != nil || scatteredNoise != nil || countAntialiased != nil {
            guard case .structural(var rule) = metric else {
                throw SettingsError(
                    "shiftRadius, minimumClusterPixels, textReflow, scatteredNoise and countAntialiased belong to the structural metric")
            }
            if let shiftRadius {
                guard (0...StructuralRule.largestShiftRadius).contains(shiftRadius) else {
                    throw SettingsError("shiftRadius must be 0...\(StructuralRule.largestShiftRadius)")
                }
                rule.shiftRadius = shiftRadius
            }
            if let minimumClusterPixels {
                guard minimumClusterPixels >= 1 else { throw SettingsError("minimumClusterPixels must be at least 1") }
                rule.minimumClusterPixels = minimumClusterPixels
            }
            if let textReflow { rule.explainsTextReflow = textReflow }
            if let scatteredNoise { rule.explainsScatteredNoise = scatteredNoise }
            if let countAntialiased { rule.explainsAntialiasing = !countAntialiased }
            metric = .structural(rule)
        }
        return metric
    }

    /// The allowance of differing pixels.
    public func allowance() throws(SettingsError) -> DifferenceAllowance {
        if let maxDiffPixels, maxDiffPixels < 0 { throw SettingsError("maxDiffPixels must be >= 0") }
        if let maxDiffRatio, !(0...1).contains(maxDiffRatio) { throw SettingsError("maxDiffRatio must be between 0 and 1") }
        return DifferenceAllowance(maxPixels: maxDiffPixels, maxRatio: maxDiffRatio)
    }

    /// swift-snapshot-testing's rule, when either precision is set.
    public func snapshotRule() throws(SettingsError) -> SnapshotPrecision? {
        guard precision != nil || perceptualPrecision != nil else { return nil }
        for (name, value) in [("precision", precision), ("perceptualPrecision", perceptualPrecision)] {
            if let value, !(0...1).contains(value) { throw SettingsError("\(name) must be between 0 and 1") }
        }
        if maxDiffPixels != nil || maxDiffRatio != nil {
            throw SettingsError(
                "maxDiffPixels and maxDiffRatio do not apply beside precision and perceptualPrecision, whose rule gives the verdict; keep one or the other")
        }
        return SnapshotPrecision(precision: precision ?? 1, perceptualPrecision: perceptualPrecision ?? 1)
    }

    /// `options` with this setting's metric, anti-aliasing and allowance.
    public func applied(to options: ComparisonOptions) throws(SettingsError) -> ComparisonOptions {
        var options = options
        options.metric = try comparisonMetric()
        options.ignoreAntialiasing = antialiasing ?? false
        options.allowance = try allowance()
        return options
    }

    /// The imgdiff options that apply this setting, to append to `imgdiff compare REF NEW`.
    public var cliArguments: [String] {
        var arguments = ["--metric", metric]
        if let threshold { arguments += [metric == "ae" ? "--fuzz" : "--threshold", threshold.plainText] }
        if antialiasing == true { arguments.append("--antialiasing") }
        if let shiftRadius { arguments += ["--shift-radius", String(shiftRadius)] }
        if let minimumClusterPixels { arguments += ["--min-cluster", String(minimumClusterPixels)] }
        if textReflow == false { arguments.append("--no-text-reflow") }
        if scatteredNoise == false { arguments.append("--no-scattered-noise") }
        if countAntialiased == true { arguments.append("--count-antialiased") }
        if let maxDiffPixels { arguments += ["--max-diff-pixels", String(maxDiffPixels)] }
        if let maxDiffRatio { arguments += ["--max-diff-ratio", maxDiffRatio.plainText] }
        if let precision { arguments += ["--precision", "\(precision)"] }
        if let perceptualPrecision { arguments += ["--perceptual-precision", "\(perceptualPrecision)"] }
        return arguments
    }

    // MARK: The file

    /// The file's bytes: pretty-printed JSON with sorted keys and a final newline.
    public func encoded() -> [UInt8] { JSONOutput.fileBytes(self) }

    /// Parses a settings file's bytes, refusing unknown keys and invalid values.
    public init(bytes: [UInt8]) throws(SettingsError) {
        let members: [(key: String, value: ArraySlice<UInt8>)]
        do throws(StrictJSON.Problem) {
            members = try StrictJSON.objectMembers(bytes)
        } catch {
            throw SettingsError(error.description)
        }
        let data = Data(bytes)
        let known = Set(CodingKeys.allNames)
        if let unknown = members.map(\.key).sorted().first(where: { !known.contains($0) }) {
            throw SettingsError("unknown key \"\(unknown)\"; known keys: \(CodingKeys.allNames.joined(separator: ", "))")
        }
        // A decoder reads null as a key left out, so a null would set the default silently.
        if let null = members.first(where: { $0.value.elementsEqual("null".utf8) }) {
            throw SettingsError("\(null.key): null is not a value it takes; leave the key out for its default")
        }
        do {
            self = try JSONDecoder().decode(ComparisonSettings.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw SettingsError("\(Self.keyPath(context.codingPath)): wrong type")
        } catch let DecodingError.keyNotFound(key, _) {
            throw SettingsError("missing \"\(key.stringValue)\"")
        } catch {
            // Foundation names no key for a number its type cannot hold (1.5 or 1e30 for a
            // count, 1e-50 for a Float): each value is tried alone to find it.
            if let member = members.first(where: { !Self.decodes(key: $0.key, value: $0.value) }) {
                throw SettingsError("\(member.key): \(String(String(decoding: member.value, as: UTF8.self).prefix(40))) is not a value it takes")
            }
            throw SettingsError("not a settings file")
        }
        _ = try comparisonMetric()
        _ = try allowance()
        _ = try snapshotRule()
        if let problem = try applied(to: ComparisonOptions()).judgingProblem { throw SettingsError(Self.inKeys(problem)) }
    }

    /// A judging problem as the file spells it: its keys where the message names the CLI's
    /// options.
    static func inKeys(_ problem: String) -> String {
        [("--antialiasing", "antialiasing"), ("--count-antialiased", "countAntialiased"), ("--max-diff-pixels", "maxDiffPixels"),
         ("--max-diff-ratio", "maxDiffRatio")]
            .reduce(problem) { $0.replacing($1.0, with: $1.1) }
    }

    /// A value's place in the file as its keys spell it: `explanation[0]`.
    private static func keyPath(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? "." + key.stringValue }.joined().drop { $0 == "." }.description
    }

    /// Whether a settings file holding `key` with `value` alone (and a metric) decodes.
    private static func decodes(key: String, value: ArraySlice<UInt8>) -> Bool {
        var member = Array(JSONOutput.fileBytes(key).dropLast()) + Array(":".utf8) + value
        if key != CodingKeys.metric.rawValue { member = Array(#""metric":"exact","#.utf8) + member }
        return (try? JSONDecoder().decode(ComparisonSettings.self, from: Data(Array("{".utf8) + member + Array("}".utf8)))) != nil
    }

    /// Reads and checks the settings file at `path`.
    ///
    /// - Throws: ``SettingsError`` naming `path`.
    public static func load(contentsOf path: String) throws(SettingsError) -> ComparisonSettings {
        let bytes = try SettingsFile.read(path)
        do {
            return try ComparisonSettings(bytes: bytes)
        } catch {
            throw SettingsError(path: path, error.problem)
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case metric, threshold, antialiasing, maxDiffPixels, maxDiffRatio, shiftRadius, minimumClusterPixels, textReflow,
            scatteredNoise, countAntialiased
        case precision, perceptualPrecision, explanation

        static var allNames: [String] { allCases.map(\.rawValue) }
    }
}

/// A settings file that cannot be used, and why.
public struct SettingsError: Error, Sendable, CustomStringConvertible {
    /// The file, when known.
    public var path: String?
    /// What is wrong, without the path.
    public var problem: String

    init(_ problem: String) { self.problem = problem }
    init(path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { path.map { "\($0): \(problem)" } ?? problem }
}

/// Reading a settings file, with FoundationEssentials alone so that the snapshot adapter reads
/// it without the codecs.
enum SettingsFile {
    /// A settings file is a few hundred bytes; anything past this is not one.
    static let maxBytes = 1 << 20

    /// The bytes of the settings file at `path`, a link followed to its file: one settings file
    /// may serve several reference folders.
    static func read(_ path: String) throws(SettingsError) -> [UInt8] {
        guard var attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw SettingsError(path: path, "no such file")
        }
        if attributes[.type] as? FileAttributeType == .typeSymbolicLink {
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard let resolved = try? FileManager.default.attributesOfItem(atPath: target),
                  resolved[.type] as? FileAttributeType != .typeSymbolicLink
            else {
                throw SettingsError(path: path, "a link that leads nowhere (or round to itself), not a settings file")
            }
            attributes = resolved
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeDirectory?: throw SettingsError(path: path, "is a directory, not a settings file")
        case .typeRegular?: break
        default: throw SettingsError(path: path, "is not a regular file, not a settings file")
        }
        guard (attributes[.size] as? UInt).map({ $0 <= maxBytes }) ?? true else {
            throw SettingsError(path: path, "larger than \(maxBytes >> 20) MiB, not a settings file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw SettingsError(path: path, "cannot be read (permission denied?)")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= maxBytes else {
            throw SettingsError(path: path, "cannot be read")
        }
        return Array(data)
    }
}
