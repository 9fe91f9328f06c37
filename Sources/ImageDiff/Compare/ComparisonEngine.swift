/// Compares two images in one pass over their pixels, split into row bands across all cores.
///
/// Sizes may differ: the overlap is compared and every pixel outside it counts as different
/// (odiff's rule), except in ``ComparisonMetric/imageMagickAE(fuzz:)`` mode, which follows
/// ImageMagick `compare`. The result does not depend on the number of bands or threads.
///
/// The options are taken as given: check ``ComparisonOptions/judgingProblem`` first, as every
/// front end does, for settings that cannot judge as they say (a NaN or negative threshold,
/// ignored pixels beside `ae`).
public func compare(
    _ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions = ComparisonOptions()
) -> DiffResult {
    if case .structural(let rule) = options.metric {
        return StructuralComparison.compare(reference, actual, rule: rule, options: options)
    }
    if case .ssimCIE94(let maxDeltaE) = options.metric {
        return SSIMCIE94.compare(reference, actual, maxDeltaE: maxDeltaE, options: options)
    }
    if case .imageMagick(let metric, let threshold) = options.metric {
        var countOptions = options
        countOptions.metric = .imageMagickAE(fuzz: 0)
        var result = ComparisonEngine(reference: reference, actual: actual, options: countOptions).run(kernel: .vectorized)
            .applyingImageMagickCount(reference, actual, options: countOptions)
        let distortion = ImageMagickDistortion(metric, reference: reference, actual: actual)
        result.metric = options.metric
        result.imageMagick = distortion
        // Images without a differing pixel match under every metric (NCC scores them below 1);
        // images of other sizes never do, as ImageMagick refuses to compare them.
        result.match = !result.sizeDiffers && (result.differentPixels == 0 || distortion.passes(threshold: threshold))
        return result
    }
    let result = ComparisonEngine(reference: reference, actual: actual, options: options).run(kernel: .vectorized)
    return result.applyingImageMagickCount(reference, actual, options: options)
        .applyingSixteenBitExactCount(reference, actual, options: options)
}

/// The plain scalar pass, pixel by pixel on one thread: the reference the fast path is tested
/// against.
func compareScalar(
    _ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions = ComparisonOptions()
) -> DiffResult {
    var options = options
    options.bands = 1
    let result = ComparisonEngine(reference: reference, actual: actual, options: options).run(kernel: .scalar)
    return result.applyingImageMagickCount(reference, actual, options: options)
        .applyingSixteenBitExactCount(reference, actual, options: options)
}

extension DiffResult {
    /// In ``ComparisonMetric/imageMagickAE(fuzz:)`` mode the count, area and box are
    /// ImageMagick's; the other statistics stay those of the overlap.
    func applyingImageMagickCount(_ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions) -> DiffResult {
        guard case .imageMagickAE(let fuzz) = options.metric else { return self }
        let ae = ImageMagickCompare.absoluteError(reference, actual, fuzz: fuzz, collectsMask: options.collectsMask)
        var result = self
        if options.collectsMask { result.mask = ae.mask }
        result.differentPixels = ae.count
        result.totalPixels = ae.area
        result.boundingBox = ae.boundingBox
        result.differentRatio = ae.area == 0 ? 0 : Double(ae.count) / Double(ae.area)
        // ImageMagick counts the pixels outside a smaller image itself.
        result.match = options.allowance.permits(ae.count, of: ae.area)
        return result
    }
}

/// One comparison: the overlap of two same-stride buffers, and what lies outside it.
struct ComparisonEngine {
    enum Kernel { case scalar, vectorized }

    let reference: RGBAImage
    let actual: RGBAImage
    let options: ComparisonOptions
    let sizes: (reference: ImageSize, actual: ImageSize)
    let width: Int
    let height: Int
    let fullWidth: Int
    let fullHeight: Int

    init(reference: RGBAImage, actual: RGBAImage, options: ComparisonOptions) {
        width = min(reference.width, actual.width)
        height = min(reference.height, actual.height)
        fullWidth = max(reference.width, actual.width)
        fullHeight = max(reference.height, actual.height)
        let sameSize = reference.width == actual.width && reference.height == actual.height
        self.reference = sameSize ? reference : reference.cropped(width: width, height: height)
        self.actual = sameSize ? actual : actual.cropped(width: width, height: height)
        self.options = options
        sizes = (reference.size, actual.size)
    }

