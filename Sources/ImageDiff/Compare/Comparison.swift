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
    /// Only differences render noise cannot explain, judged as clusters
    /// (``StructuralRule``); the threshold is the rule's noise ΔE. Boxed: the rule's payload,
    /// much larger than the others', is laid out with the case in its flags' spare bits, which
    /// Swift 6.3 debug builds were seen to leave unset for `.exact` (a snapshot comparison's
    /// metric read back as another case under load).
    indirect case structural(StructuralRule)
    /// One of ImageMagick's distortion metrics (``ImageMagickMetric``): the pair matches when
    /// the normalized error is at most `threshold` (default 0), or PSNR at least it (default ∞);
    /// the pixel count is AE's without fuzz.
    case imageMagick(ImageMagickMetric, threshold: Double)
    /// Playwright's `ssim-cie94` comparator: a pixel whose CIE94 ΔE exceeds `maxDeltaE`
    /// (default 1) counts unless the SSIM around it says anti-aliasing (``SSIMCIE94``).
    case ssimCIE94(maxDeltaE: Double)

    /// The metric's name as the CLI spells it.
    public var name: String {
        switch self {
        case .exact: return "exact"
        case .channel: return "channel"
        case .yiq: return "yiq"
        case .deltaE(let formula, _): return formula.rawValue
        case .imageMagickAE: return "ae"
        case .structural: return "structural"
        case .ssimCIE94: return "ssim-cie94"
        case .imageMagick(let metric, _): return metric.name
        }
    }

    /// Every metric's ``name``, in the order the CLI lists them.
    public static let names = ["exact", "channel", "yiq", "cie76", "cie94", "ciede2000", "ae", "structural", "ssim-cie94"]
        + ImageMagickMetric.allCases.map(\.name)

    /// The metric called `name` (see ``names``) at its default threshold: none for `exact`,
    /// 0 levels for `channel`, 0.1 for `yiq` (pixelmatch's), ΔE 2 for the ΔE metrics, and no
    /// fuzz for `ae`; `structural` takes ``StructuralRule``'s defaults.
    public init?(name: String) {
        switch name {
        case "exact": self = .exact
        case "channel": self = .channel(tolerance: 0)
        case "yiq": self = .yiq(threshold: 0.1)
        case "ae": self = .imageMagickAE(fuzz: 0)
        case "structural": self = .structural(StructuralRule())
        case "ssim-cie94": self = .ssimCIE94(maxDeltaE: 1)
        default:
            if let metric = ImageMagickMetric.allCases.first(where: { $0.name == name }) {
                self = .imageMagick(metric, threshold: metric.higherIsBetter ? .infinity : 0)
                return
            }
            guard let formula = DeltaEFormula(rawValue: name) else { return nil }
            self = .deltaE(formula, threshold: 2)
        }
    }

    /// The same metric at `threshold`, in its own unit (levels, rounded down, for `channel`;
    /// Q16 fuzz for `ae`); `exact` has none.
    public func with(threshold: Double) -> ComparisonMetric {
        switch self {
        case .exact: return .exact
        // Past 255 levels nothing differs by a channel: larger values mean the same.
        case .channel: return .channel(tolerance: threshold.isNaN ? 0 : Int(min(max(threshold, 0), 256).rounded(.down)))
        case .yiq: return .yiq(threshold: threshold)
        case .deltaE(let formula, _): return .deltaE(formula, threshold: threshold)
        case .imageMagickAE: return .imageMagickAE(fuzz: threshold)
        case .structural(var rule):
            rule.noiseDeltaE = threshold
            return .structural(rule)
        case .ssimCIE94: return .ssimCIE94(maxDeltaE: threshold)
        case .imageMagick(let metric, _): return .imageMagick(metric, threshold: threshold)
        }
    }

    /// Why the threshold cannot judge anything, when it cannot: NaN (which no difference
    /// exceeds, so every pair would match), below 0, or for `yiq` above 1, the end of
    /// pixelmatch's scale; for `structural`, also the rule's other values
    /// (``StructuralRule/problem``).
    public var thresholdProblem: String? {
        let value = threshold
        if value.isNaN { return "the \(name) threshold must be a number >= 0, not NaN" }
        if value < 0 { return "the \(name) threshold must be >= 0, not \(value)" }
        if case .yiq = self, value > 1 { return "a yiq threshold is between 0 and 1 (pixelmatch's scale), not \(value)" }
        if case .structural(let rule) = self { return rule.problem }
        return nil
    }

    /// Whether the result of identical images needs their pixels (ImageMagick's NCC).
    public var needsPixelsOfIdenticalImages: Bool {
        if case .imageMagick(let metric, _) = self { return metric.needsPixelsOfIdenticalImages }
        return false
    }

    /// The threshold in the metric's own unit.
    public var threshold: Double {
        switch self {
        case .exact: return 0
        case .channel(let tolerance): return Double(tolerance)
        case .yiq(let threshold): return threshold
        case .deltaE(_, let threshold): return threshold
        case .imageMagickAE(let fuzz): return fuzz
        case .structural(let rule): return rule.noiseDeltaE
        case .ssimCIE94(let maxDeltaE): return maxDeltaE
        case .imageMagick(_, let threshold): return threshold
        }
    }
}

