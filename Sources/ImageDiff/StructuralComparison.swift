/// The structural mode's settings: which differences render noise explains, and which
/// clusters of the rest fail a pair.
///
/// A pixel counts only if render noise cannot explain it:
/// - its colour differs by at most `noiseDeltaE` (CIE94): recompression, dither and colour
///   drift;
/// - pixelmatch's detector finds it anti-aliased in either image;
/// - each image's pixel is, within `noiseDeltaE`, a blend of the colours around it in the
///   other image (within `shiftRadius`): a sub-pixel shift, other hinting or anti-aliasing;
/// - it belongs to a cluster that one displacement of at most `shiftRadius` pixels explains:
///   the new image, moved back by it, matches the reference within `noiseDeltaE` on nearly
///   every pixel of the cluster (a sub-pixel or one-pixel shift moves a whole edge or glyph
///   together; a changed glyph matches no single displacement).
/// Differing pixels at most two pixels apart form one cluster. A cluster fails the pair when
/// it holds at least `minimumClusterPixels`, or when it is at least
/// `minimumStrongClusterPixels` large and differs by `strongDeltaE` or more somewhere.
public struct StructuralRule: Sendable, Equatable, Hashable {
    public var noiseDeltaE: Double
    public var shiftRadius: Int
    public var minimumClusterPixels: Int
    public var strongDeltaE: Double
    public var minimumStrongClusterPixels: Int

    /// The defaults, chosen from the kinds of change the mode must never miss, not fitted to a
    /// corpus: ΔE 3 over 50 pixels fails with a fifth of its pixels explained away at its edge
    /// (40), and so does a one-pixel line 16 pixels long of strong contrast.
    public init(
        noiseDeltaE: Double = 2.3, shiftRadius: Int = 1, minimumClusterPixels: Int = 40,
        strongDeltaE: Double = 10, minimumStrongClusterPixels: Int = 8
    ) {
        self.noiseDeltaE = noiseDeltaE
        self.shiftRadius = shiftRadius
        self.minimumClusterPixels = minimumClusterPixels
        self.strongDeltaE = strongDeltaE
        self.minimumStrongClusterPixels = minimumStrongClusterPixels
    }

    /// The largest ``shiftRadius`` accepted: the search grows with its square.
    public static let largestShiftRadius = 4

    /// Whether a cluster of `pixels` pixels whose largest ΔE is `maxDeltaE` fails the pair.
    public func fails(pixels: Int, maxDeltaE: Double) -> Bool {
        pixels >= minimumClusterPixels || (pixels >= minimumStrongClusterPixels && maxDeltaE >= strongDeltaE)
    }
}

/// A connected group of differing pixels that render noise does not explain.
public struct DifferenceCluster: Sendable, Equatable, Encodable {
    public var pixels: Int
    public var boundingBox: PixelRect
    /// The largest CIE94 ΔE in the cluster.
    public var maxDeltaE: Double
    /// The displacement that explains the cluster as moved content, if one does.
    public var shift: PixelShift?
    /// Whether the cluster fails the pair under the rule.
    public var fails: Bool
}

/// A displacement in pixels: the new image's content sits `dx` right and `dy` down of the
/// reference's.
public struct PixelShift: Sendable, Equatable, Encodable {
    public var dx: Int
    public var dy: Int
}

