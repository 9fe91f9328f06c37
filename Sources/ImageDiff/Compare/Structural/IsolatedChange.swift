import Dispatch

/// A change alone on its line: a place where a pair differs strongly, which no single
/// displacement explains, beside text both images draw the same, where every other strong
/// difference of the page either lies on the same line or is a moved copy of what was there.
///
/// Render noise that draws glyphs differently (other hinting, LCD text, another machine's
/// rasterizer) draws many glyphs of a page differently, and leaves strong differences that no
/// displacement explains in many places. A changed digit or word differs in one place, and seen
/// pixel by pixel its strokes look like anti-aliased edges or pixels shifted by one, so those
/// explanations take most of it. Seen whole, it is no moved copy of what was there: for every
/// displacement of up to the rule's shift radius, in half pixels, a strong cluster's worth of
/// its pixels lie outside the colours the other image holds where that displacement takes them,
/// where text set at another sub-pixel position leaves none or a few. The rest of the page may
/// differ too, but only as such moved copies (text set at other sub-pixel positions, on a page
/// drawn with glyphs on whole pixels), or on the changed line itself (the words after a longer
/// or shorter one, set again a little further along). And the text on its rows, beside it or
/// further along them, is drawn the same in both images, so the renderer did not change: a label
/// whose every glyph other hinting redrew has no such neighbours, and is left to the other
/// explanations.
enum IsolatedChange {
    /// The isolated change among the candidates `marked` (before anti-aliasing and shifts
    /// explain any), as a failing cluster with its pixels (indices, row-major); nil when there
    /// is none. Of the strong clusters (`minimumStrongClusterPixels` reaching `strongDeltaE`),
    /// those a displacement explains (``isDisplaced``) are set aside; the rest must share a row,
    /// and the first of them that reaches ``highContrast(_:)``, puts down ink
    /// (``putsDownInk(_:_:_:rule:)``) and has unchanged neighbours on its rows is the change.
    /// When more than one is left, every strong cluster must lie on the rows they span, and the
    /// rest of the page must be drawn the same (``hasUnchangedLinesAround(_:_:_:rule:)``).
    static func find(
        in marked: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, bands: Int = 0
    ) -> (cluster: DifferenceCluster, members: [Int])? {
        let (clusters, members) = StructuralComparison.clusters(of: marked, reference, actual, rule: rule, bands: bands)
        let strong = clusters.indices.filter {
            clusters[$0].pixels >= rule.minimumStrongClusterPixels && clusters[$0].maxDeltaE >= rule.strongDeltaE
        }
        var edges = ReferenceEdges(reference, actual, rule: rule, bands: bands)
        // The tests of the change itself first: they are cheaper than a displacement search.
        let inked = strong.filter { index in
            clusters[index].maxDeltaE >= highContrast(rule) && fitsSearch(clusters[index].boundingBox)
                && putsDownInk(members[index], reference, actual, rule: rule)
        }
        edges.find(rows: inked.flatMap { clusters[$0].boundingBox.minY...clusters[$0].boundingBox.maxY })
        let possible = inked.filter { hasUnchangedNeighbours(clusters[$0].boundingBox, in: &edges) }
        guard !possible.isEmpty else { return nil }
        var undisplaced: Set<Int> = []
        var sharedRows = Int.min...Int.max, (top, bottom) = (Int.max, Int.min)
        func sharesRows(_ index: Int) -> Bool {
            let box = clusters[index].boundingBox
            return sharedRows.lowerBound <= box.maxY && box.minY <= sharedRows.upperBound
        }
        // The change first, then the quickest searches; but a place off the rows the places
        // no displacement explains share goes before them all, as it ends the search if no
        // displacement explains it either. Which places are left, and so the answer, does not
        // depend on the order.
        func searchArea(_ index: Int) -> Int {
            let box = clusters[index].boundingBox
            return fitsSearch(box) ? (box.maxX - box.minX + 1) * (box.maxY - box.minY + 1) : 0
        }
        var pending = possible + strong.filter { !possible.contains($0) }.sorted { searchArea($0) < searchArea($1) }
        while !pending.isEmpty {
            let index = pending.remove(at: pending.firstIndex { !sharesRows($0) } ?? 0)
            let box = clusters[index].boundingBox
            guard !(fitsSearch(box) && isDisplaced(clusters[index], reference, actual, rule: rule, bands: bands)) else { continue }
            guard sharesRows(index) else { return nil }
            sharedRows = max(sharedRows.lowerBound, box.minY)...min(sharedRows.upperBound, box.maxY)
            (top, bottom) = (min(top, box.minY), max(bottom, box.maxY))
            undisplaced.insert(index)
        }
        guard let index = possible.first(where: undisplaced.contains) else { return nil }
        if undisplaced.count > 1 {
            let line = top...bottom
            guard strong.allSatisfy({ line.overlaps(clusters[$0].boundingBox.minY...clusters[$0].boundingBox.maxY) }),
                hasUnchangedLinesAround(line, in: &edges)
            else { return nil }
        }
        var cluster = clusters[index]
        cluster.fails = true
        cluster.isolated = true
        return (cluster, members[index])
    }