/// Everything that shapes a comparison.
public struct ComparisonOptions: Sendable {
    /// How a pixel is judged to differ, with its threshold.
    public var metric: ComparisonMetric
    /// Do not count pixels that pixelmatch's detector finds anti-aliased in either image
    /// (pixelmatch's default, `odiff --antialiasing`).
    public var ignoreAntialiasing: Bool
    /// Rectangles (inclusive, in reference coordinates) left out of the comparison; not by
    /// `ae` and ImageMagick's figures, which count every pixel as ImageMagick does
    /// (``judgingProblem`` says so).
    public var ignoreRegions: [PixelRect]
    /// An image whose non-black, non-transparent pixels mark pixels to leave out, laid over the
    /// top-left corner.
    public var ignoreMask: RGBAImage?
    /// The formula behind `maxDeltaE` (the metric's own in ΔE modes).
    public var reportedDeltaE: DeltaEFormula
    /// Record which pixels differ in ``DiffResult/mask``.
    public var collectsMask: Bool
    /// How many row bands the work is split into, run on all cores; 0 picks one from the
    /// image size, 1 runs on the calling thread alone. Results do not depend on it.
    public var bands: Int
    /// How many differing pixels a pair may have and still match (none by default).
    public var allowance: DifferenceAllowance
    /// With `ignoreAntialiasing` and `collectsMask`: mark the differing pixels left out as
    /// anti-aliased with 2 in the mask (counted ones stay 1), for the structural mode, which
    /// needs both. The mask is split before anyone else sees it.
    package var marksAntialiasedPixels = false
    /// Whether to take ``DiffResult/maxDeltaE`` in the pass (false when the caller measures ΔE
    /// itself, as the ssim-cie94 mode does on Playwright's Lab; the metric must not need ΔE).
    package var measuresDeltaE = true

    /// Options as given, unchecked: see ``judgingProblem``. The defaults are pixelmatch's:
    /// YIQ at 0.1, anti-aliased pixels counted, no allowance.
    public init(
        metric: ComparisonMetric = .yiq(threshold: 0.1),
        ignoreAntialiasing: Bool = false,
        ignoreRegions: [PixelRect] = [],
        ignoreMask: RGBAImage? = nil,
        reportedDeltaE: DeltaEFormula = .cie94,
        collectsMask: Bool = false,
        bands: Int = 0,
        allowance: DifferenceAllowance = .none
    ) {
        self.allowance = allowance
        self.collectsMask = collectsMask
        self.bands = bands
        self.metric = metric
        self.ignoreAntialiasing = ignoreAntialiasing
        self.ignoreRegions = ignoreRegions
        self.ignoreMask = ignoreMask
        self.reportedDeltaE = reportedDeltaE
    }

