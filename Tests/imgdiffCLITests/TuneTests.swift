import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// `imgdiff tune` on the generated fixtures (scripts/make-tune-fixtures.py): the recommended
/// options, appended to `imgdiff REF NEW`, pass every noise pair and fail every real change.
final class TuneTests: XCTestCase {
    let noise = SharedData.packageRoot.appendingPathComponent("Fixtures/tune/noise").path
    let changes = SharedData.packageRoot.appendingPathComponent("Fixtures/tune/changes").path

    func testFixturesCoverTheNoiseAndChangeKinds() throws {
        XCTAssertEqual(try pairs(noise), [
            "gradient-rounding.png", "jitter-1.png", "jitter-2.png", "jpeg-recompress.jpg", "text-aa-gamma.png",
            "text-aa-offset.png",
        ])
        XCTAssertEqual(try pairs(changes), ["changed-text.png", "colour-change.png", "moved-element.png"])
    }

    func testRecommendationPassesEveryNoisePairAndFailsEveryChange() throws {
        let run = try imgdiff("tune", noise, "--must-fail", changes, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try object(run.stdout)
        let recommendation = try XCTUnwrap(json["recommendation"] as? [String: Any])
        XCTAssertEqual(recommendation["separates"] as? Bool, true)
        let arguments = try XCTUnwrap(recommendation["cliArguments"] as? [String])
        XCTAssertFalse(arguments.isEmpty)
        try assertSeparates(arguments, "recommended cliArguments")

        let snapshot = try XCTUnwrap(recommendation["snapshotTesting"] as? [String: Any])
        let precision = try XCTUnwrap(snapshot["precision"] as? Double)
        let perceptualPrecision = try XCTUnwrap(snapshot["perceptualPrecision"] as? Double)
        let snapshotArguments = ["--precision", "\(precision)", "--perceptual-precision", "\(perceptualPrecision)"]
        try assertSeparates(snapshotArguments, "swift-snapshot-testing precisions")

        let settings = try XCTUnwrap(json["settings"] as? [[String: Any]])
        XCTAssertEqual(Set(settings.compactMap { $0["mode"] as? String }),
                       ["snapshot-testing", "channel", "cie94", "ciede2000", "yiq", "yiq-antialiasing"])
        for setting in settings where setting["passesAllNoise"] as? Bool == true {
            let arguments = try XCTUnwrap(setting["cliArguments"] as? [String])
            let separation = try XCTUnwrap(setting["separation"] as? [String: Any])
            if separation["separates"] as? Bool == true {
                try assertSeparates(arguments, setting["mode"] as? String ?? "")
            } else {
                try assertPasses(arguments, noise, setting["mode"] as? String ?? "")
            }
        }
    }

    func testMeasurementsPerPair() throws {
        let json = try object(try imgdiff("tune", noise, "--json").stdout)
        let pairs = try XCTUnwrap(json["noise"] as? [[String: Any]])
        let jitter = try XCTUnwrap(pairs.first { $0["name"] as? String == "jitter-1.png" }?["profile"] as? [String: Any])
        XCTAssertEqual(jitter["maxChannelDelta"] as? Int, 1)
        let histogram = try XCTUnwrap(jitter["maxChannelDeltaHistogram"] as? [Int])
        XCTAssertEqual(histogram.count, 2)
        XCTAssertEqual(histogram.reduce(0, +), 240 * 160)
        for key in ["deltaE94", "deltaE2000"] {
            let distribution = try XCTUnwrap(jitter[key] as? [String: Double])
            XCTAssertLessThanOrEqual(try XCTUnwrap(distribution["percentile999"]), try XCTUnwrap(distribution["max"]))
            XCTAssertLessThan(try XCTUnwrap(distribution["max"]), 2.5, "±1 level is at most ~1.84 ΔE94")
        }
        XCTAssertNotNil(jitter["antialiasedPixels"] as? Int)
        XCTAssertNotNil(jitter["pixelsLeftAfterAntialiasing"] as? Int)
        XCTAssertNotNil(jitter["differentRatio"] as? Double)

        let recommendation = try XCTUnwrap(json["recommendation"] as? [String: Any])
        XCTAssertEqual(recommendation["separates"] as? Bool, true, "the canaries fail, the noise passes")
        XCTAssertEqual((json["canaries"] as? [String])?.count, 23, "four kinds from six pairs; one image has no line")
        try assertPasses(try XCTUnwrap(recommendation["cliArguments"] as? [String]), noise, "recommended without changes")
    }

    func testReadableTableAndCopyPasteLines() throws {
        let run = try imgdiff("tune", noise, "--must-fail", changes)
        XCTAssertEqual(run.status, 0, run.stderr)
        for expected in ["jpeg-recompress.jpg", "colour-change.png", "ΔE94 max", "p99.9", "safety margin", "separates"] {
            XCTAssertTrue(run.stdout.contains(expected), "missing \(expected) in\n\(run.stdout)")
        }
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains { $0.hasPrefix("imgdiff REF NEW --") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("assertSnapshot(of: view, as: .image(precision: ") }, run.stdout)
    }

