import XCTest
@testable import ImageDiff
@testable import SnapshotRule

final class SnapshotVerdictTests: XCTestCase {
    /// 10×10 pixels = 400 bytes; precision 0.99 allows Int(0.01 · 400 in Float) = 3 bytes.
    func testPrecisionFloatTruncationOn400Bytes() {
        let reference = RGBAImage(width: 10, height: 10, filledWith: RGBA(10, 20, 30))
        let strictness = SnapshotPrecision(precision: 0.99)
        XCTAssertEqual(strictness.verdict(reference: reference, actual: changingBytes(reference, 3)), .passed)
        let fourBytes = strictness.verdict(reference: reference, actual: changingBytes(reference, 4))
        XCTAssertFalse(fourBytes.passed)
        XCTAssertEqual(fourBytes.message, "Actual image precision 0.99 is less than required 0.99")
    }

    /// A metric's result forgives the pixels its mask leaves unmarked; one whose mask does not
    /// cover the images (another pair's) forgives none, where it read past the mask's end.
    func testAMetricsMaskForgivesOnlyWhenItCoversTheImages() {
        let reference = RGBAImage(width: 8, height: 6, filledWith: RGBA(10, 20, 30))
        var actual = reference
        actual[7, 5] = RGBA(11, 20, 30)
        let options = ComparisonOptions(metric: .channel(tolerance: 2), collectsMask: true)
        let rule = SnapshotPrecision()
        XCTAssertEqual(rule.verdict(reference: reference, actual: actual, after: compare(reference, actual, options: options)), .passed)
        let small = RGBAImage(width: 4, height: 3, filledWith: RGBA(10, 20, 30))
        let otherPair = compare(small, small, options: options)
        XCTAssertEqual(otherPair.mask?.width, 4)
        XCTAssertEqual(rule.verdict(reference: reference, actual: actual, after: otherPair),
                       rule.verdict(reference: reference, actual: actual))
        XCTAssertFalse(rule.verdict(reference: reference, actual: actual, after: otherPair).passed)
    }

    func testExactMatchRequiredByDefault() {
        let reference = RGBAImage(width: 4, height: 4, filledWith: RGBA(10, 20, 30))
        let verdict = SnapshotPrecision().verdict(reference: reference, actual: changingBytes(reference, 1))
        XCTAssertEqual(verdict.message, "Newly-taken snapshot does not match reference.")
    }

    /// A precision that is not a number fails with a message saying so, where the byte count
    /// it sets would have trapped (swift-snapshot-testing's own rule traps there).
    func testPrecisionThatIsNotANumberFailsWithAMessage() {
        let reference = RGBAImage(width: 4, height: 4, filledWith: RGBA(10, 20, 30))
        for precision in [SnapshotPrecision(precision: .nan), SnapshotPrecision(precision: 0.9, perceptualPrecision: .nan)] {
            let verdict = precision.verdict(reference: reference, actual: changingBytes(reference, 1))
            XCTAssertEqual(verdict.message, "imgdiff: precision and perceptualPrecision must be numbers between 0 and 1, not NaN")
            XCTAssertEqual(precision.verdict(reference: reference, actual: reference), .passed)
        }
        // Infinite, or so far outside 0…1 that the byte count leaves Int's range: a verdict, no trap.
        let infinite = SnapshotPrecision(precision: -.infinity).verdict(reference: reference, actual: changingBytes(reference, 1))
        XCTAssertEqual(infinite.message, "imgdiff: precision and perceptualPrecision must be numbers between 0 and 1, not -inf")
        XCTAssertEqual(SnapshotPrecision(precision: -.greatestFiniteMagnitude).verdict(reference: reference, actual: changingBytes(reference, 1)), .passed)
        XCTAssertNotEqual(SnapshotPrecision(precision: .greatestFiniteMagnitude).verdict(reference: reference, actual: changingBytes(reference, 1)), .passed)
    }

