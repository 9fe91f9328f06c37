import Foundation
import ImageCodecs
import ImageDiff
import SnapshotFiles
import TestSupport
import XCTest

/// `imgdiff review`: failures from batch reports and from the snapshot strategies' entries,
/// listed, printed as JSON, accepted one by one or all at once, rejected.
final class ReviewTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/batch")

    /// Copies the batch fixture suite's ref/ and new/ into the work folder.
    func copyFixtureFolders() throws {
        for side in ["ref", "new"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(side), to: work.appendingPathComponent(side))
        }
    }

    /// `imgdiff batch ref new --out OUT` in the work folder; the fixture suite differs (exit 1).
    func batchReport(into out: String = "report", file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try runProcess(IMGDiffExecutable.url, ["batch", "ref", "new", "--out", out], currentDirectory: work)
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
    }

    /// The temporary directory of the reviews the tests run: a folder of the work folder.
    var temporary: URL { work.appendingPathComponent("tmp") }

    /// `imgdiff review ARGUMENTS` in the work folder, with SNAPSHOT_ARTIFACTS unset (this test
    /// process sets it for the snapshot tests, whose references a review must never touch) and
    /// TMPDIR ``temporary``, unless `environment` says otherwise.
    func review(_ arguments: String..., input: String? = nil, environment extra: [String: String] = [:], in folder: URL? = nil) throws -> CLIRun {
        let process = Process()
        var environment = ProcessInfo.processInfo.environment
        environment["SNAPSHOT_ARTIFACTS"] = nil
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = temporary.path
        environment.merge(extra) { $1 }
        process.environment = environment
        process.executableURL = IMGDiffExecutable.url
        process.arguments = ["review"] + arguments
        process.currentDirectoryURL = folder ?? work
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data((input ?? "").utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile(), err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    func testBatchFailuresListedAcceptedAndGone() throws {
        try copyFixtureFolders()
        try batchReport()

        let list = try review(".", "--list")
        XCTAssertEqual(list.status, 1)
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 3, list.stdout)
        XCTAssertTrue(list.stdout.contains("[2/3] batch onboarding/welcome.png: new image; replaces ref/onboarding/welcome.png\n"), list.stdout)

        let json = try review(".", "--json")
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["name"] as? String }, ["login.png", "onboarding/welcome.png", "settings/account.png"])
        // Each shows an image of the report to look at: a changed pair's blend, a new pair's image.
        let reviewImages = entries.compactMap { $0["review"] as? String }
        XCTAssertEqual(reviewImages, ["./report/pairs/login.png/blend.png", "./report/pairs/onboarding/welcome.png/new.png", "./report/pairs/settings/account.png/blend.png"])
        for image in reviewImages { XCTAssertNoThrow(try ImageDecoder.decode(contentsOf: work.appendingPathComponent(image).path)) }

        // Skip the first, accept the second, quit.
        let asked = try review(".", "--interactive", input: "s\na\nq\n")
        XCTAssertEqual(asked.status, 1)
        XCTAssertTrue(asked.stdout.contains("accepted: ref/onboarding/welcome.png"), asked.stdout)
        XCTAssertTrue(asked.stdout.contains("  review image: ./report/pairs/login.png/blend.png\n"), asked.stdout)
        XCTAssertEqual(
            try Data(contentsOf: work.appendingPathComponent("ref/onboarding/welcome.png")),
            try Data(contentsOf: work.appendingPathComponent("new/onboarding/welcome.png")))
        XCTAssertEqual(try review(".", "--list").stdout.split(separator: "\n").count, 2, "an accepted pair is not listed again")

        // A rejected batch pair stays in its report: it remains, and says so.
        let rejected = try review(".", "--interactive", input: "r\nr\n")
        XCTAssertEqual(rejected.status, 1, rejected.stdout)
        XCTAssertTrue(rejected.stdout.contains("rejected: login.png; it stays in its batch report until batch runs again"), rejected.stdout)
        XCTAssertEqual(try review(".", "--list").stdout.split(separator: "\n").count, 2)

        XCTAssertEqual(try review(".", "--accept-all").status, 0)
        let done = try review(".")
        XCTAssertEqual(done.status, 0)
        XCTAssertTrue(done.stdout.hasPrefix("Nothing to review"), done.stdout)
        let again = try runProcess(IMGDiffExecutable.url, ["batch", "ref", "new", "--out", "report"], currentDirectory: work)
        XCTAssertTrue(again.stdout.contains("0 changed"), again.stdout)
    }

    /// Accepting a batch pair writes only inside the reference folder's own folders, as
    /// `batch --approve` does; the pairs of runs joined side by side are listed but not
    /// accepted; a broken report or entry of imgdiff's is an error, not "nothing to review".
    func testBatchPairsAreAcceptedAsBatchApprovesThem() throws {
        try copyFixtureFolders()
        // ref/settings is a link to a folder outside REF_DIR.
        let outside = work.appendingPathComponent("outside")
        try FileManager.default.moveItem(at: work.appendingPathComponent("ref/settings"), to: outside)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("ref/settings").path, withDestinationPath: outside.path)
        let before = try Data(contentsOf: outside.appendingPathComponent("account.png"))
        try batchReport()
        let accepted = try review(".", "--accept-all")
        XCTAssertEqual(accepted.status, 2, accepted.stdout + accepted.stderr)
        XCTAssertTrue(accepted.stderr.contains("is a symbolic link; imgdiff writes only inside"), accepted.stderr)
        XCTAssertEqual(try Data(contentsOf: outside.appendingPathComponent("account.png")), before, "nothing written through the link")

        for runner in ["intel", "arm"] {
            _ = try runProcess(IMGDiffExecutable.url, ["batch", "ref", "new", "--out", runner], currentDirectory: work)
        }
        _ = try runProcess(IMGDiffExecutable.url, ["merge-reports", "intel", "arm", "--out", "joined"], currentDirectory: work)
        try FileManager.default.removeItem(at: work.appendingPathComponent("report"))
        for runner in ["intel", "arm"] { try FileManager.default.removeItem(at: work.appendingPathComponent(runner)) }
        let joined = try review("joined", "--accept-all")
        XCTAssertEqual(joined.status, 2)
        XCTAssertTrue(joined.stderr.contains("from runs joined side by side"), joined.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("ref/arm").path))
        XCTAssertEqual(try review("joined", "--list").status, 1, "listed still")

        try Data("{\"broken".utf8).write(to: work.appendingPathComponent("joined/report.json"))
        for mode in ["--list", "--json", "--accept-all"] {
            let broken = try review("joined", mode)
            XCTAssertEqual(broken.status, 2, mode)
            XCTAssertEqual(broken.stderr, "imgdiff: warning: joined/report.json: not a readable imgdiff batch report (not valid JSON); run batch again\n")
        }
        try FileManager.default.createDirectory(at: work.appendingPathComponent("other"), withIntermediateDirectories: true)
        try Data("{\"someone else's\": 1}".utf8).write(to: work.appendingPathComponent("other/report.json"))
        XCTAssertEqual(try review("other").status, 0, "a report.json of another tool is passed over")
        try Data("{".utf8).write(to: work.appendingPathComponent("other/t.1.imgdiff.json"))
        let entry = try review("other")
        XCTAssertEqual(entry.status, 2)
        XCTAssertEqual(entry.stderr, "imgdiff: warning: other/t.1.imgdiff.json: not a readable imgdiff review entry; delete it, or run the test again\n")
    }

    /// A report or entry of imgdiff's that cannot be read is a warning of one line, naming it;
    /// the rest are listed and accepted, and the run ends with 2.
    func testUnreadableFilesAreToldAndTheRestReviewed() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        let artifacts = work.appendingPathComponent("artifacts")
        try writeSnapshotFailure(artifacts: artifacts.appendingPathComponent("SceneTests"), snapshots: snapshots, name: "a")
        try FileManager.default.createDirectory(at: artifacts.appendingPathComponent("report"), withIntermediateDirectories: true)
        try Data("{\"referenceDirectory\": \"ref\", \"newDirectory\": 3}".utf8).write(to: artifacts.appendingPathComponent("report/report.json"))
        try Data("{".utf8).write(to: artifacts.appendingPathComponent("SceneTests/t.1.imgdiff.json"))
        let warnings = """
            imgdiff: warning: artifacts/SceneTests/t.1.imgdiff.json: not a readable imgdiff review entry; delete it, or run the test again
            imgdiff: warning: artifacts/report/report.json: not a readable imgdiff batch report (newDirectory is of the wrong type); run batch again

            """
        let listed = try review("artifacts", "--list")
        XCTAssertEqual(listed.status, 2)
        XCTAssertTrue(listed.stdout.hasPrefix("[1/1] snapshot testBadge.a: "), listed.stdout)
        XCTAssertEqual(listed.stderr, warnings)
        let json = try review("artifacts", "--json")
        XCTAssertEqual(json.status, 2)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any])?.count, 1, json.stdout)
        let accepted = try review("artifacts", "--accept-all")
        XCTAssertEqual(accepted.status, 2)
        XCTAssertEqual(accepted.stdout, "accepted: \(snapshots.appendingPathComponent("testBadge.a.png").path)\n")
        XCTAssertEqual(accepted.stderr, warnings)
        let none = try review("artifacts")
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.stdout, "Nothing to review (searched artifacts)\n")
    }

    /// A batch pair is accepted only as the report shows it: while the new image is the one
    /// batch compared (the report's copy) and the reference the one it compared against (or
    /// still missing, for a new pair). A new image named apart from its folder, images changed
    /// since, or a review run from another project with folders of the same names are refused,
    /// and nothing is written.
    func testBatchPairsChangedSinceTheReportAreNotAccepted() throws {
        try copyFixtureFolders()
        try batchReport()
        let other = SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png").path
        let reportPath = work.appendingPathComponent("report/report.json")
        let original = try String(contentsOf: reportPath, encoding: .utf8)
        let edited = original.replacingOccurrences(
            of: "\"newFile\" : \"new/onboarding/welcome.png\"", with: "\"newFile\" : \"\(other)\"")
        XCTAssertNotEqual(edited, original)
        try edited.write(to: reportPath, atomically: true, encoding: .utf8)
        func replace(_ file: String, with source: String) throws {
            let url = work.appendingPathComponent(file)
            try FileManager.default.removeItem(at: url)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: source), to: url)
        }
        try replace("new/login.png", with: other)
        try replace("ref/settings/account.png", with: fixtures.appendingPathComponent("ref/home.png").path)

        let list = try review(".", "--list")
        XCTAssertEqual(list.status, 1)
        for problem in [
            "new/login.png: changed since the report", "ref/settings/account.png: changed since the report",
            "names its new image \(other) apart from its folder new",
        ] {
            XCTAssertTrue(list.stdout.contains(problem), "\(problem): \(list.stdout)")
        }
        let run = try review(".", "--accept-all")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stdout, "", "nothing accepted")
        XCTAssertEqual(
            FileManager.default.contents(atPath: work.appendingPathComponent("ref/login.png").path),
            FileManager.default.contents(atPath: fixtures.appendingPathComponent("ref/login.png").path))
        XCTAssertEqual(
            FileManager.default.contents(atPath: work.appendingPathComponent("ref/settings/account.png").path),
            FileManager.default.contents(atPath: fixtures.appendingPathComponent("ref/home.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("ref/onboarding/welcome.png").path))

        // Another project with folders of the same names: its images are not the report's.
        try original.write(to: reportPath, atomically: true, encoding: .utf8)
        let project = work.appendingPathComponent("project")
        for side in ["ref", "new"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("ref"), to: project.appendingPathComponent(side))
        }
        let theirs = project.appendingPathComponent("new/settings/account.png")
        try FileManager.default.removeItem(at: theirs)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: other), to: theirs)
        let elsewhere = try runProcess(IMGDiffExecutable.url, ["review", "../report", "--accept-all"], currentDirectory: project)
        XCTAssertEqual(elsewhere.status, 2, elsewhere.stderr)
        XCTAssertTrue(elsewhere.stderr.contains("new/settings/account.png: changed since the report"), elsewhere.stderr)
        XCTAssertTrue(elsewhere.stderr.contains("new/onboarding/welcome.png: no such new image here"), elsewhere.stderr)
        XCTAssertEqual(
            FileManager.default.contents(atPath: project.appendingPathComponent("ref/settings/account.png").path),
            FileManager.default.contents(atPath: fixtures.appendingPathComponent("ref/settings/account.png").path))
    }

    /// Two reports of the same pairs under the folder (a shard's part and the merged report):
    /// each pair is listed twice, and accepting the second copy, whose new image the reference
    /// now holds, succeeds as the first did.
    func testAPairInTwoReportsIsAcceptedOnce() throws {
        try copyFixtureFolders()
        for out in ["first", "second"] { try batchReport(into: out) }
        let run = try review(".", "--accept-all")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("accepted:") }.count, 6)
        for path in ["login.png", "settings/account.png", "onboarding/welcome.png"] {
            XCTAssertEqual(
                FileManager.default.contents(atPath: work.appendingPathComponent("ref/" + path).path),
                FileManager.default.contents(atPath: fixtures.appendingPathComponent("new/" + path).path), path)
        }
    }

    /// The report's copies are files batch wrote: one replaced by a link to the live image,
    /// which would always agree with it, is refused.
    func testACopyThatIsALinkIsRefused() throws {
        try copyFixtureFolders()
        try batchReport()
        let copy = work.appendingPathComponent("report/pairs/login.png/new.png")
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.createSymbolicLink(at: copy, withDestinationURL: work.appendingPathComponent("new/login.png"))
        try FileManager.default.removeItem(at: work.appendingPathComponent("new/login.png"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("new/home.png"), to: work.appendingPathComponent("new/login.png"))
        let run = try review(".", "--accept-all")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("report/pairs/login.png/new.png: the report's copy of the new image is not a file batch wrote"), run.stderr)
        XCTAssertEqual(
            FileManager.default.contents(atPath: work.appendingPathComponent("ref/login.png").path),
            FileManager.default.contents(atPath: fixtures.appendingPathComponent("ref/login.png").path))
    }

    /// A batch report names the files it replaces: a reference apart from its folder, or a
    /// reference folder outside the folder review runs in, is refused, and nothing is written.
    func testBatchReportsReplaceOnlyTheirReferencesHere() throws {
        try copyFixtureFolders()
        try batchReport()
        let reportPath = work.appendingPathComponent("report/report.json")
        let original = try String(contentsOf: reportPath, encoding: .utf8)
        let victim = work.appendingPathComponent("victim.txt"), elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-elsewhere-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: victim)
        for (edited, problem) in [
            (original.replacingOccurrences(of: "\"referenceFile\" : \"ref/login.png\"", with: "\"referenceFile\" : \"victim.txt\""), "names its reference victim.txt apart from its folder ref"),
            (original.replacingOccurrences(of: "\"referenceDirectory\" : \"ref\"", with: "\"referenceDirectory\" : \"\(elsewhere.path)\""), "lies outside the current folder"),
        ] {
            XCTAssertNotEqual(edited, original)
            try edited.write(to: reportPath, atomically: true, encoding: .utf8)
            let listed = try review(".", "--list")
            XCTAssertTrue(listed.stdout.contains("not accepted here: ") && listed.stdout.contains(problem), "listed as accepting finds it: \(listed.stdout)")
            let run = try review(".", "--accept-all")
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.contains(problem), run.stderr)
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "my notes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    /// One failure of `testBadge` as the adapter leaves it: in `artifacts`, the entry
    /// (`testBadge.NAME.imgdiff.json`), the failure and the reference the test read; in
    /// `snapshots`, the reference `testBadge.NAME.png` (`Fixtures/login`'s ref.png, the failure
    /// its fail.png).
    @discardableResult
    func writeSnapshotFailure(artifacts: URL, snapshots: URL, name: String) throws -> URL {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
        try FileManager.default.copyItem(at: login.appendingPathComponent("ref.png"), to: snapshots.appendingPathComponent("testBadge.\(name).png"))
        try FileManager.default.copyItem(at: login.appendingPathComponent("fail.png"), to: artifacts.appendingPathComponent("testBadge.\(name).failure.png"))
        try FileManager.default.copyItem(at: login.appendingPathComponent("ref.png"), to: artifacts.appendingPathComponent("testBadge.\(name).reference.png"))
        let entry: [String: String] = [
            "test": "testBadge", "reference": snapshots.appendingPathComponent("testBadge.\(name).png").path,
            "failure": artifacts.appendingPathComponent("testBadge.\(name).failure.png").path, "summary": "3096 of 64000 pixels differ",
            "recordedReference": artifacts.appendingPathComponent("testBadge.\(name).reference.png").path,
        ]
        let path = artifacts.appendingPathComponent("testBadge.\(name).imgdiff.json")
        try JSONSerialization.data(withJSONObject: entry).write(to: path)
        return path
    }

    /// An entry fingerprints the failure file as the test wrote it: a file replaced since (by
    /// hand, or by another run) is not accepted, and the listing says so; unchanged, it is.
    func testAFailureFileChangedSinceTheTestIsNotAccepted() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests"), artifacts = work.appendingPathComponent("artifacts")
        for name in ["kept", "changed"] {
            let entryPath = try writeSnapshotFailure(artifacts: artifacts, snapshots: snapshots, name: name)
            var entry = try XCTUnwrap(ReviewEntry(bytes: Array(try Data(contentsOf: entryPath))))
            entry.failureDigest = ReviewEntry.digest(of: Array(try Data(contentsOf: URL(fileURLWithPath: entry.failure))))
            try Data(entry.encoded()).write(to: entryPath)
        }
        let replaced = artifacts.appendingPathComponent("testBadge.changed.failure.png")
        try FileManager.default.removeItem(at: replaced)
        try FileManager.default.copyItem(at: SharedData.packageRoot.appendingPathComponent("Fixtures/batch/new/home.png"), to: replaced)
        let listed = try review(artifacts.path, "--list")
        XCTAssertTrue(listed.stdout.contains("\(replaced.path): changed since the test wrote it; run the test again"), listed.stdout)
        let accepted = try review(artifacts.path, "--accept-all")
        XCTAssertEqual(accepted.status, 2, accepted.stdout + accepted.stderr)
        XCTAssertEqual(accepted.stdout, "accepted: \(snapshots.appendingPathComponent("testBadge.kept.png").path)\n")
        XCTAssertEqual(
            try Data(contentsOf: snapshots.appendingPathComponent("testBadge.changed.png")),
            try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/ref.png")), "the reference stays")
    }

    /// A failure whose reference already holds its new image (accepted by a review at once
    /// with this one, or whose entry could not be removed) is done: not listed, and accepting
    /// it removes the entry and succeeds, where it failed as "changed since this failure".
    func testAFailureAlreadyAcceptedIsDone() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests"), artifacts = work.appendingPathComponent("artifacts")
        let entry = try writeSnapshotFailure(artifacts: artifacts, snapshots: snapshots, name: "done")
        let reference = snapshots.appendingPathComponent("testBadge.done.png")
        try FileManager.default.removeItem(at: reference)
        try FileManager.default.copyItem(at: artifacts.appendingPathComponent("testBadge.done.failure.png"), to: reference)
        let listed = try review(artifacts.path, "--list")
        XCTAssertEqual(listed.status, 0, listed.stdout + listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("Nothing to review"), listed.stdout)
        let accepted = try review(artifacts.path, "--accept-all")
        XCTAssertEqual(accepted.status, 0, accepted.stdout + accepted.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: entry.path), "listing changes nothing")
    }

    /// With no DIR, review looks where the snapshot strategies write their artifacts:
    /// $SNAPSHOT_ARTIFACTS, else the temporary directory (an empty SNAPSHOT_ARTIFACTS is unset),
    /// where it reads only imgdiff's entries; and it says where it looked.
    func testWithoutAFolderReviewLooksWhereTheArtifactsAre() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        // Another tool's report.json in the temporary directory is not read.
        try FileManager.default.createDirectory(at: temporary.appendingPathComponent("other"), withIntermediateDirectories: true)
        try Data("{\"referenceDirectory\": 1}".utf8).write(to: temporary.appendingPathComponent("other/report.json"))
        for environment in [[:], ["SNAPSHOT_ARTIFACTS": ""]] {
            let none = try review("--list", environment: environment)
            XCTAssertEqual(none.status, 0, none.stderr)
            XCTAssertEqual(none.stderr, "")
            XCTAssertTrue(none.stdout.hasPrefix("Nothing to review (searched \(temporary.path), the temporary directory, for snapshot entries only"), none.stdout)
        }
        try writeSnapshotFailure(artifacts: temporary.appendingPathComponent("SceneTests"), snapshots: snapshots, name: "a")
        // Another project's failure, shared temporary directory: left out, with a note.
        let otherProject = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-other-project-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: otherProject) }
        try writeSnapshotFailure(artifacts: temporary.appendingPathComponent("OtherTests"), snapshots: otherProject, name: "c")
        let accepted = try review("--accept-all", environment: ["SNAPSHOT_ARTIFACTS": ""])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(accepted.stdout, "accepted: \(snapshots.appendingPathComponent("testBadge.a.png").path)\n")
        XCTAssertEqual(
            accepted.stderr,
            "imgdiff: left out 1 failure(s) in \(temporary.path) whose references lie outside the current folder (other projects')\n")
        XCTAssertEqual(
            try Data(contentsOf: otherProject.appendingPathComponent("testBadge.c.png")),
            try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/ref.png")), "another project's reference stays")
        XCTAssertEqual(
            try Data(contentsOf: snapshots.appendingPathComponent("testBadge.a.png")),
            try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png")))

        let artifacts = work.appendingPathComponent("artifacts")
        try writeSnapshotFailure(artifacts: artifacts.appendingPathComponent("SceneTests"), snapshots: snapshots, name: "b")
        let listed = try review("--list", environment: ["SNAPSHOT_ARTIFACTS": artifacts.path])
        XCTAssertEqual(listed.status, 1, listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("[1/1] snapshot testBadge.b: "), listed.stdout)
        let empty = try review("--list", environment: ["SNAPSHOT_ARTIFACTS": artifacts.appendingPathComponent("SceneTests/none").path])
        XCTAssertEqual(empty.status, 2)
        XCTAssertTrue(empty.stderr.hasSuffix("SceneTests/none: no such directory\n"), empty.stderr)
    }

    /// An entry names its artifacts by absolute path: once the artifacts folder moves (a CI
    /// artefact downloaded), they are found beside the entry; where the old folder still holds
    /// other files (a later run's), the entry's own are the ones beside it.
    func testMovedArtifactsAreAccepted() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        let fail = SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png")
        let artifacts = work.appendingPathComponent("artifacts")
        try writeSnapshotFailure(artifacts: artifacts.appendingPathComponent("SceneTests"), snapshots: snapshots, name: "a")
        try FileManager.default.moveItem(at: artifacts, to: work.appendingPathComponent("downloaded"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try review("downloaded", "--json").stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.first?["new"] as? String, "downloaded/SceneTests/testBadge.a.failure.png")
        XCTAssertNil(json.first?["refusal"] as? String)
        let moved = try review("downloaded", "--accept-all")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(try Data(contentsOf: snapshots.appendingPathComponent("testBadge.a.png")), try Data(contentsOf: fail))

        let copied = work.appendingPathComponent("copied")
        try writeSnapshotFailure(artifacts: artifacts.appendingPathComponent("SceneTests"), snapshots: snapshots, name: "b")
        try FileManager.default.copyItem(at: artifacts, to: copied)
        let later = artifacts.appendingPathComponent("SceneTests/testBadge.b.failure.png")
        try FileManager.default.removeItem(at: later)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("ref/home.png"), to: later)
        try FileManager.default.removeItem(at: artifacts.appendingPathComponent("SceneTests/testBadge.b.imgdiff.json"))
        let run = try review("copied", "--accept-all")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try Data(contentsOf: snapshots.appendingPathComponent("testBadge.b.png")), try Data(contentsOf: fail))

        // Without the reference the test read beside it, the message says what is missing.
        try writeSnapshotFailure(artifacts: artifacts.appendingPathComponent("SceneTests"), snapshots: snapshots, name: "c")
        try FileManager.default.moveItem(at: artifacts, to: work.appendingPathComponent("moved"))
        try FileManager.default.removeItem(at: work.appendingPathComponent("moved/SceneTests/testBadge.c.reference.png"))
        let missing = try review("moved", "--accept-all")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(
            missing.stderr.hasPrefix(
                "imgdiff: error: testBadge.c: its entry does not show the reference the test failed against beside it: no testBadge.c.reference.png in moved/SceneTests; "),
            missing.stderr)
    }

    /// An entry written on CI names the reference by the CI machine's checkout
    /// (`/home/runner/work/…`): reviewed from this checkout, it replaces the file at the same
    /// place here, found by the longest tail of that path, and only while it holds the pixels
    /// the test read. A tail that is not here, or a reference here recorded again since, is
    /// refused.
    func testAnEntryFromCIReplacesTheReferenceOfThisCheckout() throws {
        let ci = work.appendingPathComponent("ci-runner/work/app/app")
        let ciSnapshots = ci.appendingPathComponent("Tests/SceneTests/__Snapshots__/SceneTests")
        let downloaded = work.appendingPathComponent("downloaded")
        let entryPath = try writeSnapshotFailure(artifacts: downloaded, snapshots: ciSnapshots, name: "a")
        var entry = try XCTUnwrap(ReviewEntry(bytes: Array(try Data(contentsOf: entryPath))))
        entry.reference = "/home/runner/work/app/app/Tests/SceneTests/__Snapshots__/SceneTests/testBadge.a.png"
        try Data(entry.encoded()).write(to: entryPath)
        let checkout = work.appendingPathComponent("checkout")
        let localSnapshots = checkout.appendingPathComponent("Tests/SceneTests/__Snapshots__/SceneTests")
        try FileManager.default.createDirectory(at: localSnapshots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ciSnapshots.appendingPathComponent("testBadge.a.png"), to: localSnapshots.appendingPathComponent("testBadge.a.png"))
        try FileManager.default.removeItem(at: work.appendingPathComponent("ci-runner"))

        let fromElsewhere = try review(downloaded.path, "--list")
        XCTAssertTrue(fromElsewhere.stdout.contains("not accepted here: \(entry.reference ?? ""): lies outside the current folder; run imgdiff review from the project"), fromElsewhere.stdout)

        let local = "Tests/SceneTests/__Snapshots__/SceneTests/testBadge.a.png"
        let listed = try review(downloaded.path, "--list", in: checkout)
        XCTAssertTrue(listed.stdout.hasSuffix("; replaces \(local)\n"), listed.stdout + listed.stderr)
        let recordedAgain = SharedData.packageRoot.appendingPathComponent("Fixtures/batch/ref/home.png")
        let reference = checkout.appendingPathComponent(local)
        try FileManager.default.moveItem(at: reference, to: work.appendingPathComponent("kept.png"))
        try FileManager.default.copyItem(at: recordedAgain, to: reference)
        let changed = try review(downloaded.path, "--accept-all", in: checkout)
        XCTAssertEqual(changed.status, 2)
        XCTAssertEqual(changed.stderr, "imgdiff: error: \(local): changed since this failure (recorded again, or accepted); run the test again\n")
        try FileManager.default.removeItem(at: reference)
        try FileManager.default.moveItem(at: work.appendingPathComponent("kept.png"), to: reference)
        let accepted = try review(downloaded.path, "--accept-all", in: checkout)
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(accepted.stdout, "accepted: \(local)\n")
        XCTAssertEqual(try Data(contentsOf: reference), try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png")))
    }

    /// A failure that cannot be accepted does not end an interactive review: its error is told,
    /// the rest are asked about, and the run ends with 2.
    func testAnInteractiveReviewGoesOnAfterAFailedAccept() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        let artifacts = work.appendingPathComponent("artifacts/SceneTests")
        for name in ["a", "b"] { try writeSnapshotFailure(artifacts: artifacts, snapshots: snapshots, name: name) }
        let recordedAgain = fixtures.appendingPathComponent("ref/home.png")
        try FileManager.default.removeItem(at: snapshots.appendingPathComponent("testBadge.a.png"))
        try FileManager.default.copyItem(at: recordedAgain, to: snapshots.appendingPathComponent("testBadge.a.png"))
        let run = try review("artifacts", "--interactive", input: "a\na\n")
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertEqual(
            run.stderr,
            "imgdiff: error: \(snapshots.appendingPathComponent("testBadge.a.png").path): changed since this failure (recorded again, or accepted); run the test again\n")
        XCTAssertTrue(run.stdout.contains("accepted: \(snapshots.appendingPathComponent("testBadge.b.png").path)"), run.stdout)
        XCTAssertEqual(try Data(contentsOf: snapshots.appendingPathComponent("testBadge.a.png")), try Data(contentsOf: recordedAgain))
        XCTAssertEqual(
            try Data(contentsOf: snapshots.appendingPathComponent("testBadge.b.png")),
            try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png")))
    }

    /// "Changed since this failure" compares 16-bit samples when the reference has them: one
    /// recorded again with changes in the low bytes only is not replaced.
    func testASixteenBitReferenceChangedInItsLowBytesIsNotReplaced() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        let artifacts = work.appendingPathComponent("artifacts/SceneTests")
        try writeSnapshotFailure(artifacts: artifacts, snapshots: snapshots, name: "a")
        func deep(_ low: UInt16) throws -> Data {
            let samples = (0..<(8 * 8 * 4)).map { UInt16($0 % 100) << 8 | low }
            return Data(try PNGEncoder.encode(RGBAImage(width: 8, height: 8, samples16: samples, hasAlpha: true)))
        }
        let reference = snapshots.appendingPathComponent("testBadge.a.png")
        try deep(0xF0).write(to: artifacts.appendingPathComponent("testBadge.a.reference.png"))
        try deep(0xFE).write(to: reference)
        let run = try review("artifacts", "--accept-all")
        XCTAssertEqual(run.status, 2, run.stdout)
        XCTAssertTrue(run.stderr.contains("\(reference.path): changed since this failure"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: reference), try deep(0xFE))

        try deep(0xF0).write(to: reference)
        let same = try review("artifacts", "--accept-all")
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(try Data(contentsOf: reference), try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png")))
    }

    /// An empty reference is replaced only as any other: with the entry's evidence beside it,
    /// an empty recorded reference; the strategies write none, so an entry cannot overwrite an
    /// empty file of the project.
    func testAnEmptyReferenceNeedsItsEvidence() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        let artifacts = work.appendingPathComponent("artifacts/SceneTests")
        let entryPath = try writeSnapshotFailure(artifacts: artifacts, snapshots: snapshots, name: "a")
        let empty = work.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        var entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: entryPath)) as? [String: Any])
        entry["reference"] = empty.path
        for (recorded, problem) in [
            (nil, "testBadge.a: its entry does not show the reference the test failed against beside it: it names none"),
            (entry["recordedReference"], "\(empty.path): changed since this failure"),
        ] {
            entry["recordedReference"] = recorded
            try JSONSerialization.data(withJSONObject: entry).write(to: entryPath)
            let run = try review("artifacts", "--accept-all")
            XCTAssertEqual(run.status, 2, run.stdout)
            XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: \(problem)"), run.stderr)
            XCTAssertEqual(try Data(contentsOf: empty), Data())
        }
        try Data().write(to: artifacts.appendingPathComponent("testBadge.a.reference.png"))
        let shown = try review("artifacts", "--accept-all")
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(try Data(contentsOf: empty), try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/fail.png")))
    }

    /// A temporary file a killed accept left in a snapshot folder is removed by the next accept
    /// there; one of a writer still running is kept.
    func testAcceptingRemovesAKilledRunsTemporaryFiles() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        try writeSnapshotFailure(artifacts: work.appendingPathComponent("artifacts/SceneTests"), snapshots: snapshots, name: "a")
        let abandoned = snapshots.appendingPathComponent(".imgdiff-tmp-2147483646-1f2e")
        let running = snapshots.appendingPathComponent(".imgdiff-tmp-\(getpid())-1f2e")
        for file in [abandoned, running] { try Data("half a png".utf8).write(to: file) }
        let run = try review("artifacts", "--accept-all")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: running.path))
    }

    func testSnapshotEntriesAcceptedAndRejected() throws {
        let artifacts = work.appendingPathComponent("artifacts/SceneTests")
        let snapshots = work.appendingPathComponent("__Snapshots__/SceneTests")
        let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
        for name in ["a", "b"] { try writeSnapshotFailure(artifacts: artifacts, snapshots: snapshots, name: name) }
        let asked = try review("artifacts", "--interactive", input: "a\nr\n")
        XCTAssertEqual(asked.status, 0, asked.stdout + asked.stderr)
        XCTAssertEqual(
            try Data(contentsOf: snapshots.appendingPathComponent("testBadge.a.png")),
            try Data(contentsOf: login.appendingPathComponent("fail.png")), "accepted")
        XCTAssertEqual(
            try Data(contentsOf: snapshots.appendingPathComponent("testBadge.b.png")),
            try Data(contentsOf: login.appendingPathComponent("ref.png")), "rejected: the reference stays")
        XCTAssertEqual(try review("artifacts").status, 0, "both decided: nothing left")

        try JSONSerialization.data(withJSONObject: ["test": "t", "failure": "/no/such.png", "summary": "s"])
            .write(to: artifacts.appendingPathComponent("t.1.imgdiff.json"))
        let unknown = try review("artifacts", "--accept-all")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("the reference is unknown"), unknown.stderr)
        XCTAssertEqual(try review("/no/such/folder").status, 2)
    }

    /// The artifacts of one failure of a test with twin references (`a` and `b` hold the same
    /// pixels): the entry as the adapter writes it, named after the first twin, and
    /// swift-snapshot-testing's own failure file named after the snapshot that failed.
    func writeTwinFailure(failed: String, claimed: String) throws -> (artifacts: URL, snapshots: URL) {
        let artifacts = work.appendingPathComponent("artifacts/TwinTests")
        let snapshots = work.appendingPathComponent("__Snapshots__/TwinTests")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
        for name in ["a", "b"] {
            try FileManager.default.copyItem(at: login.appendingPathComponent("ref.png"), to: snapshots.appendingPathComponent("testTwins.\(name).png"))
        }
        try FileManager.default.copyItem(at: login.appendingPathComponent("fail.png"), to: artifacts.appendingPathComponent("testTwins.\(claimed).failure.png"))
        try FileManager.default.copyItem(at: login.appendingPathComponent("ref.png"), to: artifacts.appendingPathComponent("testTwins.\(claimed).reference.png"))
        try FileManager.default.copyItem(at: login.appendingPathComponent("fail.png"), to: artifacts.appendingPathComponent("testTwins.\(failed).png"))
        let entry: [String: Any] = [
            "test": "testTwins", "reference": snapshots.appendingPathComponent("testTwins.\(claimed).png").path,
            "failure": artifacts.appendingPathComponent("testTwins.\(claimed).failure.png").path, "summary": "3096 of 64000 pixels differ",
            "recordedReference": artifacts.appendingPathComponent("testTwins.\(claimed).reference.png").path,
            "twins": ["a", "b"].map { snapshots.appendingPathComponent("testTwins.\($0).png").path },
        ]
        try JSONSerialization.data(withJSONObject: entry).write(to: artifacts.appendingPathComponent("testTwins.\(claimed).imgdiff.json"))
        return (artifacts, snapshots)
    }

    /// Only `b` failed, though the adapter named the failure after `a`: swift-snapshot-testing's
    /// failure file says which, and the good reference `a` is never replaced.
    func testTheTwinThatFailedIsTheOneAccepted() throws {
        let (_, snapshots) = try writeTwinFailure(failed: "b", claimed: "a")
        let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
        let run = try review("artifacts", "--accept-all")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stdout, "accepted: \(snapshots.appendingPathComponent("testTwins.b.png").path)\n")
        XCTAssertEqual(try Data(contentsOf: snapshots.appendingPathComponent("testTwins.a.png")), try Data(contentsOf: login.appendingPathComponent("ref.png")))
        XCTAssertEqual(try Data(contentsOf: snapshots.appendingPathComponent("testTwins.b.png")), try Data(contentsOf: login.appendingPathComponent("fail.png")))
    }

    /// swift-snapshot-testing never removes a failure file: one of `a` from an earlier run,
    /// older than this failure's artifacts, says nothing of this run.
    func testAnEarlierRunsFailureFileDoesNotNameTheTwin() throws {
        let (artifacts, snapshots) = try writeTwinFailure(failed: "b", claimed: "a")
        let stale = artifacts.appendingPathComponent("testTwins.a.png")
        try FileManager.default.copyItem(at: artifacts.appendingPathComponent("testTwins.b.png"), to: stale)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale.path)
        let run = try review("artifacts", "--accept-all")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stdout, "accepted: \(snapshots.appendingPathComponent("testTwins.b.png").path)\n")
    }

    /// Without swift-snapshot-testing's failure file, which twin failed is unknown: the entry is
    /// listed but not accepted.
    func testATwinFailureNoFileNamesIsNotAccepted() throws {
        let (artifacts, snapshots) = try writeTwinFailure(failed: "b", claimed: "a")
        try FileManager.default.removeItem(at: artifacts.appendingPathComponent("testTwins.b.png"))
        let before = try Data(contentsOf: snapshots.appendingPathComponent("testTwins.a.png"))
        let run = try review("artifacts", "--accept-all")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("twin(s) with the same pixels (testTwins.a.png, testTwins.b.png)"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: snapshots.appendingPathComponent("testTwins.a.png")), before)
    }

    /// An entry is input: it replaces only the reference the test failed against, where it is.
    /// A reference recorded again since, one that is not here, or one that is not a file is
    /// refused, and nothing is written.
    func testOnlyTheReferenceTheTestFailedAgainstIsReplaced() throws {
        let (artifacts, snapshots) = try writeTwinFailure(failed: "a", claimed: "a")
        let reference = snapshots.appendingPathComponent("testTwins.a.png")
        let recordedAgain = SharedData.packageRoot.appendingPathComponent("Fixtures/batch/ref/home.png")
        try FileManager.default.removeItem(at: reference)
        try FileManager.default.copyItem(at: recordedAgain, to: reference)
        let problem = "\(reference.path): changed since this failure (recorded again, or accepted); run the test again"
        let listed = try review("artifacts", "--list")
        XCTAssertTrue(listed.stdout.hasSuffix("; not accepted here: \(problem)\n"), "listed as accepting finds it: \(listed.stdout)")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try review("artifacts", "--json").stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["refusal"] as? String }, [problem])
        let changed = try review("artifacts", "--accept-all")
        XCTAssertEqual(changed.status, 2)
        XCTAssertEqual(changed.stderr, "imgdiff: error: \(problem)\n")
        XCTAssertEqual(try Data(contentsOf: reference), try Data(contentsOf: recordedAgain))

        let entryPath = artifacts.appendingPathComponent("testTwins.a.imgdiff.json")
        var entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: entryPath)) as? [String: Any])
        entry["twins"] = nil
        let victim = work.appendingPathComponent("notes.txt"), elsewhere = work.appendingPathComponent("new/folder/x.png")
        try Data("my notes".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("link.png"), withDestinationURL: victim)
        for (target, problem) in [
            (victim.path, "not a recognised image"), (elsewhere.path, "no such reference here"),
            (work.appendingPathComponent("link.png").path, "not a regular file"),
            ("/etc/hostname", "lies outside the current folder"),
        ] {
            entry["reference"] = target
            try JSONSerialization.data(withJSONObject: entry).write(to: entryPath)
            let run = try review("artifacts", "--accept-all")
            XCTAssertEqual(run.status, 2, target)
            XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: \(target): \(problem)"), run.stderr)
        }
        // The reference as the test read it must lie beside the entry: not be missing, nor be
        // the target itself (which would show any image as unchanged).
        let photo = snapshots.appendingPathComponent("testTwins.b.png").path
        entry["reference"] = photo
        for recorded in [nil, photo] {
            entry["recordedReference"] = recorded
            try JSONSerialization.data(withJSONObject: entry).write(to: entryPath)
            let run = try review("artifacts", "--accept-all")
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.contains("its entry does not show the reference the test failed against beside it"), run.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: photo)), try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/login/ref.png")))
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "my notes")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("new").path))
    }
}
