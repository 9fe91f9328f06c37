import Foundation
import ImageCodecs
import ImageDiff
import SnapshotRule
import TestSupport
import XCTest

/// The `imgdiff` executable end to end: exit codes, JSON, errors, and no stray outputs.
final class CLITests: XCTestCase {
    var work: URL!
    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
    var ref: String { fixtures.appendingPathComponent("ref.png").path }
    var fail: String { fixtures.appendingPathComponent("fail.png").path }

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testIdenticalImagesExitZero() throws {
        let run = try imgdiff(ref, ref)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("0 of 64000 pixels differ"), run.stdout)
    }

    func testDifferentImagesExitOneAndWriteOutputs() throws {
        let blend = path("blend.png"), diff = path("diff.png"), mask = path("mask.png")
        let run = try imgdiff(ref, fail, "-o", blend, "--diff", diff, "--mask", mask)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let reference = try ImageDecoder.decode(contentsOf: ref)
        let failure = try ImageDecoder.decode(contentsOf: fail)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: blend).pixels,
                       ImageMagickBlend.render(reference: reference, failure: failure, rounding: .im7).pixels)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: diff).pixels,
                       ImageMagickCompare.differenceImage(reference, failure, rounding: .im7).pixels)
        let maskImage = try ImageDecoder.decode(contentsOf: mask)
        let count = Int(run.stdout.split(separator: " ").first ?? "") ?? -1
        XCTAssertEqual(stride(from: 3, to: maskImage.pixels.count, by: 4).filter { maskImage.pixels[$0] != 0 }.count, count)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted(),
                       ["blend.png", "diff.png", "mask.png"], "no temporary files left behind")
    }

    func testRoundingIM6WritesImageMagick6Blend() throws {
        let blend = path("blend6.png")
        XCTAssertEqual(try imgdiff(ref, fail, "-o", blend, "--rounding", "im6").status, 1)
        let expected = ImageMagickBlend.render(
            reference: try ImageDecoder.decode(contentsOf: ref), failure: try ImageDecoder.decode(contentsOf: fail),
            rounding: .im6)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: blend).pixels, expected.pixels)
    }

    func testJSONSchema() throws {
        let run = try imgdiff(ref, fail, "--json", "--metric", "cie94", "--threshold", "2.5")
        XCTAssertEqual(run.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["match"] as? Bool, false)
        XCTAssertEqual(object["totalPixels"] as? Int, 64000)
        XCTAssertGreaterThan(object["differentPixels"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(object["maxChannelDelta"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(object["maxDeltaE"] as? Double ?? 0, 2.5)
        XCTAssertEqual(object["sizeDiffers"] as? Bool, false)
        XCTAssertEqual(object["metric"] as? String, "cie94")
        let box = try XCTUnwrap(object["boundingBox"] as? [String: Int])
        XCTAssertEqual(Set(box.keys), ["minX", "minY", "maxX", "maxY"])
        XCTAssertEqual((object["maxChannelDeltaHistogram"] as? [Int])?.count, 256)

        let same = try imgdiff(ref, ref, "--json")
        let sameObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(sameObject["match"] as? Bool, true)
        XCTAssertTrue(sameObject["boundingBox"] is NSNull)
        XCTAssertEqual(same.status, 0)
    }

    func testSnapshotPrecisionDecidesTheVerdict() throws {
        let loose = try imgdiff(ref, fail, "--precision", "0.5", "--json")
        XCTAssertEqual(loose.status, 0, loose.stdout)
        let strict = try imgdiff(ref, fail, "--precision", "0.999")
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stdout.contains("Actual image precision"), strict.stdout)
        let perceptual = try imgdiff(ref, fail, "--precision", "0.999", "--perceptual-precision", "0.98")
        XCTAssertEqual(perceptual.status, 1)
        XCTAssertTrue(perceptual.stdout.contains("The percentage of pixels that match"), perceptual.stdout)
    }

    /// The snapshot verdict is a line of its own under the summary, not joined to it by an
    /// escaped newline.
    func testSnapshotVerdictIsALineOfItsOwn() throws {
        let run = try imgdiff(ref, fail, "--precision", "0.93")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, run.stdout)
        XCTAssertTrue(lines[0].hasPrefix("2940 of 64000 pixels differ"), run.stdout)
        XCTAssertEqual(lines[1], "snapshot: pass")
        XCTAssertFalse(run.stdout.contains("\\n"), run.stdout)
        // The perceptual rule's two-line message is two lines, each marked as the verdict's.
        let perceptual = try imgdiff(ref, fail, "--precision", "0.99", "--perceptual-precision", "0.98")
        let failed = perceptual.stdout.split(separator: "\n").dropFirst()
        XCTAssertEqual(failed.count, 2, perceptual.stdout)
        XCTAssertTrue(failed.first?.hasPrefix("snapshot: fail: The percentage of pixels that match ") == true, perceptual.stdout)
        XCTAssertTrue(failed.last?.hasPrefix("snapshot: fail: The lowest perceptual color precision ") == true, perceptual.stdout)
        XCTAssertFalse(perceptual.stdout.contains("\\n"), perceptual.stdout)
    }

    /// A result that cannot be written to stdout (a full disk) is an error, exit 2 with one
    /// line on stderr, whatever the verdict: a CI step reading the JSON is never handed nothing.
    func testUnwritableStandardOutputIsAnError() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full on this system") }
        for arguments in [[ref, fail, "--json"], [ref, ref], [ref, fail]] {
            let quoted = ([IMGDiffExecutable.url.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
            let run = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", quoted + " > /dev/full"])
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertEqual(run.stderr, "imgdiff: error: standard output: cannot write: No space left on device\n", "\(arguments)")
        }
    }

    func testAEMetricAndIgnore() throws {
        let run = try imgdiff(ref, fail, "--metric", "ae", "--fuzz", "5%", "--json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let expected = ImageMagickCompare.absoluteError(
            try ImageDecoder.decode(contentsOf: ref), try ImageDecoder.decode(contentsOf: fail),
            fuzz: ImageMagickCompare.fuzz(percent: 5)).count
        XCTAssertEqual(object["differentPixels"] as? Int, expected)
        let ignored = try imgdiff(ref, fail, "--metric", "exact", "--ignore", "0:0-319:199")
        XCTAssertEqual(ignored.status, 0, ignored.stdout)
        // A negative corner is refused, x as y: its minus sign was dropped, and a region other
        // than the one asked for ignored.
        for region in ["-1:0-319:199", "0:-1-319:199", "0:0--319:199"] {
            let negative = try imgdiff(ref, fail, "--metric", "exact", "--ignore", region)
            XCTAssertEqual(negative.status, 2, region)
            XCTAssertTrue(negative.stderr.contains("'\(region)' is invalid for '--ignore"), negative.stderr)
        }
    }

    /// Two 16-bit PNGs whose samples differ by less than one 8-bit level: `exact` counts the
    /// pixel whatever route the pair takes, and the default metric, in 8-bit levels, does not.
    func testExactTellsSixteenBitFilesApart() throws {
        var samples = [UInt16](repeating: 40000, count: 8 * 8 * 4)
        let reference = RGBAImage(width: 8, height: 8, samples16: samples, hasAlpha: false)
        samples[(3 * 8 + 5) * 4 + 1] = 40050
        let actual = RGBAImage(width: 8, height: 8, samples16: samples, hasAlpha: false)
        XCTAssertEqual(reference.pixels, actual.pixels)
        let (first, second) = (path("a16.png"), path("b16.png"))
        try Data(PNGEncoder.encode(reference)).write(to: URL(fileURLWithPath: first))
        try Data(PNGEncoder.encode(actual)).write(to: URL(fileURLWithPath: second))
        let exact = try imgdiff(first, second, "--metric", "exact", "--mask", path("mask.png"))
        XCTAssertEqual(exact.status, 1, exact.stderr)
        XCTAssertTrue(exact.stdout.hasPrefix("1 of 64 pixels differ"), exact.stdout)
        XCTAssertTrue(exact.stdout.contains("box 5:3-5:3"), exact.stdout)
        let mask = try ImageDecoder.decode(contentsOf: path("mask.png"))
        XCTAssertEqual(stride(from: 3, to: mask.pixels.count, by: 4).filter { mask.pixels[$0] != 0 }, [(3 * 8 + 5) * 4 + 3])
        XCTAssertEqual(try imgdiff(first, second).status, 0)
        XCTAssertEqual(try imgdiff(first, first, "--metric", "exact").status, 0)
    }

    func testMissingFile() throws {
        try assertError(args: [ref, path("missing.png"), "-o", path("out.png"), "--mask", path("mask.png")], mentions: "missing.png")
    }

    func testTruncatedPNG() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fail))
        let truncated = path("truncated.png")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        try assertError(args: [ref, truncated, "-o", path("out.png")], mentions: "truncated.png")
    }

    func testTextFileNamedPNG() throws {
        let text = path("notes.png")
        try Data("this is not an image\n".utf8).write(to: URL(fileURLWithPath: text))
        try assertError(args: [text, fail, "-o", path("out.png"), "--diff", path("diff.png")], mentions: "notes.png")
    }

    func testRefusesToOverwriteAnInput() throws {
        let copy = path("copy.png")
        try FileManager.default.copyItem(atPath: fail, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let run = try imgdiff(ref, copy, "-o", copy)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("refusing to overwrite"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), before)
    }

    func testOutputInMissingDirectory() throws {
        let run = try imgdiff(ref, fail, "-o", path("no/such/dir/blend.png"))
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: "), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
    }

    func testHelpTeaches() throws {
        let run = try imgdiff("compare", "--help")
        XCTAssertEqual(run.status, 0)
        for word in ["--metric", "--threshold", "--precision", "--perceptual-precision", "--ignore", "--json", "Exit status"] {
            XCTAssertTrue(run.stdout.contains(word), word)
        }
        // The README promises each command's full reference with examples.
        for command in ["compare", "batch", "merge-reports", "tune", "review"] {
            let help = try imgdiff("help", command)
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.contains("Examples:\n  imgdiff \(command == "compare" ? "" : command)"), "\(command): \(help.stdout)")
            XCTAssertTrue(help.stdout.contains("Exit status"), command)
        }
    }

    /// A comparison's arguments are parsed by `compare` alone (the quicker route); help,
    /// usage errors and arguments that name another command still read as the whole tool's.
    func testComparisonArgumentsParseAsTheWholeToolWould() throws {
        let named = try imgdiff("compare", ref, fail, "--json")
        let implied = try imgdiff(ref, fail, "--json")
        XCTAssertEqual(named.status, 1)
        XCTAssertEqual(implied.status, named.status)
        XCTAssertEqual(implied.stdout, named.stdout)
        for arguments in [["--help"], ["-h"]] {
            let help = try imgdiff(arguments)
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("USAGE: imgdiff <subcommand>"), help.stdout)
            XCTAssertTrue(help.stdout.contains("compare (default)"), help.stdout)
        }
        for arguments in [[ref, fail, "--help"], ["compare", "--help"], ["compare", ref, fail, "-h"]] {
            let help = try imgdiff(arguments)
            XCTAssertEqual(help.status, 0, "\(arguments)")
            XCTAssertTrue(help.stdout.contains("USAGE: imgdiff compare [<options>] <reference> <actual>"), "\(arguments): \(help.stdout)")
        }
        let unknown = try imgdiff(ref, fail, "--no-such-option")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "imgdiff: error: Unknown option '--no-such-option' (see 'imgdiff --help')\n")
        // A third positional argument that names a command is the root's to refuse.
        let named3 = try imgdiff(ref, fail, "batch")
        XCTAssertEqual(named3.status, 2)
        XCTAssertTrue(named3.stderr.hasPrefix("imgdiff: error: "), named3.stderr)
    }

    /// One line on stderr naming the file, exit 2, and no output file left behind.
    func assertError(args: [String], mentions name: String, line: UInt = #line) throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
        let run = try imgdiff(args)
        XCTAssertEqual(run.status, 2, line: line)
        XCTAssertEqual(run.stdout, "", line: line)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("imgdiff: error: "), run.stderr, line: line)
        XCTAssertTrue(run.stderr.contains(name), run.stderr, line: line)
        let after = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
        XCTAssertEqual(after, before, "no output or temporary file may be left", line: line)
    }

    func path(_ name: String) -> String { work.appendingPathComponent(name).path }
}
