import XCTest
@testable import ImageDiff

/// The closed integer forms hold against ImageMagick's own double arithmetic.
final class ImageMagickKernelTests: XCTestCase {
    /// Every opaque 8-bit (reference, failure) sample pair, both roundings: the integer fast
    /// path equals the general Porter-Duff path.
    func testOpaqueBlendClosedFormEqualsGeneralPath() {
        for rounding in ImageMagickRounding.allCases {
            var reference = [UInt8](), failure = [UInt8]()
            for s in 0...255 {
                for d in 0...255 {
                    reference += [UInt8(s), UInt8(s), UInt8(s), 255]
                    failure += [UInt8(d), UInt8(d), UInt8(d), 255]
                }
            }
            let ref = RGBAImage(width: 256, height: 256, pixels: reference, hasAlpha: false)
            let fail = RGBAImage(width: 256, height: 256, pixels: failure, hasAlpha: false)
            var general = OutputBuilder(width: 256, height: 256, sixteenBit: false, hasAlpha: false)
            var closed = OutputBuilder(width: 256, height: 256, sixteenBit: false, hasAlpha: false)
            for index in 0..<(256 * 256) {
                ImageMagickBlend.blendQ16(ref, index, fail, index, rounding, &general)
                ImageMagickBlend.blendOpaque8(ref.pixels, index * 4, fail.pixels, index * 4, rounding, index, &closed)
            }
            XCTAssertEqual(general.pixels, closed.pixels, "\(rounding)")
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
