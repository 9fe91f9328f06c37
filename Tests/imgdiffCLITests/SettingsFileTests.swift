import Foundation
import TestSupport
import XCTest

/// The settings file: `tune --write-config` writes it, `compare --config` and `batch` (from the
/// reference folder) judge by it, and a bad one is refused in one line.
final class SettingsFileTests: XCTestCase {
    let noise = SharedData.packageRoot.appendingPathComponent("Fixtures/tune/noise").path
    let changes = SharedData.packageRoot.appendingPathComponent("Fixtures/tune/changes").path
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testTunedFileJudgesCompareAndBatchAsTheRecommendationDoes() throws {
        let config = work.appendingPathComponent("imgdiff.json").path
        let tune = try imgdiff("tune", noise, "--must-fail", changes, "--write-config", config, "--json")
        XCTAssertEqual(tune.status, 0, tune.stderr)
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any])
        XCTAssertNotNil(file["metric"] as? String)
        XCTAssertFalse((file["explanation"] as? [String] ?? []).isEmpty, "the file says why")

        for (folder, expected) in [(noise, Int32(0)), (changes, 1)] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/ref") {
                let run = try imgdiff("\(folder)/ref/\(name)", "\(folder)/new/\(name)", "--config", config)
                XCTAssertEqual(run.status, expected, "\(name): \(run.stdout)\(run.stderr)")
            }
        }

        // batch reads REF_DIR/imgdiff.json and says so.
        for side in ["ref", "new"] {
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)", toPath: work.appendingPathComponent(side).path)
        }
        try FileManager.default.copyItem(atPath: config, toPath: work.appendingPathComponent("ref/imgdiff.json").path)
        let batch = try imgdiff(
            "batch", work.appendingPathComponent("ref").path, work.appendingPathComponent("new").path,
            "--out", work.appendingPathComponent("report").path)
        XCTAssertEqual(batch.status, 0, batch.stdout + batch.stderr)
        XCTAssertTrue(batch.stderr.contains("imgdiff: judging pairs by \(work.appendingPathComponent("ref/imgdiff.json").path): --metric "), batch.stderr)
        let plain = try imgdiff(
            "batch", work.appendingPathComponent("ref").path, work.appendingPathComponent("new").path,
            "--out", work.appendingPathComponent("report").path, "--metric", "exact")
        XCTAssertEqual(plain.status, 1, "options on the command line win, with a warning")
        XCTAssertTrue(plain.stderr.contains("imgdiff: warning: "), plain.stderr)
        let other = work.appendingPathComponent("exact.json").path
        try Data(#"{"metric": "exact"}"#.utf8).write(to: URL(fileURLWithPath: other))
        let configured = try imgdiff(
            "batch", work.appendingPathComponent("ref").path, work.appendingPathComponent("new").path,
            "--out", work.appendingPathComponent("report").path, "--config", other)
        XCTAssertEqual(configured.status, 1, "--config wins, with a warning")
        XCTAssertTrue(
            configured.stderr.contains("imgdiff: warning: \(work.appendingPathComponent("ref/imgdiff.json").path) is not used: --config \(other) was given"),
            configured.stderr)
    }

    /// The settings file is never overwritten by an output of the comparison it configures,
    /// and `tune --write-config` replaces a settings file only: not a reference image it reads,
    /// nor any other file, nor a folder. Each is refused before any pair is measured.
    func testSettingsFilesAndImagesAreNeverOverwritten() throws {
        // One pair and no canaries: the tune runs that write stay quick, under the sanitizers too.
        let copied = work.appendingPathComponent("noise").path
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(atPath: "\(copied)/\(side)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)/jitter-1.png", toPath: "\(copied)/\(side)/jitter-1.png")
        }
        let config = work.appendingPathComponent("imgdiff.json").path
        let tuned = try imgdiff("tune", copied, "--canary-pairs", "0", "--write-config", config)
        XCTAssertEqual(tuned.status, 0, tuned.stderr)
        let settings = try Data(contentsOf: URL(fileURLWithPath: config))
        let reference = "\(noise)/ref/jitter-1.png", actual = "\(noise)/new/jitter-1.png"
        for output in ["-o", "--mask", "--review"] {
            let run = try imgdiff(reference, actual, "--config", config, output, config)
            XCTAssertEqual(run.status, 2, output)
            XCTAssertEqual(run.stderr, "imgdiff: error: \(config): refusing to overwrite the input \(config); choose another output path\n")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: config)), settings)

        let image = "\(copied)/ref/jitter-1.png", text = work.appendingPathComponent("notes.json").path
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: text))
        let before = try [image, text].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for (destination, problem) in [
            (image, "named like an image, which a snapshot folder would list as one; name the settings file imgdiff.json"),
            (text, "exists and does not read as an imgdiff settings file (not a JSON object (at byte 0)); --write-config replaces only a settings file: fix or remove it, or choose another path"),
        ] {
            let run = try imgdiff("tune", copied, "--write-config", destination)
            XCTAssertEqual(run.status, 2, destination)
            XCTAssertEqual(run.stderr, "imgdiff: error: \(destination): \(problem)\n")
            XCTAssertEqual(run.stdout, "")
        }
        XCTAssertEqual(try [image, text].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before)
        let folder = try imgdiff("tune", copied, "--write-config", work.path)
        XCTAssertEqual(folder.stderr, "imgdiff: error: \(work.path): not a regular file; --write-config writes a settings file\n")
        let again = try imgdiff("tune", copied, "--canary-pairs", "0", "--write-config", config)
        XCTAssertEqual(again.status, 0, "a settings file is replaced: " + again.stderr)
    }

    func testBadFilesAreRefusedInOneLine() throws {
        let reference = "\(noise)/ref/jitter-1.png", actual = "\(noise)/new/jitter-1.png"
        let cases: [(contents: String, problem: String)] = [
            (#"{"metric": "structural", "treshold": 2}"#, #"unknown key "treshold""#),
            (#"{"metric": "nope"}"#, #"unknown metric "nope""#),
            (#"{"metric": "yiq", "threshold": 3}"#, "a yiq threshold is between 0 and 1"),
            (#"{"metric": "cie94", "shiftRadius": 1}"#, "belong to the structural metric"),
            (#"{"metric": "cie94", "textReflow": false}"#, "belong to the structural metric"),
            (#"{"metric": "structural", "textReflow": "no"}"#, "textReflow: wrong type"),
            (#"{"metric": "yiq", "scatteredNoise": false}"#, "belong to the structural metric"),
            (#"{"metric": "cie94", "maxDiffRatio": 2}"#, "maxDiffRatio must be between 0 and 1"),
            (#"{"metric": "ae", "antialiasing": true}"#, "antialiasing does not apply to it"),
            (#"{"metric": "psnr", "maxDiffPixels": 5}"#, "maxDiffPixels and maxDiffRatio do not apply to it"),
            (#"{"metric": "structural", "antialiasing": true}"#, "(countAntialiased counts it instead): antialiasing does not apply to it"),
            (#"{"threshold": 2}"#, #"missing "metric""#),
            (#"{"metric": 3}"#, "metric: wrong type"),
            (#"{"metric": "yiq", "explanation": ["fine", 1]}"#, "explanation[1]: wrong type"),
            ("[1, 2]", "not a JSON object"),
        ]
        for (contents, problem) in cases {
            let path = work.appendingPathComponent("bad.json").path
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            let run = try imgdiff(reference, actual, "--config", path)
            XCTAssertEqual(run.status, 2, contents)
            XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: \(path): "), run.stderr)
            XCTAssertTrue(run.stderr.contains(problem), run.stderr)
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
        }
        let aeSettings = work.appendingPathComponent("ae.json").path
        try Data(#"{"metric": "ae", "threshold": 3277}"#.utf8).write(to: URL(fileURLWithPath: aeSettings))
        let fuzzTwice = try imgdiff(reference, actual, "--config", aeSettings, "--fuzz", "5%")
        XCTAssertEqual(fuzzTwice.stderr, "imgdiff: error: \(aeSettings): judges by ae, whose fuzz is the file's threshold (0 without one); leave out --fuzz, or edit the file\n")
        let missing = try imgdiff(reference, actual, "--config", "/no/such.json")
        XCTAssertEqual(missing.stderr, "imgdiff: error: /no/such.json: no such file\n")
        let nowhere = work.appendingPathComponent("nowhere.json").path
        try FileManager.default.createSymbolicLink(atPath: nowhere, withDestinationPath: "/no/such.json")
        let dangling = try imgdiff(reference, actual, "--config", nowhere)
        XCTAssertEqual(dangling.stderr, "imgdiff: error: \(nowhere): a link that leads nowhere (or round to itself), not a settings file\n")
        let both = try imgdiff(reference, actual, "--config", "/no/such.json", "--threshold", "2")
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("--config sets the metric and tolerances; leave out --threshold"), both.stderr)
    }

    /// A settings file may be a link to one shared by several reference folders: compare and
    /// batch read the file it leads to (both refused it as "not a regular file").
    func testASettingsFileMayBeALink() throws {
        let shared = work.appendingPathComponent("shared.json").path
        try Data(#"{"metric": "exact"}"#.utf8).write(to: URL(fileURLWithPath: shared))
        for side in ["ref", "new"] {
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)", toPath: work.appendingPathComponent(side).path)
        }
        let linked = work.appendingPathComponent("ref/imgdiff.json").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: shared)
        let compare = try imgdiff("\(noise)/ref/jitter-1.png", "\(noise)/new/jitter-1.png", "--config", linked)
        XCTAssertEqual(compare.status, 1, "exact fails the jitter: " + compare.stderr)
        let batch = try imgdiff(
            "batch", work.appendingPathComponent("ref").path, work.appendingPathComponent("new").path,
            "--out", work.appendingPathComponent("report").path)
        XCTAssertEqual(batch.status, 1, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("imgdiff: judging pairs by \(linked): --metric exact"), batch.stderr)
    }

    /// A file found beside the references is named by its path in errors that the command
    /// line and the file make together (it was named `imgdiff.json` alone).
    func testAFileFoundBesideTheReferencesIsNamedByItsPath() throws {
        for side in ["ref", "new"] {
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)", toPath: work.appendingPathComponent(side).path)
        }
        let found = work.appendingPathComponent("ref/imgdiff.json").path
        try Data(#"{"metric": "ae"}"#.utf8).write(to: URL(fileURLWithPath: found))
        let batch = try imgdiff(
            "batch", work.appendingPathComponent("ref").path, work.appendingPathComponent("new").path,
            "--out", work.appendingPathComponent("report").path, "--fuzz", "5%")
        XCTAssertEqual(batch.status, 2)
        XCTAssertEqual(batch.stderr, "imgdiff: error: \(found): judges by ae, whose fuzz is the file's threshold (0 without one); leave out --fuzz, or edit the file\n")
    }

    /// A precision beside a metric judges only what the metric counts, in compare and batch as
    /// in the snapshot adapter (its test `testSettingsFileJudgesAsTheCLIDoes`): a pair one level
    /// apart passes `channel 2` at precision 1. A precision alone judges the pixels as they are.
    func testAPrecisionJudgesAfterTheMetric() throws {
        let reference = "\(noise)/ref/jitter-1.png", actual = "\(noise)/new/jitter-1.png"
        let settings = work.appendingPathComponent("imgdiff.json").path
        try Data(#"{"metric": "channel", "threshold": 2, "precision": 1}"#.utf8).write(to: URL(fileURLWithPath: settings))
        for arguments in [["--config", settings], ["--metric", "channel", "--threshold", "2", "--precision", "1"]] {
            let run = try imgdiff([reference, actual] + arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stdout)\(run.stderr)")
            XCTAssertTrue(run.stdout.hasSuffix("snapshot: pass\n"), run.stdout)
        }
        XCTAssertEqual(try imgdiff(reference, actual, "--precision", "1").status, 1, "no metric: the pixels as they are")
        XCTAssertEqual(try imgdiff(reference, actual, "--threshold", "0.5", "--precision", "1").status, 0, "yiq 0.5 counts none of them")
        XCTAssertEqual(try imgdiff(reference, actual, "--ignore", "0:0-1000:1000", "--precision", "1").status, 0, "all ignored")
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(atPath: work.appendingPathComponent(side).path, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)/jitter-1.png", toPath: work.appendingPathComponent("\(side)/jitter-1.png").path)
        }
        try FileManager.default.copyItem(atPath: settings, toPath: work.appendingPathComponent("ref/imgdiff.json").path)
        let batch = try imgdiff("batch", work.appendingPathComponent("ref").path, work.appendingPathComponent("new").path, "--out", work.appendingPathComponent("report").path)
        XCTAssertEqual(batch.status, 0, batch.stdout + batch.stderr)

        try Data(#"{"metric": "channel", "precision": 0.99, "maxDiffPixels": 10}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let both = try imgdiff(reference, actual, "--config", settings)
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("maxDiffPixels and maxDiffRatio do not apply beside precision"), both.stderr)
        let bothOptions = try imgdiff(reference, actual, "--precision", "0.99", "--max-diff-ratio", "0.1")
        XCTAssertEqual(bothOptions.status, 2)
        XCTAssertTrue(bothOptions.stderr.contains("--max-diff-pixels and --max-diff-ratio do not apply beside --precision"), bothOptions.stderr)
    }

    func testAllowanceOptions() throws {
        let reference = "\(changes)/ref/changed-text.png", actual = "\(changes)/new/changed-text.png"
        let exact = try imgdiff(reference, actual, "--metric", "exact", "--json")
        let count = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(exact.stdout.utf8)) as? [String: Any])?["differentPixels"] as? Int)
        XCTAssertEqual(try imgdiff(reference, actual, "--metric", "exact", "--max-diff-pixels", "\(count - 1)").status, 1)
        XCTAssertEqual(try imgdiff(reference, actual, "--metric", "exact", "--max-diff-pixels", "\(count)").status, 0)
        XCTAssertEqual(try imgdiff(reference, actual, "--metric", "exact", "--max-diff-ratio", "0.5").status, 0)
        let bad = try imgdiff(reference, actual, "--max-diff-ratio", "2")
        XCTAssertEqual(bad.status, 2)
        let misplaced = try imgdiff(reference, actual, "--shift-radius", "2")
        XCTAssertEqual(misplaced.status, 2)
        XCTAssertTrue(misplaced.stderr.contains("belong to --metric structural"), misplaced.stderr)
        XCTAssertEqual(try imgdiff(reference, actual, "--no-text-reflow").status, 2)
        XCTAssertEqual(try imgdiff(reference, actual, "--count-antialiased").status, 2)
    }

    /// A pair the structural mode passes by default and fails with `flag`, given on the
    /// command line or as `setting` in a file.
    func assertStructuralFlagFails(
        _ fixture: String, flag: String, setting: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let folder = SharedData.packageRoot.appendingPathComponent("Fixtures/\(fixture)").deletingLastPathComponent()
        let name = (fixture as NSString).lastPathComponent
        let reference = folder.appendingPathComponent("ref/\(name)").path, actual = folder.appendingPathComponent("new/\(name)").path
        XCTAssertEqual(try imgdiff(reference, actual, "--metric", "structural").status, 0, file: file, line: line)
        XCTAssertEqual(try imgdiff(reference, actual, "--metric", "structural", flag).status, 1, file: file, line: line)
        let path = work.appendingPathComponent("\(flag).json").path
        let json = #"{"metric": "structural", "# + setting + "}"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try imgdiff(reference, actual, "--config", path).status, 1, file: file, line: line)
    }

    /// A dialog that full hinting redrew passes the structural mode by default, its glyphs'
    /// anti-aliased edges taken for render noise, and fails with `--count-antialiased`, which
    /// counts them. A noise pair, which every rule of the mode keeps passing, rather than a
    /// change the defaults miss (this test's pairs before, until a rule caught each of them).
    func testAntialiasedPixelsCanBeCounted() throws {
        try assertStructuralFlagFails(
            "render-blind/noise/dialog--hinting-full.png", flag: "--count-antialiased",
            setting: #""countAntialiased": true"#)
    }

    /// A page of other hinting passes the structural mode by default, and fails with
    /// `--no-text-reflow`.
    func testTextReflowCanBeTurnedOff() throws {
        try assertStructuralFlagFails(
            "render-holdout/noise/inbox--hinting-full.png", flag: "--no-text-reflow", setting: #""textReflow": false"#)
    }

    /// A page of other hinting whose differences lie in dozens of clusters, a few of them small
    /// and strong, passes the structural mode by default, and fails with `--no-scattered-noise`.
    func testScatteredNoiseCanBeTurnedOff() throws {
        try assertStructuralFlagFails(
            "render-blind/noise/calendar--hinting-full.png", flag: "--no-scattered-noise", setting: #""scatteredNoise": false"#)
    }
}
