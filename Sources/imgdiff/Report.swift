import Foundation
import ImageDiff
import ImagePipeline

/// What the CLI prints: one human line, or the whole result as JSON.
struct Report {
    struct Outputs: Encodable {
        let blend: String?
        let diff: String?
        let mask: String?
    }

    let reference: String
    let actual: String
    let outcome: PairOutcome
    let outputs: Outputs

    var result: DiffResult { outcome.result }
    var snapshot: SnapshotVerdict? { outcome.snapshot }
    var match: Bool { outcome.match }

    func line() -> String {
        var parts: [String] = []
        let percent = String(format: "%.4g%%", result.differentRatio * 100)
        parts.append("\(result.differentPixels) of \(result.totalPixels) pixels differ (\(percent), \(result.metric)")
        parts[0] += result.metric == "exact" ? ")" : " \(formatted(result.threshold)))"
        parts.append(String(format: "max ΔE%@ %.2f", deltaESuffix, result.maxDeltaE))
        parts.append("max channel Δ \(result.maxChannelDelta)")
        parts.append("box \(result.boundingBox?.description ?? "none")")
        if result.antialiasedPixels > 0 { parts.append("\(result.antialiasedPixels) anti-aliased not counted") }
        if result.sizeDiffers { parts.append("size differs: \(result.referenceSize) vs \(result.actualSize)") }
        var line = parts.joined(separator: ", ")
        if let snapshot {
            line += snapshot.passed ? "\nsnapshot: pass" : "\nsnapshot: fail: " + (snapshot.message ?? "")
        }
        return line
    }

    private var deltaESuffix: String {
        switch result.deltaEFormula {
        case "cie76": return "76"
        case "cie94": return "94"
        default: return "00"
        }
    }

    private func formatted(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(JSONReport(self)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The JSON document: the comparison result's keys at the top level, plus inputs, outputs and
/// the snapshot verdict.
private struct JSONReport: Encodable {
    let report: Report

    init(_ report: Report) { self.report = report }

    enum CodingKeys: String, CodingKey { case match, reference, actual, snapshot, outputs }

    func encode(to encoder: any Encoder) throws {
        try report.result.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.match, forKey: .match)
        try container.encode(report.reference, forKey: .reference)
        try container.encode(report.actual, forKey: .actual)
        try container.encode(report.snapshot, forKey: .snapshot)
        try container.encode(report.outputs, forKey: .outputs)
    }
}
