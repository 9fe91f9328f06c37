/// Text laid out again with other glyph advances, as the structural mode recognises and
/// explains it: another font-hinting setting.
///
/// Full or medium hinting snaps each glyph's stems and rounds its advance, so glyphs change
/// shape and width. The widths add up along a line: words move sideways by a few pixels, and
/// the borders of cells and buttons sized by their text move with them. Such a word is the same
/// ink drawn a little differently somewhere nearby: moved by (dx, dy), at most ``largestMove``
/// along the line and ``largestRise`` across it, the colours around the cluster, blurred over
/// 3 × 3 so that a snapped stem and a smooth one hold the same ink, differ by at most
/// ``largestRemainder`` of what they differ unmoved. Of the cluster, the pixels the move
/// brings close (within half their difference unmoved, or to a mean of 6 levels a channel;
/// the move may be off by one pixel for a single glyph) are explained, provided they are at
/// least half of it; the rest stay, so a border removed beside a moved one still fails.
///
/// Advances add up along a line, so each glyph moves between the moves of the words beside it.
/// On a page that carries the signature (below), a cluster no move explains alone is explained
/// when it moved as its line did: within a pixel of the nearest redrawn word on each side, when
/// those two agree within a pixel. That covers a glyph drawn pixel for pixel the same further
/// along a line (full hinting snaps glyphs to whole pixels; the text before it moved too), one
/// reshaped beyond a fit whose paper stayed (the pixels its own move brings close, at least
/// half of it), and one a move fits whose stem split its ink over two columns (whole, when its
/// ink changed by at most ``largestInkChange``). A changed word makes the text after it jump, so
/// the words on either side of it disagree; a glyph cut in two by a block moved over it has two
/// moves, which no single move brings close. A word a move fits is held to its line too: when
/// the words beside it agree, it must have moved within a pixel of them (within
/// ``oneSidedDrift`` of its one neighbour at a line's end), else a removed letter, which the
/// search matches with another glyph up to 8 px away, would pass as text set again.
///
/// The model holds only in a pair that carries the signature: clusters explained so on at
/// least ``minimumLines`` separate lines. One element moved, respaced or recoloured changes
/// one or two lines; a hinting change moves text all over the page. Where the other models
/// explained most of each reshaped glyph, what is left of a line may be a fragment too small to
/// fail: one at least half that size that a move fits as a word redrawn (the same test) counts
/// its line too. A drawing that moved
/// unchanged, pixel for pixel (a margin or padding changed, a block shifted), is a change of
/// layout and is never explained, unless it is a rule or border at most three pixels thick:
/// those are drawn the same wherever they land, and move with the cells beside them. A word
/// changed, an icon removed, a rule taken away matches nothing nearby, so each still fails
/// under another hinting. What the model gives up: on a page whose text was set again, an
/// element moved by a few pixels and drawn anew with it cannot be told from the rest.
struct TextReflow {
    /// The farthest a word moves along its line, in pixels.
    static let largestMove = 8
    /// The farthest it moves across the line (another rounding of the baseline).
    static let largestRise = 1
    /// How far around a cluster its surroundings are compared: the glyph edges beside it.
    static let margin = (x: 2, y: 1)
    /// The most of its unmoved difference a cluster may keep when moved.
    static let largestRemainder = 0.6
    /// The least share of a cluster's pixels a move must explain.
    static let leastExplained = 0.5
    static let minimumLines = 3
    /// The most a cluster's ink may change (``inkChange(around:moved:_:_:width:height:)``)
    /// for a move that fits it to explain it whole, where too few of its pixels come close one
    /// by one: a stem that moved and split its ink over two columns otherwise.
    static let largestInkChange = 0.05
    /// How far a word may have drifted from the nearest redrawn word on its line when that is the
    /// only one beside it: half a pixel of advance rounding a glyph, over a short word of six.
    static let oneSidedDrift = 3
    /// Paper (flat colour) within this many levels per channel kept its colour.
    static let paperLevels = 2
    /// Differences of at most this many levels per channel make a drawing the same, moved.
    static let sameLevels = 8
    /// A cluster larger than this is no word, and a pair with one is not searched (it fails
    /// anyway); nor is a pair whose clusters' windows add up to more than
    /// ``largestSearchedArea``: together they bound the work on a large pair.
    static let largestCluster = 4096
    static let largestSearchedArea = 100_000

