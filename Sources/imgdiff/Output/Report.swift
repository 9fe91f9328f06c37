import ImageDiff
import ImagePipeline
import SnapshotFiles
import SnapshotRule

/// What the CLI prints: one human line, or the whole result as JSON.
struct Report {
    struct Outputs: Encodable {
        let blend: String?
        let diff: String?
        let mask: String?
        var review: String? = nil
    }

    let reference: String
    let actual: String
    let outcome: PairOutcome
    let outputs: Outputs

    var result: DiffResult { outcome.result }
    var snapshot: SnapshotVerdict? { outcome.snapshot }
    var match: Bool { outcome.match }

    /// The summary, and the snapshot verdict on a line of its own when one was asked for:
    /// each line of swift-snapshot-testing's message (the perceptual rule's has two) on its own.
    func lines() -> [String] {
        guard let snapshot else { return [result.summary] }
        guard !snapshot.passed else { return [result.summary, "snapshot: pass"] }
        let message = (snapshot.message ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        return [result.summary] + message.map { "snapshot: fail: " + $0 }
    }

    func json() -> String {
        // Every value of a report is a number, a string or a list of them: encoding cannot fail.
        guard let data = try? JSONOutput.encode(JSONReport(self)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The JSON document: the comparison result's keys at the top level, plus the one-line summary,
/// inputs, outputs and the snapshot verdict.
private struct JSONReport: Encodable {
    let report: Report

    init(_ report: Report) { self.report = report }

    enum CodingKeys: String, CodingKey { case match, summary, reference, actual, snapshot, outputs }

    func encode(to encoder: any Encoder) throws {
        try report.result.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.match, forKey: .match)
        try container.encode(report.result.summary, forKey: .summary)
        try container.encode(report.reference, forKey: .reference)
        try container.encode(report.actual, forKey: .actual)
        try container.encode(report.snapshot, forKey: .snapshot)
        try container.encode(report.outputs, forKey: .outputs)
    }
}