    func run(kernel: Kernel) -> DiffResult {
        var mask = options.collectsMask ? DifferenceMask(width: fullWidth, height: fullHeight) : nil
        let ignored = IgnoreMap(options: options, width: width, height: height)
        let bandCount = bandCount()
        var bands = [BandStatistics](repeating: BandStatistics(), count: bandCount)
        reference.pixels.withUnsafeBufferPointer { referenceBuffer in
            actual.pixels.withUnsafeBufferPointer { actualBuffer in
                mask.withMaskPointer { maskPointer in
                    bands.withUnsafeMutableBufferPointer { bandResults in
                        guard let a = referenceBuffer.baseAddress, let b = actualBuffer.baseAddress else { return }
                        let shared = UncheckedSendable((a, b, maskPointer, bandResults.baseAddress))
                        RowBands.forEachLane(bands: bandCount) { laneBands in
                            let (a, b, maskPointer, results) = shared.value
                            var judge = PixelJudge(
                                options: options, width: width, height: height, a: a, b: b,
                                mask: maskPointer, maskWidth: fullWidth, ignored: ignored)
                            for band in laneBands {
                                let rows = RowBands.rows(ofBand: band, of: bandCount, height: height)
                                judge.statistics = BandStatistics()
                                switch kernel {
                                case .scalar: judge.scanScalar(rows: rows)
                                case .vectorized: judge.scanVectorized(rows: rows)
                                }
                                results?[band] = judge.statistics
                            }
                        }
                    }
                }
            }
        }
        return result(merging: bands, mask: mask)
    }

    /// The statistics (no mask) of the rows a pass over images of one size walks in its own
    /// bands: `walk` hands the judge each row it visits (``PixelJudge/scan(row:differingColumns:)``),
    /// and its result comes back beside them, to merge with ``result(merging:mask:)``.
    /// The images must have pixels.
    func statistics<Walk>(ignored: IgnoreMap?, walking walk: (inout PixelJudge) -> Walk) -> (BandStatistics, Walk) {
        reference.pixels.withUnsafeBufferPointer { referenceBuffer in
            actual.pixels.withUnsafeBufferPointer { actualBuffer in
                guard let a = referenceBuffer.baseAddress, let b = actualBuffer.baseAddress else {
                    preconditionFailure("statistics(ignored:walking:) of images without pixels")
                }
                var judge = PixelJudge(
                    options: options, width: width, height: height, a: a, b: b, mask: nil, maskWidth: fullWidth, ignored: ignored)
                let walked = walk(&judge)
                return (judge.statistics, walked)
            }
        }
    }

    /// The result of the bands' statistics, which together cover every row once.
    func result(merging bands: [BandStatistics], mask: DifferenceMask?) -> DiffResult {
        var total = BandStatistics()
        for band in bands { total.merge(band) }
        var mask = mask
        countOutsideOverlap(into: &total, mask: &mask)
        return result(total, mask: mask)
    }

    /// The bands asked for, or about one per MiB of the two images' rows.
    func bandCount() -> Int {
        let bands = options.bands > 0 ? options.bands : RowBands.count(height: height, bytesPerRow: width * 8)
        return max(1, min(bands, height))
    }

    /// Pixels outside the overlap are different: they exist in only one image.
    func countOutsideOverlap(into total: inout BandStatistics, mask: inout DifferenceMask?) {
        let outside = fullWidth * fullHeight - width * height
        guard outside > 0 else { return }
        total.differentPixels += outside
        if mask != nil {
            for y in 0..<fullHeight {
                for x in 0..<fullWidth where x >= width || y >= height { mask?.set(x: x, y: y) }
            }
        }
        let box = PixelRect(
            minX: height < fullHeight ? 0 : width,
            minY: width < fullWidth ? 0 : height,
            maxX: fullWidth - 1, maxY: fullHeight - 1)
        total.boundingBox.formUnion(box)
    }

    func result(_ total: BandStatistics, mask: DifferenceMask?) -> DiffResult {
        DiffResult(
            total, options: options, width: fullWidth, height: fullHeight,
            referenceSize: sizes.reference, actualSize: sizes.actual, mask: mask)
    }
}

