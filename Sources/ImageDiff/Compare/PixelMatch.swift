/// pixelmatch 7.2.0's colour metric and anti-aliasing detector, over 8-bit RGBA buffers.
///
/// Positions are pixel indices into `width`-wide rows; `delta` values are the squared YIQ
/// distance of Kotsarenko & Ramos, sign-encoded as pixelmatch does (negative when the first
/// pixel is brighter).
package enum PixelMatch {
    /// 35215 is the largest possible YIQ delta; a pixel differs iff |delta| > 35215 · threshold².
    package static func maximumDelta(threshold: Double) -> Double { 35215 * threshold * threshold }

    /// The squared YIQ distance between pixel `k` of `first` and pixel `m` of `second`
    /// (byte offsets). Semi-transparent pixels are blended over pixelmatch 7's
    /// position-dependent checkerboard, keyed on `k`.
    @inline(__always)
    package static func colorDelta(
        _ first: UnsafePointer<UInt8>, _ k: Int, _ second: UnsafePointer<UInt8>, _ m: Int
    ) -> Double {
        guard let (dr, dg, db) = blendedDifference(first, k, second, m) else { return 0 }
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let i = dr * 0.59597799 - dg * 0.2741761 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    /// The brightness (Y) difference only, as the anti-aliasing detector uses it.
    @inline(__always)
    static func brightnessDelta(_ image: UnsafePointer<UInt8>, _ k: Int, _ m: Int) -> Double {
        let raw = UnsafeRawPointer(image)
        if raw.loadUnaligned(fromByteOffset: k, as: UInt32.self) == raw.loadUnaligned(fromByteOffset: m, as: UInt32.self) { return 0 }
        guard let (dr, dg, db) = blendedDifference(image, k, image, m) else { return 0 }
        return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    }

    /// The R, G, B differences of two pixels, blended over the checkerboard when either is not
    /// opaque; nil when the pixels are identical.
    @inline(__always)
    static func blendedDifference(
        _ first: UnsafePointer<UInt8>, _ k: Int, _ second: UnsafePointer<UInt8>, _ m: Int
    ) -> (Double, Double, Double)? {
        let r1 = Double(first[k]), g1 = Double(first[k + 1]), b1 = Double(first[k + 2]), a1 = Double(first[k + 3])
        let r2 = Double(second[m]), g2 = Double(second[m + 1]), b2 = Double(second[m + 2]), a2 = Double(second[m + 3])
        let da = a1 - a2
        if r1 == r2 && g1 == g2 && b1 == b2 && da == 0 { return nil }
        guard a1 < 255 || a2 < 255 else { return (r1 - r2, g1 - g2, b1 - b2) }
        let (rb, gb, bb) = checkerboard(k)
        return ((r1 * a1 - r2 * a2 - rb * da) / 255, (g1 * a1 - g2 * a2 - gb * da) / 255, (b1 * a1 - b2 * a2 - bb * da) / 255)
    }

    /// pixelmatch 7's background for a byte offset: each channel 48 or 207.
    @inline(__always)
    static func checkerboard(_ k: Int) -> (Double, Double, Double) {
        let offset = Double(k)
        let rb = 48 + 159 * Double(k % 2)
        let gb = 48 + 159 * Double(Int(offset / 1.618033988749895) % 2)
        let bb = 48 + 159 * Double(Int(offset / 2.618033988749895) % 2)
        return (rb, gb, bb)
    }

    /// Whether pixel (x, y) of `image` looks anti-aliased (Vyšniauskas 2009, as pixelmatch
    /// implements it): among its 8 neighbours there are both a darker and a brighter extreme,
    /// few equal siblings, and an extreme has 3+ equal siblings in both images.
    package static func isAntialiased(
        _ image: UnsafePointer<UInt8>, x x1: Int, y y1: Int, width: Int, height: Int,
        _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>
    ) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let center = (y1 * width + x1) * 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minimum = 0.0, maximum = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let delta = brightnessDelta(image, center, (y * width + x) * 4)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minimum {
                    minimum = delta
                    minX = x
                    minY = y
                } else if delta > maximum {
                    maximum = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minimum == 0 || maximum == 0 { return false }
        return (hasManySiblings(first, x: minX, y: minY, width: width, height: height)
            && hasManySiblings(second, x: minX, y: minY, width: width, height: height))
            || (hasManySiblings(first, x: maxX, y: maxY, width: width, height: height)
                && hasManySiblings(second, x: maxX, y: maxY, width: width, height: height))
    }

    /// ``isAntialiased(_:x:y:width:height:_:_:)`` with the eight brightness differences of an
    /// opaque pixel away from the image's edges taken in one vector: the same products and sums
    /// in the same order, so the same doubles, and the same first extremes in the scalar test's
    /// scan order (column by column). Any other pixel goes to the scalar test.
    package static func isAntialiasedVectorized(
        _ image: UnsafePointer<UInt8>, x: Int, y: Int, width: Int, height: Int,
        _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>
    ) -> Bool {
        guard x > 0, y > 0, x < width - 1, y < height - 1 else {
            return isAntialiased(image, x: x, y: y, width: width, height: height, first, second)
        }
        let (centre, neighbours) = interiorNeighbourhood(image, x: x, y: y, width: width)
        let opaque = UInt32(0xFF00_0000)
        guard centre & opaque == opaque, neighbours & opaque == SIMD8(repeating: opaque) else {
            return isAntialiased(image, x: x, y: y, width: width, height: height, first, second)
        }
        // Equal neighbours have a difference of zero: more than two settle the test at once.
        let centres = SIMD8<UInt32>(repeating: centre)
        guard equalCount(neighbours, centres) <= 2 else { return false }
        @inline(__always)
        func channel(_ words: SIMD8<UInt32>, _ shift: UInt32) -> SIMD8<Int32> {
            SIMD8<Int32>(truncatingIfNeeded: (words &>> shift) & 0xFF)
        }
        let dr = SIMD8<Double>(channel(centres, 0) &- channel(neighbours, 0))
        let dg = SIMD8<Double>(channel(centres, 8) &- channel(neighbours, 8))
        let db = SIMD8<Double>(channel(centres, 16) &- channel(neighbours, 16))
        let deltas = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let zeroes = SIMD8<Int64>(repeating: 0).replacing(with: 1, where: deltas .== 0).wrappedSum()
        guard zeroes <= 2 else { return false }
        var (minimum, maximum) = (0.0, 0.0)
        for lane in 0..<8 { (minimum, maximum) = (Swift.min(minimum, deltas[lane]), Swift.max(maximum, deltas[lane])) }
        guard minimum != 0, maximum != 0 else { return false }
        func position(of extreme: Double) -> (x: Int, y: Int) {
            var lane = 0
            while deltas[lane] != extreme { lane += 1 }
            return (x + neighbourColumnOffsets[lane], y + neighbourRowOffsets[lane])
        }
        let (darker, brighter) = (position(of: minimum), position(of: maximum))
        return (hasManySiblingsVectorized(first, x: darker.x, y: darker.y, width: width, height: height)
            && hasManySiblingsVectorized(second, x: darker.x, y: darker.y, width: width, height: height))
            || (hasManySiblingsVectorized(first, x: brighter.x, y: brighter.y, width: width, height: height)
                && hasManySiblingsVectorized(second, x: brighter.x, y: brighter.y, width: width, height: height))
    }

    /// Where each lane of ``interiorNeighbourhood(_:x:y:width:)``'s neighbours lies.
    static let neighbourColumnOffsets = [-1, -1, -1, 0, 0, 1, 1, 1], neighbourRowOffsets = [-1, 0, 1, -1, 1, -1, 0, 1]

    /// Pixel (x, y)'s RGBA word and its eight neighbours', in the scalar test's scan order
    /// (column by column); (x, y) must not lie on the image's edge.
    @inline(__always)
    static func interiorNeighbourhood(
        _ image: UnsafePointer<UInt8>, x: Int, y: Int, width: Int
    ) -> (centre: UInt32, neighbours: SIMD8<UInt32>) {
        let raw = UnsafeRawPointer(image)
        let centreOffset = (y * width + x) * 4, rowBytes = width * 4
        func word(_ dx: Int, _ dy: Int) -> UInt32 {
            raw.loadUnaligned(fromByteOffset: centreOffset + dy * rowBytes + dx * 4, as: UInt32.self)
        }
        return (word(0, 0), SIMD8(word(-1, -1), word(-1, 0), word(-1, 1), word(0, -1), word(0, 1), word(1, -1), word(1, 0), word(1, 1)))
    }

    @inline(__always)
    static func equalCount(_ words: SIMD8<UInt32>, _ others: SIMD8<UInt32>) -> Int32 {
        SIMD8<Int32>(repeating: 0).replacing(with: 1, where: words .== others).wrappedSum()
    }

    /// ``hasManySiblings(_:x:y:width:height:)`` with the neighbours compared in one vector away
    /// from the image's edges.
    static func hasManySiblingsVectorized(
        _ image: UnsafePointer<UInt8>, x: Int, y: Int, width: Int, height: Int
    ) -> Bool {
        guard x > 0, y > 0, x < width - 1, y < height - 1 else {
            return hasManySiblings(image, x: x, y: y, width: width, height: height)
        }
        let (centre, neighbours) = interiorNeighbourhood(image, x: x, y: y, width: width)
        return equalCount(neighbours, SIMD8(repeating: centre)) > 2
    }

    /// Whether pixel (x, y) has 3+ identical neighbours (image edges count as one).
    static func hasManySiblings(
        _ image: UnsafePointer<UInt8>, x x1: Int, y y1: Int, width: Int, height: Int
    ) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let value = UnsafeRawPointer(image).loadUnaligned(fromByteOffset: (y1 * width + x1) * 4, as: UInt32.self)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let other = UnsafeRawPointer(image).loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self)
                if other == value { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
