/// A line drawn a pixel thicker or thinner: a border, a rule or an underline one to
/// ``thickestLine`` pixels thick that grew or shrank along one edge while its other edge
/// stayed where it was (`border-bottom: 1px` made `2px`).
///
/// Each pixel of such a change holds, in one image, the colour of the line beside it, so a
/// shift of one pixel explains it pixel by pixel, and so does a blend of its neighbours. But
/// render noise that moves a line's edge moves the line: a sub-pixel or whole-pixel shift
/// changes both its edges, and hinting snaps glyph stems far shorter than a border. So a row
/// (or a column) of at least the rule's `minimumClusterPixels` differing pixels fails the pair
/// when every one of them lies between an unchanged line and unchanged ground, with the colour
/// of the ground in one image and of the line in the other, and the line, at most
/// ``thickestLine`` thick, has unchanged ground of the same colour beyond it, or runs to the
/// image's edge (an element snapshot cropped to its border box). Thicker, it is a
/// fill whose edge moved (a box a pixel taller), which text set again by other metrics also
/// does; between grounds of two colours, it may be the gap between two elements, one of which
/// moved; and the ground beside the pixel must not change within ``thickestLine`` either, where
/// the far edge of a thin element that moved would lie.
enum LineWidthChange {
    /// The thickest ink taken for a line rather than a fill.
    static let thickestLine = 3

    /// Which way a pixel of a changed line went: the line grew over it or shrank off it, and on
    /// which side of it the line lies (+1: the next row or column, -1: the one before).
    private struct Edge: Equatable {
        var grew: Bool
        var side: Int
    }

    /// A run of pixels along a row (`step` 1) or a column (`step` the width), from `start`.
    private struct Run {
        var start: Int
        var count: Int
        var step: Int
        var edge: Edge
    }

    /// The lines of `candidates` (the pixels beyond the noise threshold, before anything
    /// explains them) that grew or shrank by a pixel, each as a failing cluster with its pixels
    /// (row-major).
    static func find(
        in candidates: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule
    ) -> [(cluster: DifferenceCluster, pixels: [Int])] {
        let (width, height) = (candidates.width, candidates.height)
        let shortest = max(rule.minimumClusterPixels, 1)
        guard width >= 3, height >= 3, width >= shortest || height >= shortest else { return [] }
        var labCache = LabCache()
        var found: [Run] = []
        candidates.withUnsafeBytes { bits in
            reference.pixels.withUnsafeBufferPointer { a in
                actual.pixels.withUnsafeBufferPointer { b in
                    guard let bits = bits.baseAddress, let a = a.baseAddress, let b = b.baseAddress else { return }
                    let images = Images(bits: bits, reference: a, actual: b, width: width, height: height, rule: rule)
                    // Only a stretch of at least `shortest` differing pixels along a row or a
                    // column, none of which differs across the line from it, can hold a run that
                    // long: the mask alone finds the stretches, and only their pixels are judged.
                    func judge(from start: Int, count: Int, alongRow: Bool) {
                        guard count >= shortest else { return }
                        let step = alongRow ? 1 : width
                        var run: Run?
                        for offset in 0..<count {
                            let index = start + offset * step
                            let edge = alongRow
                                ? images.edge(at: index, position: index / width, extent: height, across: width, &labCache)
                                : images.edge(at: index, position: index % width, extent: width, across: 1, &labCache)
                            if let edge, run?.edge == edge {
                                run?.count += 1
                            } else {
                                if let run, run.count >= shortest { found.append(run) }
                                run = edge.map { Run(start: index, count: 1, step: step, edge: $0) }
                            }
                        }
                        if let run, run.count >= shortest { found.append(run) }
                    }
                    let columnStart = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
                    let columnEnd = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
                    defer {
                        columnStart.deallocate()
                        columnEnd.deallocate()
                    }
                    columnStart.initialize(repeating: 0)
                    columnEnd.initialize(repeating: -2)
                    for y in 0..<height {
                        let row = bits + y * width
                        let inner = y > 0 && y < height - 1
                        var rowStart = -1, rowEnd = -2
                        DifferenceMask.forEachMarked(inRow: row, width: width) { x in
                            if inner, row[x - width] == 0, row[x + width] == 0 {
                                if x != rowEnd + 1 {
                                    judge(from: y * width + rowStart, count: rowEnd - rowStart + 1, alongRow: true)
                                    rowStart = x
                                }
                                rowEnd = x
                            }
                            if x > 0, x < width - 1, row[x - 1] == 0, row[x + 1] == 0 {
                                if columnEnd[x] != y - 1 {
                                    judge(from: columnStart[x] * width + x, count: columnEnd[x] - columnStart[x] + 1, alongRow: false)
                                    columnStart[x] = y
                                }
                                columnEnd[x] = y
                            }
                        }
                        judge(from: y * width + rowStart, count: rowEnd - rowStart + 1, alongRow: true)
                    }
                    for x in 0..<width {
                        judge(from: columnStart[x] * width + x, count: columnEnd[x] - columnStart[x] + 1, alongRow: false)
                    }
                }
            }
        }
        // A pixel alone (a rule of one-pixel clusters) is a run along its row and its column.
        var single = Set<Int>()
        return found.sorted { ($0.start, $0.step) < ($1.start, $1.step) }
            .filter { $0.count > 1 || single.insert($0.start).inserted }
            .map { cluster(of: $0, reference, actual, width: width, labCache: &labCache) }
    }