extension DiffResult {
    /// The result of merged band statistics over a `width` × `height` comparison.
    init(
        _ total: BandStatistics, options: ComparisonOptions, width: Int, height: Int,
        referenceSize: ImageSize, actualSize: ImageSize, mask: DifferenceMask?
    ) {
        let area = width * height
        self.init(
            match: false,
            metric: options.metric,
            differentPixels: total.differentPixels,
            totalPixels: area,
            differentRatio: area == 0 ? 0 : Double(total.differentPixels) / Double(area),
            ignoredPixels: total.ignoredPixels,
            antialiasedPixels: total.antialiasedPixels,
            maxChannelDelta: total.maxChannelDelta,
            maxDeltaE: total.maxDeltaE,
            deltaEFormula: options.deltaEFormula,
            boundingBox: total.boundingBox,
            sizeDiffers: referenceSize != actualSize,
            referenceSize: referenceSize,
            actualSize: actualSize,
            maxChannelDeltaHistogram: total.histogramArray,
            changedTransparentPixels: total.changedTransparentPixels,
            mask: mask)
        judge(by: options.allowance)
    }
}

/// What one band of rows found; bands merge by sums, maxima and rectangle unions, so the
/// total does not depend on how the rows were split.
struct BandStatistics {
    var differentPixels = 0
    var ignoredPixels = 0
    var antialiasedPixels = 0
    var maxChannelDelta = 0
    var maxDeltaE = 0.0
    var boundingBox: PixelRect?
    /// Pixels by their largest channel difference; inline, so that counting one is a store.
    var histogram = InlineArray<256, Int>(repeating: 0)
    /// Pixels of other bytes, both fully transparent (under 0 in the histogram).
    var changedTransparentPixels = 0

    var histogramArray: [Int] { (0..<256).map { histogram[$0] } }

    mutating func merge(_ other: BandStatistics) {
        differentPixels += other.differentPixels
        ignoredPixels += other.ignoredPixels
        changedTransparentPixels += other.changedTransparentPixels
        antialiasedPixels += other.antialiasedPixels
        maxChannelDelta = max(maxChannelDelta, other.maxChannelDelta)
        maxDeltaE = max(maxDeltaE, other.maxDeltaE)
        if let box = other.boundingBox { boundingBox.formUnion(box) }
        for index in 0..<256 { histogram[index] += other.histogram[index] }
    }
}

/// The per-pixel decision and the loops that apply it.
struct PixelJudge {
    /// The two images' row 0, from which pixel (x, y) sits `(y * width + x) * 4` bytes on.
    var a: UnsafePointer<UInt8>
    var b: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    var mask: UnsafeMutablePointer<UInt8>?
    let maskWidth: Int
    let ignored: IgnoreMap?
    let metric: ComparisonMetric
    let maxYIQDelta: Double
    let formula: DeltaEFormula
    let ignoreAntialiasing: Bool
    let marksAntialiasedPixels: Bool
    let measuresDeltaE: Bool
    /// The ΔE above which a pair differs, in the modes that judge by ΔE; infinite in the others.
    let deltaEThreshold: Double
    /// The kernel of the scan under way, which the anti-aliasing detector follows.
    var kernel = ComparisonEngine.Kernel.vectorized
    var labCache = LabCache()
    var deltaECache = DeltaECache()
    var statistics = BandStatistics()
    /// The last pixel pair judged (both RGBA words; never a real pair, whose delta would be 0,
    /// at the start) and its verdict.
    var lastPair: UInt64 = .max
    var lastVerdict = PairVerdict(delta: 0, differs: false)
    /// In YIQ mode a pair that is not opaque is blended over pixelmatch's checkerboard, which
    /// depends on the pixel's position: its verdict is not the last pixel's, however alike.
    let translucentVerdictsDependOnPosition: Bool

    init(
        options: ComparisonOptions, width: Int, height: Int, a: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>,
        mask: UnsafeMutablePointer<UInt8>?, maskWidth: Int, ignored: IgnoreMap?
    ) {
        self.a = a
        self.b = b
        self.width = width
        self.height = height
        self.mask = mask
        self.maskWidth = maskWidth
        self.ignored = ignored
        metric = options.metric
        if case .yiq(let threshold) = options.metric {
            maxYIQDelta = PixelMatch.maximumDelta(threshold: threshold)
        } else {
            maxYIQDelta = 0
        }
        formula = options.deltaEFormula
        ignoreAntialiasing = options.ignoreAntialiasing
        marksAntialiasedPixels = options.marksAntialiasedPixels
        measuresDeltaE = options.measuresDeltaE
        switch options.metric {
        case .structural(let rule): deltaEThreshold = rule.noiseDeltaE
        case .deltaE(_, let threshold), .ssimCIE94(let threshold): deltaEThreshold = threshold
        case .exact, .imageMagickAE, .imageMagick, .channel, .yiq: deltaEThreshold = .infinity
        }
        if case .yiq = options.metric { translucentVerdictsDependOnPosition = true } else { translucentVerdictsDependOnPosition = false }
    }

