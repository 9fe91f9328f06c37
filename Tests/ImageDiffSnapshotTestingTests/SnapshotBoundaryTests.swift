import Foundation
import ImageCodecs
import ImageDiff
import ImageDiffSnapshotTesting
import SnapshotTesting
import XCTest

/// The `Float` boundaries of swift-snapshot-testing's rules through `verifySnapshot`, the record
/// modes, and references that cannot be read. References are recorded into scratch folders.
final class SnapshotBoundaryTests: XCTestCase {
    override func invokeTest() {
        _ = SnapshotTestEnvironment.artifactsRoot
        withSnapshotTesting(record: .never, diffTool: SnapshotTestEnvironment.diffTool) {
            super.invokeTest()
        }
    }

    /// 10 × 10 pixels are 400 bytes; precision 0.99 allows `Int(0.01 · 400)` computed in
    /// `Float`, which is 3 bytes, not 4.
    func testBytePrecisionTruncatesInFloat() {
        let folder = SnapshotTestEnvironment.scratchDirectory("byte-precision")
        let reference = RGBAImage(width: 10, height: 10, filledWith: RGBA(10, 20, 30))
        record(reference, in: folder)

        XCTAssertNil(check(changingBytes(reference, 3), precision: 0.99, in: folder))
        XCTAssertEqual(
            check(changingBytes(reference, 4), precision: 0.99, in: folder).map(verdictLines),
            "Actual image precision 0.99 is less than required 0.99")
        XCTAssertNil(check(changingBytes(reference, 4), precision: 0.989, in: folder))
    }

    /// perceptualPrecision 0.98 gives the `Float` threshold 1.9999981, and ΔE is read back as a
    /// half float: a pixel whose ΔE94 rounds above it (from 1.99951) fails, as it does with
    /// swift-snapshot-testing on macOS; one whose half float stays below passes.
    func testPerceptualThresholdJustUnderTwo() throws {
        let threshold = (1 - Float(0.98)) * 100
        XCTAssertEqual(threshold, 1.9999981)
        let folder = SnapshotTestEnvironment.scratchDirectory("perceptual-threshold")
        let referenceColor = RGBA(128, 128, 128)
        let reference = RGBAImage(width: 4, height: 4, filledWith: referenceColor)
        record(reference, in: folder)

        let over = try XCTUnwrap(colorAtDeltaE94(from: referenceColor) { SnapshotPrecision.halfFloat($0) > threshold && $0 < 2.05 })
        var actual = reference
        actual[0, 0] = over.color
        let message = try XCTUnwrap(check(actual, perceptualPrecision: 0.98, in: folder))
        XCTAssertEqual(
            verdictLines(message),
            """
            The percentage of pixels that match 0.9375 is less than required 1.0
            The lowest perceptual color precision \(1 - SnapshotPrecision.halfFloat(over.deltaE) / 100) is less than required 0.98
            """)
        XCTAssertNil(check(actual, precision: 0.9375, perceptualPrecision: 0.98, in: folder))

        let under = try XCTUnwrap(colorAtDeltaE94(from: referenceColor) { $0 > 1.9 && SnapshotPrecision.halfFloat($0) <= threshold })
        actual[0, 0] = under.color
        XCTAssertNil(check(actual, perceptualPrecision: 0.98, in: folder))
    }