    /// What a move does for one cluster.
    enum Fit: Equatable {
        /// No move brings it close.
        case none
        /// The same drawing, pixel for pixel, moved: a layout change.
        case same
        /// The same ink, drawn again, moved.
        case redrawn
    }

    /// The pixels of `members` (each cluster's, beside it in `clusters`) that moves explain, or
    /// nil when the pair does not carry the signature. Clusters smaller than `smallestFailing`
    /// are left alone.
    static func explained(
        clusters: [DifferenceCluster], members: StructuralComparison.ClusterMembers, _ reference: RGBAImage, _ actual: RGBAImage,
        smallestFailing: Int
    ) -> [Int]? {
        let (width, height) = (reference.width, reference.height)
        var searched: [(pixels: [Int], box: PixelRect)] = []
        var area = 0
        for (index, cluster) in clusters.enumerated() where cluster.pixels >= smallestFailing {
            // A cluster larger than a word fails the pair whatever the text did.
            guard cluster.pixels <= largestCluster else { return nil }
            let box = cluster.boundingBox
            let window = (box.width + 2 * margin.x) * (box.height + 2 * margin.y)
            area += window
            guard area <= largestSearchedArea else { return nil }
            searched.append((members[index], box))
        }
        guard !searched.isEmpty else { return nil }
        var redrawn: [RedrawnWord] = [], unfitted: [UnfittedCluster] = [], rules: [Int] = []
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for (pixels, box) in searched {
                    let padded = paddedBox(box, width: width, height: height)
                    let region = Region(around: padded, width: width, height: height, a, b)
                    let (fit, move) = region.fit(over: padded)
                    switch fit {
                    case .redrawn:
                        let explained = pixels.filter { region.bringsClose($0 % width, $0 / width, move) }
                        if Double(explained.count) >= leastExplained * Double(pixels.count) {
                            redrawn.append(RedrawnWord(pixels: explained, box: box, move: move))
                            continue
                        }
                    case .same where min(box.width, box.height) <= 3:
                        rules += pixels
                        continue
                    default:
                        break
                    }
                    unfitted.append(UnfittedCluster(
                        fit: fit, pixels: pixels, box: box, move: move,
                        broughtClose: pixels.filter { region.bringsClose($0 % width, $0 / width, move, slack: 0) },
                        keepsPaper: region.keepsPaper(padded, moved: move),
                        inkChange: inkChange(around: box, moved: move, a, b, width: width, height: height)))
                }
            }
        }
        var wordLines = redrawn.map { $0.box.minY...$0.box.maxY }
        if lines(of: wordLines) < minimumLines {
            wordLines += fragmentLines(clusters: clusters, members: members, reference, actual, smallestFailing: smallestFailing)
        }
        guard lines(of: wordLines) >= minimumLines else { return nil }
        let alongTheirLines = redrawn.indices.filter { word in
            let others = redrawn.indices.filter { $0 != word }.map { redrawn[$0] }
            return movesWithItsLine(redrawn[word].box, move: redrawn[word].move.dx, among: others, oneSided: oneSidedDrift, unjudged: true)
        }.map { redrawn[$0] }
        return alongTheirLines.flatMap(\.pixels) + rules + movedWithTheirLines(unfitted, among: redrawn)
    }

    /// The rows of the clusters too small to fail, but at least half that size, that a move fits
    /// as a word redrawn (the test of ``explained(clusters:members:_:_:smallestFailing:)``):
    /// what other hinting leaves of a line where the other models explained most of each
    /// reshaped glyph. Searched up to ``largestSearchedArea`` of windows.
    static func fragmentLines(
        clusters: [DifferenceCluster], members: StructuralComparison.ClusterMembers, _ reference: RGBAImage, _ actual: RGBAImage,
        smallestFailing: Int
    ) -> [ClosedRange<Int>] {
        let (width, height) = (reference.width, reference.height)
        var found: [ClosedRange<Int>] = []
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                var budget = largestSearchedArea
                for (index, cluster) in clusters.enumerated()
                where cluster.pixels < smallestFailing && 2 * cluster.pixels >= smallestFailing {
                    let padded = paddedBox(cluster.boundingBox, width: width, height: height)
                    budget -= padded.width * padded.height
                    guard budget >= 0 else { break }
                    let region = Region(around: padded, width: width, height: height, a, b)
                    guard case (.redrawn, let move) = region.fit(over: padded) else { continue }
                    let pixels = members[index]
                    let broughtClose = pixels.count { region.bringsClose($0 % width, $0 / width, move) }
                    if Double(broughtClose) >= leastExplained * Double(pixels.count) {
                        found.append(cluster.boundingBox.minY...cluster.boundingBox.maxY)
                    }
                }
            }
        }
        return found
    }

    /// `box` widened by ``margin`` within the image: the glyph edges beside a cluster.
    static func paddedBox(_ box: PixelRect, width: Int, height: Int) -> PixelRect {
        PixelRect(
            minX: max(0, box.minX - margin.x), minY: max(0, box.minY - margin.y),
            maxX: min(width - 1, box.maxX + margin.x), maxY: min(height - 1, box.maxY + margin.y))
    }

    /// Whether a cluster at `box` that moved `move` along its line moved as the line did: within
    /// a pixel of the nearest of `words` on each side of it on its line, those two agreeing within
    /// a pixel, or within `oneSided` pixels of the nearest word on the one side that has one. With
    /// no word on its line, or words on either side that disagree, the line does not say, and the
    /// answer is `unjudged`.
    static func movesWithItsLine(_ box: PixelRect, move: Int, among words: [RedrawnWord], oneSided: Int, unjudged: Bool) -> Bool {
        let (before, after) = neighbours(of: box, among: words)
        let moves = [before, after].compactMap { $0?.move.dx }
        guard let least = moves.min(), let most = moves.max(), most - least <= 1 else { return unjudged }
        let slack = moves.count == 2 ? 1 : oneSided
        return (least - slack...most + slack).contains(move)
    }

    /// The nearest of `words` on the line of `box`, one on each side of it (by their centres).
    static func neighbours(of box: PixelRect, among words: [RedrawnWord]) -> (before: RedrawnWord?, after: RedrawnWord?) {
        let onLine = words.filter { $0.box.minY <= box.maxY && box.minY <= $0.box.maxY }
        let centre = box.minX + box.maxX
        return (
            onLine.filter { $0.box.minX + $0.box.maxX < centre }.max { $0.box.maxX < $1.box.maxX },
            onLine.filter { $0.box.minX + $0.box.maxX >= centre }.min { $0.box.minX < $1.box.minX }
        )
    }

    /// A cluster a move explains: a word drawn again, moved.
    struct RedrawnWord {
        /// The pixels the move brings close.
        var pixels: [Int]
        var box: PixelRect
        var move: (dx: Int, dy: Int)
    }

    /// A cluster no move explains alone, which its line set again around it may.
    struct UnfittedCluster {
        var fit: Fit
        var pixels: [Int]
        var box: PixelRect
        /// The move that brings it closest.
        var move: (dx: Int, dy: Int)
        /// The pixels that move itself brings close (no pixel of slack).
        var broughtClose: [Int]
        /// Whether the paper around it stayed under the move (``Region/keepsPaper(_:moved:)``).
        var keepsPaper: Bool
        /// ``TextReflow/inkChange(around:moved:_:_:width:height:)`` under the move.
        var inkChange: Double
    }

    /// The pixels of the `unfitted` clusters that moved as their lines did, among the `redrawn`
    /// words (see the type's documentation): within a pixel of the nearest word on each side of
    /// the cluster on its line, those two agreeing within a pixel.
    static func movedWithTheirLines(_ unfitted: [UnfittedCluster], among redrawn: [RedrawnWord]) -> [Int] {
        var explained: [Int] = []
        for cluster in unfitted {
            let before = neighbours(of: cluster.box, among: redrawn).before != nil
            guard movesWithItsLine(cluster.box, move: cluster.move.dx, among: redrawn, oneSided: 1, unjudged: false) else { continue }
            switch cluster.fit {
            case .same where before:
                explained += cluster.pixels
            case .none where cluster.keepsPaper && Double(cluster.broughtClose.count) >= leastExplained * Double(cluster.pixels.count):
                explained += cluster.broughtClose
            case .redrawn where cluster.inkChange <= largestInkChange:
                explained += cluster.pixels
            default:
                continue
            }
        }
        return explained
    }

    /// How much the ink around `box` changed when drawn again `move` away: the difference of
    /// the two images' ink (each channel's distance from white, summed over the box widened by
    /// two columns and one row each side, the new image's window moved), as a share of the
    /// larger; infinite when the moved window leaves the image.
    static func inkChange(
        around box: PixelRect, moved move: (dx: Int, dy: Int), _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, height: Int
    ) -> Double {
        let columns = max(0, box.minX - 2)...min(width - 1, box.maxX + 2), rows = max(0, box.minY - 1)...min(height - 1, box.maxY + 1)
        guard columns.lowerBound + move.dx >= 0, columns.upperBound + move.dx < width,
            rows.lowerBound + move.dy >= 0, rows.upperBound + move.dy < height
        else { return .infinity }
        var (before, after) = (0, 0)
        for y in rows {
            for x in columns {
                let p = PixelDelta.rgbOverWhite(a, (y * width + x) * 4)
                let q = PixelDelta.rgbOverWhite(b, ((y + move.dy) * width + x + move.dx) * 4)
                before += 765 - Int(p.r) - Int(p.g) - Int(p.b)
                after += 765 - Int(q.r) - Int(q.g) - Int(q.b)
            }
        }
        return Double(abs(before - after)) / Double(max(before, after, 1))
    }

    /// Whether the new image `b`, moved by `move`, holds the reference `a`'s drawing over `box`:
    /// at least 97 % of its pixels within ``sameLevels`` in every channel. `box` moved must lie
    /// within the images, `width` pixels wide.
    static func holdsSameDrawing(
        _ box: PixelRect, moved move: (dx: Int, dy: Int), _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int
    ) -> Bool {
        let area = box.width * box.height
        // The most pixels that may differ: 100 · same ≥ 97 · area.
        let allowed = area - (97 * area + 99) / 100
        var differing = 0
        for y in box.minY...box.maxY {
            for x in box.minX...box.maxX {
                let (i, j) = ((y * width + x) * 4, ((y + move.dy) * width + x + move.dx) * 4)
                if !isWithin(sameLevels, PixelDelta.rgbOverWhite(a, i), PixelDelta.rgbOverWhite(b, j)) {
                    differing += 1
                    if differing > allowed { return false }
                }
            }
        }
        return true
    }

    /// Whether every channel of `p` lies within `levels` of `q`'s.
    static func isWithin(_ levels: Int, _ p: (r: UInt8, g: UInt8, b: UInt8), _ q: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
        abs(Int(p.r) - Int(q.r)) <= levels && abs(Int(p.g) - Int(q.g)) <= levels && abs(Int(p.b) - Int(q.b)) <= levels
    }

    /// How many separate lines `rows` make: ranges that overlap are one line.
    static func lines(of rows: [ClosedRange<Int>]) -> Int {
        var count = 0, end = Int.min
        for range in rows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > end { count += 1 }
            end = max(end, range.upperBound)
        }
        return count
    }

    /// Both images around one cluster, far enough for every move, with each channel (over
    /// white) summed over 3 × 3.
    struct Region {
        let origin: (x: Int, y: Int)
        let size: (width: Int, height: Int)
        let imageSize: (width: Int, height: Int)
        let a: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>
        var blurredA: [Int32], blurredB: [Int32]

        init(around box: PixelRect, width: Int, height: Int, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) {
            let reach = (x: TextReflow.largestMove + 1, y: TextReflow.largestRise + 1)  // one more: bringsClose tries moves one pixel off
            let (left, top) = (max(0, box.minX - reach.x), max(0, box.minY - reach.y))
            let (right, bottom) = (min(width - 1, box.maxX + reach.x), min(height - 1, box.maxY + reach.y))
            origin = (left, top)
            size = (right - left + 1, bottom - top + 1)
            imageSize = (width, height)
            (self.a, self.b) = (a, b)
            blurredA = Self.blurred(a, origin: origin, size: size, imageSize: imageSize)
            blurredB = Self.blurred(b, origin: origin, size: size, imageSize: imageSize)
        }

        static func blurred(
            _ image: UnsafePointer<UInt8>, origin: (x: Int, y: Int), size: (width: Int, height: Int),
            imageSize: (width: Int, height: Int)
        ) -> [Int32] {
            // Sums along each row of the rows around the region, then down the columns.
            let firstRow = max(0, origin.y - 1), lastRow = min(imageSize.height - 1, origin.y + size.height)
            var across = [Int32](repeating: 0, count: (lastRow - firstRow + 1) * size.width * 3)
            for imageY in firstRow...lastRow {
                for x in 0..<size.width {
                    let imageX = origin.x + x
                    var sum = SIMD3<Int32>()
                    for nx in max(0, imageX - 1)...min(imageSize.width - 1, imageX + 1) {
                        let c = PixelDelta.rgbOverWhite(image, (imageY * imageSize.width + nx) * 4)
                        sum &+= SIMD3(Int32(c.r), Int32(c.g), Int32(c.b))
                    }
                    let k = 3 * ((imageY - firstRow) * size.width + x)
                    (across[k], across[k + 1], across[k + 2]) = (sum.x, sum.y, sum.z)
                }
            }
            var sums = [Int32](repeating: 0, count: size.width * size.height * 3)
            for y in 0..<size.height {
                let imageY = origin.y + y
                for ny in max(firstRow, imageY - 1)...min(lastRow, imageY + 1) {
                    let (from, to) = (3 * (ny - firstRow) * size.width, 3 * y * size.width)
                    for k in 0..<(3 * size.width) { sums[to + k] &+= across[from + k] }
                }
            }
            return sums
        }

        /// Whether (x, y) moved by `move` lies in the region.
        func contains(_ x: Int, _ y: Int) -> Bool {
            (origin.x..<(origin.x + size.width)).contains(x) && (origin.y..<(origin.y + size.height)).contains(y)
        }

        /// The blurred difference between the reference at (x, y) and the new image there moved.
        func difference(_ x: Int, _ y: Int, _ move: (dx: Int, dy: Int)) -> Int32? {
            guard contains(x, y), contains(x + move.dx, y + move.dy) else { return nil }
            let i = 3 * ((y - origin.y) * size.width + x - origin.x)
            let j = 3 * ((y + move.dy - origin.y) * size.width + x + move.dx - origin.x)
            return abs(blurredA[i] - blurredB[j]) + abs(blurredA[i + 1] - blurredB[j + 1]) + abs(blurredA[i + 2] - blurredB[j + 2])
        }

        /// The move that brings `box` closest, and what it does.
        func fit(over box: PixelRect) -> (Fit, (dx: Int, dy: Int)) {
            let (left, top) = (box.minX - origin.x, box.minY - origin.y)
            let (columns, rows) = (box.width, box.height)
            return blurredA.withUnsafeBufferPointer { a in
                blurredB.withUnsafeBufferPointer { b in
                    /// The summed difference over `box` moved, or nil once it exceeds `bound`.
                    func cost(_ move: (dx: Int, dy: Int), bound: Int) -> Int? {
                        var total = 0
                        for row in 0..<rows {
                            let i = 3 * ((top + row) * size.width + left)
                            let j = 3 * ((top + row + move.dy) * size.width + left + move.dx)
                            var rowTotal: Int32 = 0
                            for k in 0..<(3 * columns) {
                                let difference = a[i &+ k] &- b[j &+ k]
                                rowTotal &+= difference < 0 ? 0 &- difference : difference
                            }
                            total += Int(rowTotal)
                            if total > bound { return nil }
                        }
                        return total
                    }
                    guard let still = cost((0, 0), bound: .max), still > 0 else { return (.none, (0, 0)) }
                    var best = (move: (dx: 0, dy: 0), cost: still)
                    let horizontal = max(-TextReflow.largestMove, -left)...min(TextReflow.largestMove, size.width - left - columns)
                    let vertical = max(-TextReflow.largestRise, -top)...min(TextReflow.largestRise, size.height - top - rows)
                    for dy in vertical {
                        for dx in horizontal where (dx, dy) != (0, 0) {
                            if let total = cost((dx, dy), bound: best.cost - 1) { best = ((dx, dy), total) }
                        }
                    }
                    guard Double(best.cost) <= TextReflow.largestRemainder * Double(still), keepsPaper(box, moved: best.move)
                    else { return (.none, best.move) }
                    return (isSame(box, moved: best.move) ? .same : .redrawn, best.move)
                }
            }
        }

        /// Whether the paper around the text stayed: of the pixels of `box` whose 3 × 3
        /// neighbourhood is one colour in the reference and, moved, in the new image, nearly all
        /// keep their colour within ``TextReflow/paperLevels``. Other hinting redraws the ink
        /// only; a faint patch laid over the text moves the paper too.
        func keepsPaper(_ box: PixelRect, moved move: (dx: Int, dy: Int)) -> Bool {
            var (paper, kept) = (0, 0)
            for y in box.minY...box.maxY {
                for x in box.minX...box.maxX {
                    guard let flat = flatColours(x, y, move) else { continue }
                    paper += 1
                    if TextReflow.isWithin(TextReflow.paperLevels, flat.a, flat.b) { kept += 1 }
                }
            }
            return 10 * kept >= 9 * paper
        }

        /// The colours of the reference at (x, y) and of the new image there moved, when both
        /// fill their 3 × 3 neighbourhoods.
        func flatColours(_ x: Int, _ y: Int, _ move: (dx: Int, dy: Int)) -> (a: (r: UInt8, g: UInt8, b: UInt8), b: (r: UInt8, g: UInt8, b: UInt8))? {
            func flat(_ image: UnsafePointer<UInt8>, _ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8)? {
                guard x > 0, y > 0, x < imageSize.width - 1, y < imageSize.height - 1 else { return nil }
                let centre = PixelDelta.rgbOverWhite(image, (y * imageSize.width + x) * 4)
                for ny in (y - 1)...(y + 1) {
                    for nx in (x - 1)...(x + 1) where PixelDelta.rgbOverWhite(image, (ny * imageSize.width + nx) * 4) != centre {
                        return nil
                    }
                }
                return centre
            }
            guard let first = flat(a, x, y), let second = flat(b, x + move.dx, y + move.dy) else { return nil }
            return (first, second)
        }

        /// Whether every pixel of `box` but a few is, within ``TextReflow/sameLevels``, the
        /// new image's pixel moved.
        func isSame(_ box: PixelRect, moved move: (dx: Int, dy: Int)) -> Bool {
            TextReflow.holdsSameDrawing(box, moved: move, a, b, width: imageSize.width)
        }

        /// Whether `move`, or a move one pixel from it, brings the pixel's surroundings within
        /// half their unmoved difference, or to a mean of 6 levels a channel.
        func bringsClose(_ x: Int, _ y: Int, _ move: (dx: Int, dy: Int), slack: Int = 1) -> Bool {
            guard let still = difference(x, y, (0, 0)) else { return false }
            for dy in -slack...slack {
                for dx in -slack...slack {
                    guard let moved = difference(x, y, (move.dx + dx, move.dy + dy)) else { continue }
                    if 2 * moved <= still || moved <= 3 * 9 * 6 { return true }
                }
            }
            return false
        }
    }
}