    /// Every pixel, one at a time.
    mutating func scanScalar(rows: Range<Int>) {
        kernel = .scalar
        for y in rows {
            for x in 0..<width { judge(x: x, y: y) }
        }
    }

    /// ``scanVectorized(rows:)`` for row `y` alone, whose differing columns are known (in order):
    /// every other pixel is equal.
    mutating func scan(row y: Int, differingColumns columns: ArraySlice<Int>) {
        guard ignored == nil else {
            scanVectorized(rows: y..<(y + 1))
            return
        }
        kernel = .vectorized
        statistics.histogram[0] += width - columns.count
        for x in columns { judge(x: x, y: y) }
    }

    /// Skips equal rows, then runs of 8 equal pixels, with wide comparisons; judges the rest one by one.
    mutating func scanVectorized(rows: Range<Int>) {
        kernel = .vectorized
        let rowBytes = width * 4
        for y in rows {
            let rowStart = y * rowBytes
            if ignored == nil && ByteComparison.areEqual(a + rowStart, b + rowStart, count: rowBytes) {
                statistics.histogram[0] += width
                continue
            }
            var x = 0
            while x + 8 <= width {
                let offset = rowStart + x * 4
                if ByteComparison.areEqual(a + offset, b + offset, count: 32) {
                    countEqualRun(x: x, y: y, length: 8)
                } else {
                    for pixel in x..<(x + 8) { judge(x: pixel, y: y) }
                }
                x += 8
            }
            while x < width {
                judge(x: x, y: y)
                x += 1
            }
        }
    }

    @inline(__always)
    mutating func countEqualRun(x: Int, y: Int, length: Int) {
        guard let ignored else {
            statistics.histogram[0] += length
            return
        }
        let skipped = ignored.count(x: x, y: y, length: length)
        statistics.ignoredPixels += skipped
        statistics.histogram[0] += length - skipped
    }

    @inline(__always)
    mutating func judge(x: Int, y: Int) {
        if let ignored, ignored.contains(x: x, y: y) {
            statistics.ignoredPixels += 1
            return
        }
        let index = y * width + x, k = index * 4
        let pair = PixelDelta.pair(a, b, index)
        // Equal bytes differ by nothing in every metric.
        if pair >> 32 == pair & 0xFFFF_FFFF {
            statistics.histogram[0] += 1
            return
        }
        let bothOpaque: UInt64 = 0xFF00_0000_FF00_0000
        if pair != lastPair || translucentVerdictsDependOnPosition && pair & bothOpaque != bothOpaque { judgePair(k, pair) }
        let verdict = lastVerdict
        statistics.histogram[verdict.delta] += 1
        guard verdict.differs else {
            if verdict.delta == 0 { statistics.changedTransparentPixels += 1 }
            return
        }
        if ignoreAntialiasing, isAntialiased(x: x, y: y) {
            statistics.antialiasedPixels += 1
            if marksAntialiasedPixels { mask?[y * maskWidth + x] = 2 }
            return
        }
        statistics.differentPixels += 1
        mask?[y * maskWidth + x] = 1
        statistics.boundingBox.formUnion(PixelRect(minX: x, minY: y, maxX: x, maxY: y))
    }

    /// Whether pixelmatch's detector finds pixel (x, y) anti-aliased in either image, by the
    /// scan's kernel: the scalar detector is the reference for the vectorized one.
    @inline(__always)
    func isAntialiased(x: Int, y: Int) -> Bool {
        switch kernel {
        case .scalar:
            return PixelMatch.isAntialiased(a, x: x, y: y, width: width, height: height, a, b)
                || PixelMatch.isAntialiased(b, x: x, y: y, width: width, height: height, b, a)
        case .vectorized:
            return PixelMatch.isAntialiasedVectorized(a, x: x, y: y, width: width, height: height, a, b)
                || PixelMatch.isAntialiasedVectorized(b, x: x, y: y, width: width, height: height, b, a)
        }
    }

