import ImageDiff
import SnapshotRule

/// How the differences between two images are distributed: what `imgdiff tune` measures per
/// pair to find tolerances that pass render noise and still catch real changes.
///
/// Every measure covers the overlap of the two images; ``sizeDiffers`` pairs can pass no
/// tolerance, since imgdiff counts pixels outside the overlap as different and
/// swift-snapshot-testing fails on any size mismatch.
public struct DifferenceProfile: Sendable, Equatable, Codable {
    /// The reference image's full size, not just the overlap.
    public var referenceSize: ImageSize
    /// The new image's full size, not just the overlap.
    public var actualSize: ImageSize
    /// Whether the two sizes differ: then no tolerance passes the pair.
    public var sizeDiffers: Bool
    /// Pixels in the overlap.
    public var totalPixels: Int
    /// Pixels where any channel differs (two fully transparent pixels never differ).
    public var differentPixels: Int
    /// `differentPixels / totalPixels`.
    public var differentRatio: Double
    /// Largest |Δ| over R, G, B, A.
    public var maxChannelDelta: Int
    /// `maxChannelDeltaHistogram[d]` counts pixels whose largest channel difference is `d`;
    /// it ends at ``maxChannelDelta`` (entries past it would all be zero).
    public var maxChannelDeltaHistogram: [Int]
    /// CIE94 ΔE, the reference weighting the terms, pixels blended over white when not opaque.
    public var deltaE94: Distribution
    /// CIEDE2000 ΔE, pixels blended over white when not opaque.
    public var deltaE2000: Distribution
    /// Largest |pixelmatch YIQ delta| (squared YIQ distance; a pixel differs at threshold `t`
    /// iff it exceeds `35215 · t²`).
    public var maxYIQDelta: Double
    /// Largest |YIQ delta| among pixels that pixelmatch's detector does not find anti-aliased.
    public var maxYIQDeltaBeyondAntialiasing: Double
    /// Different pixels that look anti-aliased in either image.
    public var antialiasedPixels: Int
    /// Different pixels that do not look anti-aliased: what remains with `--antialiasing`.
    public var pixelsLeftAfterAntialiasing: Int
    /// Whether swift-snapshot-testing's premultiplied buffers are byte-identical (it passes such
    /// pairs whatever the precision).
    public var premultipliedEqual: Bool
    /// For each value of ``SnapshotTestingGrid/perceptualPrecisions``, the pixels that fail
    /// swift-snapshot-testing's per-pixel test: ΔE94 read back as a half float, then
    /// `> (1 − perceptualPrecision) · 100` in `Float` (``SnapshotPrecision/pixelFails(deltaE:)``).
    public var perceptualFailures: [Int]

    /// A summary of one ΔE formula over every overlap pixel (identical pixels count as 0).
    public struct Distribution: Sendable, Equatable, Codable {
        /// The largest ΔE (0 when no pixel differs).
        public var max: Double
        /// The 99.9th percentile, nearest rank: the value at rank ⌈0.999 · n⌉ of the sorted ΔEs.
        public var percentile999: Double

        public init(max: Double, percentile999: Double) {
            self.max = max
            self.percentile999 = percentile999
        }
    }
}

/// The perceptual precisions `imgdiff tune` considers for swift-snapshot-testing: values a
/// team would type, from 0.999 (ΔE94 0.1) to 0.70 (ΔE94 30).
public enum SnapshotTestingGrid {
    /// The values, tightest first; ``DifferenceProfile/perceptualFailures`` is indexed alike.
    public static let perceptualPrecisions: [Float] = [
        0.999, 0.998, 0.997, 0.996, 0.995, 0.994, 0.993, 0.992, 0.991, 0.99, 0.985, 0.98, 0.975,
        0.97, 0.965, 0.96, 0.955, 0.95, 0.94, 0.93, 0.92, 0.91, 0.9, 0.88, 0.86, 0.84, 0.82, 0.8,
        0.75, 0.7,
    ]

    /// The per-pixel ΔE94 limits, in `Float` as swift-snapshot-testing computes them; ascending.
    static let deltaELimits: [Float] = perceptualPrecisions.map { (1 - $0) * 100 }
}

/// One pass over the overlap collecting every measure of a ``DifferenceProfile``.
struct ProfileMeasurement {
    let reference: RGBAImage
    let actual: RGBAImage
    let width: Int
    let height: Int

    var histogram = [Int](repeating: 0, count: 256)
    var differentPixels = 0
    var maxChannelDelta = 0
    var deltaE94Values: [Double] = []
    var deltaE2000Values: [Double] = []
    var maxYIQDelta = 0.0
    var maxYIQDeltaBeyondAntialiasing = 0.0
    var antialiasedPixels = 0
    /// `perceptualBuckets[i]` counts pixels whose ΔE94 exceeds exactly `i` of the grid's limits.
    var perceptualBuckets = [Int](repeating: 0, count: SnapshotTestingGrid.deltaELimits.count + 1)