    /// Whether some of `pixels` (indices, row-major) that differs by ``highContrast(_:)``
    /// differs by at least half the contrast around it: the ΔE94 between the channel minima and
    /// maxima of its 3 × 3 neighbourhood in both images. Ink put down or taken away takes a pixel
    /// from the ground to the ink, most of the way across that contrast; a rasterizer's other
    /// coverage of a curve's edge (a circle drawn a little larger) moves its pixels part of the
    /// way.
    static func putsDownInk(_ pixels: [Int], _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule) -> Bool {
        let (width, height) = (reference.width, reference.height)
        guard actual.width == width, actual.height == height else { return false }
        var labCache = LabCache()
        return reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return false }
                for index in pixels where index >= 0 && index < width * height {
                    let change = labCache.cie94(PixelDelta.rgbOverWhite(a, index * 4), PixelDelta.rgbOverWhite(b, index * 4))
                    guard change >= highContrast(rule) else { continue }
                    let (x, y) = (index % width, index / width)
                    var low: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255), high: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)
                    func widen(_ c: (r: UInt8, g: UInt8, b: UInt8)) {
                        low = (min(low.r, c.r), min(low.g, c.g), min(low.b, c.b))
                        high = (max(high.r, c.r), max(high.g, c.g), max(high.b, c.b))
                    }
                    for row in max(y - 1, 0)...min(y + 1, height - 1) {
                        for column in max(x - 1, 0)...min(x + 1, width - 1) {
                            let offset = (row * width + column) * 4
                            widen(PixelDelta.rgbOverWhite(a, offset))
                            widen(PixelDelta.rgbOverWhite(b, offset))
                        }
                    }
                    if 2 * change >= labCache.cie94(low, high) { return true }
                }
                return false
            }
        }
    }

    /// Whether a displacement is searched over `box`: its sides are under ``largestSide``.
    static func fitsSearch(_ box: PixelRect) -> Bool {
        box.maxX - box.minX < largestSide && box.maxY - box.minY < largestSide
    }

    /// The longest side of a box searched, in pixels: a line of words. A displacement is tried
    /// at up to (4·radius + 1)² places over it, 25 at the default radius.
    static let largestSide = 256

    /// The contrast an isolated change reaches: twice the rule's strong contrast, as ink put
    /// down or taken away reaches and a rasterizer's other coverage of an edge does not.
    static func highContrast(_ rule: StructuralRule) -> Double { 2 * rule.strongDeltaE }

    /// Whether one displacement of up to the rule's shift radius, in half pixels, explains
    /// the cluster but for fewer than `minimumStrongClusterPixels` pixels, or fewer than a
    /// quarter of its own, over its box and ``margin`` around it (the displacements tried
    /// nearest first, each counted no further than that): each image's pixel lies within
    /// `noiseDeltaE` of the colours of the other image at the pixels that displacement takes it
    /// between (as ``StructuralComparison/isNeighbourhoodBlend`` judges a pixel against all its
    /// neighbours). A curve another rasterizer drew leaves a few pixels of its edge so, a
    /// changed glyph a good part of its strokes.
    ///
    /// Two lanes search at once, each every other displacement, until either finds one that
    /// explains (`bands` 1 keeps the search on the calling thread, as ``ComparisonOptions/bands``
    /// keeps a whole-image pass): a changed glyph is searched at every displacement, and the
    /// answer does not depend on the order. `stepsPerPixel` other than
    /// ``stepsPerPixel`` is for the tests, which hold finer steps to the same answer.
    static func isDisplaced(
        _ cluster: DifferenceCluster, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, bands: Int = 0,
        stepsPerPixel: Int = Self.stepsPerPixel
    ) -> Bool {
        let enough = max(rule.minimumStrongClusterPixels, (cluster.pixels + 3) / 4)
        let radius = rule.searchRadius
        let window = DisplacementWindow(around: cluster.boundingBox, margin: margin, padding: radius, reference, actual)
        let steps = radius * stepsPerPixel
        // Nearest first: a small displacement usually explains, and ends the search.
        func distance(_ d: (dx: Int, dy: Int)) -> Int { d.dx * d.dx + d.dy * d.dy }
        let displacements = (-steps...steps).flatMap { dy in (-steps...steps).map { dx in (dx: dx, dy: dy) } }
            .sorted { distance($0) < distance($1) }
        let lanes = bands == 1 ? 1 : 2
        let explained = SearchFlag()
        RowBands.forEachLane(bands: lanes) { ownLanes in
            for lane in ownLanes {
                var labCache = LabCache()
                var witnesses: [Int] = []
                for index in stride(from: lane, to: displacements.count, by: lanes) {
                    let (dx, dy) = displacements[index]
                    guard !explained.isRaised else { return }
                    if window.unexplained(
                        dx: dx, dy: dy, stepsPerPixel: stepsPerPixel, noiseDeltaE: rule.noiseDeltaE, atMost: enough, labCache: &labCache, witnesses: &witnesses) < enough
                    {
                        explained.raise()
                        return
                    }
                }
            }
        }
        return explained.isRaised
    }

    /// Displacement steps per pixel: half pixels. A displacement between whole pixels is
    /// judged against the two pixels it lies between, whatever its fraction, so a finer step
    /// tries the same tests again (quarter pixels tried 81 displacements at the default radius,
    /// which fall into these 25).
    static let stepsPerPixel = 2
    /// How far around the cluster's box a displacement is judged: the cluster link, as a moved
    /// glyph's edge can lie that far from the pixels that differ.
    static let margin = StructuralComparison.linkDistance

    /// Whether the rows of `box` hold, further than half a box height to either side of it,
    /// some edges the two images draw the same, and at least half as many as the reference has
    /// nearer: text or marks beside the changed one, not the rest of a glyph partly changed.
    /// They are looked for across the whole row: a mark in a cell, a badge or a dot often has
    /// nothing beside it but ground, and the text in the next cell or column, drawn the same,
    /// shows as well that the renderer did not change. The edges are those of ``ReferenceEdges``.
    static func hasUnchangedNeighbours(_ box: PixelRect, in edges: inout ReferenceEdges) -> Bool {
        let height = box.maxY - box.minY + 1
        let inside = (box.minX - height / 2)...(box.maxX + height / 2)
        let counts = edges.counts(rows: box.minY...box.maxY) { x, _ in inside.contains(x) }
        return counts.unchangedElsewhere > 0 && 2 * counts.unchangedElsewhere >= counts.own
    }

    /// Whether the page off the rows `line` (and a line's height above and below it) holds edges
    /// the two images draw the same, at least half as many as the line has, and at least half of
    /// its edges there: when several places on the line differ beyond any displacement (a word
    /// changed and the words after it set again further along), the text beside them on the line
    /// shows nothing, and the other lines of the page show that the renderer did not change. A
    /// label alone in its image, every glyph of it drawn by another renderer, has no such lines,
    /// and a page another renderer drew has them redrawn.
    static func hasUnchangedLinesAround(_ line: ClosedRange<Int>, in edges: inout ReferenceEdges) -> Bool {
        let band = (line.lowerBound - line.count)...(line.upperBound + line.count)
        let counts = edges.counts(rows: 0...Int.max) { _, y in band.contains(y) }
        return counts.unchangedElsewhere > 0 && 2 * counts.unchangedElsewhere >= counts.own
            && 2 * counts.unchangedElsewhere >= counts.elsewhere
    }
}

