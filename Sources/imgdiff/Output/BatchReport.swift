#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

/// The outcome of one pair in a batch.
enum PairStatus: String, Codable, Sendable, CaseIterable {
    /// Both files exist and the comparison found them different.
    case changed
    /// Both files exist and match within tolerance.
    case passed
    /// Only in NEW_DIR.
    case new
    /// Only in REF_DIR.
    case deleted
    /// A file could not be read, decoded or its outputs written.
    case error

    /// Order on the page and in listings: what needs a person first.
    var rank: Int {
        switch self {
        case .error: return 0
        case .changed: return 1
        case .new: return 2
        case .deleted: return 3
        case .passed: return 4
        }
    }
}

/// A comparison's numbers, as `imgdiff compare --json` writes them without the per-pixel
/// histogram and mask, plus the one-line `summary`; `match` is the pair's verdict. Kept as JSON,
/// so that a report read back (`merge-reports`) writes the same bytes.
struct PairMetrics: Codable, Sendable {
    /// The numbers, `summary` among them.
    let fields: [String: JSONValue]

    /// The line `imgdiff compare` prints for the pair.
    var summary: String {
        if case .string(let text) = fields["summary"] { return text }
        return "the images differ"
    }

    init(_ outcome: PairOutcome) {
        var result = outcome.result
        result.match = outcome.match
        result.mask = nil
        var fields: [String: JSONValue] = [:]
        if case .object(let object)? = try? JSONValue(encoding: WithoutHistogram(result: result)) { fields = object }
        fields["summary"] = .string(result.summary)
        self.fields = fields
    }

    init(from decoder: any Decoder) throws {
        fields = try [String: JSONValue](from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }

    private struct WithoutHistogram: Encodable {
        let result: DiffResult
        func encode(to encoder: any Encoder) throws { try result.encode(to: encoder, includingHistogram: false) }
    }
}

/// Files of a pair as the report shows them, relative to the report folder.
struct PairOutputs: Codable, Sendable {
    var reference: String?
    var new: String?
    var blend: String?
    var mask: String?
    /// PNGs of the reference and the new image for the page, written beside their exact copies
    /// when their format is one browsers do not show (TIFF, PPM/PGM/PNM, …).
    var referencePreview: String?
    var newPreview: String?

    /// Every file named, in the order the report lists them.
    var files: [String] { [reference, new, blend, mask, referencePreview, newPreview].compactMap { $0 } }
}

/// One pair's entry in `report.json`.
struct PairRecord: Codable, Sendable {
    /// The path relative to REF_DIR and NEW_DIR.
    var path: String
    let status: PairStatus
    /// The input files, as given on the command line.
    var referenceFile: String?
    var newFile: String?
    var metrics: PairMetrics?
    var snapshot: SnapshotVerdict?
    /// For ``PairStatus/error``: the one-line message, "FILE: problem".
    var error: String?
    var outputs = PairOutputs()
    /// Seconds spent on the pair.
    var seconds: Double = 0
}

/// `report.json`: the four lists the issue asks for, errors, and every pair in detail.
struct BatchReport: Codable, Sendable {
    /// The report a batch wrote into `folder` (its report.json).
    static func read(inFolder folder: String) throws(CommandLineError) -> BatchReport {
        let path = PathText.join(folder, "report.json")
        var status = stat()
        if stat(folder, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            throw CommandLineError("\(folder): not a folder; give the report folder that holds report.json")
        }
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(path)
        } catch {
            throw CommandLineError("\(folder): not an imgdiff report folder (\(error.error))")
        }
        let report: BatchReport
        do {
            report = try JSONDecoder().decode(BatchReport.self, from: Data(bytes))
        } catch {
            throw CommandLineError("\(path): not an imgdiff batch report (\(JSONProblem.described(error)))")
        }
        try SnapshotFolder.checkPairPaths(report.pairs.lazy.map(\.path), of: path)
        return report
    }

    struct Summary: Codable, Sendable {
        let pairs: Int
        let changed: Int
        let passed: Int
        let new: Int
        let deleted: Int
        let errors: Int
    }

    let referenceDirectory: String
    let newDirectory: String
    /// The command line that made the report.
    let command: [String]
    /// For a shard's partial report (`batch --shard i/n`): which one.
    let shard: Shard?
    /// The options of the settings file that judged the pairs (`REF_DIR/imgdiff.json` or
    /// `--config`), as command-line arguments, empty when none did; nil in a report written
    /// before imgdiff recorded them. The command line alone does not say how the parts of a
    /// run judged.
    let settings: [String]?
    /// ``ReviewEntry/digest(of:)`` of the `--ignore-mask` file's bytes, when one judged the
    /// pairs: the command line names the mask, not what it holds on each runner.
    let ignoreMask: String?
    /// The CI run that wrote the report (``CIRun``), when it ran in one: the parts of one
    /// sharded run share it, and a part left from an earlier run does not.
    let run: String?
    let summary: Summary
    let changed: [String]
    let passed: [String]
    let new: [String]
    let deleted: [String]
    let errors: [String]
    /// Every pair, failures first (error, changed, new, deleted, passed), then by path (bytewise).
    let pairs: [PairRecord]

    init(
        referenceDirectory: String, newDirectory: String, command: [String], shard: Shard? = nil, settings: [String]? = nil,
        ignoreMask: String? = nil, run: String? = nil, records: [PairRecord]
    ) {
        self.referenceDirectory = referenceDirectory
        self.newDirectory = newDirectory
        self.command = command
        self.shard = shard
        self.settings = settings
        self.ignoreMask = ignoreMask
        self.run = run
        let ordered = records.sorted {
            $0.status.rank != $1.status.rank ? $0.status.rank < $1.status.rank : $0.path.precedesBytewise($1.path)
        }
        func paths(_ status: PairStatus) -> [String] { ordered.filter { $0.status == status }.map(\.path) }
        changed = paths(.changed)
        passed = paths(.passed)
        new = paths(.new)
        deleted = paths(.deleted)
        errors = paths(.error)
        pairs = ordered
        summary = Summary(
            pairs: records.count, changed: changed.count, passed: passed.count, new: new.count,
            deleted: deleted.count, errors: errors.count)
    }

    private enum CodingKeys: String, CodingKey {
        case referenceDirectory, newDirectory, command, shard, settings, ignoreMask, run, summary, changed, passed, new, deleted, errors,
            pairs
    }

    /// A report read back: its pairs, folders, command and shard; the lists and the summary are
    /// derived from the pairs again.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            referenceDirectory: try container.decode(String.self, forKey: .referenceDirectory),
            newDirectory: try container.decode(String.self, forKey: .newDirectory),
            command: try container.decode([String].self, forKey: .command),
            shard: try container.decodeIfPresent(Shard.self, forKey: .shard),
            settings: try container.decodeIfPresent([String].self, forKey: .settings),
            ignoreMask: try container.decodeIfPresent(String.self, forKey: .ignoreMask),
            run: try container.decodeIfPresent(String.self, forKey: .run),
            records: try container.decode([PairRecord].self, forKey: .pairs))
    }

    /// 2 if any pair errored, else 1 if any pair changed, is new or was deleted, else 0.
    var exitCode: Int32 {
        if summary.errors > 0 { return 2 }
        return summary.changed + summary.new + summary.deleted > 0 ? 1 : 0
    }

    func json(pretty: Bool = true) throws -> Data {
        Data(try JSONOutput.encode(self, pretty: pretty))
    }
}
