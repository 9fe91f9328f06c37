import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// `imgdiff batch` on Fixtures/batch: ref/ and new/ hold changed (login.png,
/// settings/account.png), identical (home.png, settings/theme.png), new
/// (onboarding/welcome.png) and deleted (legacy/about.png) snapshots.
final class BatchTests: XCTestCase {
    var work: URL!
    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/batch")
    var reference: String { fixtures.appendingPathComponent("ref").path }
    var new: String { fixtures.appendingPathComponent("new").path }
    var out: String { work.appendingPathComponent("report").path }

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testFourListsJSONAndOutputs() throws {
        let run = try imgdiff("batch", reference, new, "--out", out)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "", "no progress line when stderr is not a terminal")
        let report = try json()
        XCTAssertEqual(report["changed"] as? [String], ["login.png", "settings/account.png"])
        XCTAssertEqual(report["passed"] as? [String], ["home.png", "settings/theme.png"])
        XCTAssertEqual(report["new"] as? [String], ["onboarding/welcome.png"])
        XCTAssertEqual(report["deleted"] as? [String], ["legacy/about.png"])
        XCTAssertEqual(report["errors"] as? [String], [])

        let pairs = try XCTUnwrap(report["pairs"] as? [[String: Any]])
        XCTAssertEqual(pairs.map { $0["path"] as? String }, [
            "login.png", "settings/account.png", "onboarding/welcome.png", "legacy/about.png", "home.png",
            "settings/theme.png",
        ], "failures first")
        for pair in pairs {
            let outputs = try XCTUnwrap(pair["outputs"] as? [String: String])
            for (kind, path) in outputs {
                let file = URL(fileURLWithPath: out).appendingPathComponent(path).path
                XCTAssertNoThrow(try ImageDecoder.decode(contentsOf: file), "\(pair["path"] ?? "") \(kind)")
            }
        }

        let login = try XCTUnwrap(pairs.first)
        XCTAssertEqual(login["status"] as? String, "changed")
        let metrics = try XCTUnwrap(login["metrics"] as? [String: Any])
        XCTAssertGreaterThan(metrics["differentPixels"] as? Int ?? 0, 0)
        XCTAssertEqual(metrics["totalPixels"] as? Int, 240 * 160)
        XCTAssertNotNil(metrics["maxDeltaE"] as? Double)
        XCTAssertNotNil(metrics["differentRatio"] as? Double)
        XCTAssertEqual(Set((metrics["boundingBox"] as? [String: Int])?.keys ?? [:].keys), ["minX", "minY", "maxX", "maxY"])
        let outputs = try XCTUnwrap(login["outputs"] as? [String: String])
        XCTAssertEqual(Set(outputs.keys), ["reference", "new", "blend", "mask"])

        let referenceImage = try ImageDecoder.decode(contentsOf: reference + "/login.png")
        let newImage = try ImageDecoder.decode(contentsOf: new + "/login.png")
        let blend = try ImageDecoder.decode(contentsOf: out + "/" + (outputs["blend"] ?? ""))
        XCTAssertEqual(blend.pixels, ImageMagickBlend.render(reference: referenceImage, failure: newImage).pixels)
        let mask = try ImageDecoder.decode(contentsOf: out + "/" + (outputs["mask"] ?? ""))
        XCTAssertEqual(stride(from: 3, to: mask.pixels.count, by: 4).filter { mask.pixels[$0] != 0 }.count,
                       metrics["differentPixels"] as? Int)

