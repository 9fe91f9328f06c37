import XCTest
@testable import ImageDiff

final class ComparisonTests: XCTestCase {
    let white = RGBA(255, 255, 255)

    func testAllowanceLetsThatManyPixelsDiffer() {
        let reference = RGBAImage(width: 10, height: 10, filledWith: white)
        var changed = reference
        for x in 0..<5 { changed[x, 0] = RGBA(0, 0, 0) }
        for (allowance, match) in [
            (DifferenceAllowance.none, false), (DifferenceAllowance(maxPixels: 4), false), (DifferenceAllowance(maxPixels: 5), true),
            (DifferenceAllowance(maxRatio: 0.04), false), (DifferenceAllowance(maxRatio: 0.05), true),
            // Both given, the smaller holds, as in Playwright's comparator.
            (DifferenceAllowance(maxPixels: 4, maxRatio: 0.5), false), (DifferenceAllowance(maxPixels: 50, maxRatio: 0.04), false),
            (DifferenceAllowance(maxPixels: 0, maxRatio: 0.5), false), (DifferenceAllowance(maxPixels: 5, maxRatio: 0.05), true),
        ] {
            for metric in [ComparisonMetric.exact, .yiq(threshold: 0.1), .imageMagickAE(fuzz: 0), .structural(StructuralRule(minimumClusterPixels: 1))] {
                let result = compare(reference, changed, options: ComparisonOptions(metric: metric, allowance: allowance))
                XCTAssertEqual(result.differentPixels, 5, "\(metric)")
                XCTAssertEqual(result.match, match, "\(metric) \(allowance)")
            }
        }
        for (allowance, none) in [
            (DifferenceAllowance.none, true), (DifferenceAllowance(maxPixels: 0), true), (DifferenceAllowance(maxPixels: 5, maxRatio: 0), true),
            (DifferenceAllowance(maxRatio: 0.01), false), (DifferenceAllowance(maxPixels: 1, maxRatio: 0.5), false),
        ] {
            XCTAssertEqual(allowance.allowsNoDifference, none, "\(allowance)")
            let judged = ComparisonOptions(metric: .imageMagick(.psnr, threshold: 30), allowance: allowance)
            XCTAssertEqual(judged.judgingProblem == nil, none, "a figure takes no allowance, but one that allows nothing: \(allowance)")
        }
        let smaller = RGBAImage(width: 10, height: 9, filledWith: white)
        XCTAssertFalse(compare(reference, smaller, options: ComparisonOptions(allowance: DifferenceAllowance(maxPixels: 1000))).match,
                       "a size change never matches")
    }

    /// ``LastPair`` computes again whenever either pixel's bytes, the fourth one too, differ
    /// from the last pair's, and only then.
    func testLastPairComputesOnlyForANewPairOfPixels() {
        let reference: [UInt8] = [1, 2, 3, 255, 1, 2, 3, 255, 1, 2, 3, 254, 1, 2, 3, 254, 9, 9, 9, 255, 1, 2, 3, 255]
        let actual: [UInt8] = [5, 5, 5, 255, 5, 5, 5, 255, 5, 5, 5, 255, 5, 5, 6, 255, 5, 5, 6, 255, 5, 5, 5, 255]
        var lastPair = LastPair<Int>()
        var computed: [Int] = []
        for index in 0..<6 {
            let value = lastPair.value(reference, actual, pixel: index) {
                computed.append(index)
                return index
            }
            XCTAssertEqual(value, computed.last)
        }
        XCTAssertEqual(computed, [0, 2, 3, 4, 5])
    }

    func testIdenticalImagesMatch() {
        let image = RGBAImage(width: 7, height: 5, filledWith: RGBA(1, 2, 3))
        for metric: ComparisonMetric in [.exact, .channel(tolerance: 0), .yiq(threshold: 0.1), .deltaE(.ciede2000, threshold: 1), .imageMagickAE(fuzz: 0)] {
            let result = compare(image, image, options: ComparisonOptions(metric: metric))
            XCTAssertTrue(result.match, metric.name)
            XCTAssertEqual(result.differentPixels, 0)
            XCTAssertEqual(result.totalPixels, 35)
            XCTAssertNil(result.boundingBox)
            XCTAssertEqual(result.maxChannelDeltaHistogram[0], 35)
        }
    }

