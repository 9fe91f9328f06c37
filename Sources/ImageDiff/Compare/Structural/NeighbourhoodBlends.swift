/// The neighbourhood tests of the structural mode: which candidate pixels a blend of the
/// colours around them explains (a shift, other hinting, other anti-aliasing), or a kept local
/// mean. ``isNeighbourhoodBlend`` and ``keepsLocalMean`` are the plain reference, pixel by
/// pixel; ``NeighbourhoodRows`` gives the same answers from ranges and sums made a row at a
/// time, where the neighbourhood is opaque.
extension StructuralComparison {
    /// `candidates` less the pixels that a blend of neighbouring colours explains (see
    /// ``isNeighbourhoodBlend``), in both directions, or a kept local mean (``keepsLocalMean``;
    /// with `subpixelText`, over 5 × 3 pixels as well).
    /// With the `vectorized` kernel, each row's ranges and sums are made at once
    /// (``NeighbourhoodRows``), and the plain tests answer only where a neighbourhood is not
    /// opaque.
    static func withoutNeighbourhoodBlends(
        _ candidates: consuming DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, bands: Int = 0,
        subpixelText: Bool = false, kernel: ComparisonEngine.Kernel = .vectorized
    ) -> DifferenceMask {
        let radius = rule.searchRadius
        guard radius > 0 else { return candidates }
        var remaining = candidates
        let width = remaining.width, height = remaining.height
        let bands = RowBands.count(height: height, requested: bands)
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                remaining.withUnsafeMutableBytes { bits in
                    guard let a = a.baseAddress, let b = b.baseAddress, let bits else { return }
                    let shared = UncheckedSendable((a, b, bits))
                    RowBands.forEach(height: height, bands: bands) { _, rows in
                        let (a, b, bits) = shared.value
                        var labCache = LabCache()
                        let noise = rule.noiseDeltaE
                        var window = kernel == .vectorized ? NeighbourhoodRows(width: width, radius: radius) : nil
                        defer { window?.deallocate() }
                        for y in rows {
                            let row = bits + y * width
                            if window != nil {
                                guard let columns = DifferenceMask.markedSpan(inRow: row, width: width) else { continue }
                                window?.load(a, b, row: y, columns: columns, height: height)
                            }
                            DifferenceMask.forEachMarked(inRow: row, width: width) { x in
                                let geometry = (x: x, y: y, width: width, height: height, radius: radius)
                                let explained = window?.explains(x, noiseDeltaE: noise, labCache: &labCache)
                                    ?? ((isNeighbourhoodBlend(of: b, in: a, geometry, noiseDeltaE: noise, labCache: &labCache)
                                        && isNeighbourhoodBlend(of: a, in: b, geometry, noiseDeltaE: noise, labCache: &labCache))
                                        || keepsLocalMean(a, b, geometry, noiseDeltaE: noise, labCache: &labCache))
                                if explained
                                    || (subpixelText
                                        && keepsLocalMean(a, b, geometry, reach: (2, 1), noiseDeltaE: noise, labCache: &labCache))
                                {
                                    row[x] = 0
                                }
                            }
                        }
                    }
                }
            }
        }
        return remaining
    }

    /// Whether the two images' mean colours over the 3 × 3 neighbourhood of (x, y) are within
    /// `noiseDeltaE` (CIE94; the means rounded to whole levels) where neither neighbourhood is
    /// one flat colour: the change only moves colour about near an edge, as a blur, ringing or
    /// a sub-pixel move of a thin line does (JPEG smears a 1-px line over three; the ink stays).
    /// A change on flat colour, or the edge of a patch laid on it, is never explained so.
    /// `reach` widens the neighbourhood: (2, 1) is 5 × 3.
    static func keepsLocalMean(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
        _ geometry: (x: Int, y: Int, width: Int, height: Int, radius: Int), reach: (x: Int, y: Int) = (1, 1),
        noiseDeltaE: Double, labCache: inout LabCache
    ) -> Bool {
        let (x, y, width, height, _) = geometry
        var sumA = SIMD3<Int>(), sumB = SIMD3<Int>(), count = 0
        var (flatA, flatB) = (true, true)
        let centre = (y * width + x) * 4
        let (firstA, firstB) = (PixelDelta.rgbOverWhite(a, centre), PixelDelta.rgbOverWhite(b, centre))
        for ny in max(0, y - reach.y)...min(height - 1, y + reach.y) {
            for nx in max(0, x - reach.x)...min(width - 1, x + reach.x) {
                let k = (ny * width + nx) * 4
                let ca = PixelDelta.rgbOverWhite(a, k), cb = PixelDelta.rgbOverWhite(b, k)
                if ca != firstA { flatA = false }
                if cb != firstB { flatB = false }
                sumA &+= SIMD3(Int(ca.r), Int(ca.g), Int(ca.b))
                sumB &+= SIMD3(Int(cb.r), Int(cb.g), Int(cb.b))
                count += 1
            }
        }
        guard !flatA, !flatB else { return false }
        func mean(_ sum: SIMD3<Int>) -> (r: UInt8, g: UInt8, b: UInt8) {
            (UInt8((sum.x + count / 2) / count), UInt8((sum.y + count / 2) / count), UInt8((sum.z + count / 2) / count))
        }
        return labCache.cie94(mean(sumA), mean(sumB)) <= noiseDeltaE
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
        _ geometry: (x: Int, y: Int, width: Int, height: Int, radius: Int), noiseDeltaE: Double,
        labCache: inout LabCache
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
        return isBlend(pixel, low: low, high: high, noiseDeltaE: noiseDeltaE, labCache: &labCache)
    }

    /// Whether `pixel`, clamped channel by channel into `low`...`high` (the colours some
    /// neighbourhood spans), moves by at most `noiseDeltaE` (CIE94): the one test of a blend of
    /// neighbouring colours, whichever neighbourhood gives the range.
    @inline(__always)
    static func isBlend(
        _ pixel: (r: UInt8, g: UInt8, b: UInt8), low: (r: UInt8, g: UInt8, b: UInt8), high: (r: UInt8, g: UInt8, b: UInt8),
        noiseDeltaE: Double, labCache: inout LabCache
    ) -> Bool {
        let clamped = (r: min(max(pixel.r, low.r), high.r), g: min(max(pixel.g, low.g), high.g), b: min(max(pixel.b, low.b), high.b))
        if clamped == pixel { return true }
        return labCache.cie94(pixel, clamped) <= noiseDeltaE
    }
}

