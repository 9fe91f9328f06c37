import CMagickWand
import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// The oracle, live: real ImageMagick (MagickWand, the IM6 Q16 build Debian ships) runs the
/// review workflow on pairs of the package's own fixtures, and imgdiff's IM6-rounding outputs
/// must equal its outputs sample for sample, on the Q16 scale:
/// - the blend: `-color-matrix "6x3: 1 0 0 0 0 0.4  0 1 0 0 0 0  0 0 1 0 0 0"` on the reference,
///   written as PNG and read back, then dissolved over the failure with
///   `-compose dissolve -define compose:args='60,100' -composite`;
/// - `compare -metric AE [-fuzz 5%]`: the count, and the difference image.
///
/// The pairs cover opaque screenshots, translucent RGBA, gray and palette images with tRNS,
/// 16-bit samples on either side, JPEG, and sizes that differ either way. ImageMagick 7's
/// rounding is checked live by LiveHDRIBlendTests (Debian's HDRI build) and against recorded
/// outputs by ImageMagickConformanceTests.
final class LiveImageMagickTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MagickWandGenesis()
    }

    var fixtures: URL { SharedData.packageRoot.appendingPathComponent("Fixtures") }

    /// (reference, failure), under Fixtures/.
    static let pairs: [(reference: String, failure: String)] = [
        ("login/ref.png", "login/fail.png"),
        ("tune/changes/ref/colour-change.png", "tune/changes/new/colour-change.png"),
        ("tune/noise/ref/text-aa-offset.png", "tune/noise/new/text-aa-offset.png"),
        ("tune/noise/ref/jpeg-recompress.jpg", "tune/noise/new/jpeg-recompress.jpg"),
        ("batch/ref/legacy/about.png", "batch/ref/home.png"),
        ("login/ref.png", "batch/ref/login.png"),
        ("codecs/rgba8.png", "codecs/graya8.png"),
        ("codecs/graya8.png", "codecs/rgb8.png"),
        ("codecs/rgb8.png", "codecs/rgba8.png"),
        ("codecs/palette8_trns.png", "codecs/palette2_trns.png"),
        ("codecs/gray8_trns.png", "codecs/rgb8_trns.png"),
        ("codecs/rgba16.png", "codecs/rgba8.png"),
        ("codecs/rgb8.png", "codecs/rgb16.png"),
        ("codecs/graya16.png", "codecs/rgba16.png"),
        ("codecs/rgba8_adam7.png", "codecs/rgba8.png"),
        ("codecs/rgb16_trns.png", "codecs/rgb16_adam7.png"),
    ]

    static let fuzzPercents = [0.0, 5.0]

    func testBlendEqualsMagickWand() throws {
        var changed = 0
        for (referenceName, failureName) in Self.pairs {
            let referencePath = path(referenceName), failurePath = path(failureName)
            let failure = try ImageDecoder.decode(contentsOf: failurePath)
            let ours = ImageMagickBlend.render(
                reference: try ImageDecoder.decode(contentsOf: referencePath), failure: failure, rounding: .im6)
            let theirs = try magickBlend(reference: referencePath, failure: failurePath)
            assertSameSamples(ours, theirs, "blend of \(referenceName) over \(failureName)")
            if ours.pixels != failure.pixels { changed += 1 }
        }
        XCTAssertEqual(changed, Self.pairs.count, "every blend must change something")
    }

    func testAECountEqualsMagickWand() throws {
        var countsByPair: [[Int]] = []
        for (referenceName, failureName) in Self.pairs {
            let reference = try ImageDecoder.decode(contentsOf: path(referenceName))
            let failure = try ImageDecoder.decode(contentsOf: path(failureName))
            var counts: [Int] = []
            for percent in Self.fuzzPercents {
                let label = "AE of \(referenceName) vs \(failureName), fuzz \(percent)%"
                let theirs = try magickCompare(reference: path(referenceName), failure: path(failureName), fuzzPercent: percent)
                let fuzz = ImageMagickCompare.fuzz(percent: percent)
                let ours = ImageMagickCompare.absoluteError(reference, failure, fuzz: fuzz).count
                XCTAssertEqual(Double(ours), theirs.count, label)
                let viaCompare = compare(reference, failure, options: ComparisonOptions(metric: .imageMagickAE(fuzz: fuzz)))
                XCTAssertEqual(viaCompare.differentPixels, ours, label)
                counts.append(ours)
            }
            countsByPair.append(counts)
        }
        XCTAssertFalse(countsByPair.contains { $0[0] == 0 }, "every pair must differ")
        XCTAssertTrue(countsByPair.contains { 0 < $0[1] && $0[1] < $0[0] }, "5 % fuzz must forgive some differences of a pair, not all")
    }

    func testDifferenceImageEqualsMagickWand() throws {
        for (referenceName, failureName) in Self.pairs {
            let reference = try ImageDecoder.decode(contentsOf: path(referenceName))
            let failure = try ImageDecoder.decode(contentsOf: path(failureName))
            for percent in Self.fuzzPercents {
                let theirs = try magickCompare(reference: path(referenceName), failure: path(failureName), fuzzPercent: percent)
                let ours = ImageMagickCompare.differenceImage(
                    reference, failure, fuzz: ImageMagickCompare.fuzz(percent: percent), rounding: .im6)
                assertSameSamples(ours, theirs.difference, "difference image of \(referenceName) vs \(failureName), fuzz \(percent)%")
            }
        }
    }

    func path(_ fixture: String) -> String { fixtures.appendingPathComponent(fixture).path }

    /// Asserts that two images have one size and the same R, G, B, A samples on ImageMagick's
    /// Q16 scale (8-bit samples times 257): 16-bit outputs compare exactly, whichever depth
    /// ImageMagick chose to write losslessly, and an alpha channel left out reads as opaque.
    func assertSameSamples(_ ours: RGBAImage, _ theirs: RGBAImage, _ label: String, line: UInt = #line) {
        guard ours.size == theirs.size else {
            XCTFail("\(label): \(ours.size) here, \(theirs.size) from ImageMagick", line: line)
            return
        }
        var mismatches = 0
        var first: (pixel: Int, ours: [Int], theirs: [Int])?
        for pixel in 0..<ours.pixelCount {
            let a = (0..<4).map { ours.quantum(pixel, $0) }, b = (0..<4).map { theirs.quantum(pixel, $0) }
            guard a != b else { continue }
            mismatches += 1
            if first == nil { first = (pixel, a, b) }
        }
        if let first {
            XCTFail(
                "\(label): \(mismatches) pixels differ, the first at \(first.pixel % ours.width),\(first.pixel / ours.width): "
                    + "\(first.ours) here, \(first.theirs) from ImageMagick (Q16)",
                line: line)
        }
    }

    /// ImageMagick's blend, as its PNG writer leaves it, decoded.
    func magickBlend(reference: String, failure: String) throws -> RGBAImage {
        let change = try wand(reading: reference)
        defer { DestroyMagickWand(change) }
        let kernel = try XCTUnwrap(AcquireKernelInfo("6x3: 1 0 0 0 0 0.4  0 1 0 0 0 0  0 0 1 0 0 0"))
        defer { DestroyKernelInfo(kernel) }
        XCTAssertEqual(MagickColorMatrixImage(change, kernel), MagickTrue)
        let changePNG = try blob(of: change)
        let changeReread = try XCTUnwrap(NewMagickWand())
        defer { DestroyMagickWand(changeReread) }
        XCTAssertEqual(MagickReadImageBlob(changeReread, changePNG, changePNG.count), MagickTrue)

        let blend = try wand(reading: failure)
        defer { DestroyMagickWand(blend) }
        XCTAssertEqual(MagickSetImageArtifact(blend, "compose:args", "60,100"), MagickTrue)
        XCTAssertEqual(MagickCompositeImage(blend, changeReread, DissolveCompositeOp, 0, 0), MagickTrue)
        return try ImageDecoder.decode(blob(of: blend), name: "MagickWand blend")
    }

    /// What `compare -metric AE -fuzz P% reference failure diff.png` reports and writes: it
    /// compares the default channels (R, G, B, not alpha as a channel).
    func magickCompare(reference: String, failure: String, fuzzPercent: Double) throws -> (count: Double, difference: RGBAImage) {
        let referenceWand = try wand(reading: reference), failureWand = try wand(reading: failure)
        defer {
            DestroyMagickWand(referenceWand)
            DestroyMagickWand(failureWand)
        }
        let fuzz = ImageMagickCompare.fuzz(percent: fuzzPercent)
        XCTAssertEqual(MagickSetImageFuzz(referenceWand, fuzz), MagickTrue)
        XCTAssertEqual(MagickSetImageFuzz(failureWand, fuzz), MagickTrue)
        var distortion = 0.0
        let difference = try XCTUnwrap(
            MagickCompareImageChannels(referenceWand, failureWand, DefaultChannels, AbsoluteErrorMetric, &distortion))
        defer { DestroyMagickWand(difference) }
        return (distortion, try ImageDecoder.decode(blob(of: difference), name: "MagickWand difference"))
    }

    func wand(reading path: String) throws -> OpaquePointer {
        let wand = try XCTUnwrap(NewMagickWand())
        guard MagickReadImage(wand, path) == MagickTrue else {
            DestroyMagickWand(wand)
            throw XCTSkip("MagickWand cannot read \(path)")
        }
        return wand
    }

    func blob(of wand: OpaquePointer) throws -> [UInt8] {
        XCTAssertEqual(MagickSetImageFormat(wand, "PNG"), MagickTrue)
        var length = 0
        let bytes = try XCTUnwrap(MagickGetImageBlob(wand, &length))
        defer { MagickRelinquishMemory(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
