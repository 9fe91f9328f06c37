import Foundation
import TestSupport
import XCTest
import Yams

/// Docs/ci.md: its YAML parses, has the shape each CI system needs, and uses only options
/// imgdiff has.
final class CIRecipeTests: XCTestCase {
    /// The ```yaml blocks of Docs/ci.md, in order.
    func recipes() throws -> [[String: Any]] {
        let text = try String(
            contentsOf: SharedData.packageRoot.appendingPathComponent("Docs/ci.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return try blocks.map { try XCTUnwrap(try Yams.load(yaml: $0) as? [String: Any]) }
    }

    func testGitHubActionsShardsUploadsAndMerges() throws {
        let workflow = try recipes()[0]
        let jobs = try XCTUnwrap(workflow["jobs"] as? [String: Any])
        let compare = try XCTUnwrap(jobs["compare"] as? [String: Any])
        let shards = try XCTUnwrap((compare["strategy"] as? [String: Any])?["matrix"] as? [String: Any])["shard"] as? [Int]
        XCTAssertEqual(shards, [1, 2, 3, 4])
        let compareRuns = runs(compare)
        XCTAssertTrue(compareRuns.contains { $0.contains("--shard ${{ matrix.shard }}/4") }, "\(compareRuns)")
        XCTAssertTrue(uses(compare).contains("actions/upload-artifact@v4"))
        let report = try XCTUnwrap(jobs["report"] as? [String: Any])
        XCTAssertEqual(report["needs"] as? String, "compare")
        XCTAssertTrue(uses(report).contains("actions/download-artifact@v4"))
        XCTAssertTrue(runs(report).contains { $0.contains("imgdiff merge-reports") })
        XCTAssertTrue(runs(report).contains { $0.contains("report/summary.md >> \"$GITHUB_STEP_SUMMARY\"") }, "\(runs(report))")
    }

    func testGitLabShardsWithParallelAndMerges() throws {
        let pipeline = try recipes()[1]
        let compare = try XCTUnwrap(pipeline["compare"] as? [String: Any])
        XCTAssertEqual(compare["parallel"] as? Int, 4)
        let script = try XCTUnwrap(compare["script"] as? [String])
        XCTAssertTrue(script.contains { $0.contains("--shard $CI_NODE_INDEX/$CI_NODE_TOTAL") })
        let pages = try XCTUnwrap(pipeline["pages"] as? [String: Any])
        XCTAssertEqual(pages["needs"] as? [String], ["compare"])
        XCTAssertTrue((pages["script"] as? [String] ?? []).contains { $0.contains("imgdiff merge-reports") })
        let junit = ((pages["artifacts"] as? [String: Any])?["reports"] as? [String: Any])?["junit"] as? String
        XCTAssertEqual(junit, "public/junit.xml")
    }

    func testTuneRecipeComparesAnIntelAndAnARMRunner() throws {
        let workflow = try recipes()[2]
        let jobs = try XCTUnwrap(workflow["jobs"] as? [String: Any])
        let render = try XCTUnwrap(jobs["render"] as? [String: Any])
        let runners = (render["strategy"] as? [String: Any])?["matrix"] as? [String: Any]
        XCTAssertEqual(runners?["runner"] as? [String], ["ubuntu-24.04", "ubuntu-24.04-arm"])
        let tune = try XCTUnwrap(jobs["tune"] as? [String: Any])
        XCTAssertTrue(runs(tune).contains { $0.hasPrefix("imgdiff tune noise") })
    }

    func testSnapshotArtifactsAreUploadedWhenTestsFail() throws {
        let workflow = try recipes()[3]
        let test = try XCTUnwrap((workflow["jobs"] as? [String: Any])?["test"] as? [String: Any])
        let artifacts = try XCTUnwrap((test["env"] as? [String: Any])?["SNAPSHOT_ARTIFACTS"] as? String)
        let steps = try XCTUnwrap(test["steps"] as? [[String: Any]])
        let upload = try XCTUnwrap(steps.first { ($0["uses"] as? String) == "actions/upload-artifact@v4" })
        XCTAssertEqual(upload["if"] as? String, "failure()")
        let path = try XCTUnwrap((upload["with"] as? [String: Any])?["path"] as? String)
        XCTAssertTrue(artifacts.hasSuffix("/" + path), "uploads the folder the tests write: \(artifacts), \(path)")
        XCTAssertTrue(runs(test).contains("swift test"))
    }

    /// Every `imgdiff SUBCOMMAND --option` in the recipes is an option `SUBCOMMAND --help` lists.
    func testEveryImgdiffOptionExists() throws {
        var lines: [String] = []
        for recipe in try recipes() {
            lines += allStrings(recipe).flatMap { $0.components(separatedBy: "\n") }.filter { $0.contains("imgdiff ") }
        }
        let commands = lines.compactMap { line -> (String, [String])? in
            guard let range = line.range(of: "imgdiff ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ").map(String.init)
            guard let subcommand = words.first, ["batch", "merge-reports", "tune", "compare"].contains(subcommand) else { return nil }
            return (subcommand, words.filter { $0.hasPrefix("--") })
        }
        XCTAssertGreaterThanOrEqual(commands.count, 5, "\(lines)")
        for (subcommand, options) in commands {
            let help = try imgdiff(subcommand, "--help").stdout
            for option in options {
                XCTAssertTrue(help.contains(option + " ") || help.contains(option + "\n"), "imgdiff \(subcommand) has no \(option)")
            }
        }
    }

    func runs(_ job: [String: Any]) -> [String] {
        (job["steps"] as? [[String: Any]] ?? []).compactMap { $0["run"] as? String }
    }

    func uses(_ job: [String: Any]) -> [String] {
        (job["steps"] as? [[String: Any]] ?? []).compactMap { $0["uses"] as? String }
    }

    func allStrings(_ value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap(allStrings)
        case let object as [String: Any]: return object.values.flatMap(allStrings)
        default: return []
        }
    }
}