    /// The verdict on the pixel pair at byte offset `k`, a function of the two colours alone
    /// (and, for a translucent pair in YIQ mode, of its position); kept for the next pixel,
    /// which along a changed area is mostly the same pair. The largest
    /// channel difference and ΔE of the pixels are those of their pairs, so they are taken here.
    @inline(never)
    mutating func judgePair(_ k: Int, _ pair: UInt64) {
        lastPair = pair
        let delta = PixelDelta.maxChannelDelta(a, b, k)
        guard delta > 0 else {
            lastVerdict = PairVerdict(delta: 0, differs: false)
            return
        }
        if delta > statistics.maxChannelDelta { statistics.maxChannelDelta = delta }
        var deltaE = 0.0
        if measuresDeltaE {
            let floor = Swift.min(statistics.maxDeltaE, deltaEThreshold)
            if let value = deltaECache.deltaE(a, b, k, formula: formula, unlessBelow: floor, labCache: &labCache) {
                deltaE = value
                if deltaE > statistics.maxDeltaE { statistics.maxDeltaE = deltaE }
            }
        }
        let differs: Bool
        switch metric {
        case .exact, .imageMagickAE, .imageMagick: differs = true
        case .channel(let tolerance): differs = delta > tolerance
        case .yiq: differs = abs(PixelMatch.colorDelta(a, k, b, k)) > maxYIQDelta
        case .structural, .deltaE, .ssimCIE94: differs = deltaE > deltaEThreshold
        }
        lastVerdict = PairVerdict(delta: delta, differs: differs)
    }
}

/// What ``PixelJudge`` decided for one pair of colours, before anti-aliasing is considered.
struct PairVerdict {
    var delta: Int
    var differs: Bool
}

/// A small direct-mapped cache of sRGB → Lab conversions: screenshots reuse few colours, and
/// the cube roots dominate ΔE. Its tables are made on first use, so that a band with no
/// different pixel (most of them) allocates nothing.
struct LabCache {
    private static let bits = 12
    private var keys: [UInt32] = []
    private var values: [LabColor] = []
    /// The last pair of colours ``cie94(_:_:)`` measured (no pair of 8-bit colours has the
    /// initial key), and its ΔE94.
    private var lastPair: (key: UInt64, cie94: Double) = (.max, 0)

    @inline(__always)
    mutating func lab(r: UInt8, g: UInt8, b: UInt8) -> LabColor {
        if keys.isEmpty {
            keys = [UInt32](repeating: .max, count: 1 << Self.bits)
            values = [LabColor](repeating: LabColor(l: 0, a: 0, b: 0), count: 1 << Self.bits)
        }
        let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        let slot = Int((key &* 2_654_435_761) >> UInt32(32 - Self.bits))
        if keys[slot] == key { return values[slot] }
        let color = LabColor(r: r, g: g, b: b)
        keys[slot] = key
        values[slot] = color
        return color
    }

    /// ΔE94 from the 8-bit sRGB colour `reference` to `sample`: zero for one colour, whose
    /// every term is zero, without its conversion, and the last pair's again without its
    /// formula (a solid element gives one pair at pixel after pixel).
    mutating func cie94(_ reference: (r: UInt8, g: UInt8, b: UInt8), _ sample: (r: UInt8, g: UInt8, b: UInt8)) -> Double {
        if reference == sample { return 0 }
        let pair = UInt64(reference.r) << 40 | UInt64(reference.g) << 32 | UInt64(reference.b) << 24
            | UInt64(sample.r) << 16 | UInt64(sample.g) << 8 | UInt64(sample.b)
        if pair == lastPair.key { return lastPair.cie94 }
        let value = DeltaEFormula.cie94.difference(lab(r: reference.r, g: reference.g, b: reference.b), lab(r: sample.r, g: sample.g, b: sample.b))
        lastPair = (pair, value)
        return value
    }

    /// Whether ΔE94 from `reference` to `sample` is below `limit`, as `cie94(_:_:) < limit`; a
    /// difference that ``DeltaEBound`` puts surely below the limit is not converted to Lab.
    @inline(__always)
    mutating func cie94(_ reference: (r: UInt8, g: UInt8, b: UInt8), _ sample: (r: UInt8, g: UInt8, b: UInt8), isBelow limit: Double) -> Bool {
        DeltaEBound.isSurelyBelow(limit, reference, sample, formula: .cie94) || cie94(reference, sample) < limit
    }
}