/// One row's neighbourhoods, for ``StructuralComparison/withoutNeighbourhoodBlends``: for each
/// column of the loaded span, each image's channel ranges within the shift radius (and within
/// one pixel, for flatness) and its 3 × 3 channel sums, made by one pass down the rows and one
/// across. Where both images are opaque around a pixel (its colour over white is then its
/// RGB), the answers are those of ``StructuralComparison/isNeighbourhoodBlend`` and
/// ``StructuralComparison/keepsLocalMean``; elsewhere there is none.
///
/// Ranges need no care at the image's edges: columns beyond it repeat the edge ones, which
/// leaves a minimum or a maximum as it is. Sums add only the pixels inside, and divide by
/// their number.
struct NeighbourhoodRows {
    let width: Int
    let radius: Int
    /// Per image (0: the reference, 1: the actual image), RGBA bytes by column.
    private let low: [UnsafeMutablePointer<UInt8>]
    private let high: [UnsafeMutablePointer<UInt8>]
    /// The 3 × 3 ranges: the same buffers when the radius is 1.
    private let flatLow: [UnsafeMutablePointer<UInt8>]
    private let flatHigh: [UnsafeMutablePointer<UInt8>]
    private let sums: [UnsafeMutablePointer<UInt16>]
    /// Scratch: column ranges with `radius` columns of margin a side, column sums with one.
    private let columnLow: UnsafeMutablePointer<UInt8>
    private let columnHigh: UnsafeMutablePointer<UInt8>
    private let columnSums: UnsafeMutablePointer<UInt16>
    private var images: (reference: UnsafePointer<UInt8>, actual: UnsafePointer<UInt8>)?
    private var row = 0
    private var rowsSummed = 0

    init(width: Int, radius: Int) {
        precondition(radius >= 1, "a neighbourhood needs a radius of at least 1")
        self.width = width
        self.radius = radius
        func bytes() -> [UnsafeMutablePointer<UInt8>] { (0..<2).map { _ in .allocate(capacity: width * 4) } }
        (low, high) = (bytes(), bytes())
        (flatLow, flatHigh) = radius == 1 ? (low, high) : (bytes(), bytes())
        sums = (0..<2).map { _ in .allocate(capacity: width * 4) }
        columnLow = .allocate(capacity: (width + 2 * radius) * 4)
        columnHigh = .allocate(capacity: (width + 2 * radius) * 4)
        columnSums = .allocate(capacity: (width + 2) * 4)
    }