    init(reference: RGBAImage, actual: RGBAImage) {
        width = min(reference.width, actual.width)
        height = min(reference.height, actual.height)
        let sameSize = reference.width == actual.width && reference.height == actual.height
        self.reference = sameSize ? reference : reference.cropped(width: width, height: height)
        self.actual = sameSize ? actual : actual.cropped(width: width, height: height)
        originalSizes = (reference.size, actual.size)
    }

    let originalSizes: (reference: ImageSize, actual: ImageSize)

    mutating func run() {
        let width = width, height = height
        let limits = SnapshotTestingGrid.deltaELimits
        reference.pixels.withUnsafeBufferPointer { referenceBuffer in
            actual.pixels.withUnsafeBufferPointer { actualBuffer in
                guard let a = referenceBuffer.baseAddress, let b = actualBuffer.baseAddress else { return }
                for y in 0..<height {
                    let rowStart = y * width * 4
                    if ByteComparison.areEqual(a + rowStart, b + rowStart, count: width * 4) {
                        histogram[0] += width
                        continue
                    }
                    for x in 0..<width {
                        let k = rowStart + x * 4
                        let delta = PixelDelta.maxChannelDelta(a, b, k)
                        histogram[delta] += 1
                        guard delta != 0 else { continue }
                        differentPixels += 1
                        maxChannelDelta = max(maxChannelDelta, delta)

                        let first = PixelDelta.labOverWhite(a, k), second = PixelDelta.labOverWhite(b, k)
                        let deltaE94 = DeltaE.cie94(first, second)
                        deltaE94Values.append(deltaE94)
                        deltaE2000Values.append(DeltaE.ciede2000(first, second))
                        let halfDeltaE94 = SnapshotPrecision.halfFloat(deltaE94)
                        let exceeded = limits.firstIndex { !(halfDeltaE94 > $0) } ?? limits.count
                        perceptualBuckets[exceeded] += 1

                        let yiq = abs(PixelMatch.colorDelta(a, k, b, k))
                        maxYIQDelta = max(maxYIQDelta, yiq)
                        let antialiased =
                            PixelMatch.isAntialiased(a, x: x, y: y, width: width, height: height, a, b)
                            || PixelMatch.isAntialiased(b, x: x, y: y, width: width, height: height, b, a)
                        if antialiased {
                            antialiasedPixels += 1
                        } else {
                            maxYIQDeltaBeyondAntialiasing = max(maxYIQDeltaBeyondAntialiasing, yiq)
                        }
                    }
                }
            }
        }
    }

    func profile() -> DifferenceProfile {
        let total = width * height
        var failures = [Int](repeating: 0, count: SnapshotTestingGrid.deltaELimits.count)
        var exceeding = 0
        for index in failures.indices.reversed() {
            exceeding += perceptualBuckets[index + 1]
            failures[index] = exceeding
        }
        return DifferenceProfile(
            referenceSize: originalSizes.reference,
            actualSize: originalSizes.actual,
            sizeDiffers: originalSizes.reference != originalSizes.actual,
            totalPixels: total,
            differentPixels: differentPixels,
            differentRatio: total == 0 ? 0 : Double(differentPixels) / Double(total),
            maxChannelDelta: maxChannelDelta,
            maxChannelDeltaHistogram: Array(histogram[...maxChannelDelta]),
            deltaE94: Self.distribution(deltaE94Values, total: total),
            deltaE2000: Self.distribution(deltaE2000Values, total: total),
            maxYIQDelta: maxYIQDelta,
            maxYIQDeltaBeyondAntialiasing: maxYIQDeltaBeyondAntialiasing,
            antialiasedPixels: antialiasedPixels,
            pixelsLeftAfterAntialiasing: differentPixels - antialiasedPixels,
            premultipliedEqual: ByteComparison.areEqual(Premultiplied(reference).bytes, Premultiplied(actual).bytes),
            perceptualFailures: failures)
    }

    /// Max and 99.9th percentile over `total` pixels, of which `nonZero` hold the values and the
    /// rest are 0.
    static func distribution(_ nonZero: [Double], total: Int) -> DifferenceProfile.Distribution {
        guard total > 0, !nonZero.isEmpty else { return .init(max: 0, percentile999: 0) }
        let sorted = nonZero.sorted()
        let rank = Int((Double(total) * 0.999).rounded(.up))
        let zeros = total - sorted.count
        let percentile = rank <= zeros ? 0 : sorted[min(rank - zeros, sorted.count) - 1]
        return .init(max: sorted[sorted.count - 1], percentile999: percentile)
    }
}

extension DifferenceProfile {
    /// Measures `actual` against `reference`.
    public init(reference: RGBAImage, actual: RGBAImage) {
        var measurement = ProfileMeasurement(reference: reference, actual: actual)
        measurement.run()
        self = measurement.profile()
    }
}
