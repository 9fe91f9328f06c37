/// The structural mode's settings: which differences render noise explains, and which
/// clusters of the rest fail a pair.
///
/// A pixel counts only if render noise cannot explain it:
/// - its colour differs by at most `noiseDeltaE` (CIE94): recompression, dither and colour
///   drift;
/// - pixelmatch's detector finds it anti-aliased in either image, and neither image is one
///   colour all round it (``StructuralComparison/countAntialiased(in:_:_:onlyOnPlainGround:bands:)``;
///   unless `explainsAntialiasing` is off);
/// - each image's pixel is, within `noiseDeltaE`, a blend of the colours around it in the
///   other image (within `shiftRadius`): a shift of up to that many pixels, a sub-pixel shift,
///   other hinting or anti-aliasing;
/// - or, in a pair that carries the signature of JPEG recompression, its 8 × 8 block kept its
///   mean lightness (``RecompressionNoise``); such a pair, and one whose luma the reference
///   quantized at the quality read off the pair explains (``JPEGQuantization``), is judged
///   against the reference as JPEG's chroma subsampling (and that quantization) draws it
///   (``ChromaSubsampling``) when that explains more.
/// When the page's solid colours moved together as colour management moves them (another
/// display profile), the reference is first drawn through the fitted conversion
/// (``ColourDrift``), and the rest is judged against that. When one image drew its text with
/// LCD anti-aliasing and the other in grayscale, the LCD image's text is first redrawn in
/// grayscale (``SubpixelText``); a 5 × 3 neighbourhood's mean then also explains a pixel, as
/// LCD filtering spreads a stem's ink sideways, except where the grayscale image covers the
/// pixel and both its sides alike, which LCD draws the same.
/// Differing pixels at most two pixels apart form one cluster. A cluster fails the pair when
/// it holds at least `minimumClusterPixels`, or when it is at least
/// `minimumStrongClusterPixels` large and differs by `strongDeltaE` or more somewhere, unless
/// the pair's clusters are scattered noise (`explainsScatteredNoise`), or when it is a line one
/// pixel thick and twice `minimumStrongClusterPixels` long that differs by twice `noiseDeltaE`
/// somewhere (a faint rule or border taken away).
///
/// A digit or a word changed among text drawn the same fails as an isolated change
/// (``IsolatedChange``): the per-pixel explanations take most of its pixels, but no single
/// displacement does, the page's other strong differences are moved copies or on its line,
/// and the text beside it shows that the renderer did not change.
///
/// Render noise moves colour about (anti-aliasing, hinting, sub-pixel text, recompression
/// spread ink over neighbouring pixels) but keeps the ink: a glyph whose edge darkens lightens
/// next to it. A changed colour moves every pixel of the element the same way. So, before any
/// pixel is explained away, the pixels beyond `noiseDeltaE` are also grouped at word scale
/// (``StructuralComparison/coherentTile``), and a group of at least
/// `minimumClusterPixels` whose lightness changes nearly all one way (at least
/// ``StructuralComparison/coherence`` of it), and whose solid pixels (those that hold their
/// lightness along a stem, a line or a fill; its darkest or its lightest) moved too, or whose
/// pixels mostly left the blends of their ink and ground for another hue (small text holds no
/// solid pixel), fails the pair as a coherent change: a text colour one step lighter is caught
/// although each of its pixels could be an anti-aliased edge, while other text gamma, which
/// moves only the partly covered pixels along those blends, passes. A group of that size whose
/// ink was replaced is a coherent change too, whichever way its lightness moved
/// (``InkReplacement``): other hinting redraws a word in a new colour both ways, but never
/// gives text another ink.
public struct StructuralRule: Sendable, Equatable, Hashable {
    /// The ΔE94 within which a difference is render noise (`--threshold`); a pixel further off
    /// is a candidate for the other explanations.
    public var noiseDeltaE: Double
    /// The largest displacement in pixels that explains a pixel or a cluster as moved
    /// (`--shift-radius`), 0…``largestShiftRadius``; 0 explains nothing by a shift.
    public var shiftRadius: Int
    /// The pixels of a cluster from which it fails whatever its contrast (`--min-cluster`).
    public var minimumClusterPixels: Int
    /// The ΔE94 from which a cluster is of strong contrast.
    public var strongDeltaE: Double
    /// The pixels of a cluster of strong contrast from which it fails.
    public var minimumStrongClusterPixels: Int
    /// Whether clusters are explained as text set again by other hinting (``TextReflow``):
    /// words moved along three or more lines. Off, a page of other hinting fails, and so does
    /// an element moved a few pixels on it.
    public var explainsTextReflow: Bool
    /// Whether pixels pixelmatch's detector finds anti-aliased are taken for render noise (off
    /// plain ground). Off, they count unless a shift or a blend of neighbours explains them: a
    /// changed glyph of small text, whose every pixel that detector takes for an edge, fails,
    /// and so does more render noise (other hinting redraws glyphs the same way).
    public var explainsAntialiasing: Bool
    /// Whether, on a page whose unexplained differences lie in at least
    /// ``scatteredNoiseClusters`` clusters of strong contrast (`strongDeltaE`), a small such
    /// cluster is taken for that scattered noise: other hinting, LCD text or another machine's
    /// text rendering redraws every glyph a little, and leaves a few glyphs' worth of strong
    /// pixels here and there. There, only a cluster of `minimumClusterPixels`, a coherent
    /// change, a mark on wide plain ground (``DifferenceCluster/onWidePlainGround``) or a long
    /// line one pixel thick fails the pair. Off, a
    /// small strong cluster fails wherever it is: a changed glyph fails on such a page too, and
    /// so does the page.
    public var explainsScatteredNoise: Bool

    /// The defaults, chosen from the kinds of change the mode must never miss, not fitted to a
    /// corpus: ΔE 3 over 50 pixels fails with a fifth of its pixels explained away at its edge
    /// (40), and so does a one-pixel line 16 pixels long of ΔE 4.6 (twice the noise threshold:
    /// a faint divider of ΔE 6 taken away, 30 px of it). On a page of
    /// scattered noise (``explainsScatteredNoise``) such a patch fails only if the noise models
    /// leave 40 of its pixels in one piece, or some of them beyond `strongDeltaE` in a line one
    /// pixel thick. A mark of strong contrast on plain ground fails at any size (see
    /// ``DifferenceCluster/onPlainGround``; on a page of scattered noise, on wide plain ground).
    public init(
        noiseDeltaE: Double = 2.3, shiftRadius: Int = 1, minimumClusterPixels: Int = 40,
        strongDeltaE: Double = 10, minimumStrongClusterPixels: Int = 8, explainsTextReflow: Bool = true,
        explainsAntialiasing: Bool = true, explainsScatteredNoise: Bool = true
    ) {
        self.noiseDeltaE = noiseDeltaE
        self.shiftRadius = shiftRadius
        self.minimumClusterPixels = minimumClusterPixels
        self.strongDeltaE = strongDeltaE
        self.minimumStrongClusterPixels = minimumStrongClusterPixels
        self.explainsTextReflow = explainsTextReflow
        self.explainsAntialiasing = explainsAntialiasing
        self.explainsScatteredNoise = explainsScatteredNoise
    }

    /// The largest ``shiftRadius`` accepted: the search grows with its square.
    public static let largestShiftRadius = 4

    /// Why the rule cannot judge as it says, when it cannot: a shift radius outside
    /// 0…``largestShiftRadius``, a cluster size below 1, or a ΔE that is not a number >= 0.
    /// The comparison takes such a rule as near to it as it can (a radius within the range),
    /// but its verdicts then follow no documented rule.
    public var problem: String? {
        if !(0...Self.largestShiftRadius).contains(shiftRadius) {
            return "the structural shift radius must be between 0 and \(Self.largestShiftRadius), not \(shiftRadius)"
        }
        if minimumClusterPixels < 1 { return "the structural smallest failing cluster must be at least 1 pixel, not \(minimumClusterPixels)" }
        if minimumStrongClusterPixels < 1 {
            return "the structural smallest failing cluster of strong contrast must be at least 1 pixel, not \(minimumStrongClusterPixels)"
        }
        if !(strongDeltaE >= 0) || !strongDeltaE.isFinite { return "the structural strong contrast must be a number >= 0, not \(strongDeltaE)" }
        return nil
    }

    /// ``shiftRadius`` within 0…``largestShiftRadius``: the radius the comparison searches.
    var searchRadius: Int { min(max(shiftRadius, 0), Self.largestShiftRadius) }