/// The reference's edges, found a row at a time when first asked for and kept: an edge is a
/// pixel whose right-hand neighbour differs from it by the rule's strong contrast, and it is
/// drawn the same when the actual image's pixel is within the noise threshold of it. Several
/// places on the same rows ask for the same rows.
struct ReferenceEdges {
    typealias Edge = (x: Int, unchanged: Bool)
    private let reference: RGBAImage
    private let actual: RGBAImage
    private let rule: StructuralRule
    private let bands: Int
    /// Per row, once found: each edge's column, and whether the actual image draws it the same.
    private var rows: [[Edge]?]

    /// `bands` as ``ComparisonOptions/bands``: 1 finds rows on the calling thread, otherwise the
    /// rows a count asks for and has not found are found on all cores.
    init(_ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, bands: Int = 0) {
        (self.reference, self.actual, self.rule, self.bands) = (reference, actual, rule, bands)
        rows = [[Edge]?](repeating: nil, count: reference.height)
    }

    /// The edges on `rows` (within the image): how many lie where `isOwn` holds, how many
    /// elsewhere, and how many of those the actual image draws the same.
    mutating func counts(rows: ClosedRange<Int>, isOwn: (Int, Int) -> Bool) -> (own: Int, elsewhere: Int, unchangedElsewhere: Int) {
        let (top, bottom) = (max(rows.lowerBound, 0), min(rows.upperBound, reference.height - 1))
        guard top <= bottom else { return (0, 0, 0) }
        find(rows: top...bottom)
        var own = 0, elsewhere = 0, unchanged = 0
        for y in top...bottom {
            for edge in self.rows[y] ?? [] {
                if isOwn(edge.x, y) {
                    own += 1
                } else {
                    elsewhere += 1
                    if edge.unchanged { unchanged += 1 }
                }
            }
        }
        return (own, elsewhere, unchanged)
    }

