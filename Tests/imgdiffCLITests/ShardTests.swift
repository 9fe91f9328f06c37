import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// `batch --shard I/N` and `merge-reports`: the parts of a suite, merged, are the report one
/// unsharded run writes.
final class ShardTests: XCTestCase {
    var work: URL!
    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/batch")

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-shard-\(UUID().uuidString)")
        // Six copies of the fixture suite: 36 pairs, every status, in nested folders.
        for copy in 0..<6 {
            for side in ["ref", "new"] {
                let destination = work.appendingPathComponent("\(side)/set-\(copy)")
                try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: fixtures.appendingPathComponent(side), to: destination)
            }
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func path(_ relative: String) -> String { work.appendingPathComponent(relative).path }

    /// The report's files, timings zeroed; and every file under `pairs/`, by relative path.
    func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["report.json", "junit.xml", "summary.md", "index.html"] {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
                .replacingOccurrences(of: #""seconds" ?: ?[0-9.e-]+"#, with: "\"seconds\":0", options: .regularExpression)
                .replacingOccurrences(of: #"time="[0-9.]+""#, with: "time=\"0\"", options: .regularExpression)
            files[name] = Data(text.utf8)
        }
        let pairs = URL(fileURLWithPath: folder + "/pairs")
        let enumerator = FileManager.default.enumerator(at: pairs, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath {
                files["pairs/" + String(url.path.dropFirst(pairs.path.count + 1))] = data
            }
        }
        return files
    }

    func testMergedPartsEqualTheUnshardedReport() throws {
        let whole = try imgdiff("batch", path("ref"), path("new"), "--out", path("report"))
        XCTAssertEqual(whole.status, 1, whole.stderr)
        let expected = try snapshot(path("report"))
        XCTAssertEqual(expected.keys.filter { $0.hasPrefix("pairs/") }.count, 6 * 10, "a set: 2 changed pairs of 4 files, a new and a deleted of 1")
        try FileManager.default.removeItem(atPath: path("report"))

        for count in [1, 3, 7] {
            var parts: [String] = []
            var pairCounts: [Int] = []
            for index in 1...count {
                let part = path("part-\(count)-\(index)")
                let run = try imgdiff("batch", path("ref"), path("new"), "--out", part, "--shard", "\(index)/\(count)")
                XCTAssertTrue([0, 1].contains(run.status), run.stderr)
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: part + "/report.json"))) as? [String: Any]
                pairCounts.append((json?["pairs"] as? [Any])?.count ?? -1)
                parts.append(part)
            }
            XCTAssertEqual(pairCounts.reduce(0, +), 36, "every pair in exactly one part: \(pairCounts)")
            let merged = try imgdiff(["merge-reports"] + parts.reversed() + ["--out", path("report")])
            XCTAssertEqual(merged.status, 1, merged.stderr)
            let actual = try snapshot(path("report"))
            XCTAssertEqual(Set(actual.keys), Set(expected.keys), "n = \(count)")
            for (name, data) in expected {
                try assertSameFile(actual[name], data, "n = \(count): \(name)")
            }
            try FileManager.default.removeItem(atPath: path("report"))
        }
    }

    /// Reports and copied inputs byte for byte; a rendered review image (`blend.png`,
    /// `mask.png`) by its decoded pixels, the contract for images an encoder remakes (under
    /// AddressSanitizer igzip has been seen to deflate the same rows into another valid stream).
    func assertSameFile(_ actual: Data?, _ expected: Data, _ message: String) throws {
        guard let actual, actual != expected, message.hasSuffix("/blend.png") || message.hasSuffix("/mask.png") else {
            XCTAssertEqual(actual, expected, message)
            return
        }
        let actualImage = try ImageDecoder.decode([UInt8](actual), name: "merged " + message)
        let expectedImage = try ImageDecoder.decode([UInt8](expected), name: "unsharded " + message)
        let differing = zip(actualImage.pixels, expectedImage.pixels).enumerated().filter { $0.element.0 != $0.element.1 }
        XCTAssertTrue(
            actualImage.width == expectedImage.width && actualImage.height == expectedImage.height
                && actualImage.pixels.count == expectedImage.pixels.count && differing.isEmpty
                && actualImage.hasAlpha == expectedImage.hasAlpha,
            "\(message): the merged report's image has other pixels than the unsharded one's: "
                + "\(differing.count) samples differ, the first at sample \(differing.first?.offset ?? -1)")
        print("ShardTests: \(message) encoded to \(actual.count) bytes, not \(expected.count), with the same pixels")
    }

    /// Parts stay put as the suite grows: adding pairs moves no existing pair to another part.
    func testAssignmentIsStableAsFilesAreAdded() throws {
        func assignment() throws -> [String: Int] {
            var result: [String: Int] = [:]
            for index in 1...3 {
                let part = path("part-\(index)")
                _ = try imgdiff("batch", path("ref"), path("new"), "--out", part, "--shard", "\(index)/3")
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: part + "/report.json"))) as? [String: Any]
                for pair in json?["pairs"] as? [[String: Any]] ?? [] { result[pair["path"] as? String ?? ""] = index }
                try FileManager.default.removeItem(atPath: part)
            }
            return result
        }
        let before = try assignment()
        try FileManager.default.copyItem(atPath: path("new/set-0"), toPath: path("new/set-added"))
        let after = try assignment()
        XCTAssertEqual(after.count, before.count + 5, "the new folder of a set holds 5 images")
        for (pair, part) in before { XCTAssertEqual(after[pair], part, pair) }
    }

    func testMissingOrRepeatedPartIsRefused() throws {
        for index in 1...3 {
            _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-\(index)"), "--shard", "\(index)/3")
        }
        let missing = try imgdiff("merge-reports", path("part-1"), path("part-3"), "--out", path("report"))
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "imgdiff: error: part 2/3 is missing: its pairs would be absent from the merged report; give every part\n")
        let repeated = try imgdiff("merge-reports", path("part-1"), path("part-2"), path("part-2"), "--out", path("report"))
        XCTAssertEqual(repeated.status, 2)
        XCTAssertTrue(repeated.stderr.contains("part 2/3 is given twice"), repeated.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("report")))
        // Parts run with other options judged their pairs otherwise; another core count is fine.
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-2"), "--shard", "2/3", "--metric", "exact")
        let mixed = try imgdiff("merge-reports", path("part-1"), path("part-2"), path("part-3"), "--out", path("report"))
        XCTAssertEqual(mixed.status, 2)
        XCTAssertEqual(
            mixed.stderr,
            "imgdiff: error: \(path("part-2")): ran `batch \(path("ref")) \(path("new")) --metric exact`, but \(path("part-1")) ran `batch \(path("ref")) \(path("new"))`; run every part with the same options\n",
            "each command as it was given")
        let file = try imgdiff("merge-reports", path("part-1") + "/summary.md", "--out", path("report"))
        XCTAssertEqual(file.stderr, "imgdiff: error: \(path("part-1"))/summary.md: not a folder; give the report folder that holds report.json\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("report")))
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-2"), "--shard=2/3", "--jobs", "1")
        XCTAssertEqual(try imgdiff("merge-reports", path("part-1"), path("part-2"), path("part-3"), "--out", path("report")).status, 1)
        for (bad, rule) in [("0/3", "I must be 1...3"), ("4/3", "I must be 1...3"), ("1/0", "N must be 1...1000"),
            ("1/1001", "N must be 1...1000"), ("x", "give I/N"), ("1/2/3", "give I/N")]
        {
            let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("report"), "--shard", bad)
            XCTAssertEqual(run.status, 2, bad)
            XCTAssertTrue(run.stderr.contains("'\(bad)' is invalid for '--shard <I/N>': \(rule)"), run.stderr)
        }
        // One folder spelled otherwise by another runner's script is one suite.
        _ = try imgdiff("batch", path("ref") + "/.", work.path + "//./new/", "--out", path("part-2"), "--shard", "2/3")
        XCTAssertEqual(try imgdiff("merge-reports", path("part-1"), path("part-2"), path("part-3"), "--out", path("report2")).status, 1)
    }

    /// Parts judged by different settings files are refused, although their command lines
    /// agree: the settings file beside the references was there for one part and not the
    /// other, or `--config` named files of other contents. And the merged report may not lie
    /// inside the parts' snapshot folders, where the next batch would read it as snapshots.
    func testPartsJudgedByOtherSettingsOrMergedIntoTheirFoldersAreRefused() throws {
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-1"), "--shard", "1/2")
        try Data(#"{"metric": "exact"}"#.utf8).write(to: URL(fileURLWithPath: path("ref/imgdiff.json")))
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-2"), "--shard", "2/2")
        let mixed = try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path("report"))
        XCTAssertEqual(mixed.status, 2)
        XCTAssertEqual(
            mixed.stderr, "imgdiff: error: \(path("part-2")): judged its pairs by the settings `--metric exact`, but \(path("part-1"))"
                + " by no settings file; run every part with the same settings file\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("report")))
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-1"), "--shard", "1/2")
        let merged = try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path("report"))
        XCTAssertEqual(merged.status, 1, merged.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("report/report.json")))) as? [String: Any])
        XCTAssertEqual(report["settings"] as? [String], ["--metric", "exact"])
        for inside in [path("new/merged"), path("ref/merged")] {
            let run = try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", inside)
            XCTAssertEqual(run.status, 2, inside)
            XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: \(inside): the merged report folder may not overlap the snapshot folder"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: inside))
        }
        // Settings files of one content under two names (each runner's checkout) judge alike.
        try FileManager.default.removeItem(atPath: path("ref/imgdiff.json"))
        for (index, threshold) in [(1, "2"), (2, "2.0")] {
            try Data(#"{"metric": "channel", "threshold": \#(threshold)}"#.utf8).write(to: URL(fileURLWithPath: path("runner-\(index).json")))
            _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-\(index)"), "--shard", "\(index)/2", "--config", path("runner-\(index).json"))
        }
        XCTAssertEqual(try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path("by-config")).status, 1)
        try Data(#"{"metric": "channel", "threshold": 3}"#.utf8).write(to: URL(fileURLWithPath: path("runner-2.json")))
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-2"), "--shard", "2/2", "--config", path("runner-2.json"))
        let otherContent = try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path("by-config-2"))
        XCTAssertEqual(otherContent.status, 2)
        XCTAssertTrue(otherContent.stderr.hasSuffix("run every part with the same settings file\n"), otherContent.stderr)
    }

    /// The command line names an ignore mask, not what it holds on each runner: parts judged
    /// with masks of other contents are refused. A part left from an earlier CI run (its
    /// runner died before writing this run's) is refused too, told by the run the CI service
    /// names; parts of one run merge, and the merged report records it. A mixed split, or a
    /// part that is not valid JSON, is told naming the folder and the problem.
    func testPartsOfOtherMasksOrRunsAreRefused() throws {
        func batch(_ index: Int, of count: Int = 2, run: String?, _ extra: String...) throws {
            let result = try runProcess(
                IMGDiffExecutable.url, ["batch", path("ref"), path("new"), "--out", path("part-\(index)"), "--shard", "\(index)/\(count)"] + extra,
                environment: Dictionary(uniqueKeysWithValues: CIRunVariables.map { ($0, $0 == "GITHUB_RUN_ID" ? run : nil) }))
            XCTAssertNotEqual(result.status, 2, result.stderr)
        }
        func merge(_ out: String) throws -> CLIRun { try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path(out)) }
        let mask = path("mask.png")
        try FileManager.default.copyItem(atPath: path("ref/set-0/login.png"), toPath: mask)
        try batch(1, run: "7", "--ignore-mask", mask)
        try FileManager.default.removeItem(atPath: mask)
        try FileManager.default.copyItem(atPath: path("new/set-0/login.png"), toPath: mask)
        try batch(2, run: "7", "--ignore-mask", mask)
        let masks = try merge("by-mask")
        XCTAssertEqual(masks.status, 2)
        XCTAssertEqual(
            masks.stderr,
            "imgdiff: error: \(path("part-2")): judged its pairs with another --ignore-mask image than \(path("part-1")) (the file's bytes differ); run every part with the same mask\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("by-mask")))

        try batch(1, run: "7")
        try batch(2, run: "6")
        let stale = try merge("stale")
        XCTAssertEqual(stale.status, 2)
        XCTAssertEqual(
            stale.stderr,
            "imgdiff: error: \(path("part-2")): written by CI run GITHUB_RUN_ID=6, but \(path("part-1")) by CI run GITHUB_RUN_ID=7; merge the parts of one run (a part left from an earlier run?)\n")
        try batch(2, run: nil)
        XCTAssertTrue(try merge("stale").stderr.contains("written by no CI run, but"))
        try batch(2, run: "7")
        XCTAssertEqual(try merge("merged").status, 1)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("merged/report.json")))) as? [String: Any])
        XCTAssertEqual(report["run"] as? String, "GITHUB_RUN_ID=7")

        try batch(2, of: 3, run: "7")
        let split = try merge("split")
        XCTAssertEqual(
            split.stderr, "imgdiff: error: \(path("part-2")): part 2/3, but \(path("part-1")) is part 1/2; merge the parts of one --shard I/N split\n")
        try Data("{\"referenceDirectory\": ".utf8).write(to: URL(fileURLWithPath: path("part-2/report.json")))
        let truncated = try merge("truncated")
        XCTAssertEqual(truncated.stderr, "imgdiff: error: \(path("part-2"))/report.json: not an imgdiff batch report (not valid JSON)\n")
    }

    /// The variables `CIRun` reads, cleared but for the one a test sets.
    let CIRunVariables = ["GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILDKITE_BUILD_ID", "BUILD_BUILDID"]

    /// A part's report is input: a path in it that leaves its pairs/ folder is refused, and
    /// nothing is copied, inside the merged report or outside it.
    func testPartReportPathsThatLeaveTheirFolderAreRefused() throws {
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part"), "--shard", "1/1")
        let reportPath = path("part/report.json")
        let text = try String(contentsOfFile: reportPath, encoding: .utf8)
        let blend = try XCTUnwrap(text.range(of: #""blend" : "pairs/[^"]*""#, options: .regularExpression))
        // Each names an input image, which a copy would have written beside the merged report.
        // A combining mark after a slash makes one `Character` of the two, which a split by
        // characters would not see as a slash.
        for escape in [
            "pairs/../../ref/set-0/login.png", "pairs/x/../../../ref/set-0/login.png", "pairs//../../ref/set-0/login.png",
            "pairs/../\u{301}x.png",
            // A blend or a mask is a file under pairs/, never a link to an input.
            "../../../../etc/passwd", "/etc/passwd", "ref/set-0/login.png",
        ] {
            try text.replacingCharacters(in: blend, with: "\"blend\" : \"\(escape)\"").write(toFile: reportPath, atomically: true, encoding: .utf8)
            let run = try imgdiff("merge-reports", path("part"), "--out", path("deep/er/merged"))
            XCTAssertEqual(run.status, 2, escape)
            XCTAssertTrue(run.stderr.contains("names \(escape), which leaves its pairs/ folder"), run.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("deep/er")), [], escape)
        }
        try text.write(toFile: reportPath, atomically: true, encoding: .utf8)

        // A symbolic link inside pairs/ that leads out of it is not followed.
        let linked = String(text[blend].dropFirst(#""blend" : ""#.count).dropLast())
        try FileManager.default.removeItem(atPath: path("part/" + linked))
        try FileManager.default.createSymbolicLink(atPath: path("part/" + linked), withDestinationPath: path("ref/set-0/login.png"))
        let followed = try imgdiff("merge-reports", path("part"), "--out", path("deep/er/merged"))
        XCTAssertEqual(followed.status, 2)
        XCTAssertTrue(followed.stderr.contains("names \(linked), which leaves its pairs/ folder"), followed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("deep/er")), [])
    }

    /// A pair path in a part's report that leaves the snapshot folders is refused before
    /// anything is approved or reviewed by it, and so is a shard out of --shard's ranges.
    func testPartReportPairsAndShardsOutOfRangeAreRefused() throws {
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part"), "--shard", "1/1")
        let reportPath = path("part/report.json")
        let text = try String(contentsOfFile: reportPath, encoding: .utf8)
        let victim = path("victim.png")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let pairPath = try XCTUnwrap(text.range(of: #""path" : "set-0/[^"]*""#, options: .regularExpression))
        for escape in ["../victim.png", "set-0/../../victim.png", "/tmp/victim.png", "./x.png"] {
            try text.replacingCharacters(in: pairPath, with: "\"path\" : \"\(escape)\"").write(toFile: reportPath, atomically: true, encoding: .utf8)
            for arguments in [["merge-reports", path("part"), "--out", path("merged"), "--approve"], ["review", path("part"), "--accept-all"]] {
                let run = try imgdiff(arguments)
                XCTAssertEqual(run.status, 2, "\(arguments) \(escape)")
                XCTAssertEqual(
                    run.stderr, "imgdiff: error: \(reportPath): names the pair \(escape), which leaves the snapshot folders; a report imgdiff wrote names no such path\n")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("merged")))
        for count in ["0", "-2", "1001"] {
            try text.replacingOccurrences(of: #""count" : 1"#, with: "\"count\" : \(count)").write(toFile: reportPath, atomically: true, encoding: .utf8)
            let run = try imgdiff("merge-reports", path("part"), "--out", path("merged"))
            XCTAssertEqual(run.status, 2, count)
            XCTAssertTrue(run.stderr.contains("shard 1/\(count) is not 1...N/N with N 1...1000"), run.stderr)
        }
    }

    /// CI's recipe (Docs/ci.md): parts written as report-N beside the snapshots, downloaded
    /// into another folder, merged there. The merged report links the inputs as the unsharded
    /// one does, not through the parts' old places.
    func testPartsMovedBeforeMergingLinkTheInputsAsTheUnshardedReport() throws {
        func run(_ arguments: String...) throws -> CLIRun { try runProcess(IMGDiffExecutable.url, arguments, currentDirectory: work) }
        _ = try run("batch", "ref", "new", "--out", "whole")
        for index in 1...2 { _ = try run("batch", "ref", "new", "--out", "report-\(index)", "--shard", "\(index)/2") }
        try FileManager.default.createDirectory(atPath: path("downloads"), withIntermediateDirectories: true)
        for index in 1...2 { try FileManager.default.moveItem(atPath: path("report-\(index)"), toPath: path("downloads/report-\(index)")) }
        _ = try run("merge-reports", "downloads/report-1", "downloads/report-2", "--out", "merged")
        func links(_ report: String) throws -> [String: [String: String]] {
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path(report + "/report.json")))) as? [String: Any])
            let pairs = try XCTUnwrap(json["pairs"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: pairs.map { ($0["path"] as? String ?? "", $0["outputs"] as? [String: String] ?? [:]) })
        }
        let merged = try links("merged")
        XCTAssertEqual(merged, try links("whole"))
        for (pair, outputs) in merged {
            for link in outputs.values { XCTAssertTrue(FileManager.default.fileExists(atPath: path("merged/" + link)), "\(pair): \(link)") }
        }
    }

    func testApproveFromAMergedReport() throws {
        for index in 1...2 {
            _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-\(index)"), "--shard", "\(index)/2")
        }
        let run = try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path("report"), "--approve")
        XCTAssertEqual(run.status, 1, "deleted pairs remain: " + run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("approved:") }.count, 6 * 3)
        let again = try imgdiff("batch", path("ref"), path("new"), "--out", path("again"))
        XCTAssertTrue(again.stdout.contains("36 pairs: 0 changed, 30 passed, 0 new, 6 deleted, 0 errors"), again.stdout)
    }

    /// The merged report approves the images the parts compared: a new image rendered again
    /// after its part ran (on the machine that merges) is refused, and its reference kept.
    func testApproveFromAMergedReportTakesOnlyTheComparedImages() throws {
        for index in 1...2 {
            _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("part-\(index)"), "--shard", "\(index)/2")
        }
        let rendered = path("new/set-0/login.png"), reference = path("ref/set-0/login.png")
        let before = FileManager.default.contents(atPath: reference)
        try FileManager.default.removeItem(atPath: rendered)
        try FileManager.default.copyItem(atPath: path("new/set-0/home.png"), toPath: rendered)
        let run = try imgdiff("merge-reports", path("part-1"), path("part-2"), "--out", path("report"), "--approve")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(rendered): changed since the report"), run.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: reference), before)
        XCTAssertEqual(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("approved:") }.count, 6 * 3 - 1, "the others are approved")
    }

    /// Two whole runs of one suite (an Intel and an ARM runner's) join side by side, each pair
    /// labelled with its report's folder; such a report cannot be approved.
    func testWholeRunsOfOneSuiteAreJoinedSideBySide() throws {
        for runner in ["intel", "arm"] {
            XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path(runner)).status, 1)
        }
        let run = try imgdiff("merge-reports", path("intel"), path("arm"), "--out", path("review"))
        XCTAssertEqual(run.status, 1, run.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("review/report.json")))) as? [String: Any]
        let pairs = json?["pairs"] as? [[String: Any]] ?? []
        XCTAssertEqual(pairs.count, 72)
        XCTAssertTrue(pairs.contains { $0["path"] as? String == "intel/set-0/login.png" })
        XCTAssertTrue(pairs.contains { $0["path"] as? String == "arm/set-0/login.png" })
        for pair in pairs {
            for case let output as String in (pair["outputs"] as? [String: Any] ?? [:]).values where output.hasPrefix("pairs/") {
                XCTAssertTrue(FileManager.default.fileExists(atPath: path("review/" + output)), output)
            }
        }
        let approve = try imgdiff("merge-reports", path("intel"), path("arm"), "--out", path("review"), "--approve")
        XCTAssertEqual(approve.status, 2)
        XCTAssertTrue(approve.stderr.contains("approve from each run's own report"), approve.stderr)
    }
}
