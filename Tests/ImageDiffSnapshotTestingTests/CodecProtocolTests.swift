import Foundation
import ImageCodecs
import ImageDiffSnapshotTesting
import ImageDiffSnapshotTestingCore
import XCTest

/// The adapter over a codec a suite brings itself (``PAMCodec``, Netpbm's RGBA format): what a
/// consumer of `ImageDiffSnapshotTestingCore` without libpng gets. scripts/check-consumer builds
/// such a consumer where the C libraries' headers are hidden.
final class CodecProtocolTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-codec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testOwnCodecRecordsComparesAndWritesArtifactsInItsFormat() throws {
        let snapshots = work.appendingPathComponent("__Snapshots__").path
        let artifactsRoot = work.appendingPathComponent("artifacts").path
        let artifacts = ImageSnapshotArtifacts(rootDirectory: artifactsRoot, snapshotDirectory: snapshots)
        let strategy = Snapshotting<RGBAImage, RGBAImage>.image(
            ImageSnapshotComparison(), codec: PAMCodec(), artifacts: artifacts, testName: "testOwnCodec()")
        let reference = Scene.badge.rasterize()

        let recorded = verifySnapshot(
            of: reference, as: strategy, named: "badge", record: .all, snapshotDirectory: snapshots, testName: "testOwnCodec()")
        XCTAssertNotNil(recorded, "recording reports the new reference")
        let referencePath = snapshots + "/testOwnCodec.badge.pam"
        let stored = try XCTUnwrap(FileManager.default.contents(atPath: referencePath))
        XCTAssertEqual(try PAMCodec().decode(Array(stored)).pixels, reference.pixels)

        XCTAssertNil(verifySnapshot(
            of: reference, as: strategy, named: "badge", record: .never, snapshotDirectory: snapshots, testName: "testOwnCodec()"))
        let failure = Scene.badgeWithMovedDisc.rasterize()
        let message = try XCTUnwrap(verifySnapshot(
            of: failure, as: strategy, named: "badge", record: .never, snapshotDirectory: snapshots, testName: "testOwnCodec()"))
        XCTAssertTrue(message.contains("imgdiff: 158 of 1536 pixels differ"), message)

        let base = artifactsRoot + "/" + URL(fileURLWithPath: "\(#filePath)").deletingPathExtension().lastPathComponent
            + "/testOwnCodec.badge"
        let difference = ImageDiff.compare(reference, failure, options: ComparisonOptions(metric: .exact, collectsMask: true))
        for output in [ReviewOutput.review, .blend, .mask] {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: "\(base).\(output.rawValue).pam"), "\(output)")
            let expected = try XCTUnwrap(output.image(reference: reference, actual: failure, result: difference))
            XCTAssertEqual(try PAMCodec().decode(Array(bytes)).pixels, expected.pixels, "\(output)")
        }
        let entry = try XCTUnwrap(ReviewEntry(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: base + ".imgdiff.json")))))
        XCTAssertEqual(entry.reference, referencePath)
        XCTAssertEqual(entry.failure, base + ".failure.pam")
        XCTAssertEqual(entry.failureDigest, ReviewEntry.digest(of: Array(try Data(contentsOf: URL(fileURLWithPath: base + ".failure.pam")))),
                       "the entry fingerprints the failure file it names")
    }

    /// The libpng codec writes the pipeline's own bytes (1-bit mask, streamed blend); decoded,
    /// they are the pixels the core draws for any codec.
    func testPNGCodecDrawsWhatTheCoreDraws() throws {
        let reference = Scene.badge.rasterize(), failure = Scene.badgeWithMovedDisc.rasterize()
        let difference = ImageDiff.compare(reference, failure, options: ComparisonOptions(metric: .exact, collectsMask: true))
        for output in ReviewOutput.allCases {
            let png = try XCTUnwrap(
                PNGSnapshotCodec().encode(
                    output, reference: reference, actual: failure, result: difference, rounding: .im7,
                    maskColor: RGBA(255, 0, 0, 255)), "\(output)")
            let drawn = try XCTUnwrap(output.image(reference: reference, actual: failure, result: difference))
            XCTAssertEqual(try ImageDecoder.decode(png, name: "\(output)").pixels, drawn.pixels, "\(output)")
        }
    }
}

/// Netpbm's PAM, RGB_ALPHA tuples: a whole codec in a few lines, as a suite might bring one.
struct PAMCodec: SnapshotImageCodec {
    struct NotPAM: Error {}

    var pathExtension: String { "pam" }

    func encode(_ image: RGBAImage) throws -> [UInt8] {
        let header = "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        return Array(header.utf8) + image.pixels
    }

    func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        let marker = Array("ENDHDR\n".utf8)
        guard let end = (0...max(0, bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { throw NotPAM() }
        var fields: [String: Int] = [:]
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], fields["DEPTH"] == 4,
            bytes.count - end - marker.count == width * height * 4
        else { throw NotPAM() }
        return RGBAImage(width: width, height: height, pixels: Array(bytes[(end + marker.count)...]), hasAlpha: true)
    }
}