    /// Why these options cannot judge as they say, when they cannot: a threshold that judges
    /// nothing (``ComparisonMetric/thresholdProblem``); ignored pixels or anti-aliasing beside
    /// `ae` or an ImageMagick figure, which count every pixel as ImageMagick's `compare` does;
    /// an allowance of differing pixels beside an ImageMagick figure, which judges by the
    /// figure alone; anti-aliasing ignored beside `structural` or `ssim-cie94`, which tell it
    /// apart themselves (the option changed nothing); an allowance below 0, or a share outside
    /// 0…1.
    public var judgingProblem: String? {
        if let problem = metric.thresholdProblem { return problem }
        if let maxPixels = allowance.maxPixels, maxPixels < 0 {
            return "the allowed differing pixels must be >= 0, not \(maxPixels)"
        }
        if let maxRatio = allowance.maxRatio, !(0...1).contains(maxRatio) {
            return "the allowed share of differing pixels must be between 0 and 1, not \(maxRatio)"
        }
        let name = metric.name
        switch metric {
        case .imageMagickAE, .imageMagick:
            if ignoreAntialiasing {
                return "\(name) counts pixels as ImageMagick's compare does, which finds no anti-aliasing: --antialiasing does not apply to it"
            }
            if !ignoreRegions.isEmpty || ignoreMask != nil {
                return "\(name) counts pixels as ImageMagick's compare does, over the whole image: --ignore and --ignore-mask do not apply to it"
            }
            if case .imageMagick = metric, !allowance.allowsNoDifference {
                return "\(name) judges a pair by its figure against the threshold, not by a count of pixels: --max-diff-pixels and --max-diff-ratio do not apply to it"
            }
        case .structural where ignoreAntialiasing:
            return "structural tells anti-aliasing from change itself (--count-antialiased counts it instead): --antialiasing does not apply to it"
        case .ssimCIE94 where ignoreAntialiasing:
            return "ssim-cie94 tells anti-aliasing from change by its own structure test: --antialiasing does not apply to it"
        default: break
        }
        return nil
    }

    var deltaEFormula: DeltaEFormula {
        if case .deltaE(let formula, _) = metric { return formula }
        if case .structural = metric { return .cie94 }
        if case .ssimCIE94 = metric { return .cie94 }
        return reportedDeltaE
    }
}

/// What a comparison found.
public struct DiffResult: Sendable, Equatable, Encodable {
    /// True when no more pixels differ than ``ComparisonOptions/allowance`` permits (by
    /// default: none) and the images have one size; under ``ComparisonMetric/imageMagickAE(fuzz:)``,
    /// which edge-extends the smaller image over the larger area as ImageMagick does, images of
    /// two sizes can match.
    public var match: Bool
    /// The metric that judged the pixels, with its threshold.
    public var metric: ComparisonMetric
    /// The metric's threshold, in its own unit.
    public var threshold: Double { metric.threshold }
    /// Pixels of the compared area the metric counts as different, those outside the overlap
    /// of two sizes included.
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
    /// The formula of ``maxDeltaE``: the metric's own for the ΔE metrics, the structural mode
    /// and ssim-cie94, otherwise the one the options report (``ComparisonOptions/reportedDeltaE``).
    public var deltaEFormula: DeltaEFormula
    /// The smallest rectangle holding every different pixel.
    public var boundingBox: PixelRect?
    /// Whether the two images have other widths or heights.
    public var sizeDiffers: Bool
    /// The reference's size, as decoded.
    public var referenceSize: ImageSize
    /// The actual image's size, as decoded.
    public var actualSize: ImageSize
    /// `maxChannelDeltaHistogram[d]` counts compared overlap pixels whose largest channel
    /// difference is `d` (0…255).
    public var maxChannelDeltaHistogram: [Int]
    /// Overlap pixels whose bytes differ although both are fully transparent: counted under 0
    /// in ``maxChannelDeltaHistogram``, like the equal ones.
    package var changedTransparentPixels = 0
    /// Which pixels differ, when ``ComparisonOptions/collectsMask`` asked for it.
    public var mask: DifferenceMask?
    /// In ``ComparisonMetric/structural(_:)`` mode, the clusters of differences that render
    /// noise does not explain, failing or not, then the coherent changes and the isolated change
    /// (whose pixels are taken before any explanation, so it can cover other clusters).
    public var clusters: [DifferenceCluster]?
    /// In ``ComparisonMetric/imageMagick(_:threshold:)`` mode, ImageMagick's figure.
    public var imageMagick: ImageMagickDistortion?

