/// `summary.md`: the report in GitHub-flavoured Markdown, for a CI job's summary page or a pull
/// request comment (`cat report/summary.md >> "$GITHUB_STEP_SUMMARY"`).
///
/// A heading with the verdict, the counts as the terminal's last line words them, the settings
/// file that judged the pairs, then one table row per pair that needs a person (errors, changed,
/// new, deleted, in the report's order), at most ``listedPairs`` of them. Passed pairs are only
/// counted. No timings, so a merged report's summary is the unsharded run's byte for byte.
enum MarkdownSummary {
    /// The most pairs the table lists; the rest are counted and left to report.json. GitHub takes
    /// at most 1 MiB of summary per step.
    static let listedPairs = 200

    static func render(_ report: BatchReport) -> String {
        let s = report.summary
        let needReview = report.pairs.filter { $0.status != .passed }
        var lines: [String] = []
        var heading = needReview.isEmpty
            ? "imgdiff: every pair passed"
            : "imgdiff: \(Wording.count(needReview.count, "pair")) of \(s.pairs) \(needReview.count == 1 ? "needs" : "need") review"
        if let shard = report.shard { heading += " (part \(shard.index)/\(shard.count))" }
        lines.append("## " + text(heading))
        lines.append("")
        lines.append(text("\(Wording.count(s.pairs, "pair")): \(s.changed) changed, \(s.passed) passed, \(s.new) new, \(s.deleted) deleted, \(Wording.count(s.errors, "error"))."))
        lines.append("")
        var folders = "References \(code(report.referenceDirectory, inTable: false)), new images \(code(report.newDirectory, inTable: false))"
        if let settings = report.settings, !settings.isEmpty {
            folders += "; judged by the settings file: \(code(settings.joined(separator: " "), inTable: false))"
        }
        lines.append(folders + ".")
        guard !needReview.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        lines.append("")
        lines.append("| status | pair | result |")
        lines.append("|---|---|---|")
        for pair in needReview.prefix(listedPairs) {
            // An error names files, whose names are the user's: code, as the paths are.
            let result = pair.status == .error ? code(result(of: pair)) : text(result(of: pair))
            lines.append("| \(pair.status.rawValue) | \(code(pair.path)) | \(result) |")
        }
        if needReview.count > listedPairs {
            lines.append("")
            lines.append("\(needReview.count - listedPairs) more are listed in report.json.")
        }
        lines.append("")
        lines.append("The review page is index.html in the report folder.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the table says of a pair: the comparison's summary line (and the snapshot verdict's
    /// message), or why it is new, deleted or an error.
    static func result(of pair: PairRecord) -> String {
        switch pair.status {
        case .changed:
            let summary = pair.metrics?.summary ?? "the images differ"
            guard let message = pair.snapshot?.message else { return summary }
            return ([summary] + message.split(whereSeparator: \.isNewline).map(String.init)).joined(separator: "; ")
        case .new: return "no reference"
        case .deleted: return "no new image"
        case .error: return pair.error ?? "cannot compare"
        case .passed: return "passed"
        }
    }

    /// `value` as a code span on one line: a fence of one more backtick than the longest run
    /// inside it, control characters escaped as on the terminal (a newline would end a table's
    /// row), and in a table cell pipes escaped (a table splits cells before it reads code spans;
    /// elsewhere the backslash would show). GitHub renders a code span as it is spelled: no
    /// emphasis, links, HTML, mentions or issue references. Pipes and backticks are found scalar
    /// by scalar, as GitHub's parser reads bytes: a combining mark after one does not hide it.
    static func code(_ value: String, inTable: Bool = true) -> String {
        var content = String.UnicodeScalarView()
        var longestRun = 0, run = 0
        for scalar in TerminalText.escaped(value).unicodeScalars {
            if inTable && scalar == "|" { content.append("\\") }
            content.append(scalar)
            run = scalar == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let text = String(content)
        let fence = String(repeating: "`", count: longestRun + 1)
        let padding = text.unicodeScalars.first == "`" || text.unicodeScalars.last == "`"
            || text.unicodeScalars.first == " " && text.unicodeScalars.last == " " ? " " : ""
        return fence + padding + text + padding + fence
    }

    /// `value` as plain text in a line or a table cell, for text imgdiff writes (counts,
    /// summaries, verdicts): every character that Markdown or its table extension reads as
    /// markup (emphasis, links, HTML, math) escaped with a backslash, scalar by scalar, and
    /// control characters escaped as on the terminal. Names go in ``code(_:inTable:)``.
    static func text(_ value: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in TerminalText.escaped(value).unicodeScalars {
            if "\\`*_[]<>|~&@$".unicodeScalars.contains(scalar) { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }
}
