import RealModule

/// ImageMagick 6.9.11's distortion metrics, as `compare -metric M` computes and prints them
/// (besides AE, which is ``ComparisonMetric/imageMagickAE(fuzz:)``).
///
/// Over the larger of the two areas (the smaller image edge-extended), for each of R, G and B
/// in Q16 units, with `Sa` and `Da` each image's alpha (1 for an image without alpha):
/// `e = (Sa·p − Da·q) / 65535`. Then
/// - `MAE`: the mean of `|e|` over pixels and channels;
/// - `MSE`: the mean of `e²`; `RMSE` and `Fuzz` (without `-channel`, the same number): its
///   square root; `PSNR`: `−10·log10(MSE)`, infinite when MSE is below 10⁻¹²;
/// - `PAE`: the largest `|e|`;
/// - `MEPP`: the sum of `|Sa·p − Da·q|` over every sample, then the mean of `e²` and the
///   largest `|e|`;
/// - `NCC`: per channel, the mean over the larger area of `(Sa·p − p̄)(Da·q − q̄)` (scaled to
///   0…1), divided by the two images' own standard deviations (over their own areas, with
///   `n − 1`), then the root mean square of the three channels: identical images score
///   `(n − 1)/n`.
/// ImageMagick prints the error metrics as `value·65535 (value)` and PSNR alone, each with six
/// significant digits; ``ImageMagickDistortion/printed`` is that text. `-fuzz` changes none of
/// them. The alpha channel itself is not compared (ImageMagick's default channels leave it
/// out), only the colours it weighs.
public enum ImageMagickMetric: String, Sendable, CaseIterable, Codable {
    case fuzz = "Fuzz"
    case mae = "MAE"
    case mepp = "MEPP"
    case mse = "MSE"
    case ncc = "NCC"
    case pae = "PAE"
    case psnr = "PSNR"
    case rmse = "RMSE"

    /// The CLI's name: `--metric mae`.
    public var name: String { rawValue.lowercased() }

    /// Whether larger values mean more alike (PSNR, NCC); the others are errors.
    public var higherIsBetter: Bool { self == .psnr || self == .ncc }

    /// Whether the figure needs the pixels even of identical images: NCC divides by each
    /// image's own standard deviations, so identical images score `(n − 1)/n`, not 1.
    public var needsPixelsOfIdenticalImages: Bool { self == .ncc }
}

/// One ImageMagick distortion figure of a pair.
public struct ImageMagickDistortion: Sendable, Equatable, Encodable {
    /// The `-metric` this figure is.
    public var metric: ImageMagickMetric
    /// The number `compare` prints first: Q16-scaled for the error metrics, the raw sum for
    /// MEPP, decibels for PSNR.
    public var value: Double
    /// The normalized number (0…1) in parentheses, for the error metrics.
    public var normalized: Double?
    /// MEPP's normalized mean error (the first number in parentheses); nil for other metrics.
    public var normalizedMeanError: Double?
    /// MEPP's normalized maximum error (the second number in parentheses); nil for other metrics.
    public var normalizedMaximumError: Double?
    /// Exactly what `compare -metric M` prints on stderr.
    public var printed: String

    /// The figure a threshold is held against: the normalized error (0…1; for MEPP, its
    /// normalized mean error, the first figure in parentheses), or PSNR in dB, or NCC.
    public var judged: Double { normalized ?? normalizedMeanError ?? value }

    /// Whether the pair passes `threshold`: an error at most it, or a PSNR at least it.
    /// An infinite PSNR or NCC threshold (their default) passes none: images that differ by so
    /// little that PSNR is `inf` still differ.
    public func passes(threshold: Double) -> Bool {
        metric.higherIsBetter ? threshold.isFinite && judged >= threshold : judged <= threshold
    }

    /// Measures `actual` (ImageMagick's reconstructed image) against `reference`.
    public init(_ metric: ImageMagickMetric, reference: RGBAImage, actual: RGBAImage) {
        if metric == .ncc {
            self.init(normalizedCrossCorrelation: ImageMagickDistortion.normalizedCrossCorrelation(reference, actual))
        } else {
            self.init(metric, sums: ImageMagickDistortion.sums(reference, actual))
        }
    }