    /// ImageMagick refuses to compare images of other sizes; its metrics here fail them, even
    /// when one holds no pixel (a distortion of 0 over nothing), and a fuzz that is not a number
    /// counts as none rather than trapping.
    func testImageMagickMetricsFailOtherSizesAndTakeANaNFuzzAsNone() {
        let small = RGBAImage(width: 3, height: 3, filledWith: RGBA(10, 20, 30))
        for other in [RGBAImage(width: 0, height: 0, pixels: []), RGBAImage(width: 4, height: 3, filledWith: RGBA(10, 20, 30))] {
            for metric in ImageMagickMetric.allCases {
                let result = compare(other, small, options: ComparisonOptions(metric: .imageMagick(metric, threshold: 0)))
                XCTAssertFalse(result.match, "\(metric) \(other.width)x\(other.height)")
            }
        }
        let changed = RGBAImage(width: 3, height: 3, filledWith: RGBA(12, 20, 30))
        XCTAssertEqual(
            compare(small, changed, options: ComparisonOptions(metric: .imageMagickAE(fuzz: .nan))).differentPixels,
            compare(small, changed, options: ComparisonOptions(metric: .imageMagickAE(fuzz: 0))).differentPixels)
    }

    func testSizeMismatchMessage() {
        let verdict = SnapshotPrecision().verdict(
            reference: RGBAImage(width: 4, height: 2, filledWith: RGBA(0, 0, 0)),
            actual: RGBAImage(width: 3, height: 2, filledWith: RGBA(0, 0, 0)))
        XCTAssertEqual(verdict.message, "Newly-taken snapshot@(3.0, 2.0) does not match reference@(4.0, 2.0).")
    }

    /// Hidden RGB under alpha 0 vanishes when premultiplied, as in a CoreGraphics context.
    func testPremultipliedBytesIgnoreHiddenRGB() {
        let reference = RGBAImage(width: 1, height: 1, pixels: [10, 20, 30, 0])
        let actual = RGBAImage(width: 1, height: 1, pixels: [200, 100, 0, 0])
        XCTAssertEqual(SnapshotPrecision().verdict(reference: reference, actual: actual), .passed)
    }

    /// perceptualPrecision 0.98 gives the Float threshold 1.9999981, and swift-snapshot-testing
    /// reads each ΔE back as a half float: ΔE 2.0 fails, and so does 1.9996 (a half float holds
    /// it as 2.0); 1.999 (held as 1.9990234) passes.
    func testPerceptualThresholdAtTwo() {
        XCTAssertEqual((1 - Float(0.98)) * 100, 1.9999981)
        let precision = SnapshotPrecision(precision: 1, perceptualPrecision: 0.98)
        XCTAssertTrue(precision.pixelFails(deltaE: 2.0))
        XCTAssertTrue(precision.pixelFails(deltaE: 1.9996))
        XCTAssertEqual(SnapshotPrecision.halfFloat(1.9996), 2.0)
        XCTAssertFalse(precision.pixelFails(deltaE: 1.999))
        XCTAssertEqual(SnapshotPrecision.halfFloat(1.999), 1.9990234)
        XCTAssertFalse(SnapshotPrecision(perceptualPrecision: 0.97).pixelFails(deltaE: 2.0))
    }

