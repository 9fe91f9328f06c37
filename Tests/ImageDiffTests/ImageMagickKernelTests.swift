import TestSupport
import XCTest
@testable import ImageDiff

/// The closed integer forms hold against ImageMagick's own double arithmetic.
final class ImageMagickKernelTests: XCTestCase {
    /// Every opaque 8-bit (reference, failure) sample pair, both roundings: the 8-bit fast
    /// path (closed integer forms) equals the general Porter-Duff path.
    func testOpaqueBlendClosedFormEqualsGeneralPath() {
        var reference = [UInt8](), failure = [UInt8]()
        for s in 0...255 {
            for d in 0...255 {
                reference += [UInt8(s), UInt8(255 - s), UInt8(s / 3), 255]
                failure += [UInt8(d), UInt8(d), UInt8(255 - d), 255]
            }
        }
        let ref = RGBAImage(width: 256, height: 256, pixels: reference, hasAlpha: false)
        let fail = RGBAImage(width: 256, height: 256, pixels: failure, hasAlpha: false)
        for rounding in ImageMagickRounding.allCases {
            XCTAssertEqual(
                ImageMagickBlend.renderEightBit(reference: ref, failure: fail, rounding: rounding),
                ImageMagickBlend.renderGeneral(reference: ref, failure: fail, rounding: rounding), "\(rounding)")
            XCTAssertEqual(
                ImageMagickCompare.differenceImage(ref, fail, rounding: rounding),
                ImageMagickCompare.differenceImageGeneral(ref, fail, fuzz: 0, rounding: rounding), "\(rounding)")
        }
    }

    /// Random images with alpha, both orders of size, several fuzz values: fast paths equal
    /// the general ones.
    func testRenderersEqualGeneralPathOnRandomImages() {
        var generator = SplitMix(seed: 2024)
        func image(_ width: Int, _ height: Int, alpha: Bool) -> RGBAImage {
            let pixels = (0..<(width * height * 4)).map { index -> UInt8 in
                let value = UInt8(truncatingIfNeeded: generator.next())
                return index % 4 == 3 && !alpha ? 255 : (index % 4 == 3 && value > 200 ? 255 : value)
            }
            return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
        }
        for (refAlpha, failAlpha) in [(false, false), (true, true), (true, false), (false, true)] {
            for (refSize, failSize) in [((13, 7), (13, 7)), ((20, 9), (11, 14)), ((5, 5), (9, 3))] {
                let ref = image(refSize.0, refSize.1, alpha: refAlpha)
                let fail = image(failSize.0, failSize.1, alpha: failAlpha)
                for rounding in ImageMagickRounding.allCases {
                    XCTAssertEqual(
                        ImageMagickBlend.render(reference: ref, failure: fail, rounding: rounding),
                        ImageMagickBlend.renderGeneral(reference: ref, failure: fail, rounding: rounding))
                    for fuzz in [0.0, 3276.8, 20000] {
                        XCTAssertEqual(
                            ImageMagickCompare.differenceImage(ref, fail, fuzz: fuzz, rounding: rounding),
                            ImageMagickCompare.differenceImageGeneral(ref, fail, fuzz: fuzz, rounding: rounding))
                    }
                }
            }
        }
    }

