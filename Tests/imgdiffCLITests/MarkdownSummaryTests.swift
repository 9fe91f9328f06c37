import Foundation
import TestSupport
import XCTest

/// `summary.md`, the batch report in Markdown for a CI job's summary: what it lists, and that
/// every name and message reads back from its table cell as it was, however it is spelled.
final class MarkdownSummaryTests: XCTestCase {
    var work: URL!
    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/batch")
    var out: String { work.appendingPathComponent("report").path }

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testListsThePairsToReviewInTheReportsOrder() throws {
        let (reference, new) = (fixtures.appendingPathComponent("ref").path, fixtures.appendingPathComponent("new").path)
        XCTAssertEqual(try imgdiff("batch", reference, new, "--out", out).status, 1)
        let lines = try summaryLines()
        XCTAssertEqual(Array(lines.prefix(5)), [
            "## imgdiff: 4 pairs of 6 need review", "",
            "6 pairs: 2 changed, 2 passed, 1 new, 1 deleted, 0 errors.", "",
            "References `\(reference)`, new images `\(new)`.",
        ])
        let rows = try tableRows(lines)
        XCTAssertEqual(rows.map { $0[0] }, ["changed", "changed", "new", "deleted"])
        XCTAssertEqual(try rows.map { try codeSpan($0[1]) }, ["login.png", "settings/account.png", "onboarding/welcome.png", "legacy/about.png"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])
        let pairs = try XCTUnwrap(report["pairs"] as? [[String: Any]])
        for (row, pair) in zip(rows.prefix(2), pairs) {
            let summary = try XCTUnwrap((pair["metrics"] as? [String: Any])?["summary"] as? String)
            XCTAssertEqual(plainText(row[2]), summary, "the line `imgdiff compare` prints")
        }
        XCTAssertEqual(rows[2][2], "no reference")
        XCTAssertEqual(rows[3][2], "no new image")
        XCTAssertFalse(lines.contains { $0.contains("home.png") }, "passed pairs are only counted")
    }

    func testEveryPairPassedHasNoTable() throws {
        let reference = fixtures.appendingPathComponent("ref").path
        let copy = work.appendingPathComponent("copy").path
        try FileManager.default.copyItem(atPath: reference, toPath: copy)
        XCTAssertEqual(try imgdiff("batch", reference, copy, "--out", out).status, 0)
        let lines = try summaryLines()
        XCTAssertEqual(lines.first, "## imgdiff: every pair passed")
        XCTAssertTrue(lines.contains("5 pairs: 0 changed, 5 passed, 0 new, 0 deleted, 0 errors."), "\(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("|") }, "\(lines)")
    }

    /// Names holding the table's pipe, backticks, HTML, emphasis, a mention, math and a newline,
    /// and an error message naming such a file: each stays in its cell and reads back whole.
    func testHostileNamesStayInTheirCells() throws {
        let (reference, new) = (work.appendingPathComponent("ref"), work.appendingPathComponent("new"))
        for folder in [reference, new] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let names = ["a|b`c.png", "back\\|slash\\.png", "a|\u{301}b.png", "x`\u{301}*b*`\u{301}.png", "@octocat #1 www.example.com.png", "``x.png", "`edge`.png", "<img src=x onerror=alert(1)>.png", "*bold*_u_@team $x$ [l](u).png", "new\nline.png"]
        for name in names {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("ref/login.png"), to: reference.appendingPathComponent(name))
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("new/login.png"), to: new.appendingPathComponent(name))
        }
        let broken = "bad<b>|*x*.png"
        for folder in [reference, new] { try Data("not an image".utf8).write(to: folder.appendingPathComponent(broken)) }
        let run = try imgdiff("batch", reference.path, new.path, "--out", out)
        XCTAssertEqual(run.status, 2, run.stderr)

