/// How two pixels are judged different.
public enum ComparisonMetric: Sendable, Equatable {
    /// Any channel differs. Two fully transparent pixels are equal whatever their hidden RGB.
    case exact
    /// The largest per-channel difference exceeds `tolerance` levels (0…255).
    case channel(tolerance: Int)
    /// pixelmatch 7.2.0's YIQ distance exceeds `35215 · threshold²` (threshold 0…1, default 0.1).
    case yiq(threshold: Double)
    /// ΔE exceeds `threshold`, pixels with alpha < 255 first blended over white.
    case deltaE(DeltaEFormula, threshold: Double)
    /// ImageMagick `compare -metric AE`: some R, G or B channel differs by at least `fuzz`
    /// (Q16 units, 0 meaning exact), after premultiplying when the reference has alpha.
    /// Sizes follow ImageMagick: the larger area, the smaller image edge-extended.
    case imageMagickAE(fuzz: Double)

    /// The metric's name as the CLI spells it.
    public var name: String {
        switch self {
        case .exact: return "exact"
        case .channel: return "channel"
        case .yiq: return "yiq"
        case .deltaE(let formula, _): return formula.rawValue
        case .imageMagickAE: return "ae"
        }
    }

    /// The threshold in the metric's own unit.
    public var threshold: Double {
        switch self {
        case .exact: return 0
        case .channel(let tolerance): return Double(tolerance)
        case .yiq(let threshold): return threshold
        case .deltaE(_, let threshold): return threshold
        case .imageMagickAE(let fuzz): return fuzz
        }
    }
}

/// Everything that shapes a comparison.
public struct ComparisonOptions: Sendable {
    public var metric: ComparisonMetric
    /// Do not count pixels that pixelmatch's detector finds anti-aliased in either image
    /// (pixelmatch's default, `odiff --antialiasing`).
    public var ignoreAntialiasing: Bool
    /// Rectangles (inclusive, in reference coordinates) left out of the comparison.
    public var ignoreRegions: [PixelRect]
    /// An image whose non-black, non-transparent pixels mark pixels to leave out, laid over the
    /// top-left corner.
    public var ignoreMask: RGBAImage?
    /// The formula behind `maxDeltaE` (the metric's own in ΔE modes).
    public var reportedDeltaE: DeltaEFormula
    /// Record which pixels differ in ``DiffResult/mask``.
    public var collectsMask: Bool

    public init(
        metric: ComparisonMetric = .yiq(threshold: 0.1),
        ignoreAntialiasing: Bool = false,
        ignoreRegions: [PixelRect] = [],
        ignoreMask: RGBAImage? = nil,
        reportedDeltaE: DeltaEFormula = .cie94,
        collectsMask: Bool = false
    ) {
        self.collectsMask = collectsMask
        self.metric = metric
        self.ignoreAntialiasing = ignoreAntialiasing
        self.ignoreRegions = ignoreRegions
        self.ignoreMask = ignoreMask
        self.reportedDeltaE = reportedDeltaE
    }

    var deltaEFormula: DeltaEFormula {
        if case .deltaE(let formula, _) = metric { return formula }
        return reportedDeltaE
    }
}

/// What a comparison found.
public struct DiffResult: Sendable, Equatable, Codable {
    /// True when no pixel differs.
    public var match: Bool
    public var metric: String
    public var threshold: Double
    public var differentPixels: Int
    /// The compared area: `max(width) × max(height)`.
    public var totalPixels: Int
    /// `differentPixels / totalPixels` (0 for empty images).
    public var differentRatio: Double
    /// Pixels left out by ignore regions or the ignore mask.
    public var ignoredPixels: Int
    /// Pixels over the threshold that were not counted because they look anti-aliased.
    public var antialiasedPixels: Int
    /// Largest |Δ| over R, G, B, A in the overlap.
    public var maxChannelDelta: Int
    /// Largest ΔE in the overlap, with `deltaEFormula`.
    public var maxDeltaE: Double
    public var deltaEFormula: String
    /// The smallest rectangle holding every different pixel.
    public var boundingBox: PixelRect?
    public var sizeDiffers: Bool
    public var referenceSize: ImageSize
    public var actualSize: ImageSize
    /// `maxChannelDeltaHistogram[d]` counts compared overlap pixels whose largest channel
    /// difference is `d` (0…255).
    public var maxChannelDeltaHistogram: [Int]
    /// Which pixels differ, when ``ComparisonOptions/collectsMask`` asked for it.
    public var mask: DifferenceMask?