    /// The overlay's SIMD row kernel equals its one-pixel-at-a-time reference: row lengths
    /// around the four-pixel step, opaque runs broken by translucent pixels, every alpha-ness,
    /// random samples and samples from a few values (pairs that repeat, or repeat all but one
    /// byte, as on a transparent background).
    func testBlendRowKernelEqualsScalarReference() {
        var generator = SplitMix(seed: 0xB1E0D)
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 257] {
            for (translucentShare, levels) in [(0, 256), (1, 256), (20, 256), (255, 256), (255, 2), (128, 3)] {
                let bytes = { (0..<(count * 4)).map { index -> UInt8 in
                    let value = UInt8(truncatingIfNeeded: generator.next() % UInt64(levels) * (255 / UInt64(levels - 1)))
                    guard index % 4 == 3 else { return value }
                    return Int(value) < translucentShare ? value : 255
                } }
                assertBlendKernelEqualsScalar(bytes(), bytes(), "\(count) pixels, \(translucentShare)")
            }
        }
    }

    /// The kernel's shortcuts equal the reference too: eight pixels the same in both images
    /// (only red is tinted), and eight pixel pairs that repeat the eight before (flat ground):
    /// rows of a few colours in runs, the new image a copy of the reference with some pixels
    /// changed, and fourth bytes below 255 in images without alpha.
    func testBlendRowKernelShortcutsEqualScalarReference() {
        var generator = SplitMix(seed: 0x5A3E)
        let palette: [[UInt8]] = [[255, 255, 255, 255], [0, 0, 0, 255], [153, 0, 0, 255], [12, 200, 99, 255], [40, 40, 40, 7]]
        for count in [8, 9, 16, 24, 31, 64, 257] {
            for changedShare in [0, 1, 10, 50] {
                var reference: [UInt8] = []
                while reference.count < count * 4 {
                    let colour = palette[Int(generator.next() % UInt64(palette.count))]
                    for _ in 0..<(1 + Int(generator.next() % 20)) { reference += colour }
                }
                reference = Array(reference.prefix(count * 4))
                var failure = reference
                for pixel in 0..<count where Int(generator.next() % 100) < changedShare {
                    failure[pixel * 4 + Int(generator.next() % 4)] &+= UInt8(1 + generator.next() % 255)
                }
                assertBlendKernelEqualsScalar(reference, failure, "\(count) pixels, \(changedShare) % changed")
            }
        }
        // Eight zero pixels, which the kernel's memory of the eight before holds at first.
        let zeros = [UInt8](repeating: 0, count: 32), twos = [UInt8](repeating: 2, count: 32)
        for (reference, failure) in [(zeros, zeros), (twos, zeros), (zeros, twos)] {
            assertBlendKernelEqualsScalar(reference, failure, "zeros")
        }
    }

    /// The row kernel's blend of `reference` over `failure` (RGBA rows of one length) equals
    /// its scalar reference under every alpha-ness and rounding.
    private func assertBlendKernelEqualsScalar(
        _ reference: [UInt8], _ failure: [UInt8], _ label: String, line: UInt = #line
    ) {
        let count = reference.count / 4
        for (referenceHasAlpha, failureHasAlpha) in [(false, false), (true, true), (true, false), (false, true)] {
            for rounding in ImageMagickRounding.allCases {
                let kernel = ImageMagickBlend.RowKernel(
                    referenceHasAlpha: referenceHasAlpha, failureHasAlpha: failureHasAlpha, rounding: rounding)
                var vectorized = [UInt8](repeating: 0, count: count * 4)
                var scalar = [UInt8](repeating: 1, count: count * 4)
                reference.withUnsafeBufferPointer { ref in
                    failure.withUnsafeBufferPointer { fail in
                        guard let ref = ref.baseAddress, let fail = fail.baseAddress else { return }
                        kernel.blend(reference: ref, failure: fail, count: count, into: &vectorized)
                        kernel.blendScalar(reference: ref, failure: fail, count: count, into: &scalar)
                    }
                }
                XCTAssertEqual(
                    vectorized, scalar, "\(label), \(referenceHasAlpha)/\(failureHasAlpha), \(rounding)", line: line)
            }
        }
    }

    func testOpaqueBlendFormulas() {
        XCTAssertEqual(ImageMagickBlend.opaqueBlend8(255, 0, .im6), 153)
        XCTAssertEqual(ImageMagickBlend.opaqueBlend8(1, 0, .im6), 0)
        XCTAssertEqual(ImageMagickBlend.opaqueBlend8(1, 0, .im7), 1)
    }

    /// 8-bit diff pixels: floor((4c + v) / 5) under IM6, rounded under IM7.
    func testDifferenceImageClosedForms() {
        var reference = [UInt8](), failure = [UInt8]()
        for v in 0...255 {
            reference += [UInt8(v), UInt8(v), UInt8(v), 255]
            failure += [UInt8(v), UInt8(v), UInt8(v), 255]
            reference += [UInt8(v), UInt8(v), UInt8(v), 255]
            failure += [UInt8(255 - v), UInt8(v / 2), UInt8(v), 255]
        }
        let ref = RGBAImage(width: 2, height: 256, pixels: reference, hasAlpha: false)
        let fail = RGBAImage(width: 2, height: 256, pixels: failure, hasAlpha: false)
        for rounding in ImageMagickRounding.allCases {
            let diff = ImageMagickCompare.differenceImage(ref, fail, rounding: rounding)
            for v in 0...255 {
                let same = diff[0, v], differs = diff[1, v]
                let lowlight = rounding == .im6 ? (4 * 255 + v) / 5 : (2 * (4 * 255 + v) + 5) / 10
                XCTAssertEqual(Int(same.r), lowlight)
                let changed = v != 255 - v || v != v / 2
                if changed {
                    let red = rounding == .im6 ? (4 * 241 + v) / 5 : (2 * (4 * 241 + v) + 5) / 10
                    XCTAssertEqual(Int(differs.r), red, "v=\(v) \(rounding)")
                }
            }
        }
    }

    /// `-fuzz 5%` on opaque 8-bit images: a channel must differ by 13 levels or more.
    func testFuzzFivePercentNeedsThirteenLevels() {
        let reference = RGBAImage(width: 2, height: 1, pixels: [100, 100, 100, 255, 100, 100, 100, 255], hasAlpha: false)
        let failure = RGBAImage(width: 2, height: 1, pixels: [112, 100, 100, 255, 113, 100, 100, 255], hasAlpha: false)
        let ae = ImageMagickCompare.absoluteError(reference, failure, fuzz: ImageMagickCompare.fuzz(percent: 5))
        XCTAssertEqual(ae.count, 1)
        XCTAssertEqual(ae.boundingBox, PixelRect(minX: 1, minY: 0, maxX: 1, maxY: 0))
    }
}