    /// How many clusters of strong contrast make a pair's differences scattered noise (see
    /// ``explainsScatteredNoise``). A change the mode must catch sits in one place or a few: a
    /// word, an icon, a border, the edges of a moved element. Alone on the pages of the render
    /// corpora, a change that failed only by small strong clusters made at most 21 of them (an
    /// element moved 2 px); twice that is scattered. Weak clusters do not count: dither or
    /// jitter leaves hundreds of faint specks, which say nothing about glyphs drawn again.
    public static let scatteredNoiseClusters = 40

    /// Whether a cluster of `pixels` pixels whose largest ΔE is `maxDeltaE` fails the pair;
    /// `onPlainGround` and `onWidePlainGround` as ``DifferenceCluster/onPlainGround`` and
    /// ``DifferenceCluster/onWidePlainGround``, `strongClusters` the number of the pair's
    /// clusters of strong contrast, and `isThinLine` when the cluster is one pixel thick.
    /// A line one pixel thick and twice `minimumStrongClusterPixels` long fails from twice
    /// `noiseDeltaE`, among scattered noise too: a border or a rule removed, which glyphs drawn
    /// again do not leave, and which one level or two of another gamma does not reach. Among
    /// scattered noise a mark fails by its ground only on wide plain ground: other hinting sets
    /// a glyph's dot, comma or hyphen a pixel or two over, beside the glyph's strokes.
    public func fails(
        pixels: Int, maxDeltaE: Double, onPlainGround: Bool = false, onWidePlainGround: Bool = false, strongClusters: Int = 1,
        isThinLine: Bool = false
    ) -> Bool {
        let longThinLine = isThinLine && pixels >= lineLength
        let scattered = explainsScatteredNoise && strongClusters >= Self.scatteredNoiseClusters && !longThinLine
        let markOnPlainGround = scattered ? onWidePlainGround : onPlainGround
        return pixels >= minimumClusterPixels
            || longThinLine && maxDeltaE >= lineDeltaE
            || (markOnPlainGround || pixels >= minimumStrongClusterPixels && !scattered) && maxDeltaE >= strongDeltaE
    }

    /// The shortest line one pixel thick that fails by its contrast (twice
    /// `minimumStrongClusterPixels`), and the ΔE from which it does (twice `noiseDeltaE`).
    var lineLength: Int {
        let (length, overflow) = minimumStrongClusterPixels.multipliedReportingOverflow(by: 2)
        return overflow ? (minimumStrongClusterPixels > 0 ? .max : .min) : length
    }
    var lineDeltaE: Double { 2 * noiseDeltaE }

    /// Whether `cluster` fails the pair, whose clusters of strong contrast number `strongClusters`.
    func fails(_ cluster: DifferenceCluster, strongClusters: Int) -> Bool {
        let box = cluster.boundingBox
        return fails(
            pixels: cluster.pixels, maxDeltaE: cluster.maxDeltaE, onPlainGround: cluster.onPlainGround,
            onWidePlainGround: cluster.onWidePlainGround, strongClusters: strongClusters, isThinLine: box.minX == box.maxX || box.minY == box.maxY)
    }

    /// Whether `cluster` is of strong contrast and holds at least half of an image of
    /// `imagePixels` pixels: most of a small image (an icon, a swatch of a few pixels) changed,
    /// which fails whatever the cluster's size. From 80 pixels on, such a cluster is as large
    /// as the default ``minimumClusterPixels`` anyway.
    func isMostOfImage(_ cluster: DifferenceCluster, imagePixels: Int) -> Bool {
        cluster.maxDeltaE >= strongDeltaE && cluster.pixels * 2 >= imagePixels
    }

    /// How many of `clusters` are of strong contrast (`strongDeltaE`).
    func strongClusters(among clusters: [DifferenceCluster]) -> Int {
        clusters.count { $0.maxDeltaE >= strongDeltaE }
    }
}

/// A connected group of differing pixels that render noise does not explain.
public struct DifferenceCluster: Sendable, Equatable, Encodable {
    /// How many pixels the cluster holds.
    public var pixels: Int
    /// The smallest rectangle holding them, in the compared area's coordinates.
    public var boundingBox: PixelRect
    /// The largest CIE94 ΔE in the cluster.
    public var maxDeltaE: Double
    /// Whether the cluster fails the pair under the rule.
    public var fails: Bool
    /// Whether this is a coherent change: a word-scale group of differing pixels whose
    /// lightness moves nearly all one way (see ``StructuralRule``).
    public var coherent: Bool = false
    /// Whether the cluster is a mark on plain ground: around its box the reference is one
    /// colour and the other image the same, within the noise threshold. Render noise follows
    /// edges (anti-aliasing, hinting, shifts), so a dot or a caret that appears or goes away
    /// there is a change, however small.
    public var onPlainGround: Bool = false
    /// Whether that plain ground reaches twice as far
    /// (``StructuralComparison/widePlainGroundMargin``). On a page of scattered noise only
    /// such a mark fails by its ground (see ``StructuralRule/explainsScatteredNoise``): other
    /// hinting sets a glyph's dot, comma or hyphen a pixel or two over, beside its strokes.
    public var onWidePlainGround: Bool = false
    /// Whether this is an isolated change: a place of strong difference that no displacement
    /// explains, beside text drawn the same, on the one line of the page where such places lie
    /// (see ``StructuralRule``). Its pixels are the candidates before anti-aliasing and shifts
    /// explain any.
    public var isolated: Bool = false
    /// Whether this is a coherent change on a page the pair otherwise draws byte for byte the
    /// same (``UnchangedPage``): it fails from `minimumStrongClusterPixels` pixels, by its
    /// lightness moved one way and twice the noise threshold somewhere, however small its text.
    public var onUnchangedPage: Bool = false
    /// Whether this is a line drawn a pixel thicker or thinner along one edge, its other edge
    /// where it was (``LineWidthChange``): a row or column of pixels that a one-pixel shift
    /// explains one by one, but no shift of the line does.
    public var lineWidthChanged: Bool = false
}