    enum CodingKeys: String, CodingKey {
        case match, metric, threshold, differentPixels, totalPixels, differentRatio, ignoredPixels
        case antialiasedPixels, maxChannelDelta, maxDeltaE, deltaEFormula, boundingBox, sizeDiffers
        case referenceSize, actualSize, maxChannelDeltaHistogram
    }

    /// Encodes every key, `boundingBox` as `null` when nothing differs.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(match, forKey: .match)
        try container.encode(metric, forKey: .metric)
        try container.encode(threshold, forKey: .threshold)
        try container.encode(differentPixels, forKey: .differentPixels)
        try container.encode(totalPixels, forKey: .totalPixels)
        try container.encode(differentRatio, forKey: .differentRatio)
        try container.encode(ignoredPixels, forKey: .ignoredPixels)
        try container.encode(antialiasedPixels, forKey: .antialiasedPixels)
        try container.encode(maxChannelDelta, forKey: .maxChannelDelta)
        try container.encode(maxDeltaE, forKey: .maxDeltaE)
        try container.encode(deltaEFormula, forKey: .deltaEFormula)
        try container.encode(boundingBox, forKey: .boundingBox)
        try container.encode(sizeDiffers, forKey: .sizeDiffers)
        try container.encode(referenceSize, forKey: .referenceSize)
        try container.encode(actualSize, forKey: .actualSize)
        try container.encode(maxChannelDeltaHistogram, forKey: .maxChannelDeltaHistogram)
    }
}

/// Width and height.
public struct ImageSize: Sendable, Equatable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

extension RGBAImage {
    public var size: ImageSize { ImageSize(width: width, height: height) }
}

/// Compares two images in one pass.
///
/// Sizes may differ: the overlap is compared and every pixel outside it counts as different
/// (odiff's rule), except in ``ComparisonMetric/imageMagickAE(fuzz:)`` mode, which follows
/// ImageMagick `compare`.
public func compare(
    _ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions = ComparisonOptions()
) -> DiffResult {
    var pass = ComparisonPass(reference: reference, actual: actual, options: options)
    pass.run()
    var result = pass.result()
    if case .imageMagickAE(let fuzz) = options.metric {
        let ae = ImageMagickCompare.absoluteError(reference, actual, fuzz: fuzz)
        if options.collectsMask { result.mask = ae.mask }
        result.differentPixels = ae.count
        result.totalPixels = ae.area
        result.boundingBox = ae.boundingBox
        result.differentRatio = ae.area == 0 ? 0 : Double(ae.count) / Double(ae.area)
        result.match = ae.count == 0
    }
    return result
}

/// The state of one comparison pass over the overlap of two images.
struct ComparisonPass {
    let reference: RGBAImage
    let actual: RGBAImage
    let options: ComparisonOptions
    let overlapWidth: Int
    let overlapHeight: Int

    var differentPixels = 0
    var ignoredPixels = 0
    var antialiasedPixels = 0
    var maxChannelDelta = 0
    var maxDeltaE = 0.0
    var boundingBox: PixelRect?
    var histogram = [Int](repeating: 0, count: 256)
    var mask: DifferenceMask?

    init(reference: RGBAImage, actual: RGBAImage, options: ComparisonOptions) {
        self.options = options
        overlapWidth = min(reference.width, actual.width)
        overlapHeight = min(reference.height, actual.height)
        let sameSize = reference.width == actual.width && reference.height == actual.height
        self.reference = sameSize ? reference : reference.cropped(width: overlapWidth, height: overlapHeight)
        self.actual = sameSize ? actual : actual.cropped(width: overlapWidth, height: overlapHeight)
        self.sizes = (reference.size, actual.size)
        if options.collectsMask {
            mask = DifferenceMask(
                width: max(reference.width, actual.width), height: max(reference.height, actual.height))
        }
    }