        let rows = try tableRows(try summaryLines())
        XCTAssertEqual(rows.count, names.count + 1)
        let listed = try rows.map { try codeSpan($0[1]) }
        XCTAssertEqual(Set(listed), Set((names + [broken]).map { $0.replacingOccurrences(of: "\n", with: "\\n") }))
        let error = try XCTUnwrap(rows.first { $0[0] == "error" })
        let message = try codeSpan(error[2])
        XCTAssertTrue(message.hasPrefix(reference.path + "/" + broken + ": "), message)
        XCTAssertTrue(run.stderr.contains(message), "the message stderr printed: \(message)")
    }

    /// Outside the table a pipe needs no escape (its backslash would show), and the snapshot
    /// verdict's message, two lines, stays on the pair's row.
    func testFolderNamesAndSnapshotMessagesReadAsWritten() throws {
        let (reference, new) = (work.appendingPathComponent("p|q/ref"), work.appendingPathComponent("p|q/new"))
        for folder in [reference, new] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("ref/login.png"), to: reference.appendingPathComponent("login.png"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("new/login.png"), to: new.appendingPathComponent("login.png"))
        let run = try imgdiff("batch", reference.path, new.path, "--out", out, "--precision", "0.99", "--perceptual-precision", "0.98")
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = try summaryLines()
        XCTAssertTrue(lines.contains("References `\(reference.path)`, new images `\(new.path)`."), "\(lines)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])
        let pair = try XCTUnwrap((report["pairs"] as? [[String: Any]])?.first)
        let summary = try XCTUnwrap((pair["metrics"] as? [String: Any])?["summary"] as? String)
        let message = try XCTUnwrap((pair["snapshot"] as? [String: Any])?["message"] as? String)
        let messageLines = message.components(separatedBy: "\n")
        XCTAssertEqual(messageLines.count, 2, message)
        let rows = try tableRows(lines)
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(plainText(rows[0][2]), ([summary] + messageLines).joined(separator: "; "))
    }

    func testListsAtMostTwoHundredPairs() throws {
        let (reference, new) = (work.appendingPathComponent("ref"), work.appendingPathComponent("new"))
        for folder in [reference, new] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for index in 0..<203 {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("new/onboarding/welcome.png"),
                to: new.appendingPathComponent(String(format: "screen-%03d.png", index)))
        }
        XCTAssertEqual(try imgdiff("batch", reference.path, new.path, "--out", out).status, 1)
        let lines = try summaryLines()
        let rows = try tableRows(lines)
        XCTAssertEqual(rows.count, 200)
        XCTAssertEqual(try codeSpan(rows[199][1]), "screen-199.png")
        XCTAssertTrue(lines.contains("3 more are listed in report.json."), "\(lines.suffix(4))")
    }

    // MARK: Reading the Markdown back

    struct MalformedRow: Error { let line: String }

    func summaryLines() throws -> [String] {
        try String(contentsOfFile: out + "/summary.md", encoding: .utf8).components(separatedBy: "\n")
    }

    /// The table's body rows, each split into its three cells as GitHub's table extension
    /// (cmark-gfm) splits them, reading bytes (so scalars here, not characters, which would hide
    /// a pipe under a combining mark): on every pipe that no backslash comes right before.
    func tableRows(_ lines: [String]) throws -> [[String]] {
        let header = try XCTUnwrap(lines.firstIndex(of: "| status | pair | result |"))
        XCTAssertEqual(lines[header + 1], "|---|---|---|")
        return try lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            var cells: [String.UnicodeScalarView] = [], cell = String.UnicodeScalarView()
            for scalar in line.unicodeScalars {
                if scalar == "|" && cell.last != "\\" {
                    cells.append(cell)
                    cell = String.UnicodeScalarView()
                } else {
                    cell.append(scalar)
                }
            }
            cells.append(cell)
            guard cells.count == 5, cells.first?.isEmpty == true, cells.last?.isEmpty == true else { throw MalformedRow(line: line) }
            return cells[1...3].map { String(String.UnicodeScalarView($0.dropFirst().dropLast())) }
        }
    }

    /// A cell that is one code span, read as CommonMark reads it, scalar by scalar: the fence,
    /// one space stripped from each side when both sides have one, and the table's escaped pipes.
    func codeSpan(_ cell: String) throws -> String {
        let scalars = Array(cell.unicodeScalars)
        let fence = scalars.prefix { $0 == "`" }.count
        XCTAssertGreaterThan(fence, 0, cell)
        XCTAssertTrue(scalars.count >= 2 * fence && scalars.suffix(fence).allSatisfy { $0 == "`" }, cell)
        XCTAssertFalse(scalars.count > 2 * fence && scalars[scalars.count - fence - 1] == "`", "the closing fence is no longer: \(cell)")
        var content = Array(scalars.dropFirst(fence).dropLast(fence))
        var run = 0
        for scalar in content {
            run = scalar == "`" ? run + 1 : 0
            XCTAssertNotEqual(run, fence, "the fence does not occur inside: \(cell)")
        }
        if content.first == " " && content.last == " " && content.contains(where: { $0 != " " }) {
            content = Array(content.dropFirst().dropLast())
        }
        var unescaped = String.UnicodeScalarView()
        for (index, scalar) in content.enumerated() where !(scalar == "\\" && content.indices.contains(index + 1) && content[index + 1] == "|") {
            unescaped.append(scalar)
        }
        return String(unescaped)
    }

    /// Plain text with its backslash escapes undone, after checking that no markup character
    /// was left unescaped, scalar by scalar.
    func plainText(_ cell: String) -> String {
        var text = String.UnicodeScalarView(), escaped = false
        for scalar in cell.unicodeScalars {
            if escaped {
                text.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                XCTAssertFalse("`*_[]<>|~&@$".unicodeScalars.contains(scalar), "unescaped \(scalar) in \(cell)")
                text.append(scalar)
            }
        }
        return String(text)
    }
}
