import Foundation
import TestSupport
import XCTest

/// No silent green: every way a folder or a name once made `batch` or `compare` pass pairs it
/// never compared.
final class FalsePassTests: ReliabilityTestCase {
    func testSymlinkedFoldersAreListed() throws {
        try makeSuite()
        try FileManager.default.createSymbolicLink(atPath: path("ref-link"), withDestinationPath: path("ref"))
        try FileManager.default.createSymbolicLink(atPath: path("new-link"), withDestinationPath: path("new"))
        let run = try imgdiff("batch", path("ref-link"), path("new-link"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        let json = try report(path("out"))
        XCTAssertEqual(paths(json, "changed"), ["changed.png"])
        XCTAssertEqual(paths(json, "passed"), ["same.png"])
    }

    func testTrailingSlashAndDotAreTheSameFolder() throws {
        try makeSuite()
        for (reference, new) in [(path("ref") + "/", path("new") + "/."), (path("ref") + "/.", path("new") + "//")] {
            let run = try imgdiff("batch", reference, new, "--out", path("out"))
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(paths(try report(path("out")), "changed"), ["changed.png"], "\(reference) \(new)")
        }
    }

    /// With only REF a link, nothing is "new", so --approve writes only the changed pair.
    func testApproveThroughASymlinkedReferenceFolderWritesOnlyTheChange() throws {
        try makeSuite()
        try FileManager.default.createSymbolicLink(atPath: path("ref-link"), withDestinationPath: path("ref"))
        let run = try imgdiff("batch", path("ref-link"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("approved:") }.count, 1, run.stdout)
        XCTAssertTrue(run.stdout.contains("approved: updated \(path("ref-link"))/changed.png"), run.stdout)
    }

    func testTuneReadsSymlinkedFolders() throws {
        try place("noise/ref/a.png", same)
        try place("noise/new/a.png", same)
        try FileManager.default.createSymbolicLink(atPath: path("noise-link"), withDestinationPath: path("noise"))
        let run = try imgdiff("tune", path("noise-link"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Noise pairs (must pass): 1"), run.stdout)
    }

    func testSymlinkedSubfoldersAreListed() throws {
        try makeSuite("elsewhere/ref", "elsewhere/new")
        try FileManager.default.createDirectory(atPath: path("ref"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("new"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("ref/screens"), withDestinationPath: path("elsewhere/ref"))
        try FileManager.default.createSymbolicLink(atPath: path("new/screens"), withDestinationPath: path("elsewhere/new"))
        try FileManager.default.createSymbolicLink(atPath: path("elsewhere/ref/loop"), withDestinationPath: path("ref"))
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(paths(try report(path("out")), "changed"), ["screens/changed.png"], "and the loop is not followed again")
    }

    func testNonUTF8NameStopsTheBatchByName() throws {
        try makeSuite()
        try placeRaw(name: Array("bad".utf8) + [0xFF] + Array(".png".utf8), in: path("ref"), same)
        try placeRaw(name: Array("bad".utf8) + [0xFF] + Array(".png".utf8), in: path("new"), changed)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: \(path("ref"))/bad\\xFF.png: the name is not valid UTF-8, and imgdiff cannot report it; rename it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out")), "no report for a batch that could not list its files")
    }

    func testNonUTF8ArgumentIsRefused() throws {
        try place("a.png", same)
        let run = try imgdiffShell(#"exec "$0" a.png "$(printf 'b\377.png')" -o "$(printf 'out\377.png')""#)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: b\\xFF.png: the argument is not valid UTF-8; imgdiff takes UTF-8 paths only\n")
        XCTAssertEqual(entries(work.path), ["a.png"], "nothing written under another name")
    }

    /// `-shot.png` parsed as short flags held `-h`: help, exit 0.
    func testFileNameStartingWithDashIsRefusedNotParsed() throws {
        try place("-shot.png", same)
        try place("new/-shot.png", changed)
        let run = try runProcess(IMGDiffExecutable.url, ["-shot.png", "new/-shot.png"], currentDirectory: work)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("-shot.png: a file name that starts with '-' reads as options"), run.stderr)
        let separated = try runProcess(IMGDiffExecutable.url, ["--", "-shot.png", "new/-shot.png"], currentDirectory: work)
        XCTAssertEqual(separated.status, 1, "after --, the names compare: " + separated.stderr)
        // A name starting with a digit is a name too; a negative value is left to its option.
        for name in ["-1.png", "-1/x.png"] {
            let run = try runProcess(IMGDiffExecutable.url, [name, "new/-shot.png"], currentDirectory: work)
            XCTAssertTrue(run.stderr.contains("\(name): a file name that starts with '-' reads as options"), run.stderr)
        }
        let shard = try runProcess(IMGDiffExecutable.url, ["batch", "new", "new", "--shard", "-1/2"], currentDirectory: work)
        XCTAssertTrue(shard.stderr.contains("The value '-1/2' is invalid for '--shard"), shard.stderr)
    }

    /// In a subfolder too, a name starting with U+0301 (one `Character` with the slash before
    /// it) gets its pair folder, its copies and its links: paths split scalar by scalar.
    func testCombiningMarkNamesInAFolderAreWrittenAndLinked() throws {
        try place("ref/sub/\u{301}y.png", same)
        try place("new/sub/\u{301}y.png", changed)
        try place("ref/sub/\u{301}z.png", same)
        try place("new/sub/\u{301}z.png", same)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        let json = try report(path("out"))
        XCTAssertEqual(paths(json, "changed").map { Array($0.utf8) }, [Array("sub/\u{301}y.png".utf8)])
        XCTAssertEqual(paths(json, "passed").map { Array($0.utf8) }, [Array("sub/\u{301}z.png".utf8)])
        let pairs = try XCTUnwrap(json["pairs"] as? [[String: Any]])
        let outputs = pairs.flatMap { ($0["outputs"] as? [String: String] ?? [:]).values }
        XCTAssertEqual(outputs.count, 6, "blend, mask and both copies of the change; both links of the pass")
        for relative in outputs {
            XCTAssertNotNil(contents(path("out") + "/" + relative), relative)
        }
    }

    /// `compare -o DIR/NAME` for a NAME starting with U+0301 writes its temporary file in DIR:
    /// split by `Character`, the path's last slash was the one before DIR, and with DIR a link
    /// to another file system the rename into place failed.
    func testCombiningMarkOutputIsWrittenThroughALinkToAnotherFileSystem() throws {
        var workStatus = stat(), shmStatus = stat()
        try XCTSkipUnless(
            stat(work.path, &workStatus) == 0 && stat("/dev/shm", &shmStatus) == 0 && workStatus.st_dev != shmStatus.st_dev,
            "needs /dev/shm on another file system than the test folder")
        let elsewhere = "/dev/shm/imgdiff-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        try FileManager.default.createSymbolicLink(atPath: path("out"), withDestinationPath: elsewhere)
        let reference = try place("ref/a.png", same), actual = try place("new/a.png", changed)
        let output = path("out") + "/\u{301}blend.png"
        let run = try imgdiff(reference, actual, "-o", output)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertNotNil(contents(output))
    }

    /// A name starting with U+0301 lost its first character and paired with `x.png`.
    func testNameStartingWithACombiningMarkKeepsIt() throws {
        try place("ref/\u{301}x.png", same)
        try place("new/\u{301}x.png", changed)
        try place("ref/x.png", same)
        try place("new/x.png", same)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        let json = try report(path("out"))
        XCTAssertEqual(paths(json, "changed").map { Array($0.utf8) }, [Array("\u{301}x.png".utf8)])
        XCTAssertEqual(paths(json, "passed"), ["x.png"])
    }

    /// `résumé.png` composed and decomposed are two files, so two pairs, and approve keeps both.
    func testCanonicallyEquivalentNamesAreTwoPairs() throws {
        let composed = "r\u{E9}sum\u{E9}.png", decomposed = "re\u{301}sume\u{301}.png"
        try place("ref/" + composed, same)
        try place("new/" + composed, changed)
        try place("ref/" + decomposed, changed)
        try place("new/" + decomposed, same)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual((try report(path("out"))["summary"] as? [String: Any])?["changed"] as? Int, 2)
        let names = entries(path("ref")).map { Array($0.utf8) }
        XCTAssertEqual(Set(names), [Array(composed.utf8), Array(decomposed.utf8)])
        XCTAssertEqual(contents(path("ref/" + composed)), contents(changed.path))
        XCTAssertEqual(contents(path("ref/" + decomposed)), contents(same.path))
    }

    func testUnreadableSubfolderStopsTheBatch() throws {
        try makeSuite()
        try place("ref/locked/a.png", same)
        try place("new/locked/a.png", changed)
        for folder in [work.path, path("ref"), path("new")] {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path("new/locked"))
        let run = try imgdiffUnprivileged(["batch", path("ref"), path("new"), "--out", path("out")])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: \(path("new"))/locked: cannot read the folder (permission denied)\n")
    }

    /// A dangling link or a FIFO with an image name is listed, and its pair errors by name.
    func testImageNamedEntryThatIsNotAFileErrors() throws {
        try makeSuite()
        try FileManager.default.createSymbolicLink(atPath: path("ref/gone.png"), withDestinationPath: path("nowhere.png"))
        try place("new/gone.png", same)
        XCTAssertEqual(mkfifo(path("ref/pipe.png"), 0o600), 0)
        try place("new/pipe.png", same)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(paths(try report(path("out")), "errors"), ["gone.png", "pipe.png"])
        XCTAssertTrue(run.stderr.contains("\(path("ref"))/pipe.png: not a regular file (a FIFO)"), run.stderr)
    }

    func testSameFolderTwiceIsRefused() throws {
        try makeSuite()
        try FileManager.default.createSymbolicLink(atPath: path("ref-link"), withDestinationPath: path("ref"))
        for other in [path("ref"), path("ref-link"), path("ref") + "/."] {
            let run = try imgdiff("batch", path("ref"), other, "--out", path("out"))
            XCTAssertEqual(run.status, 2, other)
            XCTAssertTrue(run.stderr.contains("are the same folder"), run.stderr)
        }
    }

    func testEmptyFoldersAreRefused() throws {
        try FileManager.default.createDirectory(atPath: path("ref"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("new"), withIntermediateDirectories: true)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: no images in \(path("ref")) or \(path("new")); nothing to compare\n")
    }

    func testNestedFoldersAreRefused() throws {
        try makeSuite("new/ref", "new")
        let run = try imgdiff("batch", path("new/ref"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(path("new/ref")) lies inside \(path("new"))"), run.stderr)
        XCTAssertEqual(entries(path("new/ref")), ["changed.png", "same.png"], "nothing approved into the nest")
    }

    func testTuneFlagsANoisePairThatAloneSetsTheTolerance() throws {
        for name in ["a.png", "b.png"] {
            try place("noise/ref/\(name)", same)
            try place("noise/new/\(name)", same)
        }
        let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/tune")
        try place("noise/ref/jitter.png", fixtures.appendingPathComponent("noise/ref/jitter-1.png"))
        try place("noise/new/jitter.png", fixtures.appendingPathComponent("noise/new/jitter-1.png"))
        try place("noise/ref/text.png", fixtures.appendingPathComponent("changes/ref/changed-text.png"))
        try place("noise/new/text.png", fixtures.appendingPathComponent("changes/new/changed-text.png"))
        let run = try imgdiff("tune", path("noise"))
        XCTAssertTrue(run.stderr.contains("imgdiff: warning: text.png alone sets the"), run.stderr)
        XCTAssertTrue(run.stderr.contains("over 3x the next noise pair's"), run.stderr)
    }

    /// `--safety-margin 1000%` over 36 levels of noise once advised `--threshold 396`.
    func testTuneNeverRecommendsAChannelThresholdPastTheLevels() throws {
        let noise = SharedData.packageRoot.appendingPathComponent("Fixtures/tune/noise").path
        let run = try imgdiff("tune", noise, "--safety-margin", "1000%", "--json")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let settings = try XCTUnwrap(json["settings"] as? [[String: Any]], run.stdout)
        let channel = try XCTUnwrap(settings.first { $0["mode"] as? String == "channel" })
        XCTAssertEqual(channel["threshold"] as? Double, 255)
    }
}