    init(normalizedCrossCorrelation value: Double) {
        metric = .ncc
        self.value = value
        printed = ImageMagickDistortion.formatted(value)
    }

    /// The figure of two identical images of `area` pixels: no error, an infinite PSNR.
    public init(identical metric: ImageMagickMetric, area: Int) {
        self.init(metric, sums: (0, 0, 0, area))
    }

    /// From ``sums(_:_:)``, in Q16 units. The means are each one division of the sums where
    /// they are exact: ImageMagick adds its errors up in extended precision, so its figures are
    /// those of the exact sums (a mean of 24093.75 prints as 24093.8, not 24093.7).
    init(_ metric: ImageMagickMetric, sums: (absolute: Double, squared: Double, peak: Double, area: Int)) {
        self.metric = metric
        let samples = Double(max(sums.area, 1)) * 3
        let meanAbsolute = sums.absolute / (Q16.range * samples)
        let meanSquared = sums.squared / (Q16.range * samples) / Q16.range
        let peak = sums.peak / Q16.range
        switch metric {
        case .mae: (value, normalized) = (Q16.range * meanAbsolute, meanAbsolute)
        case .mse: (value, normalized) = (Q16.range * meanSquared, meanSquared)
        case .rmse, .fuzz:
            let root = meanSquared.squareRoot()
            (value, normalized) = (Q16.range * root, root)
        case .pae: (value, normalized) = (Q16.range * peak, peak)
        // `+ 0` prints a PSNR of zero as ImageMagick does, "0", not "-0".
        case .psnr: value = abs(meanSquared) < 1e-12 ? .infinity : -10 * Double.log10(max(meanSquared, 1e-11)) + 0
        case .ncc: value = 1
        case .mepp:
            value = sums.absolute
            normalizedMeanError = meanSquared
            normalizedMaximumError = peak
        }
        let g = ImageMagickDistortion.formatted
        switch metric {
        case .psnr, .ncc: printed = g(value)
        case .mepp: printed = "\(g(value)) (\(g(meanSquared)), \(g(peak)))"
        default: printed = "\(g(value)) (\(g(normalized ?? 0)))"
        }
    }

    /// The sums over every pixel of the larger area, in Q16 units: Σ|e|, Σe², the largest |e|,
    /// and the area. Whole errors (every one between samples of opaque pixels) are added up as
    /// integers, exactly; only the fractions alpha weighting makes are added as doubles. An
    /// image without pixels has none to extend over the other's area, so beside one with pixels
    /// every sample differs wholly (|e| = 65535): the worst figure, never a perfect one.
    static func sums(_ reference: RGBAImage, _ actual: RGBAImage) -> (absolute: Double, squared: Double, peak: Double, area: Int) {
        let width = max(reference.width, actual.width), height = max(reference.height, actual.height)
        guard reference.pixelCount > 0, actual.pixelCount > 0 else {
            let area = width * height, samples = Double(area) * 3
            return reference.pixelCount == actual.pixelCount
                ? (0, 0, 0, area) : (samples * Q16.range, samples * Q16.range * Q16.range, Q16.range, area)
        }
        struct Totals {
            var wholeAbsolute: UInt64 = 0, wholeSquared: UInt64 = 0
            var fractionalAbsolute = 0.0, fractionalSquared = 0.0, peak = 0.0
        }
        let totals = RowBands.map(height: height, bands: 16) { _, rows in
            var total = Totals()
            forEachWeightedSample(reference, actual, rows: rows, width: width) { _, p, q in
                let e = abs(p - q)
                if e == e.rounded(.down) {
                    let whole = UInt64(e)
                    total.wholeAbsolute += whole
                    let (squared, overflow) = total.wholeSquared.addingReportingOverflow(whole * whole)
                    if overflow {
                        total.fractionalSquared += Double(total.wholeSquared)
                        total.wholeSquared = whole * whole
                    } else {
                        total.wholeSquared = squared
                    }
                } else {
                    total.fractionalAbsolute += e
                    total.fractionalSquared += e * e
                }
                total.peak = max(total.peak, e)
            }
            return total
        }
        // Each band's whole sums convert exactly while below 2⁵³, and so add up exactly.
        return (totals.reduce(0) { $0 + Double($1.wholeAbsolute) } + totals.reduce(0) { $0 + $1.fractionalAbsolute },
                totals.reduce(0) { $0 + Double($1.wholeSquared) } + totals.reduce(0) { $0 + $1.fractionalSquared },
                totals.map(\.peak).max() ?? 0, width * height)
    }