    enum CodingKeys: String, CodingKey {
        case match, metric, threshold, differentPixels, totalPixels, differentRatio, ignoredPixels
        case antialiasedPixels, maxChannelDelta, maxDeltaE, deltaEFormula, boundingBox, sizeDiffers
        case referenceSize, actualSize, maxChannelDeltaHistogram, clusters, imageMagick
    }

    /// Encodes every key, `boundingBox` as `null` when nothing differs.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, includingHistogram: true)
    }

    /// Encodes every key but, unless `includingHistogram`, `maxChannelDeltaHistogram`.
    public func encode(to encoder: any Encoder, includingHistogram: Bool) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(match, forKey: .match)
        try container.encode(metric.name, forKey: .metric)
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
        if includingHistogram { try container.encode(maxChannelDeltaHistogram, forKey: .maxChannelDeltaHistogram) }
        try container.encodeIfPresent(clusters, forKey: .clusters)
        try container.encodeIfPresent(imageMagick, forKey: .imageMagick)
    }
}

/// How many differing pixels a matching pair may have: Playwright's `maxDiffPixels` and
/// `maxDiffPixelRatio`. A pair of different sizes never matches (except under `ae`, as
/// ``DiffResult/match`` says).
public struct DifferenceAllowance: Sendable, Equatable, Hashable, Codable {
    /// The most differing pixels allowed (Playwright's `maxDiffPixels`); none when nil.
    public var maxPixels: Int?
    /// The largest share of the compared area allowed to differ, 0…1 (Playwright's
    /// `maxDiffPixelRatio`); none when nil.
    public var maxRatio: Double?

    /// An allowance of at most `maxPixels` differing pixels and at most `maxRatio` of the
    /// area; with both, the smaller holds (Playwright's rule); with neither, none may differ.
    public init(maxPixels: Int? = nil, maxRatio: Double? = nil) {
        self.maxPixels = maxPixels
        self.maxRatio = maxRatio
    }

    /// No differing pixel allowed.
    public static let none = DifferenceAllowance()

    /// Whether no differing pixel is allowed, however the limits are spelled: none given, or
    /// either of them 0 (the smaller holds).
    public var allowsNoDifference: Bool {
        maxPixels == 0 || maxRatio == 0 || (maxPixels == nil && maxRatio == nil)
    }

    /// Whether `differentPixels` of `totalPixels` fit. As Playwright's comparator takes them:
    /// with both limits given, the smaller one holds; with neither, no pixel may differ.
    public func permits(_ differentPixels: Int, of totalPixels: Int) -> Bool {
        let byRatio = maxRatio.map { $0 * Double(totalPixels) }
        let limit: Double
        switch (maxPixels, byRatio) {
        case let (pixels?, ratio?): limit = min(Double(pixels), ratio)
        case let (pixels?, nil): limit = Double(pixels)
        case let (nil, ratio?): limit = ratio
        case (nil, nil): limit = 0
        }
        return Double(differentPixels) <= limit
    }
}

extension DiffResult {
    /// Sets ``match`` from the counts under `allowance`.
    mutating func judge(by allowance: DifferenceAllowance) {
        match = !sizeDiffers && allowance.permits(differentPixels, of: totalPixels)
    }
}

/// Width and height, in pixels.
public struct ImageSize: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