    /// Finds those of `rows` (within the image) not found yet, at once, in bands of about four
    /// rows (at most eight).
    mutating func find(rows wanted: some Sequence<Int>) {
        let missing = Set(wanted).filter { rows.indices.contains($0) && rows[$0] == nil }.sorted()
        guard !missing.isEmpty else { return }
        let bands = bands == 1 ? 1 : max(1, min(8, missing.count / 4))
        let (reference, actual, rule) = (reference, actual, rule)
        let found = RowBands.map(height: missing.count, bands: bands) { _, indices in
            var labCache = LabCache()
            return indices.map { Self.edges(onRow: missing[$0], reference, actual, rule: rule, labCache: &labCache) }
        }
        for (y, edges) in zip(missing, found.joined()) { rows[y] = edges }
    }

    private static func edges(
        onRow y: Int, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, labCache: inout LabCache
    ) -> [Edge] {
        let width = reference.width
        var found: [Edge] = []
        if width >= 2, actual.width == width, actual.height == reference.height {
            reference.pixels.withUnsafeBufferPointer { a in
                actual.pixels.withUnsafeBufferPointer { b in
                    guard let a = a.baseAddress, let b = b.baseAddress else { return }
                    for x in 0...(width - 2) {
                        let index = y * width + x, offset = index * 4
                        guard PixelDelta.word(a, index) != PixelDelta.word(a, index + 1) else { continue }
                        let colour = PixelDelta.rgbOverWhite(a, offset)
                        guard !labCache.cie94(colour, PixelDelta.rgbOverWhite(a, offset + 4), isBelow: rule.strongDeltaE) else { continue }
                        found.append((x, labCache.cie94(colour, PixelDelta.rgbOverWhite(b, offset), isBelow: rule.noiseDeltaE)))
                    }
                }
            }
        }
        return found
    }
}

/// A flag that lanes searching at once raise when one of them finds what they look for, and
/// read between their steps.
private final class SearchFlag: @unchecked Sendable {
    private let queue = DispatchQueue(label: "imgdiff.search-flag")
    private var raised = false

    var isRaised: Bool { queue.sync { raised } }

    func raise() { queue.sync { raised = true } }
}

/// Both images' colours (over white) around a box, with a padding beyond it, to test
/// displacements of one against the other.
private struct DisplacementWindow {
    typealias Colour = (r: UInt8, g: UInt8, b: UInt8)
    var width: Int
    var height: Int
    var padding: Int
    /// `width + 2·padding` by `height + 2·padding`, the image's edge pixels repeated beyond it.
    var reference: [Colour]
    var actual: [Colour]