    /// The portable half-float rounding equals the platform's `Float16` everywhere it exists.
    func testHalfFloatRoundingEqualsFloat16() {
        var values: [Float] = [0, 1, 2, 1.9995, 2047.5, 2048.5, 65504, 65519.99, 65520, 1e-8, 6.1e-5, 5.96e-8, 3e-8, 0.1, 0.14973956]
        var state: UInt64 = 16
        for _ in 0..<20000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(Float(bitPattern: UInt32(truncatingIfNeeded: state >> 32) & 0x477F_FFFF))
        }
        for value in values where value.isFinite {
            XCTAssertEqual(SnapshotPrecision.halfFloat(value), Float(Float16(value)), "\(value)")
            XCTAssertEqual(SnapshotPrecision.halfFloat(-value), Float(Float16(-value)), "\(-value)")
        }
    }

    /// The Metal path reads the share of failing pixels back as a half float too.
    func testMetalPathRoundsTheShareToHalf() throws {
        let reference = RGBAImage(width: 10, height: 10, filledWith: RGBA(120, 120, 120))
        var actual = reference
        for x in 0..<3 { actual[x, 0] = RGBA(160, 120, 120) }
        let cpu = SnapshotPrecision(precision: 1, perceptualPrecision: 0.98).verdict(reference: reference, actual: actual)
        let metal = SnapshotPrecision(precision: 1, perceptualPrecision: 0.98, arithmetic: .metal)
            .verdict(reference: reference, actual: actual)
        XCTAssertTrue(try XCTUnwrap(cpu.message).hasPrefix("The percentage of pixels that match \(1 - Float(3) / 100) "))
        XCTAssertTrue(try XCTUnwrap(metal.message).hasPrefix("The percentage of pixels that match \(1 - Float(Float16(Float(3) / 100))) "))
        XCTAssertNotEqual(1 - Float(3) / 100, 1 - Float(Float16(Float(3) / 100)))
    }

    func testPerceptualPrecisionCountsPixelsOverThreshold() throws {
        // One pixel with ΔE94 around 3.7 (±2 levels), the rest equal: 1 of 100 pixels fails.
        let reference = RGBAImage(width: 10, height: 10, filledWith: RGBA(120, 120, 120))
        var actual = reference
        actual[0, 0] = RGBA(122, 118, 122)
        let deltaE = DeltaE.cie94(LabColor(r: 120, g: 120, b: 120), LabColor(r: 122, g: 118, b: 122))
        XCTAssertGreaterThan(deltaE, 2)

        XCTAssertEqual(
            SnapshotPrecision(precision: 0.99, perceptualPrecision: 0.98).verdict(reference: reference, actual: actual),
            .passed)
        let strict = SnapshotPrecision(precision: 1, perceptualPrecision: 0.98).verdict(reference: reference, actual: actual)
        let expectedPrecision = 1 - SnapshotPrecision.halfFloat(deltaE) / 100
        XCTAssertEqual(
            strict.message,
            """
            The percentage of pixels that match 0.99 is less than required 1.0
            The lowest perceptual color precision \(expectedPrecision) is less than required 0.98
            """)
        let loose = SnapshotPrecision(precision: 1, perceptualPrecision: 0.96)
        XCTAssertEqual(loose.verdict(reference: reference, actual: actual), .passed)
    }

    /// A pixel at ΔE exactly on the boundary: find an 8-bit pair whose Float ΔE94 is in
    /// (1.9999981, 2.0] so the boundary is exercised through the real pixel path.
    func testPixelJustOverFloatThresholdFails() throws {
        let threshold = (1 - Float(0.98)) * 100
        let reference = RGBAImage(width: 1, height: 1, filledWith: RGBA(128, 128, 128))
        var found = false
        search: for r in 120...136 {
            for g in 120...136 {
                for b in 120...136 {
                    let value = Float(DeltaE.cie94(LabColor(r: 128, g: 128, b: 128), LabColor(r: UInt8(r), g: UInt8(g), b: UInt8(b))))
                    guard value > threshold, value < 2.05 else { continue }
                    let actual = RGBAImage(width: 1, height: 1, filledWith: RGBA(UInt8(r), UInt8(g), UInt8(b)))
                    let verdict = SnapshotPrecision(precision: 1, perceptualPrecision: 0.98).verdict(reference: reference, actual: actual)
                    XCTAssertFalse(verdict.passed, "ΔE \(value) must fail at 0.98")
                    found = true
                    break search
                }
            }
        }
        XCTAssertTrue(found)
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
}