final class DifferenceTestThresholdTests: XCTestCase {
    /// The integer test for references without alpha equals `(Δq)² ≥ t²` in doubles.
    func testIntegerThresholdEqualsSquaredDistance() {
        for fuzz in [0.0, 1.0, 256.5, 3276.8, 1000.5, 257 * 12.75, 65535] {
            for delta in 0...255 {
                let ref = RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
                let fail = RGBAImage(width: 1, height: 1, pixels: [UInt8(delta), 0, 0, 255], hasAlpha: false)
                let test = ImageMagickCompare.DifferenceTest(reference: ref, failure: fail, fuzz: fuzz)
                let distance = max(fuzz, 0.5.squareRoot())
                let expected = Double(257 * delta) * Double(257 * delta) >= distance * distance
                XCTAssertEqual(test.differs(x: 0, y: 0), expected, "fuzz \(fuzz) Δ \(delta)")
            }
        }
    }
}

final class AbsoluteErrorFastPathTests: XCTestCase {
    /// The banded count with its 8-bit integer test and equal-row skipping equals the plain
    /// per-pixel test, over the whole edge-extended area, with and without alpha.
    func testBandedCountEqualsPerPixelTest() {
        var generator = SplitMix(seed: 77)
        func image(_ width: Int, _ height: Int, alpha: Bool) -> RGBAImage {
            var pixels = [UInt8]()
            for index in 0..<(width * height) {
                let base = UInt8(truncatingIfNeeded: index / 97)
                let noisy = generator.next() % 5 == 0
                let opaque = !alpha || generator.next() % 2 == 0
                pixels += [base, base &+ (noisy ? UInt8(generator.next() % 30) : 0), 7, opaque ? 255 : UInt8(truncatingIfNeeded: generator.next())]
            }
            return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
        }
        for alpha in [false, true] {
            for (refSize, failSize) in [((600, 700), (600, 700)), ((650, 400), (500, 720))] {
                let ref = image(refSize.0, refSize.1, alpha: alpha), fail = image(failSize.0, failSize.1, alpha: alpha)
                for fuzz in [0.0, 3276.8] {
                    let ae = ImageMagickCompare.absoluteError(ref, fail, fuzz: fuzz, collectsMask: true)
                    let test = ImageMagickCompare.DifferenceTest(reference: ref, failure: fail, fuzz: fuzz)
                    var count = 0
                    var expectedMask = DifferenceMask(width: ae.mask?.width ?? 0, height: ae.mask?.height ?? 0)
                    for y in 0..<max(ref.height, fail.height) {
                        for x in 0..<max(ref.width, fail.width) where test.differs(x: x, y: y) {
                            count += 1
                            expectedMask.set(x: x, y: y)
                        }
                    }
                    XCTAssertGreaterThan(count, 0)
                    XCTAssertEqual(ae.count, count, "alpha \(alpha) fuzz \(fuzz)")
                    XCTAssertEqual(ae.mask, expectedMask)
                }
            }
        }
    }
}