    func deallocate() {
        for buffer in low + high { buffer.deallocate() }
        if radius != 1 { for buffer in flatLow + flatHigh { buffer.deallocate() } }
        for buffer in sums { buffer.deallocate() }
        columnLow.deallocate()
        columnHigh.deallocate()
        columnSums.deallocate()
    }

    /// Makes the ranges and sums of the pixels of `columns` in row `row`.
    mutating func load(_ reference: UnsafePointer<UInt8>, _ actual: UnsafePointer<UInt8>, row: Int, columns: ClosedRange<Int>, height: Int) {
        images = (reference, actual)
        self.row = row
        rowsSummed = min(height - 1, row + 1) - max(0, row - 1) + 1
        for (side, image) in [reference, actual].enumerated() {
            ranges(of: image, row: row, columns: columns, height: height, radius: radius, into: (low[side], high[side]))
            if radius != 1 {
                ranges(of: image, row: row, columns: columns, height: height, radius: 1, into: (flatLow[side], flatHigh[side]))
            }
            threeByThreeSums(of: image, row: row, columns: columns, height: height, into: sums[side])
        }
    }

    /// Whether the loaded row's pixel at column `x` is explained: a neighbourhood blend both
    /// ways, or a kept 3 × 3 mean. Nil where either image is not opaque within the radius.
    func explains(_ x: Int, noiseDeltaE: Double, labCache: inout LabCache) -> Bool? {
        let k = x * 4
        guard let images, low[0][k + 3] == 255, low[1][k + 3] == 255 else { return nil }
        let centre = (row * width + x) * 4
        let reference = (r: images.reference[centre], g: images.reference[centre + 1], b: images.reference[centre + 2])
        let actual = (r: images.actual[centre], g: images.actual[centre + 1], b: images.actual[centre + 2])
        if isBlend(actual, within: (low[0] + k, high[0] + k), noiseDeltaE: noiseDeltaE, labCache: &labCache),
            isBlend(reference, within: (low[1] + k, high[1] + k), noiseDeltaE: noiseDeltaE, labCache: &labCache)
        {
            return true
        }
        func isFlat(_ side: Int) -> Bool {
            flatLow[side][k] == flatHigh[side][k] && flatLow[side][k + 1] == flatHigh[side][k + 1]
                && flatLow[side][k + 2] == flatHigh[side][k + 2]
        }
        guard !isFlat(0), !isFlat(1) else { return false }
        let count = rowsSummed * (min(width - 1, x + 1) - max(0, x - 1) + 1)
        func mean(_ side: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
            func channel(_ c: Int) -> UInt8 { UInt8((Int(sums[side][k + c]) + count / 2) / count) }
            return (channel(0), channel(1), channel(2))
        }
        return labCache.cie94(mean(0), mean(1)) <= noiseDeltaE
    }

    /// As ``StructuralComparison/isNeighbourhoodBlend``, given the other image's range.
    private func isBlend(
        _ pixel: (r: UInt8, g: UInt8, b: UInt8), within range: (low: UnsafeMutablePointer<UInt8>, high: UnsafeMutablePointer<UInt8>),
        noiseDeltaE: Double, labCache: inout LabCache
    ) -> Bool {
        StructuralComparison.isBlend(
            pixel, low: (range.low[0], range.low[1], range.low[2]), high: (range.high[0], range.high[1], range.high[2]),
            noiseDeltaE: noiseDeltaE, labCache: &labCache)
    }

