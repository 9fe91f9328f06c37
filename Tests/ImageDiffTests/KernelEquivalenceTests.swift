import TestSupport
import XCTest
@testable import ImageDiff

/// The vectorized, banded comparison equals the plain scalar pass, on random and edge inputs,
/// whatever the number of bands and threads.
final class KernelEquivalenceTests: XCTestCase {
    static let metrics: [ComparisonMetric] = [
        .exact, .channel(tolerance: 2), .yiq(threshold: 0.1), .yiq(threshold: 0.02),
        .deltaE(.cie76, threshold: 1), .deltaE(.cie94, threshold: 2), .deltaE(.ciede2000, threshold: 1.5),
        .imageMagickAE(fuzz: 0),
    ]

    static let sizes: [(Int, Int)] = [(1, 1), (1, 9), (9, 1), (7, 5), (8, 8), (17, 3), (33, 31), (64, 40)]

    func testVectorizedEqualsScalarOnRandomImages() {
        var generator = SplitMix(seed: 0x1DD1FF)
        for (width, height) in Self.sizes {
            for sparsity in [0.0, 0.05, 0.5, 1.0] {
                let (a, b) = randomPair(width: width, height: height, changed: sparsity, using: &generator)
                for metric in Self.metrics {
                    for antialiasing in [false, true] {
                        let options = ComparisonOptions(metric: metric, ignoreAntialiasing: antialiasing, collectsMask: true)
                        let scalar = compareScalar(a, b, options: options)
                        // One band per row: past RowBands.lanes, each lane's judge serves several bands.
                        for bands in [0, 1, 2, 3, 7, height] {
                            var banded = options
                            banded.bands = bands
                            XCTAssertEqual(compare(a, b, options: banded), scalar,
                                           "\(width)x\(height) \(metric) aa=\(antialiasing) bands=\(bands)")
                        }
                    }
                }
            }
        }
    }

    func testIgnoreRegionsInEqualRuns() {
        var generator = SplitMix(seed: 42)
        let (a, b) = randomPair(width: 37, height: 23, changed: 0.1, using: &generator)
        let options = ComparisonOptions(
            metric: .exact, ignoreRegions: [PixelRect(minX: 3, minY: 2, maxX: 20, maxY: 9), PixelRect(minX: 30, minY: 0, maxX: 40, maxY: 30)])
        let scalar = compareScalar(a, b, options: options)
        XCTAssertGreaterThan(scalar.ignoredPixels, 0)
        XCTAssertEqual(compare(a, b, options: options), scalar)
    }

    func testDifferentSizesAgree() {
        var generator = SplitMix(seed: 7)
        let (a, _) = randomPair(width: 20, height: 11, changed: 0, using: &generator)
        let (_, b) = randomPair(width: 13, height: 17, changed: 0.3, using: &generator)
        for metric in Self.metrics {
            let options = ComparisonOptions(metric: metric, collectsMask: true)
            XCTAssertEqual(compare(a, b, options: options), compareScalar(a, b, options: options), "\(metric)")
        }
    }

    /// A large image runs in many bands on all cores; the result equals one band's.
    func testLargeImageBandsAndThreadsAgree() {
        var generator = SplitMix(seed: 99)
        let (a, b) = randomPair(width: 700, height: 500, changed: 0.01, using: &generator)
        let options = ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true)
        let single = compareScalar(a, b, options: options)
        XCTAssertGreaterThan(single.differentPixels, 0)
        for bands in [0, 2, 5, 32, 500] {
            var banded = options
            banded.bands = bands
            XCTAssertEqual(compare(a, b, options: banded), single, "bands=\(bands)")
        }
    }

    /// Pixels drawn from a small palette (so runs and anti-aliasing neighbourhoods occur),
    /// some semi-transparent; `changed` of them altered in the second image.
    func randomPair(width: Int, height: Int, changed: Double, using generator: inout SplitMix) -> (RGBAImage, RGBAImage) {
        let palette: [[UInt8]] = [[255, 255, 255, 255], [0, 0, 0, 255], [128, 128, 128, 255], [200, 30, 40, 255],
                                  [10, 120, 250, 128], [0, 0, 0, 0], [90, 90, 90, 255]]
        var first = [UInt8](), second = [UInt8]()
        for _ in 0..<(width * height) {
            let colour = palette[Int(generator.next() % UInt64(palette.count))]
            first += colour
            if Double(generator.next() % 1000) / 1000 < changed {
                let kind = generator.next() % 3
                switch kind {
                case 0: second += colour.enumerated().map { $0.offset == 3 ? $0.element : $0.element &+ UInt8(generator.next() % 3) }
                case 1: second += palette[Int(generator.next() % UInt64(palette.count))]
                default: second += (0..<4).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                }
            } else {
                second += colour
            }
        }
        return (RGBAImage(width: width, height: height, pixels: first), RGBAImage(width: width, height: height, pixels: second))
    }
}