    func testNoSeparationExitsOneAndNamesTheOverlap() throws {
        let run = try imgdiff("tune", changes, "--must-fail", changes)
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("No setting separates the noise from the changes"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Misjudged in training:"), run.stdout)
    }

    /// On pages set again by other hinting, the text model would pass a 2-px shifted block:
    /// tune leaves it off and says which canaries it would pass.
    func testTextModelLeftOffWhenItWouldPassACanary() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let render = SharedData.packageRoot.appendingPathComponent("Fixtures/render")
        let chosen = [
            "noise": ["settings--hinting-full", "cards--swiftshader", "login--jpeg-q90", "cards--lcd-text", "chart--display-p3"],
            "changes": ["table--border-removed", "settings--text-colour", "login--word"],
        ]
        for (kind, names) in chosen {
            for side in ["ref", "new"] {
                let folder = work.appendingPathComponent("\(kind)/\(side)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for name in names {
                    try FileManager.default.copyItem(
                        at: render.appendingPathComponent("\(kind)/\(side)/\(name).png"), to: folder.appendingPathComponent("\(name).png"))
                }
            }
        }
        let run = try imgdiff(
            "tune", work.appendingPathComponent("noise").path, "--must-fail", work.appendingPathComponent("changes").path, "--json")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stderr)
        let recommendation = try XCTUnwrap(json["recommendation"] as? [String: Any])
        let arguments = try XCTUnwrap(recommendation["cliArguments"] as? [String])
        let explanation = try XCTUnwrap(recommendation["explanation"] as? [String])
        XCTAssertTrue(arguments.contains("--no-text-reflow"), "\(arguments)")
        XCTAssertTrue(
            explanation.contains { $0.hasPrefix("--no-text-reflow: with the text model") && $0.contains("shifted-block") }, "\(explanation)")
        try assertHeadroomMatchesCompare(explanation, arguments: arguments, noise: work.appendingPathComponent("noise"))
        let strong = try XCTUnwrap((recommendation["noiseHeadroom"] as? [String: Any])?["strong"] as? [String: Any])
        XCTAssertTrue(explanation.contains { $0.contains("has \(strong["pixels"] as? Int ?? -1) px (\(strong["pair"] as? String ?? "")") })
        let (pixels, limit) = (try XCTUnwrap(strong["pixels"] as? Int), try XCTUnwrap(strong["failsFromPixels"] as? Int))
        XCTAssertLessThan(pixels, limit)
        XCTAssertEqual(
            explanation.contains { $0.hasPrefix("A passing noise cluster comes within the 25% safety margin of the size from which it fails") },
            Double(pixels) >= 0.75 * Double(limit), "the search's nearness agrees with the headroom: \(explanation)")
    }

    /// The explanation's noise headroom names a noise pair and the size of its passing strong
    /// cluster nearest to failing (the largest, as they share one limit on a page): `imgdiff
    /// compare` under the recommended arguments lists that cluster, passing, and no larger
    /// passing one of that contrast.
    func assertHeadroomMatchesCompare(_ explanation: [String], arguments: [String], noise: URL) throws {
        let line = try XCTUnwrap(explanation.first { $0.hasPrefix("Noise headroom: ") }, "\(explanation)")
        let pattern = try NSRegularExpression(pattern: #"ΔE 10\+ nearest to failing has (\d+) px \(([^,]+), ΔE"#)
        let match = try XCTUnwrap(pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        let pixels = try XCTUnwrap(Int(line[try XCTUnwrap(Range(match.range(at: 1), in: line))]))
        let pair = String(line[try XCTUnwrap(Range(match.range(at: 2), in: line))])
        let run = try imgdiff(
            ["compare", noise.appendingPathComponent("ref/\(pair)").path, noise.appendingPathComponent("new/\(pair)").path, "--json"]
                + arguments)
        let clusters = try XCTUnwrap(try object(run.stdout)["clusters"] as? [[String: Any]], run.stderr)
        let passingStrong = clusters.filter { $0["fails"] as? Bool == false && ($0["maxDeltaE"] as? Double ?? 0) >= 10 }
        XCTAssertEqual(passingStrong.compactMap { $0["pixels"] as? Int }.max(), pixels, line)
    }

    /// `--write-canaries DIR` writes every canary as a must-fail pair, the noise pair's reference
    /// beside its new image with the change painted in: each pair differs and the structural
    /// defaults fail each. The folder must be new or empty and apart from the folders tune
    /// reads, and a run that fails leaves none.
    func testCanariesAreWrittenAsAMustFailFolder() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-canaries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("canaries").path
        let run = try imgdiff("tune", noise, "--canary-pairs", "2", "--write-canaries", folder, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let canaries = try XCTUnwrap(try object(run.stdout)["canaries"] as? [String])
        let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/new").sorted()
        XCTAssertEqual(written.count, canaries.count)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/ref").sorted(), written)
        XCTAssertTrue(written.contains { $0.hasSuffix("--faint-patch.png") }, "\(written)")
        for name in written {
            let compared = try imgdiff("compare", folder + "/ref/" + name, folder + "/new/" + name, "--metric", "structural")
            XCTAssertEqual(compared.status, 1, "\(name): \(compared.stdout)")
        }

        let again = try imgdiff("tune", noise, "--write-canaries", folder)
        XCTAssertEqual(again.status, 2)
        XCTAssertEqual(again.stderr, "imgdiff: error: \(folder): holds new; --write-canaries writes only into a new or empty folder\n")
        let inside = try imgdiff("tune", noise, "--write-canaries", noise + "/canaries")
        XCTAssertEqual(inside.status, 2)
        XCTAssertTrue(inside.stderr.contains("overlaps \(noise), which tune reads"), inside.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: noise + "/canaries"))
        let failed = try imgdiff("tune", work.appendingPathComponent("missing").path, "--write-canaries", work.appendingPathComponent("none").path)
        XCTAssertEqual(failed.status, 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path), ["canaries"])
    }

    func testErrors() throws {
        let missing = try imgdiff("tune", "/no/such/folder")
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "imgdiff: error: /no/such/folder: no such directory\n")

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(at: work.appendingPathComponent(side), withIntermediateDirectories: true)
        }
        let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login/ref.png")
        let settings = SharedData.packageRoot.appendingPathComponent("Fixtures/batch/ref/login.png")
        try FileManager.default.copyItem(at: login, to: work.appendingPathComponent("ref/a.png"))
        try FileManager.default.copyItem(at: settings, to: work.appendingPathComponent("new/a.png"))
        let resized = try imgdiff("tune", work.path)
        XCTAssertEqual(resized.status, 2)
        XCTAssertTrue(resized.stderr.hasPrefix("imgdiff: error: \(work.path)/new/a.png: size 240x160 differs"), resized.stderr)
        XCTAssertEqual(resized.stderr.split(separator: "\n").count, 1)

        try Data("not an image".utf8).write(to: work.appendingPathComponent("new/a.png"))
        let corrupt = try imgdiff("tune", work.path)
        XCTAssertEqual(corrupt.status, 2)
        XCTAssertTrue(corrupt.stderr.hasPrefix("imgdiff: error: \(work.path)/new/a.png: "), corrupt.stderr)

        let flat = try imgdiff("tune", work.appendingPathComponent("ref").path)
        XCTAssertEqual(flat.status, 2)
        XCTAssertTrue(flat.stderr.contains("expected the folders ref/ and new/ inside"), flat.stderr)

        try FileManager.default.moveItem(at: work.appendingPathComponent("new/a.png"), to: work.appendingPathComponent("new/b.png"))
        let unpaired = try imgdiff("tune", work.path)
        XCTAssertEqual(unpaired.status, 2)
        XCTAssertTrue(unpaired.stderr.contains("imgdiff: warning: \(work.path)/ref/a.png: no counterpart"), unpaired.stderr)
        XCTAssertTrue(unpaired.stderr.contains("imgdiff: error: \(work.path): no pairs"), unpaired.stderr)
    }

    /// A noise pair and a change may share a file name (both named after one screen). Each is
    /// left out of the leave-one-out alone, and named apart in the report: the figure is the
    /// one the same pairs give under distinct names.
    func testPairsSharingANameAcrossFoldersAreLeftOutApart() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-shared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let noiseFolder = work.appendingPathComponent("noise").path
        for name in ["jitter-1.png", "jitter-2.png"] {
            for side in ["ref", "new"] {
                try FileManager.default.createDirectory(atPath: "\(noiseFolder)/\(side)", withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: "\(noise)/\(side)/\(name)", toPath: "\(noiseFolder)/\(side)/\(name)")
            }
        }
        let screen = try ImageDecoder.decode(contentsOf: "\(noise)/ref/text-aa-gamma.png")
        let other = try ImageDecoder.decode(contentsOf: "\(changes)/ref/changed-text.png")
        try writePair(screen, lightened(screen, by: 3), to: noiseFolder, as: "X.png")
        for (folder, changed) in [("changes", "X.png"), ("renamed", "X-change.png")] {
            let path = work.appendingPathComponent(folder).path
            try writePair(screen, lightened(screen, by: 6), to: path, as: changed)
            try writePair(other, lightened(other, by: 3), to: path, as: "Z.png")
        }

        func crossValidation(_ mustFail: String) throws -> [String: Any] {
            let run = try imgdiff("tune", noiseFolder, "--must-fail", work.appendingPathComponent(mustFail).path, "--canary-pairs", "0", "--json")
            XCTAssertNotEqual(run.status, 2, run.stderr)
            return try XCTUnwrap((try object(run.stdout)["recommendation"] as? [String: Any])?["crossValidation"] as? [String: Any])
        }
        let shared = try crossValidation("changes"), renamed = try crossValidation("renamed")
        XCTAssertEqual(shared["correct"] as? Int, renamed["correct"] as? Int, "shared: \(shared)\nrenamed: \(renamed)")
        XCTAssertEqual(shared["pairs"] as? Int, 5)
        let misjudged = try XCTUnwrap(shared["misjudged"] as? [String])
        XCTAssertEqual(
            misjudged.map { $0 == "X.png (must fail)" ? "X-change.png" : $0 == "X.png (noise)" ? "X.png" : $0 }.sorted(),
            (renamed["misjudged"] as? [String])?.sorted())
        XCTAssertFalse(misjudged.contains("X.png"), "each X.png is named with its folder's label: \(misjudged)")
    }

    /// Outputs that would clash, or could not be written, are refused before any pair is
    /// measured, and nothing is written.
    func testOutputsAreCheckedBeforeMeasuring() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let both = work.appendingPathComponent("x").path
        let clash = try imgdiff("tune", noise, "--write-canaries", both, "--write-config", both)
        XCTAssertEqual(clash.stderr, "imgdiff: error: \(both): lies in the --write-canaries folder \(both); put the settings file elsewhere\n")
        let inside = try imgdiff("tune", noise, "--write-canaries", both, "--write-config", both + "/imgdiff.json")
        XCTAssertTrue(inside.stderr.contains("lies in the --write-canaries folder"), inside.stderr)
        let missingFolder = work.appendingPathComponent("no/such/imgdiff.json").path
        let missing = try imgdiff("tune", noise, "--write-config", missingFolder)
        XCTAssertEqual(missing.stderr, "imgdiff: error: \(missingFolder): its folder does not exist; --write-config creates only the file\n")
        let image = work.appendingPathComponent("snap.png").path
        let imageNamed = try imgdiff("tune", noise, "--write-config", image)
        XCTAssertEqual(
            imageNamed.stderr,
            "imgdiff: error: \(image): named like an image, which a snapshot folder would list as one; name the settings file imgdiff.json\n")
        for run in [clash, inside, missing, imageNamed] {
            XCTAssertEqual(run.status, 2)
            XCTAssertEqual(run.stdout, "", "refused before measuring")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path), [])
    }

    /// Two names that differ only in their Unicode normalisation (café in NFC and in NFD) are
    /// two pairs, each with its canaries, and tune measures both.
    func testNamesEqualButForTheirNormalisationAreTwoPairs() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-nfd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(atPath: "\(work.path)/\(side)", withIntermediateDirectories: true)
            for (name, source) in [("caf\u{E9}.png", "jitter-1.png"), ("cafe\u{301}.png", "jitter-2.png")] {
                try FileManager.default.copyItem(atPath: "\(noise)/\(side)/\(source)", toPath: "\(work.path)/\(side)/\(name)")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path + "/ref").count, 2)
        let run = try imgdiff("tune", work.path, "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual((try object(run.stdout)["noise"] as? [Any])?.count, 2)
    }

    /// A file name holding a line break prints escaped, on its own table row.
    func testNamesWithLineBreaksStayOnTheirRow() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(atPath: "\(work.path)/\(side)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)/jitter-1.png", toPath: "\(work.path)/\(side)/two\nlines.png")
        }
        let run = try imgdiff("tune", work.path, "--canary-pairs", "0")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("two\\nlines.png"), run.stdout)
        XCTAssertFalse(run.stdout.split(separator: "\n").contains { $0.hasPrefix("lines.png") }, run.stdout)
    }

    /// tune holds each pair to --max-memory as compare does.
    func testPairsAreHeldToTheMemoryLimit() throws {
        let pair = "jitter-1.png"
        let compared = try imgdiff("\(noise)/ref/\(pair)", "\(noise)/new/\(pair)", "--metric", "structural", "--max-memory", "100K")
        XCTAssertEqual(compared.status, 2)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-mem-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(atPath: "\(work.path)/\(side)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(noise)/\(side)/\(pair)", toPath: "\(work.path)/\(side)/\(pair)")
        }
        let tuned = try imgdiff("tune", work.path, "--canary-pairs", "0", "--max-memory", "100K")
        XCTAssertEqual(tuned.status, 2)
        XCTAssertEqual(tuned.stderr, compared.stderr.replacingOccurrences(of: noise, with: work.path))
    }

    func testHelpExplainsLayoutAndExitCodes() throws {
        let run = try imgdiff("tune", "--help")
        XCTAssertEqual(run.status, 0)
        for expected in ["NOISE_DIR/ref/", "--must-fail", "Exit status", "perceptualPrecision", "Examples"] {
            XCTAssertTrue(run.stdout.contains(expected), "missing \(expected)")
        }
    }

    // MARK: Helpers

    func lightened(_ image: RGBAImage, by levels: UInt8) -> RGBAImage {
        var result = image
        for index in result.pixels.indices where index % 4 != 3 {
            result.pixels[index] = UInt8(min(255, Int(result.pixels[index]) + Int(levels)))
        }
        return result
    }

    func writePair(_ reference: RGBAImage, _ actual: RGBAImage, to folder: String, as name: String) throws {
        for (side, image) in [("ref", reference), ("new", actual)] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(side)", withIntermediateDirectories: true)
            try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: "\(folder)/\(side)/\(name)"))
        }
    }

    func pairs(_ folder: String) throws -> [String] {
        let reference = try FileManager.default.contentsOfDirectory(atPath: folder + "/ref").sorted()
        XCTAssertEqual(reference, try FileManager.default.contentsOfDirectory(atPath: folder + "/new").sorted())
        return reference
    }

    func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Every noise pair exits 0 and every change exits 1 with `imgdiff REF NEW arguments`.
    func assertSeparates(_ arguments: [String], _ label: String, line: UInt = #line) throws {
        try assertPasses(arguments, noise, label, line: line)
        for name in try pairs(changes) {
            let run = try imgdiff(["\(changes)/ref/\(name)", "\(changes)/new/\(name)"] + arguments)
            XCTAssertEqual(run.status, 1, "\(label) \(arguments) must fail the change \(name): \(run.stdout)\(run.stderr)", line: line)
        }
    }

    func assertPasses(_ arguments: [String], _ folder: String, _ label: String, line: UInt = #line) throws {
        for name in try pairs(folder) {
            let run = try imgdiff(["\(folder)/ref/\(name)", "\(folder)/new/\(name)"] + arguments)
            XCTAssertEqual(run.status, 0, "\(label) \(arguments) must pass the noise \(name): \(run.stdout)\(run.stderr)", line: line)
        }
    }
}