    /// Calls `body(channel, Sa·p, Da·q)` for R, G and B of every pixel in `rows` of the larger
    /// area, `width` wide, the smaller image edge-extended (ImageMagick's virtual pixels), in
    /// Q16 units, each sample weighted by its image's alpha (1 without alpha).
    @inline(__always)
    static func forEachWeightedSample(
        _ reference: RGBAImage, _ actual: RGBAImage, rows: Range<Int>, width: Int, _ body: (Int, Double, Double) -> Void
    ) {
        for y in rows {
            let referenceRow = min(y, reference.height - 1) * reference.width
            let actualRow = min(y, actual.height - 1) * actual.width
            for x in 0..<width {
                let p = referenceRow + min(x, reference.width - 1), q = actualRow + min(x, actual.width - 1)
                let sa = reference.hasAlpha ? Q16.scale * Double(reference.quantum(p, 3)) : 1
                let da = actual.hasAlpha ? Q16.scale * Double(actual.quantum(q, 3)) : 1
                for channel in 0..<3 {
                    body(channel, sa * Double(reference.quantum(p, channel)), da * Double(actual.quantum(q, channel)))
                }
            }
        }
    }

    /// ImageMagick's NCC: see ``ImageMagickMetric/ncc``.
    static func normalizedCrossCorrelation(_ reference: RGBAImage, _ actual: RGBAImage) -> Double {
        guard reference.pixelCount > 0, actual.pixelCount > 0 else { return 0 }
        let (referenceMean, referenceDeviation) = channelStatistics(reference)
        let (actualMean, actualDeviation) = channelStatistics(actual)
        let width = max(reference.width, actual.width), height = max(reference.height, actual.height)
        let area = 1 / (Double(width) * Double(height))
        var sums = SIMD3<Double>()
        forEachWeightedSample(reference, actual, rows: 0..<height, width: width) { channel, p, q in
            sums[channel] += area * Q16.scale * (p - referenceMean[channel]) * (q - actualMean[channel])
        }
        var total = 0.0
        for channel in 0..<3 {
            let distortion = Q16.range * Q16.reciprocal(referenceDeviation[channel] * actualDeviation[channel]) * sums[channel]
            total += distortion * distortion
        }
        return (total / 3).squareRoot()
    }

    /// Each channel's mean and standard deviation (with `n − 1`) over the image's own pixels,
    /// in Q16 units, as ImageMagick's channel statistics give them.
    static func channelStatistics(_ image: RGBAImage) -> (mean: SIMD3<Double>, deviation: SIMD3<Double>) {
        var sum = SIMD3<Double>(), squares = SIMD3<Double>()
        for index in 0..<image.pixelCount {
            for channel in 0..<3 {
                let value = Double(image.quantum(index, channel))
                sum[channel] += value
                squares[channel] += value * value
            }
        }
        let count = Double(image.pixelCount)
        let area = Q16.reciprocal(count)
        var mean = SIMD3<Double>(), deviation = SIMD3<Double>()
        for channel in 0..<3 {
            mean[channel] = sum[channel] * area
            let spread = (squares[channel] * area - mean[channel] * mean[channel]).squareRoot()
            let correction = Q16.reciprocal(count - 1) * count
            deviation[channel] = (correction * spread * spread).squareRoot()
        }
        return (mean, deviation)
    }

    /// `%.6g`, ImageMagick's default precision.
    static func formatted(_ value: Double) -> String { PrintfFormat.general(value, significantDigits: 6) }
}