    init(around box: PixelRect, margin: Int, padding: Int, _ referenceImage: RGBAImage, _ actualImage: RGBAImage) {
        let columns = max(0, box.minX - margin)...min(referenceImage.width - 1, box.maxX + margin)
        let rows = max(0, box.minY - margin)...min(referenceImage.height - 1, box.maxY + margin)
        (width, height, self.padding) = (columns.count, rows.count, padding)
        let imageWidth = referenceImage.width, imageHeight = referenceImage.height
        func colours(_ image: RGBAImage) -> [Colour] {
            image.pixels.withUnsafeBufferPointer { pixels in
                guard let pixels = pixels.baseAddress else { return [] }
                var colours: [Colour] = []
                colours.reserveCapacity((columns.count + 2 * padding) * (rows.count + 2 * padding))
                for y in (rows.lowerBound - padding)...(rows.upperBound + padding) {
                    for x in (columns.lowerBound - padding)...(columns.upperBound + padding) {
                        let (x, y) = (min(max(x, 0), imageWidth - 1), min(max(y, 0), imageHeight - 1))
                        colours.append(PixelDelta.rgbOverWhite(pixels, (y * imageWidth + x) * 4))
                    }
                }
                return colours
            }
        }
        (reference, actual) = (colours(referenceImage), colours(actualImage))
    }

    /// How many pixels of the box (and margin) the displacement of the actual image by (`dx`,
    /// `dy`) steps of 1/`stepsPerPixel` pixel leaves unexplained, counting no further than
    /// `atMost`: a pixel is explained when the actual pixel lies within `noiseDeltaE` of the
    /// reference's colours at the one to four pixels it came from, and the reference pixel
    /// within it of the actual's where it went. `witnesses` (window positions, ascending) are tested first: the pixels the
    /// last displacement left unexplained, which a nearby one mostly leaves so too, so that a
    /// displacement that does not explain is told quickly. They are replaced by the ones this
    /// displacement leaves; the count is the same in any order.
    func unexplained(dx: Int, dy: Int, stepsPerPixel steps: Int, noiseDeltaE: Double, atMost: Int, labCache: inout LabCache, witnesses: inout [Int]) -> Int {
        /// The one or two pixels, along one axis, at which a point `offset` steps away lies.
        func between(_ offset: Int) -> ClosedRange<Int> {
            let whole = offset >= 0 ? offset / steps : -((-offset + steps - 1) / steps)
            return offset % steps == 0 ? whole...whole : whole...(whole + 1)
        }
        let (fromColumns, fromRows) = (between(-dx), between(-dy))
        let (toColumns, toRows) = (between(dx), between(dy))
        let paddedWidth = width + 2 * padding
        func isBlend(_ colour: Colour, of image: [Colour], _ x: Int, _ y: Int, _ columns: ClosedRange<Int>, _ rows: ClosedRange<Int>) -> Bool {
            var low: Colour = (255, 255, 255), high: Colour = (0, 0, 0)
            for row in rows {
                for column in columns {
                    let c = image[(y + padding + row) * paddedWidth + x + padding + column]
                    low = (min(low.r, c.r), min(low.g, c.g), min(low.b, c.b))
                    high = (max(high.r, c.r), max(high.g, c.g), max(high.b, c.b))
                }
            }
            return StructuralComparison.isBlend(colour, low: low, high: high, noiseDeltaE: noiseDeltaE, labCache: &labCache)
        }
        func isExplained(_ position: Int) -> Bool {
            let (x, y) = (position % width, position / width)
            let index = (y + padding) * paddedWidth + x + padding
            return isBlend(actual[index], of: reference, x, y, fromColumns, fromRows)
                && isBlend(reference[index], of: actual, x, y, toColumns, toRows)
        }
        var left: [Int] = []
        for position in witnesses where !isExplained(position) {
            left.append(position)
            if left.count >= atMost { break }
        }
        if left.count < atMost {
            var nextWitness = 0
            for position in 0..<(width * height) {
                if nextWitness < witnesses.count, witnesses[nextWitness] == position {
                    nextWitness += 1
                    continue
                }
                guard !isExplained(position) else { continue }
                left.append(position)
                if left.count >= atMost { break }
            }
        }
        witnesses = left.sorted()
        return left.count
    }
}
