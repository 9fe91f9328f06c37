import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// Hostile and broken inputs end to end: for each, exit status 2, nothing on stdout, exactly
/// `imgdiff: error: FILE: problem` on stderr (the library's error for that file), no output or
/// temporary file left behind, and the inputs untouched. The inputs are in Fixtures/hostile.
final class HostileInputTests: XCTestCase {
    var work: URL!
    var inputs: URL { work.appendingPathComponent("inputs") }
    var outputs: URL { work.appendingPathComponent("outputs") }
    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures")

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// A copy of a fixture in the work directory, so that any change to it would be seen.
    func input(_ name: String, from folder: String = "hostile") throws -> String {
        let copy = inputs.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("\(folder)/\(name)"), to: copy)
        }
        return copy.path
    }

    func output(_ name: String) -> String { outputs.appendingPathComponent(name).path }

    /// Every file under `directory` with its bytes and modification time.
    func snapshot(_ directory: URL) throws -> [String: (Data, Date)] {
        var files: [String: (Data, Date)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[name] = (Data(try ImageFile.read(url.path)), attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return files
    }

    /// Runs `imgdiff` asking for all three outputs, and checks the refusal: exit 2, stderr
    /// exactly `imgdiff: error: ` + `expected`, no outputs, inputs unchanged.
    func assertRefused(
        _ arguments: [String], error expected: String, withOutputs: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try snapshot(inputs)
        let outputArguments = withOutputs
            ? ["-o", output("blend.png"), "--diff", output("diff.png"), "--mask", output("mask.png")] : []
        let run = try imgdiff(arguments + outputArguments)
        XCTAssertEqual(run.status, 2, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stdout, "", file: file, line: line)
        XCTAssertEqual(run.stderr, "imgdiff: error: \(expected)\n", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), [],
                       "no output or temporary file may be left", file: file, line: line)
        let after = try snapshot(inputs)
        XCTAssertEqual(Set(after.keys), Set(before.keys), file: file, line: line)
        for (name, (bytes, modified)) in before {
            XCTAssertEqual(after[name]?.0, bytes, "\(name) was modified", file: file, line: line)
            XCTAssertEqual(after[name]?.1, modified, "\(name) was touched", file: file, line: line)
        }
    }

    /// Decodes `path` in-process, checks the error's class with `matches`, and checks that the
    /// CLI, given `path` as either input, reports exactly that error.
    func assertInputRefused(
        _ path: String, limits: DecodingLimits = .default, flags: [String] = [],
        file: StaticString = #filePath, line: UInt = #line, matches: (ImageCodecError) -> Bool
    ) throws {
        let good = try input("good-8x6.png")
        var libraryError: ImageFileError?
        do {
            _ = try ImageDecoder.decode(contentsOf: path, limits: limits)
        } catch {
            libraryError = error
        }
        let error = try XCTUnwrap(libraryError, "\(path) decoded", file: file, line: line)
        XCTAssertTrue(matches(error.error), "\(path): unexpected error \(error)", file: file, line: line)
        try assertRefused([path, good] + flags, error: error.description, file: file, line: line)
        try assertRefused([good, path] + flags, error: error.description, file: file, line: line)
    }

    func isCorruptPNG(_ error: ImageCodecError) -> Bool {
        if case .corruptPNG = error { return true }
        return false
    }

    // MARK: Broken PNGs

    func testTruncatedPNGsAtSeveralOffsets() throws {
        for length in [4, 20, 45, 130, 141] {
            try assertInputRefused(try input("truncated-\(length).png"), matches: isCorruptPNG)
        }
    }

    func testBadCRC() throws {
        try assertInputRefused(try input("bad-crc.png")) { error in
            if case .corruptPNG(let message) = error { return message.contains("CRC") }
            return false
        }
    }

    func testBadZlibStream() throws {
        try assertInputRefused(try input("bad-zlib.png")) { error in
            if case .corruptPNG(let message) = error { return message.contains("zlib") || message.contains("block") }
            return false
        }
    }

    func testZeroWidth() throws {
        try assertInputRefused(try input("zero-width.png"), matches: isCorruptPNG)
    }

    func testPaletteIndexOutsideThePalette() throws {
        try assertInputRefused(try input("palette-index.png")) {
            $0 == .corruptPNG("palette index 200 at 4,0 is outside the 4-entry palette")
        }
    }

    // MARK: Decompression bombs

    func testDecompressionBombsFailFastInLittleMemory() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/bin/sh"))
        let bombs: [(String, ImageCodecError)] = [
            ("bomb-100000x100000.png", .tooLarge(width: 100_000, height: 100_000, limit: .width(65_535))),
            ("bomb-65500x65500.jpg", .tooLarge(width: 65_500, height: 65_500, limit: .pixels(1 << 28))),
            ("bomb-16bit-16000x16000.png", .tooLarge(width: 16_000, height: 16_000, limit: .memory(1 << 31))),
        ]
        let good = try input("good-8x6.png")
        for (name, expected) in bombs {
            let bomb = try input(name)
            try assertInputRefused(bomb) { $0 == expected }
            // Byte-identical inputs skip decoding, but not the limits.
            try assertRefused(
                [bomb, bomb, "--mask", output("mask.png")], error: ImageFileError(path: bomb, error: expected).description,
                withOutputs: false)

            let limited = try runInOneGiBOfAddressSpace([bomb, good, "-o", output("blend.png")])
            XCTAssertEqual(limited.status, 2, limited.stderr)
            XCTAssertEqual(limited.stderr, "imgdiff: error: \(ImageFileError(path: bomb, error: expected))\n")
        }
    }

    func testBombAsIgnoreMask() throws {
        let bomb = try input("bomb-100000x100000.png")
        let ref = try input("ref.png", from: "login"), fail = try input("fail.png", from: "login")
        try assertRefused(
            [ref, fail, "--ignore-mask", bomb],
            error: ImageFileError(path: bomb, error: .tooLarge(width: 100_000, height: 100_000, limit: .width(65_535)))
                .description)
    }

    // MARK: Broken JPEGs, non-images, file errors

    func testTruncatedJPEG() throws {
        try assertInputRefused(try input("truncated.jpg")) { error in
            if case .corruptJPEG = error { return true }
            return false
        }
    }

    func testProgressiveJPEGWithTooManyScans() throws {
        try assertInputRefused(try input("many-scans.jpg")) { $0 == .corruptJPEG("more than 500 scans") }
    }

    func testTextFileAndImageMagickPayloads() throws {
        for name in ["text.png", "payload.mvg", "payload.svg", "payload.msl", "payload-url.txt"] {
            try assertInputRefused(try input(name)) { $0 == .notRecognised }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/imgdiff-msl-pwned"))
    }

    func testEmptyFile() throws {
        try assertInputRefused(try input("empty.png")) { $0 == .emptyFile }
    }

    func testDirectory() throws {
        let directory = inputs.appendingPathComponent("folder.png").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try assertInputRefused(directory) { $0 == .isDirectory }
    }

    func testMissingFile() throws {
        try assertInputRefused(inputs.appendingPathComponent("missing.png").path) { $0 == .noSuchFile }
    }

    /// Root reads every file, so as root the run drops to `nobody` with setpriv.
    func testUnreadableFile() throws {
        let secret = inputs.appendingPathComponent("secret.png").path
        try FileManager.default.copyItem(atPath: try input("good-8x6.png"), toPath: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: secret)
        let good = try input("good-8x6.png")
        let expected = "imgdiff: error: \(ImageFileError(path: secret, error: .permissionDenied))\n"
        let run: CLIRun
        if getuid() == 0 {
            let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: setpriv.path), "needs setpriv to drop root")
            for directory in [work!, inputs, outputs] {
                try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
            }
            run = try runProcess(setpriv, [
                "--reuid=65534", "--regid=65534", "--clear-groups", IMGDiffExecutable.url.path,
                secret, good, "-o", output("blend.png"),
            ])
        } else {
            run = try imgdiff(secret, good, "-o", output("blend.png"))
        }
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stderr, expected)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), [])
    }

    // MARK: Outputs

    /// The blend could be written, the diff cannot: neither may exist afterwards.
    func testOutputInMissingDirectoryLeavesNoOutputAtAll() throws {
        let ref = try input("ref.png", from: "login"), fail = try input("fail.png", from: "login")
        let diff = output("no/such/dir/diff.png")
        try assertRefused(
            [ref, fail, "-o", output("blend.png"), "--diff", diff, "--mask", output("mask.png")],
            error: ImageFileError(path: diff, error: .cannotWrite("no such directory")).description, withOutputs: false)
    }

    /// Any spelling of an input as an output is refused before anything is read.
    func testOutputsAliasingAnInputAreRefused() throws {
        let ref = try input("ref.png", from: "login"), fail = try input("fail.png", from: "login")
        let mask = try input("good-8x6.png")
        let symlink = output("link.png"), hardLink = inputs.appendingPathComponent("hard.png").path
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: fail)
        try FileManager.default.linkItem(atPath: fail, toPath: hardLink)
        let aliases: [(option: String, path: String, input: String, extra: [String])] = [
            ("-o", fail, fail, []),
            ("--diff", ref, ref, []),
            ("--mask", "\(inputs.path)/../inputs/./fail.png", fail, []),
            ("-o", symlink, fail, []),
            ("--diff", hardLink, fail, []),
            ("--mask", mask, mask, ["--ignore-mask", mask]),
        ]
        for alias in aliases {
            let before = try snapshot(inputs)
            let run = try imgdiff([ref, fail, alias.option, alias.path] + alias.extra)
            XCTAssertEqual(run.status, 2, "\(alias.option) \(alias.path)")
            XCTAssertEqual(
                run.stderr,
                "imgdiff: error: \(alias.path): refusing to overwrite the input \(alias.input); choose another output path\n")
            XCTAssertEqual(try snapshot(inputs).mapValues(\.0), before.mapValues(\.0))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), ["link.png"])
    }

    /// An output named for another image format would hold PNG bytes under a name that viewers
    /// open as that format: refused, before anything is read or written, in any letter case.
    func testOutputNamedForAnotherImageFormatIsRefused() throws {
        let ref = try input("ref.png", from: "login"), fail = try input("fail.png", from: "login")
        for (option, name, suffix) in [("-o", "blend.jpg", "jpg"), ("--diff", "diff.JPEG", "JPEG"), ("--mask", "mask.webp", "webp")] {
            let path = output(name)
            try assertRefused(
                [ref, fail, option, path], error: "\(path): imgdiff writes PNG images, not .\(suffix); name the output .png",
                withOutputs: false)
        }
        let run = try imgdiff([ref, fail, "-o", output("blend.PNG"), "--mask", output("mask")])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: outputs.path)), ["blend.PNG", "mask"])
    }

    // MARK: Limit flags

    func testLimitFlagsNameTheLimitExceeded() throws {
        let good = try input("good-8x6.png")
        let cases: [([String], ImageCodecError)] = [
            (["--max-width", "7"], .tooLarge(width: 8, height: 6, limit: .width(7))),
            (["--max-height", "5"], .tooLarge(width: 8, height: 6, limit: .height(5))),
            (["--max-pixels", "47"], .tooLarge(width: 8, height: 6, limit: .pixels(47))),
            (["--max-memory", "100B"], .tooLarge(width: 8, height: 6, limit: .memory(100))),
            (["--max-file-size", "100"], .fileTooLarge(limit: 100)),
        ]
        let ref = try input("ref.png", from: "login")
        for (flags, expected) in cases {
            try assertRefused([good, ref] + flags, error: ImageFileError(path: good, error: expected).description)
        }
        let bomb = try input("bomb-100000x100000.png")
        try assertRefused(
            [bomb, good, "--max-width", "100K", "--max-height", "100K"],
            error: ImageFileError(path: bomb, error: .tooLarge(width: 100_000, height: 100_000, limit: .pixels(1 << 28)))
                .description)
        XCTAssertEqual(try imgdiff(good, good, "--max-pixels", "48", "--max-memory", "1Ki").status, 0)
    }

    func testLimitFlagsRejectNonsense() throws {
        let good = try input("good-8x6.png")
        for (flag, value) in [("--max-pixels", "0"), ("--max-width", "-5"), ("--max-memory", "lots"), ("--max-file-size", "3Xi"),
                              ("--max-pixels", "99999999999G")] {
            let run = try imgdiff(good, good, flag, value)
            XCTAssertEqual(run.status, 2, "\(flag) \(value)")
            XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: "), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
    }

    func testHelpListsTheLimits() throws {
        let run = try imgdiff("compare", "--help")
        for flag in ["--max-width", "--max-height", "--max-pixels", "--max-memory", "--max-file-size"] {
            XCTAssertTrue(run.stdout.contains(flag), flag)
        }
    }

    // MARK: Running in little memory

    /// Runs `imgdiff` with its address space limited to 1 GiB (`ulimit -v`): any allocation of
    /// a bomb's claimed size (3 to 40 GB here) would fail and crash it. Sanitizer builds reserve
    /// terabytes of shadow memory, so under scripts/sanitize (IMGDIFF_SANITIZER set) the limit
    /// is left out.
    func runInOneGiBOfAddressSpace(_ arguments: [String]) throws -> CLIRun {
        let limit = ProcessInfo.processInfo.environment["IMGDIFF_SANITIZER"] == nil ? "ulimit -v 1048576; " : ""
        return try runProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\(limit)exec \"$0\" \"$@\"", IMGDiffExecutable.url.path] + arguments)
    }
}