    /// Channel minima and maxima within `radius` rows and columns of each pixel of `columns`.
    private func ranges(
        of image: UnsafePointer<UInt8>, row: Int, columns: ClosedRange<Int>, height: Int, radius: Int,
        into output: (low: UnsafeMutablePointer<UInt8>, high: UnsafeMutablePointer<UInt8>)
    ) {
        // Down the rows, for the span widened by the radius within the image; a column sits
        // `radius` columns into the scratch.
        let first = max(0, columns.lowerBound - radius), last = min(width - 1, columns.upperBound + radius)
        let firstRow = max(0, row - radius), lastRow = min(height - 1, row + radius)
        let start = (first + radius) * 4, count = (last - first + 1) * 4
        let (columnLow, columnHigh) = (columnLow + start, columnHigh + start)
        columnLow.update(from: image + (firstRow * width + first) * 4, count: count)
        columnHigh.update(from: columnLow, count: count)
        for y in firstRow..<lastRow {
            let source = image + ((y + 1) * width + first) * 4
            Self.widen(low: columnLow, high: columnHigh, by: (source, source), count: count)
        }
        // Columns beyond the image repeat its edge ones.
        for margin in 1...radius {
            if first == 0 {
                (self.columnLow + (radius - margin) * 4).update(from: self.columnLow + radius * 4, count: 4)
                (self.columnHigh + (radius - margin) * 4).update(from: self.columnHigh + radius * 4, count: 4)
            }
            if last == width - 1 {
                (self.columnLow + (width - 1 + radius + margin) * 4).update(from: self.columnLow + (width - 1 + radius) * 4, count: 4)
                (self.columnHigh + (width - 1 + radius + margin) * 4).update(from: self.columnHigh + (width - 1 + radius) * 4, count: 4)
            }
        }
        // Across: column x of the output reads scratch columns x ... x + 2 radius.
        let outputStart = columns.lowerBound * 4, outputCount = columns.count * 4
        let (low, high) = (output.low + outputStart, output.high + outputStart)
        let (scratchLow, scratchHigh) = (self.columnLow + outputStart, self.columnHigh + outputStart)
        low.update(from: scratchLow, count: outputCount)
        high.update(from: scratchHigh, count: outputCount)
        for offset in 1...(2 * radius) {
            Self.widen(low: low, high: high, by: (UnsafePointer(scratchLow + offset * 4), UnsafePointer(scratchHigh + offset * 4)), count: outputCount)
        }
    }

    /// Lowers each of `count` bytes of `low` to the byte of `sources.low` below it and raises
    /// each of `high` to the byte of `sources.high` above it, 16 bytes at a time. The compiler
    /// left the byte loop scalar, the four pointers possibly overlapping; and the standard
    /// library's `pointwiseMin` and `pointwiseMax` stay calls, a lane at a time, where a
    /// comparison and a select become one instruction (the blends took 0.8x the time).
    @inline(__always)
    private static func widen(
        low: UnsafeMutablePointer<UInt8>, high: UnsafeMutablePointer<UInt8>,
        by sources: (low: UnsafePointer<UInt8>, high: UnsafePointer<UInt8>), count: Int
    ) {
        var i = 0
        while i + 16 <= count {
            let lowBytes = UnsafeRawPointer(low + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let highBytes = UnsafeRawPointer(high + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let lowSource = UnsafeRawPointer(sources.low + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let highSource = UnsafeRawPointer(sources.high + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let lower = lowBytes.replacing(with: lowSource, where: lowSource .< lowBytes)
            let higher = highBytes.replacing(with: highSource, where: highSource .> highBytes)
            UnsafeMutableRawPointer(low + i).storeBytes(of: lower, as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(high + i).storeBytes(of: higher, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            low[i] = min(low[i], sources.low[i])
            high[i] = max(high[i], sources.high[i])
            i += 1
        }
    }

    /// Channel sums over the 3 × 3 pixels (within the image) around each pixel of `columns`.
    private func threeByThreeSums(
        of image: UnsafePointer<UInt8>, row: Int, columns: ClosedRange<Int>, height: Int, into output: UnsafeMutablePointer<UInt16>
    ) {
        // Down the rows, for the span widened by one column; a column sits one column into the
        // scratch, and the columns beyond the image hold zero.
        let first = max(0, columns.lowerBound - 1), last = min(width - 1, columns.upperBound + 1)
        let start = (first + 1) * 4, count = (last - first + 1) * 4
        let sums = columnSums + start
        let top = image + (max(0, row - 1) * width + first) * 4
        for i in 0..<count { sums[i] = UInt16(top[i]) }
        for y in max(0, row - 1)..<min(height - 1, row + 1) {
            let source = image + ((y + 1) * width + first) * 4
            for i in 0..<count { sums[i] &+= UInt16(source[i]) }
        }
        if first == 0 { columnSums.update(repeating: 0, count: 4) }
        if last == width - 1 { (columnSums + (width + 1) * 4).update(repeating: 0, count: 4) }
        // Across: column x of the output adds scratch columns x, x + 1 and x + 2.
        let outputStart = columns.lowerBound * 4, outputCount = columns.count * 4
        let (output, scratch) = (output + outputStart, columnSums + outputStart)
        for i in 0..<outputCount { output[i] = scratch[i] &+ scratch[i + 4] &+ scratch[i + 8] }
    }
}
