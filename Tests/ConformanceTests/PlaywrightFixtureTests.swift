import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// `--metric ssim-cie94` against Playwright's own comparator: on each of the 21 pairs of
/// Playwright's image-tools fixtures (Fixtures/playwright, Apache-2.0), the count equals the
/// one Playwright gives (counts.tsv, measured with scripts/playwright-compare.mjs), and the
/// verdict is the one Playwright's spec expects. The window sums, slid or prefix-summed, equal
/// a direct sum over the window.
final class PlaywrightFixtureTests: XCTestCase {
    let root = SharedData.packageRoot.appendingPathComponent("Fixtures/playwright")

    func testCountsAndVerdictsEqualPlaywrights() throws {
        let table = try String(contentsOf: root.appendingPathComponent("counts.tsv"), encoding: .utf8)
        let rows = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        XCTAssertEqual(rows.count, 21)
        var matching = 0
        for row in rows {
            let name = String(row[0]), count = try XCTUnwrap(Int(row[1]))
            let expected = try ImageDecoder.decode(contentsOf: root.appendingPathComponent(name + "-expected.png").path)
            let actual = try ImageDecoder.decode(contentsOf: root.appendingPathComponent(name + "-actual.png").path)
            let result = compare(expected, actual, options: ComparisonOptions(metric: .ssimCIE94(maxDeltaE: 1)))
            XCTAssertEqual(result.differentPixels, count, name)
            XCTAssertEqual(result.match, name.hasPrefix("should-match/"), name)
            if result.match { matching += 1 }
        }
        XCTAssertEqual(matching, 12)
    }

