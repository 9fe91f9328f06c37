import Foundation
import ImageCodecs
import ImageDiff
import ImageDiffSnapshotTesting
import SnapshotFiles
import SnapshotTesting
import TestSupport
import XCTest

/// `assertSnapshot` / `verifySnapshot` with the image strategies over the references in
/// `__Snapshots__/ImageSnapshotStrategyTests`: a scene that passes, one that passes only within
/// tolerance, and ones that fail with swift-snapshot-testing's exact messages and leave readable
/// artifacts.
final class ImageSnapshotStrategyTests: XCTestCase {
    override func invokeTest() {
        _ = SnapshotTestEnvironment.artifactsRoot
        withSnapshotTesting(record: SnapshotTestEnvironment.record, diffTool: SnapshotTestEnvironment.diffTool) {
            super.invokeTest()
        }
    }

    /// The scene passes; and the review entry an earlier run's failure of it left is removed,
    /// so that `imgdiff review --accept-all` cannot put that failure over the passing reference.
    /// An entry for another reference (here one that is gone, and one of the same pixels in
    /// another snapshot folder) stays.
    func testUnchangedScenePasses() throws {
        let artifacts = SnapshotTestEnvironment.artifactsDirectory() + "/testUnchangedScenePasses"
        try FileManager.default.createDirectory(atPath: SnapshotTestEnvironment.artifactsDirectory(), withIntermediateDirectories: true)
        let otherFolder = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-device-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: otherFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: otherFolder) }
        try FileManager.default.copyItem(
            atPath: SnapshotTestEnvironment.snapshotDirectory() + "/testUnchangedScenePasses.1.png", toPath: otherFolder + "/testUnchangedScenePasses.1.png")
        for (name, reference) in [
            ("1", SnapshotTestEnvironment.snapshotDirectory() + "/testUnchangedScenePasses.1.png"), ("gone", "/no/such.png"),
            ("device", otherFolder + "/testUnchangedScenePasses.1.png"),
        ] {
            let entry = ReviewEntry(test: "testUnchangedScenePasses()", reference: reference, failure: "\(artifacts).\(name).failure.png", review: nil, summary: "an earlier run")
            try Data(entry.encoded()).write(to: URL(fileURLWithPath: "\(artifacts).\(name).imgdiff.json"))
        }
        assertSnapshot(of: Scene.badge, as: .scene())
        assertSnapshot(of: Scene.badge.rasterize(), as: .image(), named: "image")
        assertSnapshot(of: Scene.badge.rasterize(), as: .image(precision: 0.99, perceptualPrecision: 0.98), named: "image")
        XCTAssertFalse(FileManager.default.fileExists(atPath: artifacts + ".1.imgdiff.json"), "the passing snapshot's entry")
        XCTAssertTrue(FileManager.default.fileExists(atPath: artifacts + ".gone.imgdiff.json"), "another reference's entry")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: artifacts + ".device.imgdiff.json"),
            "the entry of the same pixels in another snapshot folder: that folder's failure")
    }

    /// Edge pixels one level off, as another machine renders them, fail the default exact
    /// comparison and pass each of the tolerances teams use.
    func testDriftFromAnotherMachinePassesOnlyWithinTolerance() {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        let drifted = Scene.badgeOnAnotherMachine

        XCTAssertEqual(
            verify(drifted, as: .scene(), named: "badge").map(verdictLines),
            "Newly-taken snapshot does not match reference.")
        // 151 of 1536 pixels drift, in 265 of 6144 bytes (4.3 %).
        XCTAssertEqual(
            verify(drifted, as: .scene(precision: 0.96), named: "badge").map(verdictLines),
            "Actual image precision 0.95686847 is less than required 0.96")
        XCTAssertNil(verify(drifted, as: .scene(precision: 0.95), named: "badge"))
        XCTAssertNil(verify(drifted, as: .scene(perceptualPrecision: 0.98), named: "badge"))
        XCTAssertNil(verify(drifted, as: .scene(metric: .channel(tolerance: 1)), named: "badge"))
        XCTAssertNil(verify(drifted, as: .scene(metric: .deltaE(.ciede2000, threshold: 1)), named: "badge"))
        XCTAssertNotNil(verify(drifted, as: .scene(metric: .deltaE(.ciede2000, threshold: 0.1)), named: "badge"))
    }

    /// A real regression fails with swift-snapshot-testing's message, imgdiff's summary and the
    /// paths of four PNGs, written next to swift-snapshot-testing's own failure artifact.
    func testMovedDiscFailsWithMessageAndArtifacts() throws {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        let message = try XCTUnwrap(verify(Scene.badgeWithMovedDisc, as: .scene(precision: 0.99), named: "badge"))

        let referencePath = SnapshotTestEnvironment.snapshotDirectory() + "/testMovedDiscFailsWithMessageAndArtifacts.badge.png"
        let artifacts = SnapshotTestEnvironment.artifactsDirectory() + "/testMovedDiscFailsWithMessageAndArtifacts.badge"
        XCTAssertEqual(
            message,
            """
            Snapshot "badge" does not match reference.

            imgdiff compare \(referencePath) \(artifacts).png

            Actual image precision 0.92285156 is less than required 0.99

            imgdiff: 158 of 1536 pixels differ (10.29%, exact), max ΔE94 72.65, max channel Δ 205, box 23:7-43:24.
            Artifacts:
              reference: \(artifacts).reference.png
              failure:   \(artifacts).failure.png
              review:    \(artifacts).review.png
              blend:     \(artifacts).blend.png
              mask:      \(artifacts).mask.png
            """)

        let reference = Scene.badge.rasterize(), failure = Scene.badgeWithMovedDisc.rasterize()
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".png").pixels, failure.pixels)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".reference.png").pixels, reference.pixels)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".failure.png").pixels, failure.pixels)
        XCTAssertEqual(
            try ImageDecoder.decode(contentsOf: artifacts + ".blend.png").pixels,
            ImageMagickBlend.render(reference: reference, failure: failure).pixels)
        let entry = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: artifacts + ".imgdiff.json"))) as? [String: String],
            "the entry `imgdiff review` reads")
        XCTAssertEqual(entry["reference"], referencePath)
        XCTAssertEqual(entry["failure"], artifacts + ".failure.png")
        XCTAssertEqual(entry["review"], artifacts + ".review.png")
        XCTAssertNil(verify(Scene.badge, as: .scene(), named: "badge"))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: artifacts + ".imgdiff.json"),
            "a failure of this run keeps its entry when a snapshot of the same reference passes after it (twins)")
        let review = try ImageDecoder.decode(contentsOf: artifacts + ".review.png")
        XCTAssertGreaterThanOrEqual(review.width, 3 * 48 + 2 * ReviewImage.gap, "reference | new | highlight")
        XCTAssertEqual(review[48 + ReviewImage.gap + 30, 15], failure[30, 15], "the new image in the middle")
        let mask = try ImageDecoder.decode(contentsOf: artifacts + ".mask.png")
        XCTAssertEqual(mask.size, reference.size)
        XCTAssertEqual(stride(from: 3, to: mask.pixels.count, by: 4).filter { mask.pixels[$0] != 0 }.count, 158)
    }

    /// A colour change of ΔE94 2.74 (2.86 where it meets the anti-aliased edge, 2.8574 once read back as a half float) fails `perceptualPrecision: 0.98` with both of
    /// swift-snapshot-testing's lines and passes 0.97.
    func testNewOrangeFailsPerceptually() throws {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        let message = try XCTUnwrap(
            verify(Scene.badgeWithNewOrange, as: .scene(precision: 0.95, perceptualPrecision: 0.98), named: "badge"))
        XCTAssertEqual(
            verdictLines(message),
            """
            The percentage of pixels that match 0.85026044 is less than required 0.95
            The lowest perceptual color precision 0.9714258 is less than required 0.98
            """)
        XCTAssertNil(verify(Scene.badgeWithNewOrange, as: .scene(precision: 0.95, perceptualPrecision: 0.97), named: "badge"))
    }

    func testIgnoredRegionForgivesOnlyChangesInside() {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        let aroundDisc = PixelRect(minX: 22, minY: 6, maxX: 44, maxY: 25)
        XCTAssertNil(verify(Scene.badgeWithMovedDisc, as: .scene(ignoring: [aroundDisc]), named: "badge"))
        let leftHalf = PixelRect(minX: 0, minY: 0, maxX: 23, maxY: 31)
        XCTAssertEqual(
            verify(Scene.badgeWithMovedDisc, as: .scene(ignoring: [leftHalf]), named: "badge").map(verdictLines),
            "Newly-taken snapshot does not match reference.")
    }

    func testSizeMismatchIsReportedAsSwiftSnapshotTestingDoes() throws {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        var narrow = Scene.badge
        narrow.width = 40
        let message = try XCTUnwrap(verify(narrow, as: .scene(), named: "badge"))
        XCTAssertEqual(verdictLines(message), "Newly-taken snapshot@(40.0, 32.0) does not match reference@(48.0, 32.0).")
        let artifacts = SnapshotTestEnvironment.artifactsDirectory() + "/testSizeMismatchIsReportedAsSwiftSnapshotTestingDoes.badge"
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".blend.png").size, ImageSize(width: 40, height: 32))
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".mask.png").size, ImageSize(width: 48, height: 32))
    }

    /// With the default options the strategy says what the core's `SnapshotPrecision` says.
    func testVerdictsAreTheCoresSnapshotPrecision() {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        let reference = Scene.badge.rasterize()
        let scenes = [Scene.badge, .badgeOnAnotherMachine, .badgeWithMovedDisc, .badgeWithNewOrange]
        for scene in scenes {
            for precision: Float in [1, 0.99, 0.95, 0.9] {
                for perceptualPrecision: Float in [1, 0.98, 0.97, 0.8] {
                    let core = SnapshotPrecision(precision: precision, perceptualPrecision: perceptualPrecision)
                        .verdict(reference: reference, actual: scene.rasterize())
                    let strategy = verify(
                        scene, as: .scene(precision: precision, perceptualPrecision: perceptualPrecision),
                        named: "badge")
                    XCTAssertEqual(strategy.map(verdictLines), core.message)
                }
            }
        }
    }

    /// A threshold no difference can exceed (NaN) or below 0 judges nothing: it fails with a
    /// message, where it would pass black against white.
    func testThresholdsThatJudgeNothingFail() {
        let black = RGBAImage(width: 8, height: 8, filledWith: RGBA(0, 0, 0)), white = RGBAImage(width: 8, height: 8, filledWith: RGBA(255, 255, 255))
        for metric in [ComparisonMetric.deltaE(.ciede2000, threshold: .nan), .deltaE(.cie94, threshold: .nan), .yiq(threshold: .nan), .channel(tolerance: -1)] {
            for precision: Float in [1, 0.99] {
                let verdict = ImageSnapshotComparison(precision: precision, options: ComparisonOptions(metric: metric))
                    .evaluate(reference: black, actual: white).verdict
                XCTAssertFalse(verdict.passed, "\(metric)")
                XCTAssertTrue(verdict.message?.hasPrefix("imgdiff: the \(metric.name) threshold must be") == true, "\(verdict)")
            }
        }
        XCTAssertTrue(ImageSnapshotComparison(options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 1))).evaluate(reference: black, actual: black).verdict.passed)
        // Past the end of pixelmatch's scale, and ImageMagick's counts beside ignored regions.
        let beyond = ImageSnapshotComparison(options: ComparisonOptions(metric: .yiq(threshold: 1.5))).evaluate(reference: black, actual: white).verdict
        XCTAssertEqual(beyond.message, "imgdiff: a yiq threshold is between 0 and 1 (pixelmatch's scale), not 1.5")
        let ignoring = ComparisonOptions(metric: .imageMagickAE(fuzz: 0), ignoreRegions: [PixelRect(minX: 0, minY: 0, maxX: 7, maxY: 7)])
        XCTAssertFalse(ImageSnapshotComparison(options: ignoring).evaluate(reference: black, actual: white).verdict.passed)
        XCTAssertTrue(ImageSnapshotComparison(options: ignoring).evaluate(reference: black, actual: white).verdict.message?.contains("--ignore and --ignore-mask do not apply") == true)
    }

    /// A setting that judges nothing fails the test on the setting, not the images: the
    /// message says which, and no failure is left for `imgdiff review` to accept.
    func testASettingThatJudgesNothingLeavesNoFailureToReview() throws {
        let entry = SnapshotTestEnvironment.artifactsDirectory() + "/testASettingThatJudgesNothingLeavesNoFailureToReview.1.imgdiff.json"
        // An earlier run's real failure left its entry; this run's artifacts replace its images.
        try FileManager.default.createDirectory(atPath: SnapshotTestEnvironment.artifactsDirectory(), withIntermediateDirectories: true)
        let earlier = ReviewEntry(
            test: "testASettingThatJudgesNothingLeavesNoFailureToReview()",
            reference: SnapshotTestEnvironment.snapshotDirectory() + "/testASettingThatJudgesNothingLeavesNoFailureToReview.1.png",
            failure: "an earlier failure.png", review: nil, summary: "an earlier run")
        try Data(earlier.encoded()).write(to: URL(fileURLWithPath: entry))
        let message = try XCTUnwrap(verify(Scene.badge.rasterize(), as: .image(metric: .channel(tolerance: -3)), named: "1"))
        XCTAssertTrue(message.contains("imgdiff: the channel threshold must be >= 0, not -3.0."), message)
        XCTAssertFalse(message.contains("the images match"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry), "no entry for review, not even the earlier run's")
    }

    /// Two snapshots of one test with identical references fail each with its own artifacts,
    /// named as swift-snapshot-testing names the references.
    func testTwinsHaveTheirOwnArtifacts() throws {
        let moved = try XCTUnwrap(verify(Scene.badgeWithMovedDisc, as: .scene(), named: "a"))
        let drifted = try XCTUnwrap(verify(Scene.badgeOnAnotherMachine, as: .scene(), named: "b"))
        let artifacts = SnapshotTestEnvironment.artifactsDirectory() + "/testTwinsHaveTheirOwnArtifacts"
        XCTAssertTrue(moved.contains("\(artifacts).a.failure.png"), moved)
        XCTAssertTrue(drifted.contains("\(artifacts).b.failure.png"), drifted)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".a.failure.png").pixels, Scene.badgeWithMovedDisc.rasterize().pixels)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: artifacts + ".b.failure.png").pixels, Scene.badgeOnAnotherMachine.rasterize().pixels)
    }

    /// A settings file, as `imgdiff tune --write-config` writes it, judges the snapshots: with
    /// no precisions in it, by imgdiff's own verdict; with them, by swift-snapshot-testing's
    /// rule after the file's metric.
    func testSettingsFileJudgesAsTheCLIDoes() throws {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        func strategy(_ json: String) throws -> Snapshotting<Scene, RGBAImage> {
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            return Snapshotting<RGBAImage, RGBAImage>.image(try ImageSnapshotComparison(contentsOf: file)).pullback { $0.rasterize() }
        }
        let structural = try strategy(#"{"metric": "structural"}"#)
        XCTAssertNil(verify(Scene.badgeOnAnotherMachine, as: structural, named: "badge"))
        XCTAssertEqual(
            verify(Scene.badgeWithMovedDisc, as: structural, named: "badge").map(verdictLines),
            "Newly-taken snapshot does not match reference.")
        let allowance = try strategy(#"{"metric": "exact", "maxDiffPixels": 158}"#)
        XCTAssertNil(verify(Scene.badgeWithMovedDisc, as: allowance, named: "badge"), "158 pixels differ")
        let snapshotRule = try strategy(#"{"metric": "channel", "threshold": 1, "precision": 0.99}"#)
        XCTAssertNil(verify(Scene.badgeOnAnotherMachine, as: snapshotRule, named: "badge"))
        XCTAssertEqual(
            verify(Scene.badgeWithMovedDisc, as: snapshotRule, named: "badge").map(verdictLines),
            "Actual image precision 0.92285156 is less than required 0.99")
        XCTAssertThrowsError(try strategy(#"{"metric": "structural", "typo": 1}"#)) { error in
            XCTAssertEqual("\(error)", "\(file): unknown key \"typo\"; known keys: \(["metric", "threshold", "antialiasing", "maxDiffPixels", "maxDiffRatio", "shiftRadius", "minimumClusterPixels", "textReflow", "scatteredNoise", "countAntialiased", "precision", "perceptualPrecision", "explanation"].joined(separator: ", "))")
        }
    }

    /// The file and data strategies take every setting the image strategy takes: a settings
    /// file, and ignored regions. A render from another machine (hinting, anti-aliasing) fails
    /// exact comparison and passes the structural setting; a changed word fails both, and
    /// passes only with its rectangle ignored.
    func testFileAndDataStrategiesTakeEverySetting() throws {
        let render = SharedData.packageRoot.appendingPathComponent("Fixtures/render")
        let reference = render.appendingPathComponent("noise/ref/login--other-machine.png").path
        let otherMachine = render.appendingPathComponent("noise/new/login--other-machine.png").path
        let word = render.appendingPathComponent("changes/new/login--word.png").path
        assertSnapshot(of: reference, as: .imageFile(), named: "login")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(#"{"metric": "structural"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let structural = try ImageSnapshotComparison(contentsOf: file)
        XCTAssertNotNil(verify(otherMachine, as: .imageFile(), named: "login"))
        XCTAssertNil(verify(otherMachine, as: .imageFile(structural), named: "login"))
        XCTAssertNil(verify(try Data(contentsOf: URL(fileURLWithPath: otherMachine)), as: .imageData(structural), named: "login"))
        XCTAssertNotNil(verify(word, as: .imageFile(structural), named: "login"))
        XCTAssertNotNil(verify(try Data(contentsOf: URL(fileURLWithPath: word)), as: .imageData(structural), named: "login"))

        let wordBox = PixelRect(minX: 124, minY: 144, maxX: 173, maxY: 153)
        XCTAssertNil(verify(word, as: .imageFile(ignoring: [wordBox]), named: "login"))
        XCTAssertNil(verify(try Data(contentsOf: URL(fileURLWithPath: word)), as: .imageData(ignoring: [wordBox]), named: "login"))
        let shortOfIt = PixelRect(minX: 124, minY: 144, maxX: 172, maxY: 153)
        XCTAssertNotNil(verify(word, as: .imageFile(ignoring: [shortOfIt]), named: "login"))
    }

    // MARK: - Helpers

    private func verify<Value>(
        _ value: Value, as strategy: Snapshotting<Value, RGBAImage>, named name: String,
        file: StaticString = #filePath, testName: String = #function
    ) -> String? {
        verifySnapshot(of: value, as: strategy, named: name, file: file, testName: testName)
    }
}

/// swift-snapshot-testing's verdict inside a full `verifySnapshot` message: the lines between
/// the diff tool's line and imgdiff's summary.
func verdictLines(_ message: String) -> String {
    let paragraphs = message.components(separatedBy: "\n\n")
    guard paragraphs.count >= 3 else { return message }
    return paragraphs[2]
}

final class DiffToolTests: XCTestCase {
    func testImgdiffDiffToolNamesTheReviewCommand() {
        XCTAssertEqual(
            SnapshotTestingConfiguration.DiffTool.imgdiff(currentFilePath: "/src/__Snapshots__/T/t.1.png", failedFilePath: "/tmp/artifacts/T/t.1.png"),
            "imgdiff review /tmp/artifacts/T")
        XCTAssertEqual(
            SnapshotTestingConfiguration.DiffTool.imgdiff(currentFilePath: "file:///src/t.png", failedFilePath: "file:///tmp/artifacts/T/t.1.png"),
            "imgdiff review /tmp/artifacts/T")
        XCTAssertEqual(
            SnapshotTestingConfiguration.DiffTool.imgdiff(currentFilePath: "/src/t.png", failedFilePath: "/tmp/art with space/it's/T/t.1.png"),
            #"imgdiff review '/tmp/art with space/it'\''s/T'"#, "one shell word, pasted as it reads")
    }
}