/// A small direct-mapped cache of ΔE by colour pair: the same pairs recur along every edge of
/// a changed element, and CIEDE2000's trigonometry is the cost of a perceptual comparison.
/// Like ``LabCache``, its tables are made on first use.
struct DeltaECache {
    private static let bits = 12
    private var keys: [UInt64] = []
    private var values: [Double] = []

    /// ΔE of the pixels at byte offset `k`, as ``PixelDelta/deltaE(_:_:_:formula:)``; or nil
    /// when it is not cached and ``DeltaEBound`` puts it below `floor`. A pair the bound put
    /// below a floor is cached as that floor, negated (every ΔE is at least zero, and a floor
    /// the bound beats is above it): it is below any floor as high again without its bound.
    @inline(__always)
    mutating func deltaE(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ k: Int, formula: DeltaEFormula,
        unlessBelow floor: Double, labCache: inout LabCache
    ) -> Double? {
        let first = PixelDelta.rgbOverWhite(a, k), second = PixelDelta.rgbOverWhite(b, k)
        let key = UInt64(first.r) << 40 | UInt64(first.g) << 32 | UInt64(first.b) << 24
            | UInt64(second.r) << 16 | UInt64(second.g) << 8 | UInt64(second.b)
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.bits))
        if keys.isEmpty {
            keys = [UInt64](repeating: .max, count: 1 << Self.bits)
            values = [Double](repeating: 0, count: 1 << Self.bits)
        }
        if keys[slot] == key {
            let cached = values[slot]
            if cached >= 0 { return cached }
            if floor >= -cached { return nil }
        }
        if DeltaEBound.isSurelyBelow(floor, first, second, formula: formula) {
            keys[slot] = key
            values[slot] = -floor
            return nil
        }
        let value = formula.difference(
            labCache.lab(r: first.r, g: first.g, b: first.b), labCache.lab(r: second.r, g: second.g, b: second.b))
        keys[slot] = key
        values[slot] = value
        return value
    }
}

/// The value a pass took of the last pixel pair, by the two pixels' RGBA bytes: a pass whose
/// value is a function of a pixel's two colours alone takes it once for a run of one pair (a
/// changed element gives one pair pixel after pixel).
struct LastPair<Value> {
    private var last: (key: UInt64, value: Value)?

    /// The value of the pixel pair at `index` of `a` and `b`: `compute`'s, unless the last
    /// pair asked for had the same bytes.
    @inline(__always)
    mutating func value(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, pixel index: Int, _ compute: () -> Value) -> Value {
        let key = PixelDelta.pair(a, b, index)
        if let last, last.key == key { return last.value }
        let value = compute()
        last = (key, value)
        return value
    }
}

/// A value that crosses into `concurrentPerform`'s closure; the bands it points into are
/// disjoint, so no two threads touch the same bytes.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

extension Optional where Wrapped == DifferenceMask {
    /// Runs `body` with a pointer to the mask's bytes, or nil when there is no mask.
    mutating func withMaskPointer<R>(_ body: (UnsafeMutablePointer<UInt8>?) -> R) -> R {
        guard var mask = self else { return body(nil) }
        self = nil
        defer { self = mask }
        return mask.withUnsafeMutableBytes { body($0) }
    }
}

extension DiffResult {
    /// The result for two images known to be identical (for instance byte-identical files),
    /// without looking at their pixels.
    public init(identicalImagesOf size: ImageSize, options: ComparisonOptions = ComparisonOptions()) {
        let area = size.width * size.height
        let ignored = IgnoreMap(options: options, width: size.width, height: size.height)?.count ?? 0
        var histogram = [Int](repeating: 0, count: 256)
        histogram[0] = area - ignored
        self.init(
            match: true, metric: options.metric,
            differentPixels: 0, totalPixels: area, differentRatio: 0, ignoredPixels: ignored,
            antialiasedPixels: 0, maxChannelDelta: 0, maxDeltaE: 0, deltaEFormula: options.deltaEFormula,
            boundingBox: nil, sizeDiffers: false, referenceSize: size, actualSize: size,
            maxChannelDeltaHistogram: histogram,
            mask: options.collectsMask ? DifferenceMask(width: size.width, height: size.height) : nil)
        // Images without a differing pixel match under every metric, as the comparison has it.
        if case .imageMagick(let metric, _) = options.metric {
            imageMagick = ImageMagickDistortion(identical: metric, area: area)
        }
        if case .structural = options.metric { clusters = [] }
    }
}
