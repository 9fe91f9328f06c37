import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// Outputs land only where they should: never through a link, onto a device, outside REF_DIR,
/// or as a report half old and half new; and a killed run's leftovers are cleaned up.
final class FileSafetyTests: ReliabilityTestCase {
    func testOutputOntoASymlinkIsRefusedAndTheLinkKept() throws {
        let target = try place("target.png", same)
        try FileManager.default.createSymbolicLink(atPath: path("link.png"), withDestinationPath: target)
        let run = try imgdiff(same.path, changed.path, "-o", path("link.png"))
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: \(path("link.png")): cannot write: is a symbolic link; imgdiff replaces regular files only\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.png")), target)
        XCTAssertEqual(contents(target), contents(same.path))
    }

    func testOutputOntoAFIFOOrDeviceIsRefused() throws {
        XCTAssertEqual(mkfifo(path("pipe.png"), 0o600), 0)
        var targets = [(path("pipe.png"), "a FIFO")]
        if getuid() == 0, mknod(path("null.png"), S_IFCHR | 0o666, (1 << 8) | 3) == 0 {
            targets.append((path("null.png"), "a character device"))
        }
        for (target, kind) in targets {
            let run = try imgdiff(same.path, changed.path, "-o", target)
            XCTAssertEqual(run.status, 2)
            XCTAssertEqual(run.stderr, "imgdiff: error: \(target): cannot write: is \(kind); imgdiff replaces regular files only\n")
            var status = stat()
            XCTAssertEqual(lstat(target, &status), 0)
            XCTAssertNotEqual(status.st_mode & S_IFMT, S_IFREG, "\(target) is still \(kind)")
        }
    }

    /// A replaced output keeps its permissions and owner: a private file stays private, a
    /// read-only one read-only (replaced only by whoever may write it, as with a shell's `>`).
    func testReplacedOutputsKeepTheirPermissionsAndOwner() throws {
        for mode: mode_t in [0o600, 0o640, 0o444] {
            let target = path("kept-\(String(mode, radix: 8)).png")
            try Data("old".utf8).write(to: URL(fileURLWithPath: target))
            XCTAssertEqual(chmod(target, mode), 0)
            if getuid() == 0 { XCTAssertEqual(chown(target, 65534, 65534), 0) }
            let run = try imgdiff(same.path, changed.path, "-o", target)
            var status = stat()
            XCTAssertEqual(stat(target, &status), 0)
            if getuid() != 0, mode & 0o200 == 0 {
                XCTAssertEqual(run.status, 2, "a read-only file is not replaced by its reader")
                XCTAssertEqual(run.stderr, "imgdiff: error: \(target): cannot write: permission denied\n")
                continue
            }
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertNotEqual(contents(target), Data("old".utf8))
            XCTAssertEqual(status.st_mode & 0o777, mode, target)
            if getuid() == 0 { XCTAssertEqual([status.st_uid, status.st_gid], [65534, 65534], target) }
        }
    }