extension RGBAImage {
    /// The image's width and height.
    public var size: ImageSize { ImageSize(width: width, height: height) }
}

/// Per-pixel measures shared by the comparison and the renderers.
package enum PixelDelta {
    /// The RGBA bytes of pixel `index` of `pixels` as one word: two pixels with the same word
    /// are the same colour.
    @inline(__always)
    package static func word(_ pixels: UnsafePointer<UInt8>, _ index: Int) -> UInt32 {
        UnsafeRawPointer(pixels + index * 4).loadUnaligned(as: UInt32.self)
    }

    /// The words of pixel `index` of `a` and of `b` as one key, `a`'s in the high half: two
    /// pixel pairs with the same key are the same pair of colours.
    @inline(__always)
    package static func pair(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ index: Int) -> UInt64 {
        UInt64(word(a, index)) << 32 | UInt64(word(b, index))
    }

    /// The largest |Δ| over R, G, B, A; 0 when both pixels are fully transparent.
    @inline(__always)
    package static func maxChannelDelta(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ k: Int) -> Int {
        if a[k + 3] == 0 && b[k + 3] == 0 { return 0 }
        let dr = abs(Int(a[k]) - Int(b[k]))
        let dg = abs(Int(a[k + 1]) - Int(b[k + 1]))
        let db = abs(Int(a[k + 2]) - Int(b[k + 2]))
        let da = abs(Int(a[k + 3]) - Int(b[k + 3]))
        return max(max(dr, dg), max(db, da))
    }

    /// ΔE of the pixels at byte offset `k`, each blended over white first if not opaque.
    @inline(__always)
    package static func deltaE(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ k: Int, formula: DeltaEFormula
    ) -> Double {
        let first = rgbOverWhite(a, k), second = rgbOverWhite(b, k)
        return formula.difference(
            LabColor(r: first.r, g: first.g, b: first.b), LabColor(r: second.r, g: second.g, b: second.b))
    }

    /// The Lab colour of the pixel at byte offset `k`, blended over white first if not opaque.
    @inline(__always)
    package static func labOverWhite(_ p: UnsafePointer<UInt8>, _ k: Int) -> LabColor {
        let rgb = rgbOverWhite(p, k)
        return LabColor(r: rgb.r, g: rgb.g, b: rgb.b)
    }

    @inline(__always)
    static func rgbOverWhite(_ p: UnsafePointer<UInt8>, _ k: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let alpha = p[k + 3]
        if alpha == 255 { return (p[k], p[k + 1], p[k + 2]) }
        return (overWhite(p[k], alpha), overWhite(p[k + 1], alpha), overWhite(p[k + 2], alpha))
    }

    /// `c·α + 255·(1 − α)`, rounded to the nearest level.
    @inline(__always)
    static func overWhite(_ c: UInt8, _ alpha: UInt8) -> UInt8 {
        let value = Int(c) * Int(alpha) + 255 * (255 - Int(alpha))
        return UInt8((value + 127) / 255)
    }
}

extension RGBA {
    /// The colour laid over white, opaque, as every ΔE metric sees it
    /// (``PixelDelta/overWhite(_:_:)``).
    package var overWhite: RGBA {
        guard a != 255 else { return self }
        return RGBA(PixelDelta.overWhite(r, a), PixelDelta.overWhite(g, a), PixelDelta.overWhite(b, a))
    }
}

/// Which overlap pixels are left out.
struct IgnoreMap: Sendable {
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

    /// How many pixels are left out.
    var count: Int { bits.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// How many of the `length` pixels from (x, y) rightwards are left out.
    func count(x: Int, y: Int, length: Int) -> Int {
        let start = y * width + x
        return bits[start..<(start + length)].reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}

extension RGBAImage {
    /// The top-left `width × height` corner.
    package func cropped(width newWidth: Int, height newHeight: Int) -> RGBAImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let start = y * width * 4
            pixels.append(contentsOf: self.pixels[start..<(start + newWidth * 4)])
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: pixels, hasAlpha: hasAlpha)
    }
}