    let sizes: (reference: ImageSize, actual: ImageSize)

    mutating func run() {
        let ignored = IgnoreMap(options: options, width: overlapWidth, height: overlapHeight)
        let width = overlapWidth, height = overlapHeight
        let metric = options.metric
        let maxYIQDelta: Double = {
            if case .yiq(let threshold) = metric { return PixelMatch.maximumDelta(threshold: threshold) }
            return 0
        }()
        let formula = options.deltaEFormula
        reference.pixels.withUnsafeBufferPointer { referenceBuffer in
            actual.pixels.withUnsafeBufferPointer { actualBuffer in
                guard let a = referenceBuffer.baseAddress, let b = actualBuffer.baseAddress else { return }
                for y in 0..<height {
                    let rowStart = y * width * 4
                    if ignored == nil && rowsEqual(a + rowStart, b + rowStart, count: width * 4) {
                        histogram[0] += width
                        continue
                    }
                    for x in 0..<width {
                        if let ignored, ignored.contains(x: x, y: y) {
                            ignoredPixels += 1
                            continue
                        }
                        let k = rowStart + x * 4
                        let delta = PixelDelta.maxChannelDelta(a, b, k)
                        histogram[delta] += 1
                        if delta == 0 { continue }
                        if delta > maxChannelDelta { maxChannelDelta = delta }
                        let deltaE = PixelDelta.deltaE(a, b, k, formula: formula)
                        if deltaE > maxDeltaE { maxDeltaE = deltaE }
                        let differs: Bool
                        switch metric {
                        case .exact, .imageMagickAE: differs = true
                        case .channel(let tolerance): differs = delta > tolerance
                        case .yiq: differs = abs(PixelMatch.colorDelta(a, k, b, k)) > maxYIQDelta
                        case .deltaE(_, let threshold): differs = deltaE > threshold
                        }
                        guard differs else { continue }
                        if options.ignoreAntialiasing,
                            PixelMatch.isAntialiased(a, x: x, y: y, width: width, height: height, a, b)
                                || PixelMatch.isAntialiased(b, x: x, y: y, width: width, height: height, b, a)
                        {
                            antialiasedPixels += 1
                            continue
                        }
                        markDifferent(x: x, y: y)
                    }
                }
            }
        }
        countOutsideOverlap()
    }

    mutating func markDifferent(x: Int, y: Int) {
        differentPixels += 1
        mask?.set(x: x, y: y)
        let point = PixelRect(minX: x, minY: y, maxX: x, maxY: y)
        boundingBox = boundingBox.map { $0.union(point) } ?? point
    }

    /// Pixels outside the overlap are different: they exist in only one image.
    mutating func countOutsideOverlap() {
        let fullWidth = max(sizes.reference.width, sizes.actual.width)
        let fullHeight = max(sizes.reference.height, sizes.actual.height)
        let outside = fullWidth * fullHeight - overlapWidth * overlapHeight
        guard outside > 0 else { return }
        differentPixels += outside
        if mask != nil {
            for y in 0..<fullHeight {
                for x in 0..<fullWidth where x >= overlapWidth || y >= overlapHeight { mask?.set(x: x, y: y) }
            }
        }
        let box = PixelRect(
            minX: overlapHeight < fullHeight ? 0 : overlapWidth,
            minY: overlapWidth < fullWidth ? 0 : overlapHeight,
            maxX: fullWidth - 1, maxY: fullHeight - 1)
        boundingBox = boundingBox.map { $0.union(box) } ?? box
    }