    /// The pixels and colours that ``find(in:_:_:rule:)`` reads.
    private struct Images {
        let bits: UnsafePointer<UInt8>
        let reference: UnsafePointer<UInt8>
        let actual: UnsafePointer<UInt8>
        let width: Int
        let height: Int
        let rule: StructuralRule

        func differs(_ index: Int) -> Bool { bits[index] != 0 }

        func close(_ image: UnsafePointer<UInt8>, _ first: Int, _ second: Int, _ labCache: inout LabCache) -> Bool {
            LineWidthChange.deltaE(image, first, image, second, &labCache) <= rule.noiseDeltaE
        }

        /// How the line beside the differing pixel `index` changed across it, `across` apart
        /// in the index (the width for the rows above and below, 1 for the columns beside);
        /// `position` is the pixel's row or column, of `extent`. Nil when it is no edge of a
        /// line that grew or shrank.
        func edge(at index: Int, position: Int, extent: Int, across: Int, _ labCache: inout LabCache) -> Edge? {
            for side in [1, -1] {
                let line = index + side * across, ground = index - side * across
                guard (0..<extent).contains(position + side), (0..<extent).contains(position - side),
                    !differs(line), !differs(ground)
                else { continue }
                let grew = close(actual, index, line, &labCache) && close(reference, index, ground, &labCache)
                guard grew || close(reference, index, line, &labCache) && close(actual, index, ground, &labCache),
                    contrast(line, ground, &labCache),
                    let beyond = groundBeyond(line: line, position: position + side, side: side, extent: extent, across: across, &labCache),
                    beyond.map({ close(reference, $0, ground, &labCache) }) ?? true,
                    groundStays(ground, position: position - side, side: -side, extent: extent, across: across, &labCache)
                else { continue }
                return Edge(grew: grew, side: side)
            }
            return nil
        }

        /// Where the unchanged line from `line` on (towards `side`) ends, within
        /// ``LineWidthChange/thickestLine`` pixels: at a pixel that did not change either and
        /// stands apart from the line by the rule's line contrast (a line, not a step of a
        /// gradient or a soft shadow), or at the image's own edge (`.some(nil)`: the border of an
        /// element snapshot cropped to its border box, one colour up to the edge). Nil when it
        /// ends neither way.
        func groundBeyond(line: Int, position: Int, side: Int, extent: Int, across: Int, _ labCache: inout LabCache) -> Int?? {
            for step in 1...LineWidthChange.thickestLine {
                guard (0..<extent).contains(position + step * side) else { return .some(nil) }
                let index = line + step * side * across
                if differs(index) { return nil }
                if !close(reference, line, index, &labCache) {
                    guard contrast(line, index, &labCache) else { return nil }
                    return index
                }
            }
            return nil
        }

        /// Whether the ground from `ground` on (towards `side`) did not change for
        /// ``LineWidthChange/thickestLine`` pixels, or up to where it ends or the image does:
        /// the far edge of an element that moved (a line two pixels thick moved one, beside a
        /// line that stayed) lies within that band and changed.
        func groundStays(_ ground: Int, position: Int, side: Int, extent: Int, across: Int, _ labCache: inout LabCache) -> Bool {
            for step in 1...LineWidthChange.thickestLine {
                guard (0..<extent).contains(position + step * side) else { return true }
                let index = ground + step * side * across
                if differs(index) { return false }
                if !close(reference, ground, index, &labCache) { return true }
            }
            return true
        }

        /// Whether the reference's pixels `first` and `second` differ by the rule's line contrast.
        func contrast(_ first: Int, _ second: Int, _ labCache: inout LabCache) -> Bool {
            LineWidthChange.deltaE(reference, first, reference, second, &labCache) >= rule.lineDeltaE
        }
    }

    /// CIE94 ΔE from pixel `first` of `image` to pixel `second` of `other`, each over white.
    private static func deltaE(
        _ image: UnsafePointer<UInt8>, _ first: Int, _ other: UnsafePointer<UInt8>, _ second: Int, _ labCache: inout LabCache
    ) -> Double {
        labCache.cie94(PixelDelta.rgbOverWhite(image, first * 4), PixelDelta.rgbOverWhite(other, second * 4))
    }

    private static func cluster(
        of run: Run, _ reference: RGBAImage, _ actual: RGBAImage, width: Int, labCache: inout LabCache
    ) -> (cluster: DifferenceCluster, pixels: [Int]) {
        let pixels = (0..<run.count).map { run.start + $0 * run.step }
        var maxDeltaE = 0.0
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for index in pixels { maxDeltaE = max(maxDeltaE, deltaE(a, index, b, index, &labCache)) }
            }
        }
        let first = run.start, last = run.start + (run.count - 1) * run.step
        let box = PixelRect(minX: first % width, minY: first / width, maxX: last % width, maxY: last / width)
        return (DifferenceCluster(pixels: run.count, boundingBox: box, maxDeltaE: maxDeltaE, fails: true, lineWidthChanged: true), pixels)
    }
}