    /// REF/screens links outside REF_DIR: approving a new image there would write outside.
    func testApproveNeverWritesThroughASymlinkedSubfolder() throws {
        try makeSuite()
        try FileManager.default.createDirectory(atPath: path("outside"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("ref/screens"), withDestinationPath: path("outside"))
        try place("new/screens/new.png", changed)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(path("ref"))/screens: is a symbolic link; imgdiff writes only inside \(path("ref"))'s own folders"), run.stderr)
        XCTAssertEqual(entries(path("outside")), [])
        XCTAssertEqual(contents(path("ref/changed.png")), contents(changed.path), "the other approval still happens")
    }

    func testApproveNeverReplacesASymlinkedReference() throws {
        try makeSuite()
        let outside = try place("outside.png", same)
        try FileManager.default.removeItem(atPath: path("ref/changed.png"))
        try FileManager.default.createSymbolicLink(atPath: path("ref/changed.png"), withDestinationPath: outside)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(path("ref"))/changed.png: cannot write: is a symbolic link"), run.stderr)
        XCTAssertEqual(contents(outside), contents(same.path))
    }

    func testApproveNamesTheRealReasonAFolderCannotBeMade() throws {
        try makeSuite()
        try place("ref/settings", same)
        try place("new/settings/account.png", changed)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(path("ref"))/settings: not a folder"), run.stderr)
    }

    /// A one-letter relative --out crashed Foundation's path handling (SIGILL); `r/.` and
    /// `./r/` name the same folder.
    func testShortAndDottedReportFolderNames() throws {
        try makeSuite()
        for out in ["r", "r/.", "./r/"] {
            let run = try runProcess(
                IMGDiffExecutable.url, ["batch", "ref", "new", "--out", out], currentDirectory: work)
            XCTAssertEqual(run.status, 1, "\(out): \(run.stderr)")
            XCTAssertEqual(entries(path("r")), ["index.html", "junit.xml", "pairs", "report.json", "summary.md"], out)
        }
        XCTAssertEqual(entries(work.path), ["new", "r", "ref"], "no staging folder left")
    }

    func testReportFolderThroughASymlinkMayNotLandInTheInputs() throws {
        try makeSuite()
        try FileManager.default.createSymbolicLink(atPath: path("ref-link"), withDestinationPath: path("ref"))
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("ref-link/report"))
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("the report folder may not overlap the input folder"), run.stderr)
        XCTAssertEqual(entries(path("ref")), ["changed.png", "same.png"])
    }

    /// kill -9 during --approve leaves `.imgdiff-tmp-PID-…`; the next run over the folder
    /// removes it. A live process's file stays.
    func testTemporaryFilesOfAKilledRunAreRemoved() throws {
        try makeSuite()
        let dead = try deadProcessID()
        let stale = ".imgdiff-tmp-\(dead)-1234abcd", live = ".imgdiff-tmp-\(getpid())-5678"
        for name in [stale, live] { try place("ref/\(name)", same) }
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(entries(path("ref")), [live, "changed.png", "same.png"])
    }

    /// A staging folder that is not locked yet, because its run is between making it and
    /// locking it, stays when its writer runs: here one named for this test's process, which
    /// runs. Another run that removed it made the first fail ("no such directory"), now and
    /// then, when several ran on one --out at once.
    func testAStagingFolderOfARunningWriterStaysBeforeItIsLocked() throws {
        try makeSuite()
        let staging = ImageFile.temporaryName()
        try FileManager.default.createDirectory(atPath: path(staging), withIntermediateDirectories: false)
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path(staging)), "removed while its writer runs")
        try FileManager.default.removeItem(atPath: path(staging))
    }

    /// An interrupted batch (Ctrl-C, `kill`, a CI job's timeout) ends by its signal, leaves the
    /// previous report whole, and removes the staging folder it was building.
    func testInterruptedRunLeavesNoStagingFolder() throws {
        for index in 0..<40 {
            try place("ref/p\(index).png", same)
            try place("new/p\(index).png", changed)
        }
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out"), "--jobs", "1").status, 1)
        let previous = contents(path("out/report.json"))
        /// Signals a batch once its staging folder's pairs/ holds `pairs` entries (1: early;
        /// 40: every pair written, the report files next).
        func interrupt(with signal: Int32, after pairs: Int) throws -> (Process, stderr: String) {
            let process = Process()
            process.executableURL = IMGDiffExecutable.url
            process.arguments = ["batch", path("ref"), path("new"), "--out", path("out"), "--jobs", "1"]
            let stderr = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            func written() -> Int {
                let staging = entries(work.path).filter { $0.hasPrefix(".imgdiff-tmp-") }
                return staging.map { entries(path("\($0)/pairs")).count }.max() ?? 0
            }
            while process.isRunning, Date() < deadline, written() < pairs { usleep(1_000) }
            if process.isRunning { kill(process.processIdentifier, signal) }
            let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process, message)
        }
        for signal in [SIGINT, SIGTERM] {
            let (process, stderr) = try interrupt(with: signal, after: 1)
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "ends by the signal")
            XCTAssertEqual(process.terminationStatus, signal)
            XCTAssertEqual(stderr, "", "no error about the folder it removed")
            XCTAssertEqual(entries(work.path), ["new", "out", "ref"], "no staging folder left")
            XCTAssertEqual(contents(path("out/report.json")), previous, "the previous report stays whole")
        }
        // At the end, while the report files are written: the run ends by the signal with the
        // previous report, or finishes first with the new one; never an error, never a leftover.
        for signal in [SIGINT, SIGTERM] {
            let (process, stderr) = try interrupt(with: signal, after: 40)
            if process.terminationReason == .uncaughtSignal {
                XCTAssertEqual(process.terminationStatus, signal)
            } else {
                XCTAssertEqual(process.terminationStatus, 1, "the whole run, finished")
            }
            XCTAssertEqual(stderr, "", "no error about the folder it removed")
            XCTAssertEqual(entries(work.path), ["new", "out", "ref"], "no staging folder left")
            XCTAssertNotNil(contents(path("out/report.json")), "a report, old or new, whole")
        }
    }

    /// A staging folder that a running process holds (here through a lock taken by
    /// util-linux `flock`, as a run in another container would hold it) is never removed, even
    /// when its name's process ID is nobody's here; an unheld one is.
    func testAHeldStagingFolderIsNeverRemoved() throws {
        guard let flock = ["/usr/bin/flock", "/bin/flock"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("util-linux `flock` is needed to hold a folder's lock")
        }
        try makeSuite()
        let dead = try deadProcessID()
        let held = path(".imgdiff-tmp-\(dead)_1-held"), free = path(".imgdiff-tmp-\(dead)_1-free")
        for folder in [held, free] { try FileManager.default.createDirectory(atPath: folder + "/pairs", withIntermediateDirectories: true) }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: flock)
        holder.arguments = [held, "sleep", "30"]
        try holder.run()
        defer { holder.terminate() }
        usleep(300_000)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: held), "held: a run elsewhere is writing it")
        XCTAssertFalse(FileManager.default.fileExists(atPath: free), "free: a killed run's")
    }

    /// A folder the run reads is never taken for a killed run's staging folder, whatever its
    /// name: a part named like one, merged beside the merged report, stays, as does a
    /// reference folder named so beside batch's report.
    func testAnInputNamedLikeAStagingFolderIsNeverRemoved() throws {
        try makeSuite()
        let dead = try deadProcessID()
        let part = path(".imgdiff-tmp-\(dead)_1-part"), references = path(".imgdiff-tmp-\(dead)_1-ref")
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", part).status, 1)
        let merged = try imgdiff("merge-reports", part, "--out", path("merged"))
        XCTAssertEqual(merged.status, 1, merged.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: part + "/report.json"))
        try FileManager.default.moveItem(atPath: path("ref"), toPath: references)
        XCTAssertEqual(try imgdiff("batch", references, path("new"), "--out", path("out")).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: references))
    }

    /// ext4 takes names of 255 bytes; the temporary name must not add to them.
    func testApproveWritesTheLongestNames() throws {
        let name = String(repeating: "n", count: 251) + ".png"
        try place("ref/\(name)", same)
        try place("new/\(name)", changed)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"), "--approve")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(contents(path("ref/\(name)")), contents(changed.path))
        XCTAssertEqual(entries(path("ref")), [name])
    }

    /// A new report replaces the old one whole; nothing of the old one or of staging remains.
    func testReportIsSwappedInWhole() throws {
        try makeSuite()
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/pairs/changed.png/blend.png")))
        try FileManager.default.copyItem(atPath: path("new/changed.png"), toPath: path("ref/changed.png.tmp"))
        try FileManager.default.removeItem(atPath: path("ref/changed.png"))
        try FileManager.default.moveItem(atPath: path("ref/changed.png.tmp"), toPath: path("ref/changed.png"))
        let dead = try deadProcessID()
        try FileManager.default.createDirectory(atPath: path(".imgdiff-tmp-\(dead)-abc/pairs"), withIntermediateDirectories: true)

        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(entries(path("out")), ["index.html", "junit.xml", "report.json", "summary.md"], "the old pairs/ went with the old report")
        XCTAssertEqual(entries(work.path), ["new", "out", "ref"], "no staging folder, and the killed run's is gone")
    }

    /// The report replaces its folder whole, so a folder holding anything else is refused.
    func testReportFolderHoldingOtherFilesIsRefused() throws {
        try makeSuite()
        try place("out/notes.txt", same)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(path("out")): holds notes.txt, which is not part of an imgdiff report"), run.stderr)
        XCTAssertEqual(entries(path("out")), ["notes.txt"])
    }

    /// A file put by hand into an earlier report's pairs/ folder is not part of that report
    /// (its report.json does not list it), and the swap would remove it: the run is refused,
    /// and the old report and the file stay.
    func testAFileAddedToAnOldReportsPairsIsRefused() throws {
        try makeSuite()
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 1)
        let note = Data("my notes on this change\n".utf8)
        try note.write(to: URL(fileURLWithPath: path("out/pairs/changed.png/notes.txt")))
        let before = try XCTUnwrap(contents(path("out/report.json")))
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderr,
            "imgdiff: error: \(path("out")): holds pairs/changed.png/notes.txt, which its report.json does not list, and the new report replaces the folder whole; choose another --out\n")
        XCTAssertEqual(contents(path("out/pairs/changed.png/notes.txt")), note)
        XCTAssertEqual(contents(path("out/report.json")), before)
        try FileManager.default.removeItem(atPath: path("out/pairs/changed.png/notes.txt"))
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 1, "the report's own files replace")
    }

    /// A file of a report's name is part of a report only beside a batch's report.json: a page
    /// of one's own called index.html, or a pairs/ folder, is never replaced.
    func testReportNamesWithoutAReportAreRefused() throws {
        try makeSuite()
        let page = Data("<html>mine</html>\n".utf8)
        try FileManager.default.createDirectory(atPath: path("out/pairs/mine"), withIntermediateDirectories: true)
        try page.write(to: URL(fileURLWithPath: path("out/index.html")))
        try page.write(to: URL(fileURLWithPath: path("out/pairs/mine/keep.txt")))
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderr,
            "imgdiff: error: \(path("out")): holds index.html but no imgdiff report.json, so it is not an imgdiff report, and the new report replaces the folder whole; choose another --out\n")
        XCTAssertEqual(contents(path("out/index.html")), page)
        XCTAssertEqual(contents(path("out/pairs/mine/keep.txt")), page)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path("out/report.json")))
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 2, "a report.json of another kind")
        XCTAssertEqual(contents(path("out/index.html")), page)
    }

    /// A batch that fails after comparing (here: a report folder in the way of the swap, made
    /// a file) leaves the earlier report as it was.
    func testFailedRunLeavesThePreviousReport() throws {
        try makeSuite()
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 1)
        let before = try XCTUnwrap(contents(path("out/report.json")))
        try placeRaw(name: Array("bad".utf8) + [0xFE] + Array(".png".utf8), in: path("new"), same)
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 2)
        XCTAssertEqual(contents(path("out/report.json")), before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/pairs/changed.png/blend.png")))
    }

    /// Two runs on one --out at once: both finish, and the report is one run's, whole.
    func testConcurrentRunsOnOneReportFolder() throws {
        try makeSuite()
        let runs = try (0..<4).map { _ in
            let process = Process()
            process.executableURL = IMGDiffExecutable.url
            process.arguments = ["batch", path("ref"), path("new"), "--out", path("out")]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let statuses = runs.map { process in
            process.waitUntilExit()
            return process.terminationStatus
        }
        XCTAssertEqual(statuses, [1, 1, 1, 1])
        XCTAssertEqual(paths(try report(path("out")), "changed"), ["changed.png"])
        XCTAssertEqual(entries(path("out")), ["index.html", "junit.xml", "pairs", "report.json", "summary.md"])
        XCTAssertEqual(entries(work.path), ["new", "out", "ref"])
    }

    /// Escape sequences, carriage returns and newlines in names reach the terminal escaped.
    func testControlCharactersInNamesAreEscapedOnTheTerminal() throws {
        let name = "red\u{1B}[31mtext\rline\nnext.png"
        try place("ref/\(name)", same)
        try place("new/\(name)", changed)
        let run = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertFalse(run.stdout.contains("\u{1B}") || run.stdout.contains("\r"), run.stdout)
        XCTAssertTrue(run.stdout.contains("red\\e[31mtext\\rline\\nnext.png"), run.stdout)
        XCTAssertEqual(paths(try report(path("out")), "changed"), [name], "the JSON keeps the real name")
        let junit = try String(contentsOfFile: path("out/junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("name=\"red\\u{1B}[31mtext&#13;line&#10;next.png\""), junit)

        // A name that spells the escape is another name in JUnit too.
        let spelled = "red\\u{1B}[31m.png"
        try place("ref/\(spelled)", same)
        try place("new/\(spelled)", same)
        _ = try imgdiff("batch", path("ref"), path("new"), "--out", path("out"))
        let both = try String(contentsOfFile: path("out/junit.xml"), encoding: .utf8)
        XCTAssertTrue(both.contains("name=\"red\\\\u{1B}[31m.png\""), both)
    }

    /// A file name cannot end the page's script element early.
    func testNamesCannotBreakOutOfTheReportPage() throws {
        let name = "x<!--<script>alert(1)<"
        try place("ref/\(name)/a.png", same)
        try place("new/\(name)/a.png", changed)
        XCTAssertEqual(try imgdiff("batch", path("ref"), path("new"), "--out", path("out")).status, 1)
        let html = try String(contentsOfFile: path("out/index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("<script>alert"), "'<' in names is escaped inside the embedded JSON")
        XCTAssertTrue(html.contains("\\u003cscript>alert(1)"))
    }
}