/// The structural judgement of a pair already compared pixel by pixel.
package enum StructuralComparison {
    /// Compares with the rule's noise threshold, then keeps the pixels that neither
    /// anti-aliasing nor a shift explains, clusters them and judges the clusters.
    static func compare(_ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, options: ComparisonOptions) -> DiffResult {
        switch findings(reference, actual, rule: rule, options: options) {
        case .counted(let result): return result
        case .clustered(let findings): return findings.judged(by: rule, options: options)
        }
    }

    /// The pair judged under each of `rules`, which differ only in `minimumClusterPixels` and
    /// `explainsScatteredNoise`: one comparison serves them all.
    package static func judged(
        _ reference: RGBAImage, _ actual: RGBAImage, rules: [StructuralRule], options: ComparisonOptions
    ) -> [DiffResult] {
        guard var shared = rules.first else { return [] }
        shared.minimumClusterPixels = rules.map(\.minimumClusterPixels).min() ?? shared.minimumClusterPixels
        switch findings(reference, actual, rule: shared, options: options) {
        case .counted(let result): return rules.map { _ in result }
        case .clustered(let findings): return rules.map { findings.judged(by: $0, options: options) }
        }
    }

    /// What the structural mode finds in a pair before the rule's cluster sizes judge it.
    enum Findings {
        /// Images of different sizes differ outside their overlap: the pixel count stands.
        case counted(DiffResult)
        case clustered(Clusters)
    }

    /// The unexplained pixels' clusters and the coherent changes, each with its pixels
    /// (indices, row-major), beside the candidates' comparison.
    struct Clusters {
        var candidates: DiffResult
        var width: Int
        var height: Int
        var clusters: [DifferenceCluster]
        var members: ClusterMembers
        /// Coherent groups of at least the rule's `minimumClusterPixels` that found them.
        var coherent: [DifferenceCluster]
        var coherentMembers: [[Int]]
        /// The isolated change (``IsolatedChange``), with its pixels, if the pair holds one.
        var isolated: (cluster: DifferenceCluster, members: [Int])?
        /// Lines drawn a pixel thicker or thinner (``LineWidthChange``), of at least the rule's
        /// `minimumClusterPixels` that found them, with their pixels.
        var lineWidthChanges: [(cluster: DifferenceCluster, pixels: [Int])] = []
        /// The strong clusters that are one drawing moved (``MovedCopies``), which do not count
        /// towards scattered noise.
        var movedCopies = 0

        /// The pair judged by `rule`: the clusters it fails, the coherent changes of at least
        /// its `minimumClusterPixels` and the isolated change; the pixels counted are their union.
        func judged(by rule: StructuralRule, options: ComparisonOptions) -> DiffResult {
            var result = candidates
            result.metric = .structural(rule)
            var listed: [DifferenceCluster] = [], marked: [[Int]] = [], failing: [Int] = []
            let strong = rule.strongClusters(among: clusters) - movedCopies
            for (index, cluster) in clusters.enumerated() {
                var cluster = cluster
                cluster.fails = rule.fails(cluster, strongClusters: strong) || rule.isMostOfImage(cluster, imagePixels: width * height)
                listed.append(cluster)
                if cluster.fails { failing.append(index) }
            }
            for (cluster, pixels) in zip(coherent, coherentMembers)
            where cluster.pixels >= rule.minimumClusterPixels || cluster.onUnchangedPage {
                listed.append(cluster)
                marked.append(pixels)
            }
            for line in lineWidthChanges where line.cluster.pixels >= rule.minimumClusterPixels {
                listed.append(line.cluster)
                marked.append(line.pixels)
            }
            if let isolated {
                listed.append(isolated.cluster)
                marked.append(isolated.members)
            }
            var counted = PixelSet(count: width * height)
            for cluster in failing { members.insert(cluster, into: &counted) }
            for pixels in marked { for index in pixels { counted.insert(index) } }
            let failingClusters = listed.filter(\.fails)
            result.clusters = listed
            result.differentPixels = counted.count
            result.differentRatio = result.totalPixels == 0 ? 0 : Double(result.differentPixels) / Double(result.totalPixels)
            result.boundingBox = failingClusters.map(\.boundingBox).reduce(nil) { box, next in box.map { $0.union(next) } ?? next }
            result.judge(by: options.allowance)
            result.mask = options.collectsMask ? DifferenceMask(width: width, height: height, marking: counted) : nil
            return result
        }
    }

    /// The comparison that finds the candidates: every pixel beyond the rule's noise threshold
    /// is marked, the anti-aliased ones too (to be told apart in the mask).
    static func candidateOptions(rule: StructuralRule, options: ComparisonOptions) -> ComparisonOptions {
        var candidateOptions = options
        candidateOptions.metric = .deltaE(.cie94, threshold: rule.noiseDeltaE)
        candidateOptions.ignoreAntialiasing = true
        candidateOptions.collectsMask = true
        candidateOptions.marksAntialiasedPixels = true
        return candidateOptions
    }

    static func findings(_ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, options: ComparisonOptions) -> Findings {
        let candidateOptions = candidateOptions(rule: rule, options: options)
        var (reference, actual) = (reference, actual)
        var result = ComparisonEngine(reference: reference, actual: actual, options: candidateOptions).run(kernel: .vectorized)
        result.metric = .structural(rule)
        guard !result.sizeDiffers else {
            result.mask = options.collectsMask ? result.mask?.counted : nil
            return .counted(result)
        }
        let differs = result.differentPixels > 0
        var recompression = differs && RecompressionNoise.allowsSmallShare(result)
            ? RecompressionNoise(reference, actual, bands: options.bands) : nil
        // A pair whose luma is explained by the reference quantized as a JPEG is recompressed too,
        // whether or not its blocks kept their means.
        let quantization = differs ? JPEGQuantization.estimate(reference, actual, bands: options.bands).flatMap { $0.explainsDifference ? $0 : nil } : nil
        // JPEG holds no translucent pixel, which no chroma model is made for.
        let chroma = recompression != nil || quantization != nil ? ChromaSubsampling(reference) : nil
        var recompressed = recompression != nil || chroma != nil
        let given = reference
        var redrawn = false
        // The reference as given, and as libjpeg's upsampling draws its chroma: what chroma
        // recompression may give each pixel.
        var chromaSources = [given]
        // A recompressed pair is compared with the reference as JPEG's chroma subsampling draws
        // it (and its quantization, when that explains the luma), when that leaves fewer
        // candidates; its blocks are then judged against that too.
        if var model = chroma {
            var reconstructed: RGBAImage?
            if let quantization { model = model.quantized(quality: quantization.quality, bands: options.bands) }
            for upsampling in ChromaSubsampling.Upsampling.allCases {
                let reconstruction = model.reconstruction(upsampling: upsampling, bands: options.bands)
                if upsampling == .triangular { chromaSources.append(reconstruction) }
                var candidates = ComparisonEngine(reference: reconstruction, actual: actual, options: candidateOptions)
                    .run(kernel: .vectorized)
                guard candidates.differentPixels < result.differentPixels else { continue }
                candidates.metric = .structural(rule)
                (reconstructed, result) = (reconstruction, candidates)
            }
            if let reconstructed {
                (reference, redrawn) = (reconstructed, true)
                recompression = RecompressionNoise(reconstructed, actual, bands: options.bands) ?? recompression
            }
        }
        // Recompression moves solid colours a little too (chroma subsampling), and another display
        // profile can carry the JPEG signature (most of its moves are a level or two): in a pair
        // that shows both, the model that leaves fewer candidates is taken.
        if differs, let drift = ColourDrift(given, actual, noiseDeltaE: rule.noiseDeltaE, bands: options.bands) {
            let drawn = drift.applied(to: given)
            var candidates = ComparisonEngine(reference: drawn, actual: actual, options: candidateOptions).run(kernel: .vectorized)
            if !recompressed || candidates.differentPixels < result.differentPixels {
                candidates.metric = .structural(rule)
                (reference, result, redrawn) = (drawn, candidates, true)
                (recompression, recompressed) = (nil, false)
            }
        }
        if recompression == nil { chromaSources = [] }
        // An LCD pair as drawn, before its text is redrawn: its coherent changes are judged
        // on it, as the redraw keeps ink lightness, not ink colour.
        var asDrawn: (marked: DifferenceMask, reference: RGBAImage, actual: RGBAImage, text: SubpixelText)?
        if differs, !recompressed, let marked = result.mask, let text = SubpixelText(reference, actual, marked: marked, bands: options.bands) {
            asDrawn = (marked, reference, actual, text)
            (reference, actual) = text.grayscaled(reference, actual)
            result = ComparisonEngine(reference: reference, actual: actual, options: candidateOptions).run(kernel: .vectorized)
            result.metric = .structural(rule)
        }
        // The candidates' mask is taken out of their result, so that it is changed in place.
        guard var marked = result.mask.take() else { return .counted(result) }
        // Pixels given a colour that nothing around them has: neither anti-aliasing nor a blend
        // of neighbours makes one, so they skip those models.
        let tinted = recompression?.removeExplained(
            from: &marked, reference, actual, keepingLinesOf: rule.lineLength, lineDeltaE: rule.lineDeltaE,
            chroma: RecompressionNoise.ChromaRange(chromaSources)) ?? []
        let coherent = if let asDrawn {
            coherentChanges(in: asDrawn.marked, asDrawn.reference, asDrawn.actual, rule: rule, subpixelText: asDrawn.text, bands: options.bands)
        } else {
            coherentChanges(in: marked, reference, actual, rule: rule, asGiven: !redrawn, judgesInk: !recompressed, bands: options.bands)
        }
        let candidates = marked
        let lineWidthChanges = LineWidthChange.find(in: candidates, reference, actual, rule: rule)
        for index in tinted { marked.clear(x: index % marked.width, y: index / marked.width) }
        result.antialiasedPixels -= countAntialiased(
            in: &marked, reference, actual, onlyOnPlainGround: rule.explainsAntialiasing, bands: options.bands)
        marked.keepCounted()
        let (width, height) = (marked.width, marked.height)
        // Consumed, so that the blends clear the mask in place rather than in a copy.
        var unexplained = withoutNeighbourhoodBlends(
            consume marked, reference, actual, rule: rule, bands: options.bands, subpixelText: asDrawn != nil)
        for index in tinted { unexplained.set(x: index % unexplained.width, y: index / unexplained.width) }
        asDrawn?.text.markingEvenlyCovered(in: &unexplained, candidates: candidates, reference, actual)
        var (clusters, members) = clusters(of: unexplained, reference, actual, rule: rule, bands: options.bands)
        // Another hinting sets text again: words moved along their lines are explained, on a page
        // where that happened on several lines.
        if rule.explainsTextReflow, let moved = TextReflow.explained(
            clusters: clusters, members: members, reference, actual,
            smallestFailing: min(rule.minimumClusterPixels, rule.minimumStrongClusterPixels))
        {
            var remaining = unexplained
            for index in moved { remaining.clear(x: index % remaining.width, y: index / remaining.width) }
            (clusters, members) = Self.clusters(of: remaining, reference, actual, rule: rule, bands: options.bands)
        }
        // One drawing moved leaves copies of itself, not scattered noise.
        let strong = rule.strongClusters(among: clusters)
        let movedCopies = strong >= StructuralRule.scatteredNoiseClusters
            ? MovedCopies.count(in: clusters, reference, actual, strongDeltaE: rule.strongDeltaE) : 0
        // A page that still differs strongly in many places holds no change alone on its line.
        let isolated = strong - movedCopies < StructuralRule.scatteredNoiseClusters
            ? IsolatedChange.find(in: candidates, reference, actual, rule: rule, bands: options.bands) : nil
        return .clustered(Clusters(
            candidates: result, width: width, height: height, clusters: clusters, members: members, coherent: coherent.clusters,
            coherentMembers: coherent.members, isolated: isolated, lineWidthChanges: lineWidthChanges, movedCopies: movedCopies))
    }

    /// The clusters of `candidates` (pixels at most ``linkDistance`` apart), in the order of
    /// their first pixel (row-major), with every cluster's pixels (indices, row-major over the
    /// image).
    ///
    /// Works on runs rather than pixels: each row's marked pixels at most ``linkDistance``
    /// apart form one run (``linkedRuns``), runs of nearby rows whose spans come that close are
    /// joined (a run has no gap wider than the link, so its span stands for its pixels), and
    /// the joined runs are read back in row-major order.
    static func clusters(
        of candidates: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, bands: Int = 0
    ) -> (clusters: [DifferenceCluster], members: ClusterMembers) {
        let height = candidates.height
        let (runs, rowStarts) = linkedRuns(of: candidates, bands: bands)
        // No run, no cluster; and no empty buffer is filled below (an empty array is shared
        // storage, whose count an unsafe initializer would write).
        guard !runs.isEmpty else { return ([], ClusterMembers(of: candidates)) }
        var joined = DisjointSets(count: runs.count)
        for y in 0..<height {
            for earlier in max(0, y - linkDistance)..<y {
                var first = rowStarts[earlier]
                for run in rowStarts[y]..<rowStarts[y + 1] {
                    let (start, end) = (runs[run].start, runs[run].end)
                    while first < rowStarts[earlier + 1], runs[first].end + linkDistance < start { first += 1 }
                    var other = first
                    while other < rowStarts[earlier + 1], runs[other].start - linkDistance <= end {
                        joined.union(run, other)
                        other += 1
                    }
                }
            }
        }
        var label = [Int32](repeating: -1, count: runs.count)
        var clusters: [DifferenceCluster] = []
        for y in 0..<height {
            for run in rowStarts[y]..<rowStarts[y + 1] {
                let root = joined.root(of: run)
                if label[root] < 0 {
                    label[root] = Int32(clusters.count)
                    let x = runs[run].start
                    clusters.append(DifferenceCluster(
                        pixels: 0, boundingBox: PixelRect(minX: x, minY: y, maxX: x, maxY: y), maxDeltaE: 0, fails: false))
                }
                label[run] = label[root]
                let cluster = Int(label[run])
                let box = clusters[cluster].boundingBox
                clusters[cluster].boundingBox = PixelRect(
                    minX: min(box.minX, runs[run].start), minY: box.minY, maxX: max(box.maxX, runs[run].end), maxY: y)
            }
        }
        let summaries = runSummaries(
            of: runs, rowStarts: rowStarts, clusters: label, clusterCount: clusters.count, in: candidates, reference, actual, bands: bands)
        for run in runs.indices {
            let cluster = Int(label[run])
            clusters[cluster].maxDeltaE = max(clusters[cluster].maxDeltaE, summaries[run].maxDeltaE)
            clusters[cluster].pixels += summaries[run].pixels
        }
        let members = ClusterMembers(
            of: candidates, runs: runs, rowStarts: rowStarts, clusters: label, pixels: clusters.map(\.pixels))
        let strong = rule.strongClusters(among: clusters)
        for cluster in clusters.indices {
            let (pixels, maxDeltaE) = (clusters[cluster].pixels, clusters[cluster].maxDeltaE)
            if pixels < rule.minimumStrongClusterPixels, maxDeltaE >= rule.strongDeltaE {
                let box = clusters[cluster].boundingBox
                clusters[cluster].onPlainGround = isOnPlainGround(box, reference, actual, noiseDeltaE: rule.noiseDeltaE)
                clusters[cluster].onWidePlainGround = clusters[cluster].onPlainGround
                    && isOnPlainGround(box, reference, actual, noiseDeltaE: rule.noiseDeltaE, margin: widePlainGroundMargin)
            }
            clusters[cluster].fails = rule.fails(clusters[cluster], strongClusters: strong)
        }
        return (clusters, members)
    }

    /// Whether the pixels around `box`, up to `margin` away and within the image, are all one
    /// colour in the reference and unchanged in the actual image (CIE94 ΔE under
    /// `noiseDeltaE`): see ``DifferenceCluster/onPlainGround``.
    static func isOnPlainGround(
        _ box: PixelRect, _ reference: RGBAImage, _ actual: RGBAImage, noiseDeltaE: Double, margin: Int = plainGroundMargin
    ) -> Bool {
        let width = reference.width, height = reference.height
        let columns = max(0, box.minX - margin)...min(width - 1, box.maxX + margin)
        let rows = max(0, box.minY - margin)...min(height - 1, box.maxY + margin)
        return reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return false }
                var ground: UInt32?
                for y in rows {
                    for x in columns where !(box.minX...box.maxX).contains(x) || !(box.minY...box.maxY).contains(y) {
                        let index = y * width + x
                        let colour = PixelDelta.word(a, index)
                        if let ground, ground != colour { return false }
                        ground = colour
                        if PixelDelta.word(b, index) != colour,
                            PixelDelta.deltaE(a, b, index * 4, formula: .cie94) >= noiseDeltaE
                        {
                            return false
                        }
                    }
                }
                return ground != nil
            }
        }
    }

    /// How far around a small cluster ``isOnPlainGround(_:_:_:noiseDeltaE:margin:)`` looks: the
    /// cluster link, so that no other differing pixel could have joined it.
    static let plainGroundMargin = linkDistance

    /// How far ``DifferenceCluster/onWidePlainGround`` looks: twice ``plainGroundMargin``.
    static let widePlainGroundMargin = 2 * plainGroundMargin

    /// Counts the anti-aliased pixels of `marked` (marked 2; all of them, or with
    /// `onlyOnPlainGround` those on plain ground in either image): marks them 1 and returns how
    /// many. Anti-aliasing changes how much of a pixel an edge covers, so it explains a pixel
    /// only where both images draw an edge near it. Where either image is one colour for
    /// ``plainGroundMargin`` all round the pixel, a mark was drawn on plain ground or went away
    /// from it, however thin its strokes (a check mark, a caret): pixelmatch's detector takes
    /// each pixel of such a stroke for an anti-aliased edge. The pixels counted here still pass
    /// if a shift or a blend of neighbours explains them.
    static func countAntialiased(
        in marked: inout DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, onlyOnPlainGround: Bool = true,
        bands: Int = 0
    ) -> Int {
        let (width, height) = (marked.width, marked.height)
        let bands = RowBands.count(height: height, requested: bands)
        return reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                marked.withUnsafeMutableBytes { bits in
                    guard let a = a.baseAddress, let b = b.baseAddress, let bits else { return 0 }
                    let shared = UncheckedSendable((a, b, bits))
                    return RowBands.map(height: height, bands: bands) { _, rows in
                        let (a, b, bits) = shared.value
                        var counted = 0
                        for y in rows {
                            let row = bits + y * width
                            DifferenceMask.forEachMarked(inRow: row, width: width) { x in
                                guard row[x] == 2,
                                    !onlyOnPlainGround
                                        || isOneColour(around: x, y, in: a, width: width, height: height)
                                        || isOneColour(around: x, y, in: b, width: width, height: height)
                                else { return }
                                row[x] = 1
                                counted += 1
                            }
                        }
                        return counted
                    }.reduce(0, +)
                }
            }
        }
    }

    /// Whether every pixel of `pixels` up to ``plainGroundMargin`` from (`x`, `y`), within the
    /// image, has the same RGBA bytes.
    static func isOneColour(around x: Int, _ y: Int, in pixels: UnsafePointer<UInt8>, width: Int, height: Int) -> Bool {
        func word(_ x: Int, _ y: Int) -> UInt32 { PixelDelta.word(pixels, y * width + x) }
        let colour = word(x, y)
        for row in max(0, y - plainGroundMargin)...min(height - 1, y + plainGroundMargin) {
            for column in max(0, x - plainGroundMargin)...min(width - 1, x + plainGroundMargin) where word(column, row) != colour {
                return false
            }
        }
        return true
    }

    /// Each run's marked pixels: how many, and a largest CIE94 ΔE that leaves its cluster's
    /// (`clusters[run]`, of `clusterCount`) the largest of any of its pixels; the rows taken in
    /// bands on all cores. A run starts from the largest ΔE its band has found in its cluster so
    /// far, so that a pixel the bound puts below it is not measured: its run may then report
    /// that value instead of its own smaller one, which its cluster's largest already holds.
    static func runSummaries(
        of runs: [(start: Int, end: Int)], rowStarts: [Int], clusters: [Int32], clusterCount: Int, in mask: DifferenceMask,
        _ reference: RGBAImage, _ actual: RGBAImage, bands: Int = 0
    ) -> [(maxDeltaE: Double, pixels: Int)] {
        var summaries = [(maxDeltaE: Double, pixels: Int)](repeating: (0, 0), count: runs.count)
        let width = mask.width
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                mask.withUnsafeBytes { bits in
                    summaries.withUnsafeMutableBufferPointer { summaries in
                        guard let a = a.baseAddress, let b = b.baseAddress, let bits = bits.baseAddress else { return }
                        let shared = UncheckedSendable((a, b, bits, summaries))
                        RowBands.forEach(height: mask.height, bands: RowBands.count(height: mask.height, requested: bands)) { _, rows in
                            let (a, b, bits, summaries) = shared.value
                            var labCache = LabCache(), deltaECache = DeltaECache()
                            var clusterFloors = [Double](repeating: 0, count: clusterCount)
                            for y in rows {
                                for run in rowStarts[y]..<rowStarts[y + 1] {
                                    let cluster = Int(clusters[run])
                                    var summary = (maxDeltaE: clusterFloors[cluster], pixels: 0)
                                    for index in (y * width + runs[run].start)...(y * width + runs[run].end) where bits[index] != 0 {
                                        summary.pixels += 1
                                        if let deltaE = deltaECache.deltaE(
                                            a, b, index * 4, formula: .cie94, unlessBelow: summary.maxDeltaE, labCache: &labCache)
                                        {
                                            summary.maxDeltaE = max(summary.maxDeltaE, deltaE)
                                        }
                                    }
                                    clusterFloors[cluster] = summary.maxDeltaE
                                    summaries[run] = summary
                                }
                            }
                        }
                    }
                }
            }
        }
        return summaries
    }

    /// Each row's marked pixels of `mask` grouped into runs of pixels at most ``linkDistance``
    /// apart (first and last marked column, inclusive), in row-major order; row `y`'s runs are
    /// `rowStarts[y]..<rowStarts[y + 1]`. The rows are read in `bands` bands on all cores (0:
    /// as many as ``RowBands/count(height:requested:)`` gives the image's height).
    static func linkedRuns(of mask: DifferenceMask, bands: Int = 1) -> (runs: [(start: Int, end: Int)], rowStarts: [Int]) {
        let (width, height) = (mask.width, mask.height)
        let perBand = mask.withUnsafeBytes { bits in
            let shared = UncheckedSendable(bits)
            return RowBands.map(height: height, bands: RowBands.count(height: height, requested: bands)) { _, rows in
                var runs: [(start: Int, end: Int)] = []
                var rowCounts: [Int] = []
                rowCounts.reserveCapacity(rows.count)
                guard let bits = shared.value.baseAddress else { return (runs, rowCounts) }
                for y in rows {
                    let before = runs.count
                    var start = -1, last = -1
                    DifferenceMask.forEachMarked(inRow: bits + y * width, width: width) { x in
                        if start >= 0, x - last <= linkDistance {
                            last = x
                            return
                        }
                        if start >= 0 { runs.append((start, last)) }
                        (start, last) = (x, x)
                    }
                    if start >= 0 { runs.append((start, last)) }
                    rowCounts.append(runs.count - before)
                }
                return (runs, rowCounts)
            }
        }
        var runs: [(start: Int, end: Int)] = []
        runs.reserveCapacity(perBand.reduce(0) { $0 + $1.0.count })
        for band in perBand { runs.append(contentsOf: band.0) }
        return (runs, rowStarts(counts: perBand.flatMap(\.1), height: height))
    }

    /// Where each row's runs start, from each row's count of them; one more entry than rows.
    private static func rowStarts(counts: [Int], height: Int) -> [Int] {
        var starts = [Int](repeating: 0, count: height + 1)
        for (y, count) in counts.enumerated() { starts[y + 1] = starts[y] + count }
        return starts
    }

    /// Each cluster's pixels (indices, row-major over the image), read from the clustered mask
    /// when asked for: the clusters of a page hold up to all of its pixels, and the judge needs
    /// only the failing clusters', which it marks in its mask from their runs.
    struct ClusterMembers: RandomAccessCollection {
        private let mask: DifferenceMask
        /// The runs' first and last pixels (indices), grouped by cluster, in row-major order
        /// within each cluster.
        private let spans: [(first: Int, last: Int)]
        /// Where each cluster's runs start in `spans`; one more entry than clusters.
        private let firstSpan: [Int]
        private let pixelCounts: [Int]

        /// No cluster.
        init(of mask: DifferenceMask) {
            (self.mask, spans, firstSpan, pixelCounts) = (mask, [], [0], [])
        }

        /// The clusters of `runs` (``linkedRuns(of:bands:)`` of `mask`), `clusters[run]` being each
        /// run's cluster and `pixels[cluster]` how many pixels of `mask` its runs hold.
        init(of mask: DifferenceMask, runs: [(start: Int, end: Int)], rowStarts: [Int], clusters: [Int32], pixels: [Int]) {
            self.mask = mask
            pixelCounts = pixels
            var firstSpan = [Int](repeating: 0, count: pixels.count + 1)
            for cluster in clusters { firstSpan[Int(cluster) + 1] += 1 }
            for cluster in pixels.indices { firstSpan[cluster + 1] += firstSpan[cluster] }
            var next = firstSpan
            var spans = [(first: Int, last: Int)](repeating: (0, 0), count: runs.count)
            for y in 0..<(rowStarts.count - 1) {
                for run in rowStarts[y]..<rowStarts[y + 1] {
                    let cluster = Int(clusters[run])
                    spans[next[cluster]] = (y * mask.width + runs[run].start, y * mask.width + runs[run].end)
                    next[cluster] += 1
                }
            }
            (self.spans, self.firstSpan) = (spans, firstSpan)
        }

        var startIndex: Int { 0 }
        var endIndex: Int { pixelCounts.count }

        subscript(cluster: Int) -> [Int] {
            var pixels: [Int] = []
            pixels.reserveCapacity(pixelCounts[cluster])
            forEachPixel(of: cluster) { pixels.append($0) }
            return pixels
        }

        /// Inserts every pixel of `cluster` into `set`.
        func insert(_ cluster: Int, into set: inout PixelSet) {
            forEachPixel(of: cluster) { set.insert($0) }
        }

        /// `body` for each pixel of `cluster` (its index), in row-major order.
        private func forEachPixel(of cluster: Int, _ body: (Int) -> Void) {
            mask.withUnsafeBytes { marked in
                for span in spans[firstSpan[cluster]..<firstSpan[cluster + 1]] {
                    for index in span.first...span.last where marked[index] != 0 { body(index) }
                }
            }
        }
    }

    /// Sets of runs joined by ``union(_:_:)``, each named by its root.
    struct DisjointSets {
        private var parent: [Int32]

        init(count: Int) { parent = (0..<Int32(count)).map { $0 } }

        mutating func root(of element: Int) -> Int {
            var element = element
            while Int(parent[element]) != element {
                parent[element] = parent[Int(parent[element])]
                element = Int(parent[element])
            }
            return element
        }

        mutating func union(_ first: Int, _ second: Int) {
            let (a, b) = (root(of: first), root(of: second))
            if a != b { parent[max(a, b)] = Int32(min(a, b)) }
        }
    }

    /// The word-scale groups of the pixels beyond the noise threshold (`marked` non-zero:
    /// counted or anti-aliased) that are coherent changes: of the lightness their pixels gain
    /// and lose (CIE L*, over white), at least ``coherence`` goes one way, and their solid
    /// pixels moved (``movesEndpoint``) or their ink took another hue
    /// (``changesInkColour(_:in:_:_:rule:labCache:)``). Pixels in ``coherentTile`` × ``coherentTile`` tiles
    /// that touch, sides or corners, form one group: about the gap between the glyphs of
    /// interface text. With `subpixelText` (an LCD pair as drawn, whose ink moves both ways), a
    /// group whose solid ink or background changed lightness (``movesInk``) is coherent too.
    /// With `judgesInk` (a pair no recompression model explains), so is any other group of
    /// `minimumClusterPixels` whose ink was replaced (``InkReplacement``), its plateaus compared
    /// exactly in the pair `asGiven` and within the noise threshold in a redrawn one.
    /// When the images are the pair `asGiven` (no noise model redrew them), every group moved
    /// one way, and the page differs nowhere else (``UnchangedPage``), a group of
    /// `minimumStrongClusterPixels` that reaches twice the noise threshold is coherent too.
    /// Each returned group fails, with its pixels.
    static func coherentChanges(
        in marked: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule,
        subpixelText: SubpixelText? = nil, asGiven: Bool = false, judgesInk: Bool = false, bands: Int = 0
    ) -> (clusters: [DifferenceCluster], members: [[Int]]) {
        let (width, height) = (marked.width, marked.height)
        let columns = (width + coherentTile - 1) / coherentTile, rows = (height + coherentTile - 1) / coherentTile
        let tiles = occupiedTiles(of: marked, reference, actual, columns: columns, bands: RowBands.count(height: height, requested: bands))
        // Where each tile sits in `tiles`, or -1 for a tile without differing pixels.
        var slot = [Int32](repeating: -1, count: columns * rows)
        for (position, tile) in tiles.enumerated() { slot[tile.index] = Int32(position) }
        var unvisited = [Bool](repeating: true, count: tiles.count)
        // The groups whose size and sums allow a coherent change, in the order of their first
        // tile; each is then judged on its own, on all cores.
        var groups: [(change: TileChange, tiles: [Int])] = []
        // The smaller one-way groups, and every group's box while each moved one way: the
        // groups of a page that may differ nowhere else.
        var smallOneWay: [(change: TileChange, tiles: [Int])] = []
        var boxes: [PixelRect]? = asGiven && subpixelText == nil ? [] : nil
        var stack: [Int] = []
        for start in tiles.indices where unvisited[start] {
            var group = tiles[start].change
            unvisited[start] = false
            var groupTiles: [Int] = []
            stack.append(start)
            while let position = stack.popLast() {
                let tile = tiles[position].index
                groupTiles.append(tile)
                let (column, row) = (tile % columns, tile / columns)
                for neighbourRow in max(0, row - 1)...min(rows - 1, row + 1) {
                    for neighbourColumn in max(0, column - 1)...min(columns - 1, column + 1) {
                        let next = Int(slot[neighbourRow * columns + neighbourColumn])
                        guard next >= 0, unvisited[next] else { continue }
                        group.merge(tiles[next].change)
                        unvisited[next] = false
                        stack.append(next)
                    }
                }
            }
            let oneWay = group.total > 0 && abs(group.net) >= coherence * group.total
            if oneWay { boxes?.append(group.box) } else { boxes = nil }
            if group.pixels >= rule.minimumClusterPixels, group.total > 0, subpixelText != nil || oneWay || judgesInk {
                groups.append((group, groupTiles))
            } else if boxes != nil, oneWay, group.pixels >= rule.minimumStrongClusterPixels {
                smallOneWay.append((group, groupTiles))
            }
        }
        let onUnchangedPage = boxes.map { UnchangedPage.holdsAlone($0, reference, actual, rule: rule, bands: bands) } ?? false
        // Row-major by first tile, as the groups were found.
        let candidates = onUnchangedPage ? (groups + smallOneWay).sorted { $0.tiles[0] < $1.tiles[0] } : groups
        var judged = [(cluster: DifferenceCluster, pixels: [Int])?](repeating: nil, count: candidates.count)
        judged.withUnsafeMutableBufferPointer { judged in
            let shared = UncheckedSendable(judged)
            RowBands.forEachLane(bands: candidates.count) { lane in
                var labCache = LabCache()
                for index in lane {
                    shared.value[index] = coherentChange(
                        candidates[index], in: marked, reference, actual, columns: columns, rule: rule, subpixelText: subpixelText,
                        judgesInk: judgesInk, asGiven: asGiven, onUnchangedPage: onUnchangedPage, labCache: &labCache)
                }
            }
        }
        var coherent: (clusters: [DifferenceCluster], members: [[Int]]) = ([], [])
        for case let (cluster, pixels)? in judged {
            coherent.clusters.append(cluster)
            coherent.members.append(pixels)
        }
        return coherent
    }

    /// One group of ``coherentChanges(in:_:_:rule:subpixelText:asGiven:judgesInk:bands:)`` as a failing
    /// cluster with its pixels (row-major), or nil when it is not a coherent change.
    static func coherentChange(
        _ group: (change: TileChange, tiles: [Int]), in marked: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage,
        columns: Int, rule: StructuralRule, subpixelText: SubpixelText?, judgesInk: Bool = false, asGiven: Bool = false,
        onUnchangedPage: Bool = false, labCache: inout LabCache
    ) -> (cluster: DifferenceCluster, pixels: [Int])? {
        let (width, height) = (marked.width, marked.height)
        let change = group.change
        let oneWay = abs(change.net) >= coherence * change.total
        let movedByBox = (oneWay && movesEndpoint(of: change.box, reference, actual, rule: rule, labCache: &labCache))
            || (subpixelText.map {
                movesInk(of: change.box, reference, actual, actualIsLCD: $0.actualIsLCD, rule: rule, labCache: &labCache)
            } ?? false)
            || (judgesInk && subpixelText == nil && InkReplacement.replaces(
                in: change.box, reference, actual, asGiven: asGiven, rule: rule, labCache: &labCache))
        // LCD fringes lie off every line of gray ink, so an LCD pair's ink is judged by its box alone.
        guard movedByBox || (oneWay && subpixelText == nil) else { return nil }
        // The group's tiles in row-major order give its pixels row by row, each row in order.
        let groupTiles = group.tiles.sorted()
        var pixels: [Int] = []
        pixels.reserveCapacity(change.pixels)
        var maxDeltaE = 0.0
        var deltaECache = DeltaECache()
        marked.withUnsafeBytes { bits in
            reference.pixels.withUnsafeBufferPointer { a in
                actual.pixels.withUnsafeBufferPointer { b in
                    guard let a = a.baseAddress, let b = b.baseAddress else { return }
                    var first = 0
                    while first < groupTiles.count {
                        let tileRow = groupTiles[first] / columns
                        var end = first
                        while end < groupTiles.count, groupTiles[end] / columns == tileRow { end += 1 }
                        for y in (tileRow * coherentTile)..<min(height, (tileRow + 1) * coherentTile) {
                            for tile in groupTiles[first..<end] {
                                let left = (tile % columns) * coherentTile
                                for x in left..<min(width, left + coherentTile) where bits[y * width + x] != 0 {
                                    pixels.append(y * width + x)
                                    if let deltaE = deltaECache.deltaE(
                                        a, b, (y * width + x) * 4, formula: .cie94, unlessBelow: maxDeltaE, labCache: &labCache)
                                    {
                                        maxDeltaE = max(maxDeltaE, deltaE)
                                    }
                                }
                            }
                        }
                        first = end
                    }
                }
            }
        }
        let aloneOnPage = onUnchangedPage && oneWay && maxDeltaE >= rule.lineDeltaE
        guard aloneOnPage || change.pixels >= rule.minimumClusterPixels || subpixelText != nil else { return nil }
        guard aloneOnPage || movedByBox || changesInkColour(pixels, in: change.box, reference, actual, rule: rule, labCache: &labCache),
            !isWholePixelShift(pixels, reference, actual, rule: rule, labCache: &labCache)
        else { return nil }
        return (
            DifferenceCluster(
                pixels: pixels.count, boundingBox: change.box, maxDeltaE: maxDeltaE, fails: true, coherent: true,
                onUnchangedPage: onUnchangedPage),
            pixels
        )
    }

    /// Whether one displacement by whole pixels, up to the rule's shift radius, moves the
    /// reference onto the new image at `pixels` (indices, row-major): at nearly all of them
    /// (``coherence``) the new image holds, within the noise threshold, the reference's colour
    /// from one displacement back, and at least half of the reference's colours reappear one
    /// displacement on. An element moved a pixel (a chip's box set a row lower) changes each of
    /// its edges one way but brings no colour that was not beside them, and its colours go
    /// along with it, except where something that stayed (the chip's text) covers them. A new
    /// colour is found next to few of its pixels; an element removed (a border taken away)
    /// lets the ground beside it in, but its colours go nowhere.
    static func isWholePixelShift(
        _ pixels: [Int], _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, labCache: inout LabCache
    ) -> Bool {
        let radius = rule.searchRadius
        guard radius > 0, !pixels.isEmpty else { return false }
        let (width, height) = (reference.width, reference.height)
        let mayMiss = Int((1 - coherence) * Double(pixels.count))
        return reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return false }
                func matches(_ first: UnsafePointer<UInt8>, _ x: Int, _ y: Int, _ second: UnsafePointer<UInt8>, _ otherX: Int, _ otherY: Int) -> Bool {
                    guard (0..<width).contains(otherX), (0..<height).contains(otherY) else { return false }
                    let (one, other) = (PixelDelta.rgbOverWhite(first, (y * width + x) * 4), PixelDelta.rgbOverWhite(second, (otherY * width + otherX) * 4))
                    return labCache.cie94(one, other) < rule.noiseDeltaE
                }
                for dy in -radius...radius {
                    for dx in -radius...radius where dx != 0 || dy != 0 {
                        var (missed, carried) = (0, 0)
                        for index in pixels {
                            let (x, y) = (index % width, index / width)
                            guard matches(b, x, y, a, x - dx, y - dy) else {
                                missed += 1
                                if missed > mayMiss { break }
                                continue
                            }
                            if matches(a, x, y, b, x + dx, y + dy) { carried += 1 }
                        }
                        if missed <= mayMiss, 2 * carried >= pixels.count { return true }
                    }
                }
                return false
            }
        }
    }

    /// The tiles of ``coherentTile`` × ``coherentTile`` pixels that hold differing pixels of
    /// `marked`, in row-major order, each with its index and its sums. Each band of tile rows
    /// sums its own tiles in one reused row, so the sums are those of one pass, and only the
    /// occupied tiles are kept.
    static func occupiedTiles(
        of marked: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, columns: Int, bands: Int
    ) -> [(index: Int, change: TileChange)] {
        let (width, height) = (marked.width, marked.height)
        let rows = (height + coherentTile - 1) / coherentTile
        let perBand = marked.withUnsafeBytes { bits in
            reference.pixels.withUnsafeBufferPointer { a in
                actual.pixels.withUnsafeBufferPointer { b in
                    let shared = UncheckedSendable((a, b, bits))
                    return RowBands.map(height: rows, bands: bands) { _, tileRows in
                        var occupied: [(index: Int, change: TileChange)] = []
                        guard let a = shared.value.0.baseAddress, let b = shared.value.1.baseAddress,
                            let bits = shared.value.2.baseAddress
                        else { return occupied }
                        var labCache = LabCache()
                        var rowTiles = [TileChange](repeating: TileChange(), count: columns)
                        var lastPair = LastPair<Double>()
                        for tileRow in tileRows {
                            for y in (tileRow * coherentTile)..<min(height, (tileRow + 1) * coherentTile) {
                                DifferenceMask.forEachMarked(inRow: bits + y * width, width: width) { x in
                                    let index = y * width + x
                                    let change = lastPair.value(a, b, pixel: index) {
                                        let before = PixelDelta.rgbOverWhite(a, index * 4), after = PixelDelta.rgbOverWhite(b, index * 4)
                                        return labCache.lab(r: after.r, g: after.g, b: after.b).l
                                            - labCache.lab(r: before.r, g: before.g, b: before.b).l
                                    }
                                    rowTiles[x / coherentTile].add(change, x: x, y: y)
                                }
                            }
                            for column in 0..<columns where rowTiles[column].pixels > 0 {
                                occupied.append((tileRow * columns + column, rowTiles[column]))
                                rowTiles[column] = TileChange()
                            }
                        }
                        return occupied
                    }
                }
            }
        }
        var occupied: [(index: Int, change: TileChange)] = []
        occupied.reserveCapacity(perBand.reduce(0) { $0 + $1.count })
        for band in perBand { occupied += band }
        return occupied
    }

    /// The differing pixels of one tile, or of a group of tiles: how many, their lightness
    /// change summed with and without its sign, and their bounding box.
    struct TileChange {
        var pixels = 0
        var net = 0.0
        var total = 0.0
        var box = PixelRect(minX: .max, minY: .max, maxX: .min, maxY: .min)

        mutating func add(_ change: Double, x: Int, y: Int) {
            pixels += 1
            net += change
            total += abs(change)
            box = PixelRect(minX: min(box.minX, x), minY: min(box.minY, y), maxX: max(box.maxX, x), maxY: max(box.maxY, y))
        }

        mutating func merge(_ other: TileChange) {
            pixels += other.pixels
            net += other.net
            total += other.total
            box = box.union(other.box)
        }
    }

    /// The side of the tiles that group differing pixels at word scale.
    static let coherentTile = 4

    /// The share of a group's lightness change that must go one way for it to be a coherent
    /// change rather than ink moved about.
    static let coherence = 0.9

    /// Whether the solid ink or the solid background of `box` changed lightness: the darkest or
    /// the lightest CIE L* there differs between the images by more than the noise threshold,
    /// wherever it lies, compared only where each image holds it solid (at least
    /// ``solidInkPixels`` pixels within one L* of it). LCD text moves its ink a third of a pixel
    /// aside and tints its edges, so which pixels are darkest changes, but a stem fully covered
    /// stays the ink's colour; thin text, which neither image covers fully anywhere, is left to
    /// the other rules. LCD filtering spreads each stripe's coverage over its neighbours, so a
    /// stem the grayscale renderer covers fully may be covered nowhere fully in the LCD image
    /// (`actualIsLCD` says which that is): its ink moved only when its darkest solid pixels are
    /// lighter by more than twice the noise threshold (the rule's `lineDeltaE`; semi-bold text
    /// came out up to 4.4 L* lighter), or darker by more than the threshold, which filtering
    /// never makes. Only gray text is judged so (``holdsGrayText``): on coloured ground the
    /// fringes reach darker and lighter than ink and ground, three pixels alike among them, and
    /// its changes of ink are left to ``SubpixelText/markingEvenlyCovered(in:candidates:_:_:)``.
    static func movesInk(
        of box: PixelRect, _ reference: RGBAImage, _ actual: RGBAImage, actualIsLCD: Bool, rule: StructuralRule,
        labCache: inout LabCache
    ) -> Bool {
        guard holdsGrayText(box, reference) || holdsGrayText(box, actual) else { return false }
        /// The darkest and the lightest L*, each nil unless held by enough pixels.
        func solidExtremes(_ image: RGBAImage) -> (darkest: Double?, lightest: Double?) {
            image.pixels.withUnsafeBufferPointer { pixels in
                guard let base = pixels.baseAddress else { return (nil, nil) }
                var lightness: [Double] = []
                lightness.reserveCapacity((box.maxX - box.minX + 1) * (box.maxY - box.minY + 1))
                for y in box.minY...box.maxY {
                    for x in box.minX...box.maxX {
                        let c = PixelDelta.rgbOverWhite(base, (y * image.width + x) * 4)
                        lightness.append(labCache.lab(r: c.r, g: c.g, b: c.b).l)
                    }
                }
                guard let darkest = lightness.min(), let lightest = lightness.max() else { return (nil, nil) }
                let dark = lightness.count { $0 <= darkest + 1 }, light = lightness.count { $0 >= lightest - 1 }
                return (dark >= solidInkPixels ? darkest : nil, light >= solidInkPixels ? lightest : nil)
            }
        }
        let (before, after) = (solidExtremes(reference), solidExtremes(actual))
        func moved(_ first: Double?, _ second: Double?) -> Bool {
            guard let first, let second else { return false }
            return abs(first - second) > rule.noiseDeltaE
        }
        /// Whether the LCD image's ink is lighter than the grayscale image's by more than LCD
        /// filtering explains, or darker beyond the noise threshold.
        func inkMoved(gray: Double?, lcd: Double?) -> Bool {
            guard let gray, let lcd else { return false }
            return lcd - gray > rule.lineDeltaE || gray - lcd > rule.noiseDeltaE
        }
        let inkChanged = actualIsLCD
            ? inkMoved(gray: before.darkest, lcd: after.darkest) : inkMoved(gray: after.darkest, lcd: before.darkest)
        return inkChanged || moved(before.lightest, after.lightest)
    }

    /// Whether the darkest and the lightest colour of `box` in `image` (by the sum of their
    /// channels) are both near-gray (chroma at most ``SubpixelText/textChroma``).
    static func holdsGrayText(_ box: PixelRect, _ image: RGBAImage) -> Bool {
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return false }
            let (darkest, lightest) = SubpixelText.darkestAndLightest(
                in: base, width: image.width, columns: box.minX...box.maxX, rows: box.minY...box.maxY)
            return SubpixelText.isNearGray(darkest) && SubpixelText.isNearGray(lightest)
        }
    }

    /// Pixels that make an ink or a background solid in ``movesInk(of:_:_:rule:labCache:)``: a
    /// stem three pixels tall.
    static let solidInkPixels = 3

    /// Whether the element's own colour changed, not only its edges: among the solid reference
    /// pixels of `box` (``isSolid(_:x:y:width:height:labCache:)``), those at the darkest or at
    /// the lightest lightness (within one L*) mostly differ by more than the noise threshold. A
    /// new colour moves the solid pixels of the element it paints; other anti-aliasing, text
    /// gamma or another rasterizer moves only the partly covered ones, and leaves the ink and
    /// the background where they were. A stroke no pixel of which is solid (a one-pixel circle,
    /// covered only in part all round) shows no colour of its own here, and is left to the
    /// other rules.
    static func movesEndpoint(
        of box: PixelRect, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, labCache: inout LabCache
    ) -> Bool {
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return false }
                let (width, height) = (reference.width, reference.height)
                var solid: [Int] = []
                var (darkest, lightest) = (Double.infinity, -Double.infinity)
                for y in box.minY...box.maxY {
                    for x in box.minX...box.maxX where isSolid(a, x: x, y: y, width: width, height: height, labCache: &labCache) {
                        let c = PixelDelta.rgbOverWhite(a, (y * width + x) * 4)
                        let l = labCache.lab(r: c.r, g: c.g, b: c.b).l
                        (darkest, lightest) = (min(darkest, l), max(lightest, l))
                        solid.append(y * width + x)
                    }
                }
                var counts = (dark: 0, darkMoved: 0, light: 0, lightMoved: 0)
                var lastPair = LastPair<(isDark: Bool, isLight: Bool, moved: Bool)>()
                for index in solid {
                    let (isDark, isLight, moved) = lastPair.value(a, b, pixel: index) {
                        let before = PixelDelta.rgbOverWhite(a, index * 4), after = PixelDelta.rgbOverWhite(b, index * 4)
                        let lightness = labCache.lab(r: before.r, g: before.g, b: before.b).l
                        let (isDark, isLight) = (lightness <= darkest + 1, lightness >= lightest - 1)
                        return (isDark, isLight, (isDark || isLight) && labCache.cie94(before, after) > rule.noiseDeltaE)
                    }
                    guard isDark || isLight else { continue }
                    if isDark {
                        counts.dark += 1
                        if moved { counts.darkMoved += 1 }
                    }
                    if isLight {
                        counts.light += 1
                        if moved { counts.lightMoved += 1 }
                    }
                }
                return 2 * counts.darkMoved > counts.dark || 2 * counts.lightMoved > counts.light
            }
        }
    }

    /// Whether most of `pixels` (indices, row-major) left the blends of their ink and ground in
    /// one image for another hue in the other image, either way: the ground is the colour their
    /// box holds most, a pixel's ink the colour farthest from it within ``inkSearchRadius`` (a
    /// pixel with no ink of the rule's strong contrast there counts as on its line), and a
    /// blend lies on the line from the ground through the ink, in linear light or in code
    /// values (``ColourSegment``), up to the ink or past it. Other coverage, gamma or hinting
    /// grades a pixel along that line, and in small text, which holds no fully covered pixel,
    /// more coverage takes it past the most covered one; a new ink colour of another hue takes
    /// every partly covered pixel off the line, although such text holds no solid stem to show
    /// that its ink moved. Ink made only lighter or darker stays on the line and is left to
    /// ``movesEndpoint(of:_:_:rule:labCache:)``.
    static func changesInkColour(
        _ pixels: [Int], in box: PixelRect, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule,
        labCache: inout LabCache
    ) -> Bool {
        leavesBlends(pixels, in: box, of: reference, for: actual, rule: rule, labCache: &labCache)
            || leavesBlends(pixels, in: box, of: actual, for: reference, rule: rule, labCache: &labCache)
    }

    /// ``changesInkColour(_:in:_:_:rule:labCache:)`` one way: whether at least half of
    /// `pixels` in `other` lie beyond `noiseDeltaE` of the lines through `image`'s ground and
    /// ink.
    private static func leavesBlends(
        _ pixels: [Int], in box: PixelRect, of image: RGBAImage, for other: RGBAImage, rule: StructuralRule,
        labCache: inout LabCache
    ) -> Bool {
        image.pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress, !pixels.isEmpty else { return false }
                let width = image.width
                var counts: [UInt32: Int] = [:]
                for y in box.minY...box.maxY {
                    for x in box.minX...box.maxX {
                        let c = PixelDelta.rgbOverWhite(a, (y * width + x) * 4)
                        counts[UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b), default: 0] += 1
                    }
                }
                guard let key = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key
                else { return false }
                let ground = (r: UInt8(key >> 16 & 0xFF), g: UInt8(key >> 8 & 0xFF), b: UInt8(key & 0xFF))
                let (height, reach) = (image.height, inkSearchRadius)
                var left = 0
                for index in pixels {
                    let (x, y) = (index % width, index / width)
                    var (ink, contrast) = (ground, 0.0)
                    for row in max(y - reach, 0)...min(y + reach, height - 1) {
                        for column in max(x - reach, 0)...min(x + reach, width - 1) {
                            let c = PixelDelta.rgbOverWhite(a, (row * width + column) * 4)
                            let distance = labCache.cie94(ground, c)
                            if distance > contrast { (ink, contrast) = (c, distance) }
                        }
                    }
                    guard contrast >= rule.strongDeltaE else { continue }
                    let c = PixelDelta.rgbOverWhite(b, index * 4)
                    if ColourSegment.blendingCurves.allSatisfy({ curve in
                        ColourSegment(from: ground, to: ink, in: curve).distance(to: c, pastEnd: true, &labCache) > rule.noiseDeltaE
                    }) {
                        left += 1
                    }
                }
                return 2 * left >= pixels.count
            }
        }
    }

    /// How far from a pixel (in rows and columns) its ink is looked for: a glyph's most covered
    /// pixels lie within a stroke's width of its partly covered ones.
    static let inkSearchRadius = 2

    /// Whether the pixel at (`x`, `y`) of `pixels` is solid: within one L* (over white) of both
    /// its neighbours across, or of both its neighbours down, in the image. Anti-aliasing
    /// grades a partly covered pixel against its neighbours across the edge; along a stem, a
    /// bar, a line or a fill the colour holds.
    static func isSolid(
        _ pixels: UnsafePointer<UInt8>, x: Int, y: Int, width: Int, height: Int, labCache: inout LabCache
    ) -> Bool {
        // Neighbours of the same bytes hold its lightness: on a page's ground and fills most
        // pixels are solid so, and need no lightness.
        func word(_ x: Int, _ y: Int) -> UInt32 { PixelDelta.word(pixels, y * width + x) }
        let bytes = word(x, y)
        if x > 0, x < width - 1, word(x - 1, y) == bytes, word(x + 1, y) == bytes { return true }
        if y > 0, y < height - 1, word(x, y - 1) == bytes, word(x, y + 1) == bytes { return true }
        func lightness(_ x: Int, _ y: Int) -> Double {
            let c = PixelDelta.rgbOverWhite(pixels, (y * width + x) * 4)
            return labCache.lab(r: c.r, g: c.g, b: c.b).l
        }
        let centre = lightness(x, y)
        func holds(_ first: (Int, Int), _ second: (Int, Int)) -> Bool {
            abs(lightness(first.0, first.1) - centre) <= 1 && abs(lightness(second.0, second.1) - centre) <= 1
        }
        return (x > 0 && x < width - 1 && holds((x - 1, y), (x + 1, y)))
            || (y > 0 && y < height - 1 && holds((x, y - 1), (x, y + 1)))
    }

    /// Differing pixels this close (in rows and columns) belong to one cluster: the strokes of
    /// a changed glyph stay together.
    static let linkDistance = 2
}