    func result() -> DiffResult {
        let total = max(sizes.reference.width, sizes.actual.width) * max(sizes.reference.height, sizes.actual.height)
        return DiffResult(
            match: differentPixels == 0,
            metric: options.metric.name,
            threshold: options.metric.threshold,
            differentPixels: differentPixels,
            totalPixels: total,
            differentRatio: total == 0 ? 0 : Double(differentPixels) / Double(total),
            ignoredPixels: ignoredPixels,
            antialiasedPixels: antialiasedPixels,
            maxChannelDelta: maxChannelDelta,
            maxDeltaE: maxDeltaE,
            deltaEFormula: options.deltaEFormula.rawValue,
            boundingBox: boundingBox,
            sizeDiffers: sizes.reference != sizes.actual,
            referenceSize: sizes.reference,
            actualSize: sizes.actual,
            maxChannelDeltaHistogram: histogram,
            mask: mask)
    }
}

/// Whether `count` bytes at two addresses are equal.
@inline(__always)
func rowsEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
    var offset = 0
    while offset + 8 <= count {
        if rawA.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            != rawB.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a[offset] != b[offset] { return false }
        offset += 1
    }
    return true
}

/// Per-pixel measures shared by the comparison and the renderers.
enum PixelDelta {
    /// The largest |Δ| over R, G, B, A; 0 when both pixels are fully transparent.
    @inline(__always)
    static func maxChannelDelta(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ k: Int) -> Int {
        if a[k + 3] == 0 && b[k + 3] == 0 { return 0 }
        let dr = abs(Int(a[k]) - Int(b[k]))
        let dg = abs(Int(a[k + 1]) - Int(b[k + 1]))
        let db = abs(Int(a[k + 2]) - Int(b[k + 2]))
        let da = abs(Int(a[k + 3]) - Int(b[k + 3]))
        return max(max(dr, dg), max(db, da))
    }

    /// ΔE of the pixels at byte offset `k`, each blended over white first if not opaque.
    @inline(__always)
    static func deltaE(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ k: Int, formula: DeltaEFormula
    ) -> Double {
        let first = labOverWhite(a, k), second = labOverWhite(b, k)
        return formula.difference(first, second)
    }

    @inline(__always)
    static func labOverWhite(_ p: UnsafePointer<UInt8>, _ k: Int) -> LabColor {
        let alpha = p[k + 3]
        if alpha == 255 { return LabColor(r: p[k], g: p[k + 1], b: p[k + 2]) }
        return LabColor(r: overWhite(p[k], alpha), g: overWhite(p[k + 1], alpha), b: overWhite(p[k + 2], alpha))
    }

    /// `c·α + 255·(1 − α)`, rounded to the nearest level.
    @inline(__always)
    static func overWhite(_ c: UInt8, _ alpha: UInt8) -> UInt8 {
        let value = Int(c) * Int(alpha) + 255 * (255 - Int(alpha))
        return UInt8((value + 127) / 255)
    }
}

/// Which overlap pixels are left out.
struct IgnoreMap {
    let width: Int
    private let bits: [Bool]

    init?(options: ComparisonOptions, width: Int, height: Int) {
        guard !options.ignoreRegions.isEmpty || options.ignoreMask != nil else { return nil }
        self.width = width
        var bits = [Bool](repeating: false, count: width * height)
        for region in options.ignoreRegions {
            let minX = max(region.minX, 0), maxX = min(region.maxX, width - 1)
            let minY = max(region.minY, 0), maxY = min(region.maxY, height - 1)
            guard minX <= maxX, minY <= maxY else { continue }
            for y in minY...maxY {
                for x in minX...maxX { bits[y * width + x] = true }
            }
        }
        if let mask = options.ignoreMask {
            for y in 0..<min(height, mask.height) {
                for x in 0..<min(width, mask.width) {
                    let m = mask[x, y]
                    if m.a > 0 && (m.r | m.g | m.b) != 0 { bits[y * width + x] = true }
                }
            }
        }
        self.bits = bits
    }

    @inline(__always)
    func contains(x: Int, y: Int) -> Bool { bits[y * width + x] }
}

extension RGBAImage {
    /// The top-left `width × height` corner.
    func cropped(width newWidth: Int, height newHeight: Int) -> RGBAImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let start = y * width * 4
            pixels.append(contentsOf: self.pixels[start..<(start + newWidth * 4)])
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: pixels, hasAlpha: hasAlpha)
    }
}