/// The structural judgement of a pair already compared pixel by pixel.
enum StructuralComparison {
    /// Compares with the rule's noise threshold, then keeps the pixels that neither
    /// anti-aliasing nor a shift explains, clusters them and judges the clusters.
    static func compare(_ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, options: ComparisonOptions) -> DiffResult {
        var candidateOptions = options
        candidateOptions.metric = .deltaE(.cie94, threshold: rule.noiseDeltaE)
        candidateOptions.ignoreAntialiasing = true
        candidateOptions.collectsMask = true
        var result = ComparisonEngine(reference: reference, actual: actual, options: candidateOptions).run(kernel: .vectorized)
        result.metric = .structural(rule)
        // Images of different sizes differ outside their overlap: the pixel count stands.
        guard let candidates = result.mask, !result.sizeDiffers else {
            if !options.collectsMask { result.mask = nil }
            return result
        }
        let unexplained = withoutNeighbourhoodBlends(candidates, reference, actual, rule: rule)
        let (clusters, labels) = clusters(of: unexplained, reference, actual, rule: rule)
        let failing = clusters.filter(\.fails)
        var mask = DifferenceMask(width: candidates.width, height: candidates.height)
        if options.collectsMask {
            for index in labels.indices where labels[index] >= 0 && clusters[Int(labels[index])].fails {
                mask.set(x: index % mask.width, y: index / mask.width)
            }
        }
        result.clusters = clusters
        result.differentPixels = failing.reduce(0) { $0 + $1.pixels }
        result.differentRatio = result.totalPixels == 0 ? 0 : Double(result.differentPixels) / Double(result.totalPixels)
        result.boundingBox = failing.map(\.boundingBox).reduce(nil) { box, next in box.map { $0.union(next) } ?? next }
        result.judge(by: options.allowance)
        result.mask = options.collectsMask ? mask : nil
        return result
    }