    /// `.missing` records a missing reference and fails once; `.all` re-records and fails;
    /// `.failed` re-records only what fails; `.never` records nothing.
    func testRecordModesBehaveAsSwiftSnapshotTesting() throws {
        let folder = SnapshotTestEnvironment.scratchDirectory("record-modes")
        let reference = Scene.badge.rasterize(), changed = Scene.badgeWithMovedDisc.rasterize()
        let path = folder + "/testRecordModesBehaveAsSwiftSnapshotTesting.badge.png"

        let never = try XCTUnwrap(check(reference, record: .never, in: folder))
        XCTAssertTrue(never.hasPrefix("No reference was found on disk. New snapshot was not recorded"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))

        let missing = try XCTUnwrap(check(reference, record: .missing, in: folder))
        XCTAssertTrue(missing.hasPrefix("No reference was found on disk. Automatically recorded snapshot"))
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: path), reference)
        XCTAssertNil(check(reference, record: .missing, in: folder))
        XCTAssertNotNil(check(changed, record: .missing, in: folder))
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: path), reference)

        XCTAssertNil(check(reference, record: .failed, in: folder))
        let failed = try XCTUnwrap(check(changed, record: .failed, in: folder))
        XCTAssertTrue(failed.hasPrefix("Snapshot \"badge\" does not match reference. A new snapshot was automatically recorded."))
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: path), changed)

        let all = try XCTUnwrap(check(reference, record: .all, in: folder))
        XCTAssertTrue(all.hasPrefix("Record mode is on. Automatically recorded snapshot"))
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: path), reference)
        XCTAssertNil(check(reference, record: .never, in: folder))
    }

    /// Artifacts are named after the reference that failed, whatever folder holds it, when the
    /// strategy is told that folder.
    func testArtifactsFollowACustomSnapshotFolder() throws {
        let folder = SnapshotTestEnvironment.scratchDirectory("custom-folder")
        record(Scene.badge.rasterize(), in: folder)
        let message = try XCTUnwrap(check(Scene.badgeWithMovedDisc.rasterize(), in: folder))
        let base = SnapshotTestEnvironment.artifactsDirectory() + "/testArtifactsFollowACustomSnapshotFolder.badge"
        for kind in ["reference", "failure", "blend", "mask"] {
            XCTAssertTrue(message.contains("\(base).\(kind).png"), kind)
            XCTAssertNoThrow(try ImageDecoder.decode(contentsOf: "\(base).\(kind).png"), kind)
        }
    }

    func testDisabledArtifactsWriteNothing() throws {
        let folder = SnapshotTestEnvironment.scratchDirectory("no-artifacts")
        record(Scene.badge.rasterize(), in: folder)
        let message = try XCTUnwrap(
            verifySnapshot(
                of: Scene.badgeWithMovedDisc.rasterize(), as: .image(artifacts: .disabled), named: "badge",
                snapshotDirectory: folder, file: #filePath))
        XCTAssertFalse(message.contains("Artifacts:"))
        XCTAssertTrue(message.hasSuffix("box 23:7-43:24."), message)
    }

    func testUnreadableReference() throws {
        let folder = SnapshotTestEnvironment.scratchDirectory("unreadable")
        try Data("not an image".utf8).write(
            to: URL(fileURLWithPath: folder + "/testUnreadableReference.badge.png"))
        let message = try XCTUnwrap(check(Scene.badge.rasterize(), in: folder))
        XCTAssertEqual(verdictLines(message), "Reference image could not be loaded.")
        XCTAssertTrue(message.contains("imgdiff: the stored reference could not be decoded: "), "the decoder's reason: \(message)")
        try Data().write(to: URL(fileURLWithPath: folder + "/testUnreadableReference.badge.png"))
        let empty = try XCTUnwrap(check(Scene.badge.rasterize(), in: folder))
        XCTAssertTrue(empty.contains("imgdiff: the stored reference is empty or not an image"), empty)
    }

    // MARK: - Helpers

    private func record(_ image: RGBAImage, in folder: String, testName: String = #function) {
        _ = verifySnapshot(
            of: image, as: .image(), named: "badge", record: .all, snapshotDirectory: folder,
            file: #filePath, testName: testName)
    }

    private func check(
        _ image: RGBAImage, precision: Float = 1, perceptualPrecision: Float = 1,
        record: SnapshotTestingConfiguration.Record? = nil, in folder: String, testName: String = #function
    ) -> String? {
        verifySnapshot(
            of: image,
            as: .image(
                precision: precision, perceptualPrecision: perceptualPrecision,
                artifacts: ImageSnapshotArtifacts(snapshotDirectory: folder), testName: testName),
            named: "badge", record: record, snapshotDirectory: folder, file: #filePath, testName: testName)
    }

    private func changingBytes(_ image: RGBAImage, _ count: Int) -> RGBAImage {
        var pixels = image.pixels
        var changed = 0
        var index = 0
        while changed < count {
            if index % 4 != 3 {
                pixels[index] &+= 1
                changed += 1
            }
            index += 1
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    /// A colour near `reference` whose ΔE94 from it, in `Float`, satisfies `condition`.
    private func colorAtDeltaE94(
        from reference: RGBA, where condition: (Float) -> Bool
    ) -> (color: RGBA, deltaE: Float)? {
        let lab = LabColor(r: reference.r, g: reference.g, b: reference.b)
        for r in -8...8 {
            for g in -8...8 {
                for b in -8...8 {
                    let color = RGBA(
                        UInt8(Int(reference.r) + r), UInt8(Int(reference.g) + g), UInt8(Int(reference.b) + b))
                    let deltaE = Float(DeltaE.cie94(lab, LabColor(r: color.r, g: color.g, b: color.b)))
                    if condition(deltaE) { return (color, deltaE) }
                }
            }
        }
        return nil
    }
}