/// The streamed comparison, fed bands of rows from windows that hold only the band and its
/// context, equals the scalar pass on the whole images, whatever the band size and however the
/// bands are shared among scanners.
extension KernelEquivalenceTests {
    func testStreamedEqualsScalarInAnyBandSplit() {
        var generator = SplitMix(seed: 0x57EA)
        let metrics = KernelEquivalenceTests.metrics.filter {
            if case .imageMagickAE = $0 { return false }
            return true
        }
        for (width, height) in KernelEquivalenceTests.sizes {
            for sparsity in [0.0, 0.05, 0.5] {
                let (a, b) = randomPair(width: width, height: height, changed: sparsity, using: &generator)
                for metric in metrics {
                    for antialiasing in [false, true] {
                        let options = ComparisonOptions(
                            metric: metric, ignoreAntialiasing: antialiasing,
                            ignoreRegions: sparsity == 0.5 ? [PixelRect(minX: 0, minY: 1, maxX: 3, maxY: 2)] : [])
                        let scalar = compareScalar(a, b, options: options)
                        for band in [1, 2, 3, 5, height] {
                            XCTAssertEqual(
                                streamed(a, b, options: options, band: band), scalar,
                                "\(width)x\(height) \(metric) aa=\(antialiasing) band=\(band)")
                        }
                    }
                }
            }
        }
    }

    func testOptionsThatNeedWholeImagesAreRefused() {
        XCTAssertNotNil(StreamedComparison(width: 4, height: 4, options: ComparisonOptions(collectsMask: true)), "masks stream")
        XCTAssertNil(StreamedComparison(width: 4, height: 4, options: ComparisonOptions(metric: .imageMagickAE(fuzz: 0))))
        XCTAssertNil(StreamedComparison(width: 0, height: 4, options: ComparisonOptions()))
    }

    /// Copies each band with its context rows into a fresh window, so that a read outside it
    /// would read other memory, and alternates two scanners.
    func streamed(_ a: RGBAImage, _ b: RGBAImage, options: ComparisonOptions, band: Int) -> DiffResult? {
        guard let comparison = StreamedComparison(width: a.width, height: a.height, options: options) else { return nil }
        var scanners = [comparison.makeScanner(), comparison.makeScanner()]
        let rowBytes = a.width * 4, context = StreamedComparison.contextRows
        var start = 0, index = 0
        while start < a.height {
            let rows = start..<min(a.height, start + band)
            let window = max(0, rows.lowerBound - context)..<min(a.height, rows.upperBound + context)
            let first = Array(a.pixels[(window.lowerBound * rowBytes)..<(window.upperBound * rowBytes)])
            let second = Array(b.pixels[(window.lowerBound * rowBytes)..<(window.upperBound * rowBytes)])
            first.withUnsafeBufferPointer { first in
                second.withUnsafeBufferPointer { second in
                    guard let first = first.baseAddress, let second = second.baseAddress else { return }
                    scanners[index % 2].scan(rows: rows, reference: first, actual: second, firstRow: window.lowerBound)
                }
            }
            start = rows.upperBound
            index += 1
        }
        return comparison.result(merging: scanners)
    }
}