    /// The clusters of `candidates` (pixels at most ``linkDistance`` apart), in the order of
    /// their first pixel (row-major), and each pixel's cluster (-1 for none).
    static func clusters(
        of candidates: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule
    ) -> ([DifferenceCluster], [Int32]) {
        let width = candidates.width, height = candidates.height
        var labels = [Int32](repeating: -1, count: width * height)
        var clusters: [DifferenceCluster] = []
        var stack: [Int] = []
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                candidates.withUnsafeBytes { bits in
                    for start in 0..<(width * height) where bits[start] != 0 && labels[start] < 0 {
                        let label = Int32(clusters.count)
                        var members: [Int] = []
                        var cluster = DifferenceCluster(
                            pixels: 0, boundingBox: PixelRect(minX: start % width, minY: start / width, maxX: start % width, maxY: start / width),
                            maxDeltaE: 0, shift: nil, fails: false)
                        labels[start] = label
                        stack.append(start)
                        while let index = stack.popLast() {
                            let x = index % width, y = index / width
                            members.append(index)
                            cluster.pixels += 1
                            cluster.boundingBox = cluster.boundingBox.union(PixelRect(minX: x, minY: y, maxX: x, maxY: y))
                            if let a = a.baseAddress, let b = b.baseAddress {
                                cluster.maxDeltaE = max(cluster.maxDeltaE, PixelDelta.deltaE(a, b, index * 4, formula: .cie94))
                            }
                            for ny in max(0, y - linkDistance)...min(height - 1, y + linkDistance) {
                                for nx in max(0, x - linkDistance)...min(width - 1, x + linkDistance) {
                                    let next = ny * width + nx
                                    if bits[next] != 0 && labels[next] < 0 {
                                        labels[next] = label
                                        stack.append(next)
                                    }
                                }
                            }
                        }
                        if let a = a.baseAddress, let b = b.baseAddress {
                            cluster.shift = explainingShift(members, a, b, width: width, height: height, rule: rule)
                        }
                        cluster.fails = cluster.shift == nil && rule.fails(pixels: cluster.pixels, maxDeltaE: cluster.maxDeltaE)
                        clusters.append(cluster)
                    }
                }
            }
        }
        return (clusters, labels)
    }

    /// `candidates` less the pixels that a blend of neighbouring colours explains (see
    /// ``isNeighbourhoodBlend``), in both directions.
    static func withoutNeighbourhoodBlends(
        _ candidates: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule
    ) -> DifferenceMask {
        guard rule.shiftRadius > 0 else { return candidates }
        var remaining = candidates
        let width = candidates.width, height = candidates.height
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for y in 0..<height {
                    for x in 0..<width where candidates.contains(x: x, y: y) {
                        let geometry = (x: x, y: y, width: width, height: height, radius: rule.shiftRadius)
                        if isNeighbourhoodBlend(of: b, in: a, geometry, noiseDeltaE: rule.noiseDeltaE)
                            && isNeighbourhoodBlend(of: a, in: b, geometry, noiseDeltaE: rule.noiseDeltaE)
                        {
                            remaining.clear(x: x, y: y)
                        }
                    }
                }
            }
        }
        return remaining
    }

    /// Whether the pixel of `image` at (x, y) lies within `noiseDeltaE` (CIE94) of the colours
    /// around the same place in `other`: clamped, channel by channel, into the range those
    /// colours span within `radius`, it moves by at most that much.
    ///
    /// A sub-pixel shift, other glyph hinting or other anti-aliasing blends neighbouring colours,
    /// so the pixels it changes stay inside that range; a changed colour leaves it, in one image
    /// or the other (a lighter stroke lies between its old colour and the background, but the
    /// old colour is then darker than anything around it in the new image).
    static func isNeighbourhoodBlend(
        of image: UnsafePointer<UInt8>, in other: UnsafePointer<UInt8>,
        _ geometry: (x: Int, y: Int, width: Int, height: Int, radius: Int), noiseDeltaE: Double
    ) -> Bool {
        let (x, y, width, height, radius) = geometry
        var low: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255), high: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)
        for ny in max(0, y - radius)...min(height - 1, y + radius) {
            for nx in max(0, x - radius)...min(width - 1, x + radius) {
                let c = PixelDelta.rgbOverWhite(other, (ny * width + nx) * 4)
                low = (min(low.r, c.r), min(low.g, c.g), min(low.b, c.b))
                high = (max(high.r, c.r), max(high.g, c.g), max(high.b, c.b))
            }
        }
        let pixel = PixelDelta.rgbOverWhite(image, (y * width + x) * 4)
        let clamped = (r: min(max(pixel.r, low.r), high.r), g: min(max(pixel.g, low.g), high.g), b: min(max(pixel.b, low.b), high.b))
        if clamped == pixel { return true }
        return DeltaEFormula.cie94.difference(
            LabColor(r: pixel.r, g: pixel.g, b: pixel.b), LabColor(r: clamped.r, g: clamped.g, b: clamped.b)) <= noiseDeltaE
    }

    /// Differing pixels this close (in rows and columns) belong to one cluster: the strokes of
    /// a changed glyph stay together.
    static let linkDistance = 2

    /// The share of a cluster's pixels a displacement must explain for the cluster to count
    /// as moved rather than changed.
    static let explainedShare = 0.9

    /// The displacement of at most `rule.shiftRadius` under which the new image matches the
    /// reference on at least ``explainedShare`` of `members`, if any.
    static func explainingShift(
        _ members: [Int], _ reference: UnsafePointer<UInt8>, _ actual: UnsafePointer<UInt8>,
        width: Int, height: Int, rule: StructuralRule
    ) -> PixelShift? {
        let radius = rule.shiftRadius
        guard radius > 0 else { return nil }
        let needed = Int((Double(members.count) * explainedShare).rounded(.up))
        let colours = members.map { (reference: PixelDelta.labOverWhite(reference, $0 * 4), actual: PixelDelta.labOverWhite(actual, $0 * 4)) }
        func matches(_ image: UnsafePointer<UInt8>, _ x: Int, _ y: Int, _ colour: LabColor) -> Bool {
            x >= 0 && y >= 0 && x < width && y < height
                && DeltaEFormula.cie94.difference(PixelDelta.labOverWhite(image, (y * width + x) * 4), colour) <= rule.noiseDeltaE
        }
        var best: (shift: PixelShift, explained: Int)?
        for dy in -radius...radius {
            for dx in -radius...radius where dx != 0 || dy != 0 {
                var explained = 0, unexplained = 0
                for (member, colour) in zip(members, colours) {
                    let x = member % width, y = member / width
                    // Content moved by (dx, dy): the new pixel was the reference's at p − v, and
                    // the reference pixel went to p + v.
                    if matches(reference, x - dx, y - dy, colour.actual) && matches(actual, x + dx, y + dy, colour.reference) {
                        explained += 1
                    } else {
                        unexplained += 1
                        if members.count - unexplained < needed { break }
                    }
                }
                if explained >= needed, explained > best?.explained ?? -1 { best = (PixelShift(dx: dx, dy: dy), explained) }
            }
        }
        return best?.shift
    }
}
