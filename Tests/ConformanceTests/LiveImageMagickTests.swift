import CMagickWand
import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// The oracle, live: real ImageMagick (MagickWand, the Q16 build Debian ships) runs the
/// colour-matrix + dissolve workflow and `compare -metric AE` on our fixture, and our
/// IM6-rounding outputs must equal its output sample for sample.
final class LiveImageMagickTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MagickWandGenesis()
    }

    var fixtures: URL { SharedData.packageRoot.appendingPathComponent("Fixtures/login") }

    func testBlendEqualsMagickWand() throws {
        let refPath = fixtures.appendingPathComponent("ref.png").path
        let failPath = fixtures.appendingPathComponent("fail.png").path

        let change = try wand(reading: refPath)
        defer { DestroyMagickWand(change) }
        let kernel = try XCTUnwrap(AcquireKernelInfo("6x3: 1 0 0 0 0 0.4  0 1 0 0 0 0  0 0 1 0 0 0"))
        defer { DestroyKernelInfo(kernel) }
        XCTAssertEqual(MagickColorMatrixImage(change, kernel), MagickTrue)
        let changePNG = try blob(of: change)
        let changeReread = NewMagickWand()!
        defer { DestroyMagickWand(changeReread) }
        XCTAssertEqual(MagickReadImageBlob(changeReread, changePNG, changePNG.count), MagickTrue)

        let blend = try wand(reading: failPath)
        defer { DestroyMagickWand(blend) }
        XCTAssertEqual(MagickSetImageArtifact(blend, "compose:args", "60,100"), MagickTrue)
        XCTAssertEqual(MagickCompositeImage(blend, changeReread, DissolveCompositeOp, 0, 0), MagickTrue)
        let theirs = try ImageDecoder.decode(blob(of: blend), name: "MagickWand blend")

        let ours = ImageMagickBlend.render(
            reference: try ImageDecoder.decode(contentsOf: refPath),
            failure: try ImageDecoder.decode(contentsOf: failPath),
            rounding: .im6)
        XCTAssertEqual(ours.size, theirs.size)
        XCTAssertEqual(zip(ours.pixels, theirs.pixels).filter { $0 != $1 }.count, 0)
        XCTAssertNotEqual(ours.pixels, try ImageDecoder.decode(contentsOf: failPath).pixels, "the blend must change something")
    }

    func testAECountEqualsMagickWand() throws {
        let refPath = fixtures.appendingPathComponent("ref.png").path
        let failPath = fixtures.appendingPathComponent("fail.png").path
        for percent in [0.0, 5.0] {
            let reference = try wand(reading: refPath), failure = try wand(reading: failPath)
            defer {
                DestroyMagickWand(reference)
                DestroyMagickWand(failure)
            }
            let fuzz = ImageMagickCompare.fuzz(percent: percent)
            XCTAssertEqual(MagickSetImageFuzz(reference, fuzz), MagickTrue)
            XCTAssertEqual(MagickSetImageFuzz(failure, fuzz), MagickTrue)
            var distortion = 0.0
            let difference = MagickCompareImages(reference, failure, AbsoluteErrorMetric, &distortion)
            if let difference { DestroyMagickWand(difference) }
            let ours = ImageMagickCompare.absoluteError(
                try ImageDecoder.decode(contentsOf: refPath), try ImageDecoder.decode(contentsOf: failPath), fuzz: fuzz)
            XCTAssertGreaterThan(ours.count, 0)
            XCTAssertEqual(Double(ours.count), distortion, "fuzz \(percent)%")
        }
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
