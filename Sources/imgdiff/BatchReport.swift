import Foundation
import ImageDiff
import SnapshotRule
import ImagePipeline

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

/// A comparison's numbers, without the per-pixel histogram and mask; `match` is the pair's
/// verdict, as in `imgdiff compare --json`.
struct PairMetrics: Encodable, Sendable {
    let result: DiffResult

    init(_ outcome: PairOutcome) {
        var result = outcome.result
        result.match = outcome.match
        result.mask = nil
        self.result = result
    }

    func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder, includingHistogram: false)
    }
}

/// Files of a pair as the report shows them, relative to the report folder.
struct PairOutputs: Encodable, Sendable {
    var reference: String?
    var new: String?
    var blend: String?
    var mask: String?
}

/// One pair's entry in `report.json`.
struct PairRecord: Encodable, Sendable {
    /// The path relative to REF_DIR and NEW_DIR.
    let path: String
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
struct BatchReport: Encodable, Sendable {
    struct Summary: Encodable, Sendable {
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
    let summary: Summary
    let changed: [String]
    let passed: [String]
    let new: [String]
    let deleted: [String]
    let errors: [String]
    /// Every pair, failures first (error, changed, new, deleted, passed), then by path (bytewise).
    let pairs: [PairRecord]

    init(referenceDirectory: String, newDirectory: String, command: [String], records: [PairRecord]) {
        self.referenceDirectory = referenceDirectory
        self.newDirectory = newDirectory
        self.command = command
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

    /// 2 if any pair errored, else 1 if any pair changed, is new or was deleted, else 0.
    var exitCode: Int32 {
        if summary.errors > 0 { return 2 }
        return summary.changed + summary.new + summary.deleted > 0 ? 1 : 0
    }

    func json(pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        return try encoder.encode(self)
    }
}