    func testExactChannelAndBoundingBox() {
        let reference = RGBAImage(width: 10, height: 10, filledWith: white)
        var actual = reference
        actual[2, 3] = RGBA(254, 255, 255)
        actual[7, 8] = RGBA(250, 255, 255)
        let exact = compare(reference, actual, options: ComparisonOptions(metric: .exact))
        XCTAssertEqual(exact.differentPixels, 2)
        XCTAssertEqual(exact.boundingBox, PixelRect(minX: 2, minY: 3, maxX: 7, maxY: 8))
        XCTAssertEqual(exact.maxChannelDelta, 5)
        XCTAssertEqual(exact.maxChannelDeltaHistogram[1], 1)
        XCTAssertEqual(exact.maxChannelDeltaHistogram[5], 1)
        XCTAssertEqual(exact.maxChannelDeltaHistogram[0], 98)
        let tolerant = compare(reference, actual, options: ComparisonOptions(metric: .channel(tolerance: 1)))
        XCTAssertEqual(tolerant.differentPixels, 1)
        XCTAssertEqual(tolerant.boundingBox, PixelRect(minX: 7, minY: 8, maxX: 7, maxY: 8))
    }

    func testFullyTransparentPixelsWithDifferentHiddenRGBAreEqual() {
        let reference = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 0])
        let actual = RGBAImage(width: 1, height: 1, pixels: [200, 100, 50, 0])
        XCTAssertTrue(compare(reference, actual, options: ComparisonOptions(metric: .exact)).match)
        XCTAssertTrue(compare(reference, actual, options: ComparisonOptions(metric: .yiq(threshold: 0))).match)
    }

    /// 16-bit samples one 8-bit level apart reduce to the same level: `exact` still tells them
    /// apart (as ImageMagick's Q16 does), and only `exact`; fully transparent pixels stay equal,
    /// an 8-bit side counts at 257 times its samples, and ignored pixels stay ignored.
    func testExactComparesSixteenBitSamples() {
        func image(_ samples: [UInt16]) -> RGBAImage { RGBAImage(width: samples.count / 4, height: 1, samples16: samples, hasAlpha: true) }
        let reference = image([30000, 100, 200, 65535, 30000, 100, 200, 65535, 5, 6, 7, 0, 257, 514, 771, 65535])
        let actual = image([30050, 100, 200, 65535, 30000, 100, 200, 65535, 9, 6, 7, 0, 257, 514, 771, 65535])
        XCTAssertEqual(reference.pixels, actual.pixels, "the 8-bit copies are equal")
        let exact = compare(reference, actual, options: ComparisonOptions(metric: .exact, collectsMask: true))
        XCTAssertEqual(exact.differentPixels, 1)
        XCTAssertEqual(exact.boundingBox, PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0))
        XCTAssertEqual(exact.mask?.contains(x: 0, y: 0), true)
        XCTAssertEqual(exact.mask?.count, 1)
        XCTAssertEqual(exact.differentRatio, 0.25)
        XCTAssertFalse(exact.match)
        XCTAssertEqual(exact.maxChannelDelta, 0, "the statistics stay in 8-bit levels")
        XCTAssertEqual(compareScalar(reference, actual, options: ComparisonOptions(metric: .exact)).differentPixels, 1)
        XCTAssertTrue(compare(reference, actual, options: ComparisonOptions(metric: .channel(tolerance: 0))).match)
        XCTAssertTrue(compare(reference, actual, options: ComparisonOptions(metric: .yiq(threshold: 0))).match)
        let ignored = compare(reference, actual, options: ComparisonOptions(
            metric: .exact, ignoreRegions: [PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)]))
        XCTAssertEqual(ignored.differentPixels, 0)
        XCTAssertTrue(ignored.match)

        let eightBit = RGBAImage(width: 4, height: 1, pixels: reference.pixels, hasAlpha: true)
        // 30000 / 257 is 116.7: the 8-bit image's 116 is 29812 on the Q16 scale; 257, 514, 771 are 1, 2, 3 exactly.
        XCTAssertEqual(compare(eightBit, reference, options: ComparisonOptions(metric: .exact)).differentPixels, 2)
        XCTAssertEqual(compare(eightBit, eightBit, options: ComparisonOptions(metric: .exact)).differentPixels, 0)

        // Of two sizes, the overlap's pixels are found by each image's own width.
        let opaque: [UInt16] = [1000, 2000, 3000, 65535]
        let wide = RGBAImage(width: 3, height: 2, samples16: Array([[UInt16]](repeating: opaque, count: 6).joined()), hasAlpha: true)
        var tallSamples = Array([[UInt16]](repeating: opaque, count: 6).joined())
        tallSamples[(1 * 2 + 1) * 4] = 1001
        let tall = RGBAImage(width: 2, height: 3, samples16: tallSamples, hasAlpha: true)
        let sized = compare(wide, tall, options: ComparisonOptions(metric: .exact, collectsMask: true))
        XCTAssertEqual(sized.differentPixels, 5 + 1, "five pixels outside the overlap and (1, 1)")
        XCTAssertEqual(sized.mask?.contains(x: 1, y: 1), true)
        XCTAssertEqual(sized.mask?.contains(x: 0, y: 1), false)
    }

    /// odiff's rule: the overlap is compared, the rest counts, the area is max × max.
    func testDifferentSizesNeverError() {
        let reference = RGBAImage(width: 4, height: 3, filledWith: white)
        let actual = RGBAImage(width: 3, height: 5, filledWith: white)
        let result = compare(reference, actual, options: ComparisonOptions(metric: .exact, collectsMask: true))
        XCTAssertTrue(result.sizeDiffers)
        XCTAssertEqual(result.totalPixels, 20)
        XCTAssertEqual(result.differentPixels, 20 - 9)
        XCTAssertEqual(result.mask?.count, 11)
        XCTAssertEqual(result.boundingBox, PixelRect(minX: 0, minY: 0, maxX: 3, maxY: 4))
        XCTAssertFalse(result.match)
        let wider = compare(RGBAImage(width: 5, height: 2, filledWith: white), RGBAImage(width: 3, height: 2, filledWith: white))
        XCTAssertEqual(wider.boundingBox, PixelRect(minX: 3, minY: 0, maxX: 4, maxY: 1))
    }

    /// ImageMagick's figures of an image without pixels beside one with pixels are the worst,
    /// as every pixel of the larger area differs; they had scored the pair as identical.
    func testImageMagickFiguresOfAnEmptyImageBesideAFullOneAreTheWorst() {
        let empty = RGBAImage(width: 0, height: 0, pixels: [])
        let full = RGBAImage(width: 3, height: 2, filledWith: white)
        for (reference, actual) in [(empty, full), (full, empty)] {
            XCTAssertEqual(ImageMagickDistortion(.rmse, reference: reference, actual: actual).normalized, 1)
            XCTAssertEqual(ImageMagickDistortion(.mae, reference: reference, actual: actual).normalized, 1)
            XCTAssertEqual(ImageMagickDistortion(.pae, reference: reference, actual: actual).normalized, 1)
            XCTAssertEqual(ImageMagickDistortion(.psnr, reference: reference, actual: actual).value, 0)
            XCTAssertEqual(ImageMagickDistortion(.ncc, reference: reference, actual: actual).value, 0)
            let result = compare(reference, actual, options: ComparisonOptions(metric: .imageMagick(.rmse, threshold: 1)))
            XCTAssertFalse(result.match)
            XCTAssertEqual(result.imageMagick?.normalized, 1)
        }
        XCTAssertEqual(ImageMagickDistortion(.rmse, reference: empty, actual: empty).normalized, 0)
    }

    /// ImageMagick adds its errors up in extended precision, so it prints the figures of the
    /// exact sums: a mean error of exactly 24093.75 prints as 24093.8, and a MEPP sum of
    /// 1,001,015 as 1.00102e+06, where adding up scaled doubles fell a hair short of each
    /// (24093.749999999993, 1001014.9999999965) and printed one digit low. A PSNR of zero
    /// prints as "0", not "-0".
    func testImageMagickFiguresPrintTheExactSums() {
        func gray(_ values: [UInt8], width: Int) -> RGBAImage {
            RGBAImage(width: width, height: values.count / width, pixels: values.flatMap { [$0, $0, $0, 255] }, hasAlpha: false)
        }
        let a: [UInt8] = [
            170, 68, 119, 204, 119, 85, 119, 17, 68, 204, 34, 34, 255, 102, 255, 0, 221, 68, 85, 221, 238, 255, 238, 136, 34, 68, 34,
            153, 153, 68, 34, 85, 238, 238, 17, 136, 119, 51, 255, 102, 17, 34, 136, 17, 68, 68, 85, 17, 119, 34, 85, 0, 255, 119, 102,
            255, 170, 187, 187, 136, 255, 136, 102, 119, 170, 153, 102, 102,
        ]
        let b: [UInt8] = [
            187, 221, 136, 68, 34, 51, 204, 170, 153, 0, 102, 187, 68, 34, 136, 0, 119, 0, 34, 85, 85, 68, 238, 34, 204, 153, 68, 238,
            51, 204, 170, 238, 34, 68, 255, 170, 221, 51, 102, 68, 153, 119, 119, 119, 204, 119, 102, 85, 102, 0, 34, 187, 221, 187, 0,
            34, 119, 51, 136, 136, 136, 0, 187, 119, 136, 34, 119, 0,
        ]
        XCTAssertEqual(ImageMagickDistortion(.mae, reference: gray(a, width: 2), actual: gray(b, width: 2)).printed, "24093.8 (0.367647)")

        let black = RGBAImage(width: 128, height: 128, filledWith: RGBA(0, 0, 0))
        var raised = black
        for sample in 0..<3895 { raised.pixels[sample / 3 * 4 + sample % 3] = 1 }
        XCTAssertEqual(ImageMagickDistortion(.mepp, reference: black, actual: raised).printed, "1.00102e+06 (1.21867e-06, 0.00392157)")

        let white = RGBAImage(width: 10, height: 10, filledWith: RGBA(255, 255, 255))
        XCTAssertEqual(ImageMagickDistortion(.psnr, reference: white, actual: RGBAImage(width: 10, height: 10, filledWith: RGBA(0, 0, 0))).printed, "0")
    }

    /// A pair so alike that PSNR is infinite still differs: PSNR's default passes only images
    /// with no differing pixel, as `compare` exits 1 on it; a finite threshold passes it.
    func testAnInfinitePSNROfImagesThatDifferFailsByDefault() {
        let flat = [UInt16](repeating: 30000, count: 10 * 10 * 4)
        var nudged = flat
        nudged[0] += 1
        let reference = RGBAImage(width: 10, height: 10, samples16: flat, hasAlpha: false)
        let actual = RGBAImage(width: 10, height: 10, samples16: nudged, hasAlpha: false)
        let byDefault = compare(reference, actual, options: ComparisonOptions(metric: ComparisonMetric(name: "psnr")!))
        XCTAssertEqual(byDefault.imageMagick?.printed, "inf")
        XCTAssertFalse(byDefault.match)
        XCTAssertTrue(compare(reference, actual, options: ComparisonOptions(metric: .imageMagick(.psnr, threshold: 60))).match)
    }

    /// Whatever the metric, a pair of two sizes reports the largest ΔE94 of its overlap.
    func testDifferentSizesMeasureTheOverlapsLargestDeltaE() {
        let reference = RGBAImage(width: 4, height: 3, filledWith: white)
        let actual = RGBAImage(width: 3, height: 5, filledWith: RGBA(0, 0, 0))
        let expected = compare(reference, actual, options: ComparisonOptions(metric: .exact)).maxDeltaE
        XCTAssertGreaterThan(expected, 90)
        let metrics: [ComparisonMetric] = [
            .yiq(threshold: 0.1), .channel(tolerance: 3), .structural(StructuralRule()), .ssimCIE94(maxDeltaE: 1),
        ]
        for metric in metrics {
            let result = compare(reference, actual, options: ComparisonOptions(metric: metric))
            XCTAssertTrue(result.sizeDiffers, "\(metric.name)")
            XCTAssertEqual(result.maxDeltaE, expected, "\(metric.name)")
        }
    }

    func testIgnoreRegionsAndMask() {
        let reference = RGBAImage(width: 6, height: 6, filledWith: white)
        var actual = reference
        actual[1, 1] = RGBA(0, 0, 0)
        actual[4, 4] = RGBA(0, 0, 0)
        let regions = compare(reference, actual, options: ComparisonOptions(
            metric: .exact, ignoreRegions: [PixelRect(minX: 0, minY: 0, maxX: 2, maxY: 2)]))
        XCTAssertEqual(regions.differentPixels, 1)
        XCTAssertEqual(regions.ignoredPixels, 9)
        var mask = RGBAImage(width: 6, height: 6, filledWith: RGBA(0, 0, 0, 0))
        mask[4, 4] = white
        let masked = compare(reference, actual, options: ComparisonOptions(metric: .exact, ignoreMask: mask))
        XCTAssertEqual(masked.differentPixels, 1)
        XCTAssertEqual(masked.boundingBox, PixelRect(minX: 1, minY: 1, maxX: 1, maxY: 1))
    }

    func testDeltaEThreshold() {
        let reference = RGBAImage(width: 2, height: 1, filledWith: RGBA(120, 120, 120))
        var actual = reference
        actual[0, 0] = RGBA(121, 120, 120)
        actual[1, 0] = RGBA(140, 120, 120)
        let result = compare(reference, actual, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2)))
        XCTAssertEqual(result.differentPixels, 1)
        let expected = DeltaE.cie94(LabColor(r: 120, g: 120, b: 120), LabColor(r: 140, g: 120, b: 120))
        XCTAssertEqual(result.maxDeltaE, expected, accuracy: 1e-12)
    }

    /// pixelmatch counts a one-level change only when it passes 35215 · t².
    func testYIQThresholdScale() {
        let reference = RGBAImage(width: 1, height: 1, filledWith: RGBA(0, 0, 0))
        let actual = RGBAImage(width: 1, height: 1, filledWith: RGBA(255, 255, 255))
        // Black to white: ΔY = 255, ΔI ≈ ΔQ ≈ 0, so delta = 0.5053 · 255² ≈ 32857.
        XCTAssertEqual(compare(reference, actual, options: ComparisonOptions(metric: .yiq(threshold: 0.96))).differentPixels, 1)
        XCTAssertEqual(compare(reference, actual, options: ComparisonOptions(metric: .yiq(threshold: 0.97))).differentPixels, 0)
    }

    /// pixelmatch blends a translucent pixel over a checkerboard keyed on its position, so one
    /// pair of colours can differ in one place and not in another: the count is pixelmatch's own
    /// pixel by pixel (the fuzzer found a verdict carried over from the pixel before).
    func testTranslucentPairsAreJudgedWhereTheyAre() {
        let width = 13, height = 11
        let reference = RGBAImage(width: width, height: height, filledWith: RGBA(255, 255, 255))
        for background in [RGBA(0, 0, 0, 0), RGBA(200, 30, 90, 128), RGBA(255, 255, 255, 40)] {
            let actual = RGBAImage(width: width, height: height, filledWith: background)
            for threshold in [0.05, 0.3, 0.6] {
                let limit = PixelMatch.maximumDelta(threshold: threshold)
                let expected = reference.pixels.withUnsafeBufferPointer { a in
                    actual.pixels.withUnsafeBufferPointer { b in
                        (0..<(width * height)).filter { abs(PixelMatch.colorDelta(a.baseAddress!, $0 * 4, b.baseAddress!, $0 * 4)) > limit }.count
                    }
                }
                for bands in [1, 2, 5] {
                    let options = ComparisonOptions(metric: .yiq(threshold: threshold), bands: bands)
                    XCTAssertEqual(compare(reference, actual, options: options).differentPixels, expected, "\(background) \(threshold) \(bands) bands")
                    XCTAssertEqual(compareScalar(reference, actual, options: options).differentPixels, expected)
                }
            }
        }
    }

    /// A vertical anti-aliased edge: the middle column sits between a dark and a bright
    /// neighbour that each have many equal siblings.
    func testAntialiasedEdgeIsDetected() {
        var reference = RGBAImage(width: 5, height: 5, filledWith: white)
        var actual = reference
        for y in 0..<5 {
            for x in 0..<2 {
                reference[x, y] = RGBA(0, 0, 0)
                actual[x, y] = RGBA(0, 0, 0)
            }
            reference[2, y] = RGBA(128, 128, 128)
            actual[2, y] = RGBA(90, 90, 90)
        }
        let counted = compare(reference, actual, options: ComparisonOptions(metric: .yiq(threshold: 0.1)))
        XCTAssertEqual(counted.differentPixels, 5)
        let ignored = compare(reference, actual, options: ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true))
        XCTAssertEqual(ignored.differentPixels, 0)
        XCTAssertEqual(ignored.antialiasedPixels, 5)
    }

    func testJSONHasEveryKeyAndNullBoundingBox() throws {
        let image = RGBAImage(width: 2, height: 2, filledWith: white)
        let data = try JSONEncoder().encode(compare(image, image))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["match", "differentPixels", "totalPixels", "maxChannelDelta", "maxDeltaE", "boundingBox", "sizeDiffers"] {
            XCTAssertNotNil(object[key], key)
        }
        XCTAssertTrue(object["boundingBox"] is NSNull)
    }

    /// An allowance below 0 or a share outside 0…1 is a judging problem, as the CLI and the
    /// settings file refuse them.
    func testAllowancesOutsideTheirRangesAreJudgingProblems() {
        XCTAssertNil(ComparisonOptions(allowance: DifferenceAllowance(maxPixels: 0, maxRatio: 1)).judgingProblem)
        for allowance in [DifferenceAllowance(maxPixels: -1), DifferenceAllowance(maxRatio: -0.1), DifferenceAllowance(maxRatio: 1.5),
                          DifferenceAllowance(maxRatio: .nan)] {
            XCTAssertNotNil(ComparisonOptions(allowance: allowance).judgingProblem, "\(allowance)")
        }
    }
}