    /// The structural mode, untuned, gives every pair the verdict Playwright's spec expects;
    /// two of them (a red pixel, a caret's pixel) fail only as marks on plain ground.
    func testStructuralDefaultsGivePlaywrightsVerdicts() throws {
        let table = try String(contentsOf: root.appendingPathComponent("counts.tsv"), encoding: .utf8)
        let names = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: "\t")[0]) }
        XCTAssertEqual(names.count, 21)
        var onPlainGround: [String] = []
        for name in names {
            let expected = try ImageDecoder.decode(contentsOf: root.appendingPathComponent(name + "-expected.png").path)
            let actual = try ImageDecoder.decode(contentsOf: root.appendingPathComponent(name + "-actual.png").path)
            let result = compare(expected, actual, options: ComparisonOptions(metric: .structural(StructuralRule())))
            XCTAssertEqual(result.match, name.hasPrefix("should-match/"), name)
            if result.clusters?.contains(where: { $0.fails && $0.onPlainGround }) == true { onPlainGround.append(name) }
        }
        XCTAssertEqual(onPlainGround.sorted(), ["should-fail/looks-same-tests/no-caret", "should-fail/trivial/single-red-pixel"])
    }

    func testWindowSumsEqualDirectSums() {
        var random = SplitMix(seed: 94)
        func image(_ width: Int, _ height: Int) -> RGBAImage {
            RGBAImage(width: width, height: height, pixels: (0..<(width * height * 4)).map { index in
                index % 4 == 3 ? [0, 128, 255, 255][Int(random.next() % 4)] : random.nextByte()
            })
        }
        let (width, height) = (40, 37)
        let first = SSIMCIE94.Channels(image(width, height)), second = SSIMCIE94.Channels(image(width, height))
        var windows = SSIMCIE94.WindowSums(first, second)
        // Rows slid down and rebuilt; along a row, columns slid right and summed afresh (a step
        // back, or one a window or more on).
        for y in [0, 1, 5, 6, 36, 3, 20] {
            windows.move(to: y)
            for x in [0, 1, 14, 15, 39, 2, 33, 8] {
                var direct = 0.0
                for channel in 0..<3 {
                    var sums = (a: 0, b: 0, aa: 0, bb: 0, ab: 0)
                    for dy in -15...15 {
                        for dx in -15...15 {
                            let a = Int(first[x + dx, y + dy][channel]), b = Int(second[x + dx, y + dy][channel])
                            sums = (sums.a + a, sums.b + b, sums.aa + a * a, sums.bb + b * b, sums.ab + a * b)
                        }
                    }
                    direct += SSIMCIE94.ssim(sums)
                }
                direct /= 3
                XCTAssertEqual(windows.ssim(x: x), direct, "\(x), \(y)")
            }
        }
    }

    /// The padded rows and 3 × 3 neighbourhoods the comparator reads equal the pixel-by-pixel
    /// view they are made from, translucent pixels and the checkerboard beyond the edges included.
    func testPaddedRowsEqualThePixelByPixelView() {
        var random = SplitMix(seed: 17)
        let (width, height) = (21, 9)
        // Blocks of one colour (flat neighbourhoods inside them), one pixel in four another colour.
        let blockColours = (0..<40).map { _ in RGBA(random.nextByte(), random.nextByte(), random.nextByte(), [255, 255, 128, 0][Int(random.next() % 4)]) }
        var image = RGBAImage(width: width, height: height, filledWith: RGBA(0, 0, 0, 255))
        for y in 0..<height {
            for x in 0..<width {
                let colour = random.next() % 4 == 0
                    ? RGBA(random.nextByte(), random.nextByte(), random.nextByte(), [0, 1, 254, 255][Int(random.next() % 4)])
                    : blockColours[(y / 4) * 5 + x / 5]
                image[x, y] = colour
            }
        }
        let channels = SSIMCIE94.Channels(image)
        var rows = SSIMCIE94.PaddedRows(channels)
        var flatPixels = 0
        for y in -16...(height + 16) {
            let row = channels.paddedRow(y)
            for x in -15..<(width + 15) {
                XCTAssertEqual(SIMD3(row[(x + 15) * 3], row[(x + 15) * 3 + 1], row[(x + 15) * 3 + 2]), channels[x, y], "\(x), \(y)")
            }
            guard y >= 0, y < height else { continue }
            let neighbourhood = rows.neighbourhood(ofRow: y)
            for x in 0..<width {
                XCTAssertEqual(neighbourhood.colour(x: x), channels[x, y], "\(x), \(y)")
                XCTAssertEqual(neighbourhood.isFlat(around: x), channels.isFlat(around: x, y), "\(x), \(y)")
                if channels.isFlat(around: x, y) { flatPixels += 1 }
            }
        }
        XCTAssertGreaterThan(flatPixels, 0, "some neighbourhoods are flat")
    }

    /// In ssim-cie94 mode the largest ΔE is the mode's own: Playwright's ΔE94 of the colours
    /// as it lays them over white, whether or not the pixel counts.
    func testLargestDeltaEIsPlaywrightsOwn() {
        var expected = RGBAImage(width: 40, height: 40, filledWith: RGBA(10, 20, 30, 255))
        var actual = expected
        actual[5, 5] = RGBA(200, 20, 30, 255)
        expected[30, 30] = RGBA(0, 0, 0, 200)
        actual[30, 30] = RGBA(255, 255, 255, 200)
        let result = compare(expected, actual, options: ComparisonOptions(metric: .ssimCIE94(maxDeltaE: 1)))
        let channels = (SSIMCIE94.Channels(expected), SSIMCIE94.Channels(actual))
        let changes = [(5, 5), (30, 30)].map { x, y in
            PlaywrightLab.deltaE94(PlaywrightLab(channels.0[x, y]), PlaywrightLab(channels.1[x, y]))
        }
        XCTAssertEqual(result.maxDeltaE, changes.max())
        XCTAssertGreaterThan(changes[1], changes[0], "the larger change is the one not counted")
        // (5, 5) sits in flat ground and counts; (30, 30) differs from its ground in both images,
        // and the window's SSIM takes it for anti-aliasing.
        XCTAssertEqual(result.differentPixels, 1)
    }

    /// ssim-cie94 tallies the exact comparison's statistics (channel-delta histogram, largest
    /// channel delta, ignored pixels) from its own walk over the rows: they equal the exact
    /// comparison's own scalar pass, with and without ignored regions, in any number of bands.
    func testExactStatisticsEqualTheExactComparisons() {
        var generator = SplitMix(seed: 0x55_1A)
        let palette: [RGBA] = [RGBA(255, 255, 255, 255), RGBA(0, 0, 0, 255), RGBA(90, 140, 200, 255), RGBA(10, 20, 30, 0),
                               RGBA(200, 30, 40, 128)]
        for (width, height) in [(1, 1), (9, 3), (37, 70), (130, 65)] {
            var expected = RGBAImage(width: width, height: height, filledWith: palette[0])
            for y in 0..<height {
                for x in 0..<width { expected[x, y] = palette[Int(generator.next() % UInt64(palette.count))] }
            }
            var actual = expected
            for y in 0..<height {
                for x in 0..<width where generator.next() % 3 == 0 {
                    let pixel = expected[x, y]
                    actual[x, y] = generator.next() % 2 == 0
                        ? palette[Int(generator.next() % UInt64(palette.count))]
                        : RGBA(pixel.r &+ UInt8(generator.next() % 3), pixel.g, pixel.b &+ 1, pixel.a)
                }
            }
            for ignoreRegions in [[], [PixelRect(minX: 2, minY: 1, maxX: 20, maxY: 40)]] {
                for bands in [0, 1, 3] {
                    let ssim = compare(expected, actual, options: ComparisonOptions(
                        metric: .ssimCIE94(maxDeltaE: 1), ignoreRegions: ignoreRegions, bands: bands))
                    let exact = compareScalar(expected, actual, options: ComparisonOptions(metric: .exact, ignoreRegions: ignoreRegions))
                    let label = "\(width)x\(height) ignore \(ignoreRegions.count) bands \(bands)"
                    XCTAssertEqual(ssim.maxChannelDeltaHistogram, exact.maxChannelDeltaHistogram, label)
                    XCTAssertEqual(ssim.maxChannelDelta, exact.maxChannelDelta, label)
                    XCTAssertEqual(ssim.ignoredPixels, exact.ignoredPixels, label)
                }
            }
        }
    }

    func testPaddingIsPlaywrightsCheckerboard() {
        let channels = SSIMCIE94.Channels(RGBAImage(width: 2, height: 2, filledWith: RGBA(10, 20, 30, 128)))
        XCTAssertEqual(channels[-15, -15], SIMD3(255, 0, 255), "padded (0, 0): even")
        XCTAssertEqual(channels[-14, -15], SIMD3(0, 255, 0))
        XCTAssertEqual(channels[2, 1], SIMD3(0, 255, 0), "padded (17, 16): odd")
        // 255 + (10 − 255) · 128/255 = 132.02 → 132, truncated as a Uint8Array store truncates.
        XCTAssertEqual(channels[0, 0], SIMD3(132, 137, 142))
    }
}