        let passed = try XCTUnwrap(pairs.first { $0["path"] as? String == "home.png" })
        XCTAssertEqual((passed["outputs"] as? [String: String])?.keys.sorted(), ["new", "reference"], "passed pairs link to the inputs")

        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("changed ") }.count, 2)
        XCTAssertTrue(lines.contains("new      onboarding/welcome.png"), run.stdout)
        XCTAssertTrue(lines.contains("deleted  legacy/about.png"), run.stdout)
        XCTAssertTrue(lines.last?.hasPrefix("6 pairs: 2 changed, 2 passed, 1 new, 1 deleted, 0 errors") ?? false, run.stdout)
    }

    func testJUnitReadsAsJUnit() throws {
        XCTAssertEqual(try imgdiff("batch", reference, new, "--out", out).status, 1)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: out + "/junit.xml"), options: [])
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        let suites = root.elements(forName: "testsuite")
        XCTAssertEqual(suites.count, 1)
        let suite = try XCTUnwrap(suites.first)
        XCTAssertEqual(suite.attribute(forName: "tests")?.stringValue, "6")
        XCTAssertEqual(suite.attribute(forName: "failures")?.stringValue, "4")
        XCTAssertEqual(suite.attribute(forName: "errors")?.stringValue, "0")
        XCTAssertNotNil(Double(suite.attribute(forName: "time")?.stringValue ?? ""))

        let cases = suite.elements(forName: "testcase")
        XCTAssertEqual(cases.count, 6)
        var failureTypes: [String: String] = [:]
        for testCase in cases {
            let name = try XCTUnwrap(testCase.attribute(forName: "name")?.stringValue)
            XCTAssertNotNil(testCase.attribute(forName: "classname")?.stringValue)
            XCTAssertNotNil(Double(testCase.attribute(forName: "time")?.stringValue ?? ""))
            if let failure = testCase.elements(forName: "failure").first {
                failureTypes[name] = failure.attribute(forName: "type")?.stringValue
                XCTAssertFalse(failure.attribute(forName: "message")?.stringValue?.isEmpty ?? true)
            }
        }
        XCTAssertEqual(failureTypes, [
            "login.png": "changed", "settings/account.png": "changed", "onboarding/welcome.png": "new",
            "legacy/about.png": "deleted",
        ])
        let account = try XCTUnwrap(cases.first { $0.attribute(forName: "name")?.stringValue == "settings/account.png" })
        XCTAssertEqual(account.attribute(forName: "classname")?.stringValue, "imgdiff.settings")
        XCTAssertTrue(account.elements(forName: "failure").first?.stringValue?.contains("pixels differ") ?? false)
    }

    func testIdenticalFoldersExitZero() throws {
        let copy = work.appendingPathComponent("copy").path
        try FileManager.default.copyItem(atPath: reference, toPath: copy)
        let run = try imgdiff("batch", reference, copy, "--out", out)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual((try json()["passed"] as? [String])?.count, 5)
    }

    func testComparisonOptionsApplyToEveryPair() throws {
        let loose = try imgdiff("batch", reference, new, "--out", out, "--metric", "channel", "--threshold", "255")
        XCTAssertEqual(loose.status, 1, "new and deleted pairs still fail")
        let report = try json()
        XCTAssertEqual(report["changed"] as? [String], [])
        XCTAssertEqual((report["passed"] as? [String])?.count, 4)
        let pairs = try XCTUnwrap(report["pairs"] as? [[String: Any]])
        let metrics = try XCTUnwrap(pairs.first { $0["path"] as? String == "login.png" }?["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["metric"] as? String, "channel")

        let snapshot = try imgdiff("batch", reference, new, "--out", out, "--precision", "0.9")
        XCTAssertEqual(snapshot.status, 1)
        let verdicts = try XCTUnwrap(try json()["pairs"] as? [[String: Any]])
        XCTAssertNotNil(verdicts.first { $0["path"] as? String == "login.png" }?["snapshot"] as? [String: Any])
    }

    func testBadPairIsReportedAndTheBatchGoesOn() throws {
        let copy = try copiedFixtures()
        let broken = copy.appendingPathComponent("new/home.png").path
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: broken))
        let run = try imgdiff("batch", copy.appendingPathComponent("ref").path, copy.appendingPathComponent("new").path, "--out", out)
        XCTAssertEqual(run.status, 2)
        let errorLines = run.stderr.split(separator: "\n")
        XCTAssertEqual(errorLines.count, 1, run.stderr)
        XCTAssertTrue(errorLines.first?.hasPrefix("imgdiff: error: \(broken): ") ?? false, run.stderr)
        let report = try json()
        XCTAssertEqual(report["errors"] as? [String], ["home.png"])
        XCTAssertEqual(report["changed"] as? [String], ["login.png", "settings/account.png"])
        XCTAssertEqual(report["passed"] as? [String], ["settings/theme.png"])
        let pairs = try XCTUnwrap(report["pairs"] as? [[String: Any]])
        XCTAssertEqual(pairs.first?["status"] as? String, "error")
        XCTAssertTrue((pairs.first?["error"] as? String)?.hasPrefix(broken + ": ") ?? false)
        XCTAssertTrue(run.stdout.contains("6 pairs: 2 changed, 1 passed, 1 new, 1 deleted, 1 error; "), run.stdout)

        let one = copy.appendingPathComponent("one")
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(at: one.appendingPathComponent(side), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: copy.appendingPathComponent("\(side)/settings/theme.png"), to: one.appendingPathComponent("\(side)/theme.png"))
        }
        let single = try imgdiff("batch", one.appendingPathComponent("ref").path, one.appendingPathComponent("new").path, "--out", out)
        XCTAssertTrue(single.stdout.hasPrefix("1 pair: 0 changed, 1 passed, 0 new, 0 deleted, 0 errors; "), single.stdout)
    }

    func testApproveCopiesChangedAndNewImages() throws {
        let copy = try copiedFixtures()
        let referenceFolder = copy.appendingPathComponent("ref").path, newFolder = copy.appendingPathComponent("new").path
        let run = try imgdiff("batch", referenceFolder, newFolder, "--out", out, "--approve")
        XCTAssertEqual(run.status, 1, "the deleted pair remains: \(run.stderr)")
        XCTAssertTrue(run.stdout.contains("approved: updated \(referenceFolder)/login.png"), run.stdout)
        XCTAssertTrue(run.stdout.contains("approved: updated \(referenceFolder)/settings/account.png"), run.stdout)
        XCTAssertTrue(run.stdout.contains("approved: added \(referenceFolder)/onboarding/welcome.png"), run.stdout)
        XCTAssertTrue(run.stdout.contains("not approved: legacy/about.png is deleted"), run.stdout)
        for path in ["login.png", "settings/account.png", "onboarding/welcome.png"] {
            XCTAssertEqual(FileManager.default.contents(atPath: "\(referenceFolder)/\(path)"),
                           FileManager.default.contents(atPath: "\(newFolder)/\(path)"), path)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(referenceFolder)/legacy/about.png"), "never removed")

        let again = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
        XCTAssertEqual(again.status, 1)
        let report = try json()
        XCTAssertEqual(report["changed"] as? [String], [])
        XCTAssertEqual(report["new"] as? [String], [])
        XCTAssertEqual(report["deleted"] as? [String], ["legacy/about.png"])
    }

    /// A new snapshot that is no image, or a broken one, is an error, not "new": it is neither
    /// reported as a snapshot to add nor approved into the references.
    /// A name that begins with a combining mark is a pair like any other: approved from its
    /// report's copy.
    func testNamesBeginningWithACombiningMarkAreApproved() throws {
        let copy = try copiedFixtures()
        let name = "\u{301}x.png"
        try FileManager.default.copyItem(atPath: new + "/login.png", toPath: copy.appendingPathComponent("new/" + name).path)
        let run = try imgdiff("batch", copy.appendingPathComponent("ref").path, copy.appendingPathComponent("new").path, "--out", out, "--approve")
        XCTAssertEqual(run.status, 1, "deleted pairs remain: " + run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(
            FileManager.default.contents(atPath: copy.appendingPathComponent("ref/" + name).path),
            FileManager.default.contents(atPath: new + "/login.png"))
    }

    func testNewFilesThatAreNoImagesAreErrorsAndNeverApproved() throws {
        let copy = try copiedFixtures()
        let referenceFolder = copy.appendingPathComponent("ref").path, newFolder = copy.appendingPathComponent("new").path
        let welcome = try XCTUnwrap(FileManager.default.contents(atPath: "\(newFolder)/onboarding/welcome.png"))
        try Data("not an image\n".utf8).write(to: URL(fileURLWithPath: "\(newFolder)/notes.png"))
        try welcome.prefix(welcome.count / 2).write(to: URL(fileURLWithPath: "\(newFolder)/cut.png"))
        // A header declaring 2³¹ − 1 × 2³¹ − 1 16-bit pixels: the memory it would take overflowed
        // Int while budgeting, before decoding refused it.
        var huge = [UInt8](welcome)
        huge.replaceSubrange(16..<25, with: [0x7F, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 16])
        try Data(huge).write(to: URL(fileURLWithPath: "\(newFolder)/huge.png"))
        let run = try imgdiff("batch", referenceFolder, newFolder, "--out", out, "--approve")
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("imgdiff: error: \(newFolder)/huge.png: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("imgdiff: error: \(newFolder)/notes.png: not a recognised image"), run.stderr)
        XCTAssertTrue(run.stderr.contains("imgdiff: error: \(newFolder)/cut.png: truncated or corrupt PNG"), run.stderr)
        XCTAssertTrue(run.stdout.contains("approved: added \(referenceFolder)/onboarding/welcome.png"), run.stdout)
        for name in ["notes.png", "cut.png", "huge.png"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(referenceFolder)/\(name)"), name)
        }
        XCTAssertEqual(try json()["new"] as? [String], ["onboarding/welcome.png"])
    }

    /// A deleted reference is decoded before it is copied into the report: a file named like an
    /// image that is none (here a link to the process's environment) is an error, and never
    /// published with the report.
    func testDeletedFilesThatAreNoImagesAreErrorsAndNotCopied() throws {
        let copy = try copiedFixtures()
        let referenceFolder = copy.appendingPathComponent("ref").path, newFolder = copy.appendingPathComponent("new").path
        try FileManager.default.createSymbolicLink(atPath: "\(referenceFolder)/env.png", withDestinationPath: "/proc/self/environ")
        try Data("secret notes\n".utf8).write(to: URL(fileURLWithPath: "\(referenceFolder)/notes.png"))
        let run = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("imgdiff: error: \(referenceFolder)/notes.png: not a recognised image"), run.stderr)
        XCTAssertTrue(run.stderr.contains("imgdiff: error: \(referenceFolder)/env.png: "), run.stderr)
        XCTAssertEqual(try json()["deleted"] as? [String], ["legacy/about.png"])
        for name in ["env.png", "notes.png"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(out)/pairs/\(name)"), name)
        }
    }

    /// An image in one folder whose name is a folder of images in the other is an error named
    /// once: the report gives every pair the folder `pairs/PATH/`, and the image's copy there
    /// would meet the other pair's folder (it failed on a path inside the staging folder).
    func testImageBesideAFolderOfTheSameNameIsAnError() throws {
        let copy = try copiedFixtures()
        let referenceFolder = copy.appendingPathComponent("ref").path, newFolder = copy.appendingPathComponent("new").path
        let login = try XCTUnwrap(FileManager.default.contents(atPath: "\(referenceFolder)/login.png"))
        try login.write(to: URL(fileURLWithPath: "\(referenceFolder)/card.png"))
        try FileManager.default.createDirectory(atPath: "\(newFolder)/card.png", withIntermediateDirectories: false)
        try login.write(to: URL(fileURLWithPath: "\(newFolder)/card.png/reference.png"))
        let run = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertEqual(
            run.stderr, "imgdiff: error: \(referenceFolder)/card.png is an image but \(newFolder)/card.png is a folder of images;"
                + " rename one, so that the report can hold both\n")
        let pairs = try XCTUnwrap(try json()["pairs"] as? [[String: Any]])
        let card = try XCTUnwrap(pairs.first { $0["path"] as? String == "card.png" })
        XCTAssertEqual(card["status"] as? String, "error")
        XCTAssertEqual(try json()["new"] as? [String], ["card.png/reference.png", "onboarding/welcome.png"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(out)/pairs/card.png/reference.png/new.png"))
    }

    /// A "<" or ">" that a combining or prepended mark joins into one `Character` is escaped
    /// all the same: no file or folder name can end the page's data or title early.
    func testNamesJoinedToMarksAreEscapedInThePage() throws {
        let copy = try copiedFixtures()
        let referenceFolder = copy.appendingPathComponent("ref").path
        let newFolder = copy.appendingPathComponent("new\u{600}</title x\u{600}>\u{600}<img src=x onerror=alert(1)//\u{600}>").path
        try FileManager.default.createDirectory(atPath: PathText.parent(of: newFolder), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: copy.appendingPathComponent("new").path, toPath: newFolder)
        let name = "\u{600}<!--\u{600}<script>\u{301}.png"
        for folder in [referenceFolder, newFolder] {
            try FileManager.default.copyItem(atPath: "\(folder)/home.png", toPath: "\(folder)/\(name)")
        }
        _ = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        let scalars = Array(page.unicodeScalars)
        let tags = scalars.indices.filter { scalars[$0] == "<" }.map { String(String.UnicodeScalarView(scalars[$0...].prefix(8))) }
        XCTAssertFalse(tags.contains { $0.hasPrefix("<!--") || $0.hasPrefix("<img") }, "\(tags)")
        XCTAssertEqual(tags.filter { $0.hasPrefix("</title") }.count, 1, "\(tags)")
        XCTAssertEqual(tags.filter { $0.hasPrefix("<script") }.count, 2, "the data block and the page's script: \(tags)")
    }

    func testReportFolderMayNotOverlapTheInputs() throws {
        let copy = try copiedFixtures()
        let inside = copy.appendingPathComponent("new/report").path
        let run = try imgdiff("batch", copy.appendingPathComponent("ref").path, copy.appendingPathComponent("new").path, "--out", inside)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: \(inside): the report folder may not overlap"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inside))
    }

    /// A link inside a snapshot folder that leads to the report folder, or to the other snapshot
    /// folder, is refused as the folders themselves are: the report's images would be read back
    /// as snapshots (and the report nest deeper each run), or the images listed twice. A link
    /// that leads nowhere is skipped with a warning, not in silence.
    func testLinksToTheReportOrTheOtherFolderAreRefused() throws {
        let copy = try copiedFixtures()
        let referenceFolder = copy.appendingPathComponent("ref").path, newFolder = copy.appendingPathComponent("new").path
        let first = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
        XCTAssertEqual(first.status, 1, first.stderr)
        let report = "the report folder \(out), so the report's images would be read as snapshots"
        let other = "\(newFolder), the other snapshot folder, so its images would be listed twice"
        // A link to a folder inside them is refused as a link to them, and to a file inside the
        // report: the report's pairs/ would be read back (and approved into the references),
        // the other folder's images listed as this one's.
        let links = [
            ("report", out, "to \(report)"), ("latest", newFolder, "to \(other)"),
            ("linked", "\(out)/pairs", "into \(report)"), ("latest-settings", "\(newFolder)/settings", "into \(other)"),
            ("old-blend.png", "\(out)/pairs/login.png/blend.png", "into \(report)"),
        ]
        for (name, target, leads) in links {
            try FileManager.default.createSymbolicLink(atPath: "\(referenceFolder)/\(name)", withDestinationPath: target)
            let run = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
            XCTAssertEqual(run.status, 2, name)
            XCTAssertEqual(
                run.stderr, "imgdiff: error: \(referenceFolder)/\(name): leads \(leads); remove the link or give other folders\n")
            try FileManager.default.removeItem(atPath: "\(referenceFolder)/\(name)")
        }
        // One image of the other folder, linked, is that image compared: not refused.
        try FileManager.default.createSymbolicLink(atPath: "\(referenceFolder)/welcome.png", withDestinationPath: "\(newFolder)/onboarding/welcome.png")
        XCTAssertEqual(try imgdiff("batch", referenceFolder, newFolder, "--out", out).status, 1)
        try FileManager.default.removeItem(atPath: "\(referenceFolder)/welcome.png")
        try FileManager.default.createSymbolicLink(atPath: "\(newFolder)/missing", withDestinationPath: "\(copy.path)/not-checked-out")
        let dangling = try imgdiff("batch", referenceFolder, newFolder, "--out", out)
        XCTAssertEqual(dangling.status, 1, dangling.stderr)
        XCTAssertEqual(dangling.stderr, "imgdiff: warning: \(newFolder)/missing: a link that leads nowhere; skipped\n")
        XCTAssertEqual(try json()["new"] as? [String], ["onboarding/welcome.png"])
    }

    /// A pair the streamed route judges within --max-memory is judged, whatever pairs came
    /// before it: once many pairs differ, batch holds pairs whole for their blends only when
    /// that too fits the limit (it refused every later pair), so a suite, its shards and one
    /// `compare` per pair give the same verdicts.
    func testAPairThatStreamsWithinTheMemoryLimitIsJudgedAfterOthersDiffer() throws {
        let folders = ["ref", "new"].map { work.appendingPathComponent($0) }
        for folder in folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        var names: [String] = []
        for index in 0..<8 {
            var reference = RGBAImage(width: 400, height: 300, filledWith: RGBA(240, 240, 245))
            for x in 20..<380 { reference[x, 40 + index * 20] = RGBA(20, 20, 20) }
            var actual = reference
            if index.isMultiple(of: 2) {
                for y in 100..<140 { for x in 100..<200 { actual[x, y] = RGBA(30, 120, 250) } }
            } else {
                actual[5, 5] = RGBA(241, 240, 245)
            }
            let name = "pair-\(index).png"
            names.append(name)
            try Data(PNGEncoder.encode(reference)).write(to: folders[0].appendingPathComponent(name))
            try Data(PNGEncoder.encode(actual)).write(to: folders[1].appendingPathComponent(name))
        }
        // Each image fits 1 MiB, the pair compared whole (about 1.5 MiB) does not.
        let limit = ["--max-memory", "1Mi"]
        let run = try imgdiff(["batch", folders[0].path, folders[1].path, "--out", out, "--jobs", "1"] + limit)
        XCTAssertEqual(run.status, 1, run.stderr)
        let report = try json()
        XCTAssertEqual(report["errors"] as? [String], [])
        XCTAssertEqual(report["changed"] as? [String], names.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
        for name in names {
            let single = try imgdiff(["\(folders[0].path)/\(name)", "\(folders[1].path)/\(name)"] + limit)
            XCTAssertEqual(single.status, (report["changed"] as? [String] ?? []).contains(name) ? 1 : 0, name + single.stderr)
        }
    }

    func testMissingFolder() throws {
        let run = try imgdiff("batch", "/no/such/ref", new, "--out", out)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: /no/such/ref: no such directory\n")
    }

    func testProgressLineOnATerminal() throws {
        guard let script = ["/usr/bin/script", "/bin/script"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("util-linux `script` is needed to give imgdiff a terminal")
        }
        let command = [IMGDiffExecutable.url.path, "batch", reference, new, "--out", out, "--jobs", "2"]
            .map { "'\($0)'" }.joined(separator: " ")
        let run = try runProcess(URL(fileURLWithPath: script), ["-qec", command, "/dev/null"])
        XCTAssertEqual(run.status, 1, run.stdout)
        XCTAssertTrue(run.stdout.contains("6/6 pairs"), "progress line: \(run.stdout.debugDescription)")
        XCTAssertTrue(run.stdout.contains("\r\u{1B}[K"), "drawn in place")
    }

    func testHelpTeaches() throws {
        let run = try imgdiff("batch", "--help")
        XCTAssertEqual(run.status, 0)
        for expected in ["REF_DIR", "NEW_DIR", "--out", "--approve", "report.json", "junit.xml", "summary.md", "index.html", "Exit status", "--metric"] {
            XCTAssertTrue(run.stdout.contains(expected), "missing \(expected)")
        }
    }

    /// Batch and compare go through one pipeline: for every pair of the fixture suite, under
    /// each option set and job count, the same numbers, the same verdict, and blend and mask
    /// files of the same pixels. (Their bytes agree too, but not always under AddressSanitizer:
    /// there igzip has been seen to deflate the same filtered rows into another valid stream,
    /// about once in a thousand files.)
    func testBatchAgreesWithCompareOnEveryPair() throws {
        let optionSets: [[String]] = [
            [], ["--metric", "ciede2000", "--threshold", "1.5"], ["--antialiasing"], ["--metric", "channel", "--threshold", "3"],
            ["--precision", "0.99", "--perceptual-precision", "0.98"], ["--rounding", "im6", "--ignore", "0:0-20:20"],
        ]
        var comparedOutputs = 0
        for options in optionSets {
            for jobs in ["1", "2"] {
                try? FileManager.default.removeItem(atPath: out)
                _ = try imgdiff(["batch", reference, new, "--out", out, "--jobs", jobs] + options)
                let pairs = try XCTUnwrap(try json()["pairs"] as? [[String: Any]])
                for pair in pairs where ["changed", "passed"].contains(pair["status"] as? String) {
                    let path = try XCTUnwrap(pair["path"] as? String)
                    let label = "\(path) \(options) --jobs \(jobs)"
                    let blend = work.appendingPathComponent("blend.png").path, mask = work.appendingPathComponent("mask.png").path
                    let run = try imgdiff(
                        ["compare", reference + "/" + path, new + "/" + path, "-o", blend, "--mask", mask, "--json"] + options)
                    let single = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], label)
                    XCTAssertEqual(run.status == 0 ? "passed" : "changed", pair["status"] as? String, label)
                    let metrics = try XCTUnwrap(pair["metrics"] as? [String: Any], label)
                    XCTAssertEqual(Set(metrics.keys).subtracting(single.keys), [], label)
                    for (key, value) in metrics {
                        XCTAssertEqual(value as? NSObject, single[key] as? NSObject, "\(label): \(key)")
                    }
                    XCTAssertEqual(pair["snapshot"] as? NSObject ?? NSNull(), single["snapshot"] as? NSObject ?? NSNull(), label)
                    guard let outputs = pair["outputs"] as? [String: String], let batchBlend = outputs["blend"] else { continue }
                    try assertSamePixels(out + "/" + batchBlend, blend, label)
                    let batchMask = try XCTUnwrap(outputs["mask"], label)
                    try assertSamePixels(out + "/" + batchMask, mask, label)
                    comparedOutputs += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(comparedOutputs, 20, "changed pairs under every option set")
    }

    func testImagesBrowsersDoNotShowGetAPNGPreviewBesideTheirExactCopy() throws {
        let folders = ["ref", "new"].map { work.appendingPathComponent($0) }
        for folder in folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        var reference = RGBAImage(width: 40, height: 30, filledWith: RGBA(240, 240, 245), hasAlpha: false)
        for x in 5..<35 { reference[x, 10] = RGBA(20, 20, 20) }
        var actual = reference
        for y in 12..<20 { for x in 8..<20 { actual[x, y] = RGBA(30, 120, 250) } }
        /// A binary PPM (P6) of `image`'s colours, the file a render pipeline writes without a codec.
        func ppm(_ image: RGBAImage) -> Data {
            var bytes = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
            for index in 0..<image.pixelCount { bytes += image.pixels[(index * 4)..<(index * 4 + 3)] }
            return Data(bytes)
        }
        try ppm(reference).write(to: folders[0].appendingPathComponent("changed.ppm"))
        try ppm(actual).write(to: folders[1].appendingPathComponent("changed.ppm"))
        try ppm(actual).write(to: folders[1].appendingPathComponent("added.ppm"))
        for folder in folders { try ppm(reference).write(to: folder.appendingPathComponent("same.ppm")) }
        try Data(PNGEncoder.encode(reference)).write(to: folders[0].appendingPathComponent("changed.png"))
        try Data(PNGEncoder.encode(actual)).write(to: folders[1].appendingPathComponent("changed.png"))

        let run = try imgdiff("batch", folders[0].path, folders[1].path, "--out", out)
        XCTAssertEqual(run.status, 1, run.stderr)
        let pairs = try XCTUnwrap(try json()["pairs"] as? [[String: Any]])
        func outputs(_ path: String) throws -> [String: String] {
            try XCTUnwrap(pairs.first { $0["path"] as? String == path }?["outputs"] as? [String: String], path)
        }
        let changed = try outputs("changed.ppm")
        XCTAssertEqual(Set(changed.keys), ["reference", "new", "blend", "mask", "referencePreview", "newPreview"])
        for (side, folder, image) in [("reference", folders[0], reference), ("new", folders[1], actual)] {
            let copy = try XCTUnwrap(changed[side])
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/" + copy)),
                           try Data(contentsOf: folder.appendingPathComponent("changed.ppm")), "the copy is the input's bytes")
            let preview = try XCTUnwrap(changed[side + "Preview"])
            XCTAssertEqual(preview, "pairs/changed.ppm/\(side)-preview.png")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/" + preview)))
            XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "\(side): a PNG")
            let shown = try ImageDecoder.decode(bytes, name: preview)
            XCTAssertEqual(shown.pixels, image.pixels, "\(side): the preview holds the input's pixels")
        }
        XCTAssertEqual(Set(try outputs("added.ppm").keys), ["new", "newPreview"])
        XCTAssertEqual(Set(try outputs("same.ppm").keys), ["reference", "new"], "a passed pair links to its inputs")
        XCTAssertEqual(Set(try outputs("changed.png").keys), ["reference", "new", "blend", "mask"], "browsers show PNG")

        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("\"newPreview\"") && page.contains("new-preview.png"), "the page carries the previews")

        // A second run replaces the report: the previews are files the report lists, not strays.
        let again = try imgdiff("batch", folders[0].path, folders[1].path, "--out", out)
        XCTAssertEqual(again.status, 1, again.stderr)

        // Sharded and merged, the previews move with their pairs.
        var parts: [String] = []
        for index in 1...2 {
            let part = work.appendingPathComponent("part-\(index)").path
            let run = try imgdiff("batch", folders[0].path, folders[1].path, "--out", part, "--shard", "\(index)/2")
            XCTAssertTrue([0, 1].contains(run.status), run.stderr)
            parts.append(part)
        }
        try FileManager.default.removeItem(atPath: out)
        let merged = try imgdiff(["merge-reports"] + parts + ["--out", out])
        XCTAssertEqual(merged.status, 1, merged.stderr)
        let mergedPairs = try XCTUnwrap(try json()["pairs"] as? [[String: Any]])
        let mergedChanged = try XCTUnwrap(mergedPairs.first { $0["path"] as? String == "changed.ppm" }?["outputs"] as? [String: String])
        for side in ["referencePreview", "newPreview"] {
            let preview = try XCTUnwrap(mergedChanged[side], side)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/" + preview)),
                           try Data(contentsOf: URL(fileURLWithPath: parts.first { FileManager.default.fileExists(atPath: $0 + "/" + preview) } .map { $0 + "/" + preview } ?? "/nonexistent")),
                           side)
        }
    }

    // MARK: Helpers

    /// The two PNG files hold the same image: size, alpha and every sample.
    func assertSamePixels(_ first: String, _ second: String, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (a, b) = (try ImageDecoder.decode(contentsOf: first), try ImageDecoder.decode(contentsOf: second))
        XCTAssertTrue(
            a.width == b.width && a.height == b.height && a.hasAlpha == b.hasAlpha && a.pixels == b.pixels,
            "\(label): \(first) and \(second) hold other pixels", file: file, line: line)
    }

    func json() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func copiedFixtures() throws -> URL {
        let copy = work.appendingPathComponent("fixtures")
        try FileManager.default.copyItem(at: fixtures, to: copy)
        return copy
    }
}