/// The structural mode's neighbourhood tests made a row at a time (``NeighbourhoodRows``)
/// remove exactly the pixels the plain tests remove, pixel by pixel: opaque or translucent
/// neighbourhoods, pixels at every edge, every shift radius, any band split.
extension KernelEquivalenceTests {
    /// The vectorized anti-aliasing detector equals pixelmatch's scalar one at every pixel of
    /// images drawn from a few colours (so neighbours tie and repeat, and extremes recur), with
    /// some translucent pixels and every edge.
    func testVectorizedAntialiasingDetectorEqualsScalar() {
        var generator = SplitMix(seed: 0xAA71)
        var verdicts = (antialiased: 0, not: 0)
        for (width, height) in Self.sizes + [(40, 3), (3, 40), (61, 47)] {
            for translucent in [0.0, 0.1] {
                for paletteSize in [2, 3, 5] {
                    let palette = (0..<paletteSize).map { _ in
                        (UInt8(truncatingIfNeeded: generator.next()), UInt8(truncatingIfNeeded: generator.next()), UInt8(truncatingIfNeeded: generator.next()))
                    }
                    func image() -> [UInt8] {
                        var pixels = [UInt8](repeating: 255, count: width * height * 4)
                        for index in 0..<(width * height) {
                            let roll = generator.next() % 100
                            let (r, g, b) = roll < 80 ? palette[Int(generator.next() % UInt64(paletteSize))]
                                : (generator.nextByte(), generator.nextByte(), generator.nextByte())
                            (pixels[4 * index], pixels[4 * index + 1], pixels[4 * index + 2]) = (r, g, b)
                            if Double(generator.next() % 1000) / 1000 < translucent { pixels[4 * index + 3] = generator.nextByte() }
                        }
                        return pixels
                    }
                    let (first, second) = (image(), image())
                    first.withUnsafeBufferPointer { a in
                        second.withUnsafeBufferPointer { b in
                            guard let a = a.baseAddress, let b = b.baseAddress else { return }
                            for y in 0..<height {
                                for x in 0..<width {
                                    for (image, other) in [(a, b), (b, a)] {
                                        let scalar = PixelMatch.isAntialiased(image, x: x, y: y, width: width, height: height, image, other)
                                        XCTAssertEqual(
                                            PixelMatch.isAntialiasedVectorized(image, x: x, y: y, width: width, height: height, image, other),
                                            scalar, "\(width)x\(height) palette \(paletteSize) translucent \(translucent) at \(x),\(y)")
                                        if scalar { verdicts.antialiased += 1 } else { verdicts.not += 1 }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(verdicts.antialiased, 500)
        XCTAssertGreaterThan(verdicts.not, 500)
    }

    func testNeighbourhoodRowsEqualPlainTests() {
        var generator = SplitMix(seed: 0xB1E4D)
        for (width, height) in Self.sizes + [(40, 3), (3, 40)] {
            for kind in ["opaque", "translucent", "ink moved"] {
                var (a, b) = kind == "ink moved"
                    ? inkMovedPair(width: width, height: height, using: &generator)
                    : randomPair(width: width, height: height, changed: 0.6, using: &generator)
                let opaque = kind != "translucent"
                if opaque {
                    for index in stride(from: 3, to: a.pixels.count, by: 4) { (a.pixels[index], b.pixels[index]) = (255, 255) }
                }
                for marked in [0.3, 1.0] {
                    var mask = DifferenceMask(width: width, height: height)
                    for y in 0..<height {
                        for x in 0..<width where Double(generator.next() % 1000) / 1000 < marked { mask.set(x: x, y: y) }
                    }
                    for radius in 1...StructuralRule.largestShiftRadius {
                        let rule = StructuralRule(shiftRadius: radius)
                        let plain = StructuralComparison.withoutNeighbourhoodBlends(mask, a, b, rule: rule, kernel: .scalar)
                        for bands in [0, 1, 3] {
                            let byRows = StructuralComparison.withoutNeighbourhoodBlends(mask, a, b, rule: rule, bands: bands)
                            XCTAssertEqual(byRows, plain, "\(width)x\(height) \(kind) marked=\(marked) radius=\(radius) bands=\(bands)")
                        }
                        if marked == 1, width * height >= 64, radius == 1 {
                            if kind == "opaque" { XCTAssertNotEqual(plain.count, 0, "some pixels stay unexplained") }
                            XCTAssertLessThan(plain.count, mask.count, "some pixels are explained")
                        }
                    }
                }
            }
        }
    }

    /// Soft gray texture, and a copy whose horizontal neighbours trade ink (one darker, the
    /// next lighter by as much): local means stay, single pixels leave their neighbourhood's
    /// range, so the mean test decides, at the edges too.
    func inkMovedPair(width: Int, height: Int, using generator: inout SplitMix) -> (RGBAImage, RGBAImage) {
        var first = [UInt8](), second = [UInt8]()
        for y in 0..<height {
            var row: [SIMD3<Int>] = (0..<width).map { x in
                let level = 90 + (x * 7 + y * 5) % 60 + Int(generator.next() % 9)
                return SIMD3(level, level + 3, level - 2)
            }
            first += row.flatMap { [UInt8($0.x), UInt8($0.y), UInt8($0.z), 255] }
            for x in stride(from: Int(generator.next() % 2), to: width - 1, by: 2) where generator.next() % 2 == 0 {
                let moved = SIMD3(repeating: 10 + Int(generator.next() % 50))
                (row[x], row[x + 1]) = (row[x] &- moved, row[x + 1] &+ moved)
            }
            second += row.flatMap { [UInt8(clamping: $0.x), UInt8(clamping: $0.y), UInt8(clamping: $0.z), 255] }
        }
        return (RGBAImage(width: width, height: height, pixels: first), RGBAImage(width: width, height: height, pixels: second))
    }
}

extension KernelEquivalenceTests {
    /// The byte comparison (64-byte steps checked every 8 KiB, then 32-, 8- and 1-byte tails)
    /// equals the stdlib's `==` on buffers of every length around its steps, equal or with one
    /// byte changed anywhere, or one buffer a byte longer.
    func testByteComparisonEqualsArrayEquality() {
        var generator = SplitMix(seed: 0xB17E5)
        var (equal, unequal) = (0, 0)
        for trial in 0..<1200 {
            // Lengths around the 64-byte step and the 8 KiB block, and far past them.
            let length = switch trial % 3 {
            case 0: Int(generator.next() % 200)
            case 1: 8192 * (1 + Int(generator.next() % 3)) + Int(generator.next() % 130) - 65
            default: Int(generator.next() % 20_000)
            }
            let first = (0..<length).map { _ in generator.nextByte() }
            var second = first
            if trial % 4 != 0, length > 0 {
                let at = Int(generator.next() % UInt64(length))
                second[at] &+= UInt8(1 + generator.next() % 255)
            }
            if trial % 50 == 7 { second.append(generator.nextByte()) }
            let expected = first == second
            XCTAssertEqual(ByteComparison.areEqual(first, second), expected, "trial \(trial), length \(length)")
            XCTAssertEqual(ByteComparison.areEqual(second, first), expected, "trial \(trial), length \(length)")
            if expected { equal += 1 } else { unequal += 1 }
        }
        XCTAssertGreaterThan(equal, 200)
        XCTAssertGreaterThan(unequal, 600)
        // Every length through two 64-byte steps and every tail, a difference at every byte.
        for length in 0...160 {
            let first = (0..<length).map { _ in generator.nextByte() }
            XCTAssertTrue(ByteComparison.areEqual(first, first), "length \(length)")
            for at in 0..<length {
                var second = first
                second[at] &+= 1
                XCTAssertFalse(ByteComparison.areEqual(first, second), "length \(length), byte \(at)")
            }
        }
    }

    /// The recompression signature's vectorized block count equals the plain one, on blocks
    /// that are flat or textured, unchanged, nudged by a level or two (small) or changed more,
    /// in every byte including alpha.
    func testVectorizedBlockCountsEqualScalar() {
        var generator = SplitMix(seed: 0x8B10C)
        var seen = RecompressionNoise.BlockCounts()
        for trial in 0..<4000 {
            let (width, rows) = (8 + Int(generator.next() % 9), 1 + Int(generator.next() % 8))
            let flat = trial % 4 == 0
            let fill = UInt32(truncatingIfNeeded: generator.next())
            let first = (0..<(width * rows)).map { _ in flat ? fill : UInt32(truncatingIfNeeded: generator.next() % 3 == 0 ? generator.next() : UInt64(fill)) }
            let second = trial % 5 == 1 ? first : first.map { pixel -> UInt32 in
                switch generator.next() % 6 {
                case 0: return pixel
                case 1, 2:
                    let shift = UInt32(8 * (generator.next() % 4))
                    let sample = UInt8(truncatingIfNeeded: pixel >> shift)
                    let nudged = UInt8(clamping: Int(sample) + Int(generator.next() % 5) - 2)
                    return pixel & ~(0xFF << shift) | UInt32(nudged) << shift
                default: return trial % 7 == 0 ? pixel : UInt32(truncatingIfNeeded: generator.next())
                }
            }
            let left = Int(generator.next() % UInt64(width - 7))
            var (scalar, vectorized) = (RecompressionNoise.BlockCounts(), RecompressionNoise.BlockCounts())
            first.withUnsafeBufferPointer { a in
                second.withUnsafeBufferPointer { b in
                    scalar.addBlock(a, b, width: width, rows: 0..<rows, columns: left..<(left + 8))
                    vectorized.addBlockVectorized(a, b, width: width, rows: 0..<rows, left: left)
                }
            }
            XCTAssertEqual(vectorized, scalar, "trial \(trial)")
            seen.add(scalar)
        }
        XCTAssertGreaterThan(seen.flatDiffering, 100)
        XCTAssertGreaterThan(seen.texturedDiffering, 100)
        XCTAssertGreaterThan(seen.textured - seen.texturedDiffering, 20)
        XCTAssertGreaterThan(seen.small, 1000)
        XCTAssertGreaterThan(seen.differing - seen.small, 1000)
    }

    /// The candidates' histogram bounds what the recompression signature reads off the blocks:
    /// the pixels it counts above 0 and the fully transparent pixels whose bytes changed are the
    /// differing pixels, and the small differences lie between its counts of 1 and 2 and those
    /// plus the transparent ones. So where ``RecompressionNoise/allowsSmallShare(_:)`` is false,
    /// the pair carries no signature; on pairs of small jitter, large changes and changed
    /// transparent pixels, under both kernels.
    func testHistogramBoundsTheRecompressionSignature() {
        var generator = SplitMix(seed: 0x5A11)
        let options = StructuralComparison.candidateOptions(rule: StructuralRule(), options: ComparisonOptions())
        var (ruledOut, allowed, transparentSeen) = (0, 0, 0)
        for trial in 0..<300 {
            let (width, height) = (9 + Int(generator.next() % 40), 9 + Int(generator.next() % 30))
            let smallOdds = 1 + generator.next() % 6
            var first = [UInt8](repeating: 0, count: width * height * 4)
            for index in stride(from: 0, to: first.count, by: 4) {
                let grey = UInt8(truncatingIfNeeded: 64 + (index / 4) % 7 * 20)
                first[index] = grey
                first[index + 1] = grey &+ 3
                first[index + 2] = grey
                first[index + 3] = trial % 3 == 0 && generator.next() % 4 == 0 ? 0 : 255
            }
            var second = first
            for index in stride(from: 0, to: second.count, by: 4) where generator.next() % 3 == 0 {
                let transparent = first[index + 3] == 0
                for channel in 0..<(transparent ? 3 : 4) {
                    let step = generator.next() % smallOdds == 0 ? Int(generator.next() % 5) - 2 : Int(generator.next() % 81) - 40
                    second[index + channel] = UInt8(clamping: Int(first[index + channel]) + step)
                }
            }
            let reference = RGBAImage(width: width, height: height, pixels: first)
            let actual = RGBAImage(width: width, height: height, pixels: second)
            let counts = RecompressionNoise.blockCounts(reference, actual)
            for kernel in [ComparisonEngine.Kernel.scalar, .vectorized] {
                let result = ComparisonEngine(reference: reference, actual: actual, options: options).run(kernel: kernel)
                let histogram = result.maxChannelDeltaHistogram
                let transparent = result.changedTransparentPixels
                let small = histogram[1...Int(RecompressionNoise.smallDifference)].reduce(0, +)
                XCTAssertEqual(histogram.dropFirst().reduce(0, +) + transparent, counts.differing, "trial \(trial)")
                XCTAssertTrue((small...(small + transparent)).contains(counts.small), "trial \(trial)")
                if RecompressionNoise.allowsSmallShare(result) {
                    allowed += 1
                } else {
                    ruledOut += 1
                    XCTAssertFalse(RecompressionNoise.carriesSignature(reference, actual), "trial \(trial)")
                }
                transparentSeen += transparent
            }
        }
        XCTAssertGreaterThan(ruledOut, 50)
        XCTAssertGreaterThan(allowed, 50)
        XCTAssertGreaterThan(transparentSeen, 1000)
    }
}

extension KernelEquivalenceTests {
    /// Visiting the marked bytes of a row word by word finds the same columns, in the same
    /// order, as reading every byte: on rows of every width up to 100, empty, sparse and
    /// dense, with marks at both ends, and with a visit that clears the byte it is given.
    func testForEachMarkedEqualsPlainScan() {
        var generator = SplitMix(seed: 0xF0E4)
        for width in 0...100 {
            for density in [0, 1, 5, 50, 100] {
                var row = (0..<width).map { _ in Int(generator.next() % 100) < density ? UInt8(1 + generator.next() % 2) : 0 }
                if width > 0, density == 1 { (row[0], row[width - 1]) = (1, 2) }
                let expected = row.indices.filter { row[$0] != 0 }
                var visited: [Int] = []
                row.withUnsafeMutableBufferPointer { bytes in
                    guard let base = bytes.baseAddress else { return }
                    DifferenceMask.forEachMarked(inRow: base, width: width) { x in
                        visited.append(x)
                        base[x] = 0
                    }
                }
                XCTAssertEqual(visited, expected, "width \(width), density \(density)")
                XCTAssertTrue(row.allSatisfy { $0 == 0 })
            }
        }
    }
}

extension KernelEquivalenceTests {
    /// A pixel set holds what a plain set of indices holds: its count, and its members in
    /// ascending order, over sizes around a word's 64 bits, with indices inserted twice and at
    /// both ends; and the mask drawn from it marks those pixels and no other.
    func testPixelSetEqualsAPlainSet() {
        var generator = SplitMix(seed: 0x5E7)
        for count in [1, 63, 64, 65, 127, 128, 129, 1000] {
            for density in [0, 1, 10, 100] {
                var set = PixelSet(count: count)
                var plain: Set<Int> = []
                for index in 0..<count where Int(generator.next() % 100) < density {
                    set.insert(index)
                    plain.insert(index)
                    if generator.next() % 3 == 0 { set.insert(index) }
                }
                if density == 1 { for index in [0, count - 1] { set.insert(index); plain.insert(index) } }
                XCTAssertEqual(set.count, plain.count, "\(count) pixels, density \(density)")
                var members: [Int] = []
                set.forEach { members.append($0) }
                XCTAssertEqual(members, plain.sorted(), "\(count) pixels, density \(density)")
                let mask = DifferenceMask(width: count, height: 1, marking: set)
                XCTAssertEqual(mask.count, plain.count)
                XCTAssertTrue((0..<count).allSatisfy { mask.contains(x: $0, y: 0) == plain.contains($0) })
            }
        }
    }
}
