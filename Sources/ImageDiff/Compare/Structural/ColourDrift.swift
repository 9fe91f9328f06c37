import RealModule

/// Colour-management drift, as the structural mode recognises and explains it: the same page
/// drawn for another display profile (Display P3, Generic RGB, a calibrated monitor).
///
/// Colour management converts every colour by one smooth function: decode sRGB to linear light,
/// multiply by a 3 × 3 matrix (the other primaries), encode with the other profile's tone
/// curve. So such a matrix is fitted, under each of the usual tone curves, to the page's solid
/// colours: those of pixels that share their colour with both neighbours along a row or a
/// column, where anti-aliasing and hinting rarely reach, each paired with the colour the new
/// image mostly has there.
///
/// The drift is taken as colour management only when one conversion explains every solid
/// colour within the noise threshold. A conversion known beforehand (``standardConversions``)
/// is tried first, and taken when it also brings every moved solid colour closer: it holds for
/// the colours between the solid ones too (gradients, photos), and it is taken even when no
/// solid colour moved beyond the noise threshold, since the colours a profile moves most may
/// not be solid (an orange gradient beside gray text and one blue); where none moved by a ΔE,
/// the saturated ones that moved at all must come closer (a profile leaves near-grays nearly
/// as they are, so their slight moves are other noise). Otherwise, when a solid
/// colour moved beyond the noise threshold and at least ``minimumMovedColours`` moved, the
/// matrix is fitted: a matrix maps any two colours anywhere, but three or more only if they
/// moved together, and a changed element is a colour that did not move with the rest. Colours
/// that all lie on one line do not count as three (``lieOnOneLine(_:noiseDeltaE:_:)``): a
/// gradient given another end colour moves its every colour, and a matrix follows. No change
/// of one or two colours matches a standard conversion by chance, and jitter, which no profile
/// explains, is brought no closer by one. Then the reference is drawn through that conversion
/// before the structural comparison, which judges what the drift does not explain. A pair with
/// a changed solid colour under another profile is not explained at all, and fails.
struct ColourDrift {
    /// A tone curve: 8-bit code value to linear light and back.
    enum ToneCurve {
        case sRGB
        case power(Double)

        /// The curves tried: sRGB's, and the plain powers displays are calibrated to.
        static let candidates: [ToneCurve] = [.sRGB, .power(1.8), .power(2.0), .power(2.2), .power(2.4)]

        func linear(_ value: UInt8) -> Double {
            switch self {
            case .sRGB: return SRGB.linear[Int(value)]
            case .power(let exponent): return Double.pow(Double(value) / 255, exponent)
            }
        }

        func encoded(_ linear: Double) -> UInt8 {
            let l = min(max(linear, 0), 1)
            let c: Double
            switch self {
            case .sRGB: c = l <= 0.0031308 ? l * 12.92 : 1.055 * Double.pow(l, 1 / 2.4) - 0.055
            case .power(let exponent): c = Double.pow(l, 1 / exponent)
            }
            return UInt8(min(max((c * 255).rounded(), 0), 255))
        }
    }

    /// A colour of the reference that fills an area, and the colour the new image mostly has
    /// there.
    struct SolidColour {
        var reference: (r: UInt8, g: UInt8, b: UInt8)
        var actual: (r: UInt8, g: UInt8, b: UInt8)
        var pixels: Int
    }

    /// Solid colours need this many pixels inside their areas.
    static let minimumSolidPixels = 16
    /// A solid colour moved when its colour in the new image lies this far (ΔE94) from it.
    static let movedDeltaE = 1.0
    static let minimumMovedColours = 3

    let matrix: [Double]
    let curve: ToneCurve

    /// The drift between two opaque images of one size, or nil when the pair shows none that
    /// colour management explains within `noiseDeltaE`.
    init?(_ reference: RGBAImage, _ actual: RGBAImage, noiseDeltaE: Double, bands: Int = 0) {
        guard let solids = Self.solidColours(reference, actual, bands: bands) else { return nil }
        var labCache = LabCache()
        let shifted = solids.compactMap { solid -> (solid: SolidColour, distance: Double)? in
            let distance = labCache.cie94(solid.reference, solid.actual)
            return distance > 0 ? (solid, distance) : nil
        }
        let moved = shifted.filter { $0.distance > Self.movedDeltaE }
        // On a page of grays, whose solid colours a profile leaves nearly as they are, its few
        // saturated ones may move by less than a ΔE; a standard conversion must then bring each
        // of those closer, where it brings the moved ones closer otherwise. A near-gray colour
        // that moved so little says nothing of a profile (recompression and dither do that).
        let saturated = shifted.filter { colour in
            let c = colour.solid.reference
            return !SubpixelText.isNearGray(SIMD3(Int(c.r), Int(c.g), Int(c.b)))
        }
        let judged = moved.isEmpty ? saturated : moved
        guard !judged.isEmpty else { return nil }
        func explainsEverySolid(_ fit: (matrix: [Double], curve: ToneCurve)) -> Bool {
            solids.allSatisfy { Self.residual($0, fit.matrix, fit.curve, &labCache) <= noiseDeltaE }
        }
        let standard = Self.standardConversions.first { conversion in
            explainsEverySolid(conversion) && judged.allSatisfy { colour in
                Self.residual(colour.solid, conversion.matrix, conversion.curve, &labCache) < colour.distance
            }
        }
        let found = standard ?? (
            moved.count >= Self.minimumMovedColours && moved.contains(where: { $0.distance > noiseDeltaE })
                && !Self.lieOnOneLine(moved.map(\.solid.reference), noiseDeltaE: noiseDeltaE, &labCache)
                ? ToneCurve.candidates.lazy.map { curve in (matrix: Self.fit(solids, curve: curve), curve: curve) }
                    .first(where: explainsEverySolid)
                : nil)
        guard let best = found else { return nil }
        matrix = best.matrix
        curve = best.curve
    }

    /// Whether every one of `colours` lies within `noiseDeltaE` of one line, in linear light or
    /// in sRGB's code values (where browsers blend a gradient), through two of them far apart
    /// (the farthest from the first colour, and the farthest from that): the colours of one
    /// gradient, or of two colours and their blends. A matrix maps a line in linear light
    /// wherever it maps its ends, and a short one in code values nearly so, so that such colours
    /// moved together says little of colour management: a gradient given another end colour
    /// moves so. A line whose two ends are near-gray is not taken for a gradient: another tone
    /// curve moves the grays so, along the gray axis.
    static func lieOnOneLine(_ colours: [(r: UInt8, g: UInt8, b: UInt8)], noiseDeltaE: Double, _ labCache: inout LabCache) -> Bool {
        ColourSegment.blendingCurves.contains { curve in
            lieOnOneLine(colours, in: curve, noiseDeltaE: noiseDeltaE, &labCache)
        }
    }

    /// ``lieOnOneLine(_:noiseDeltaE:_:)`` in the space `curve` decodes code values to; false
    /// when the line's ends are both near-gray.
    private static func lieOnOneLine(
        _ colours: [(r: UInt8, g: UInt8, b: UInt8)], in curve: ToneCurve, noiseDeltaE: Double, _ labCache: inout LabCache
    ) -> Bool {
        let points = colours.map { SIMD3(curve.linear($0.r), curve.linear($0.g), curve.linear($0.b)) }
        func farthest(from point: SIMD3<Double>) -> Int? {
            points.indices.max { ((points[$0] - point) * (points[$0] - point)).sum() < ((points[$1] - point) * (points[$1] - point)).sum() }
        }
        guard let first = points.first, let startIndex = farthest(from: first), let endIndex = farthest(from: points[startIndex])
        else { return true }
        func isNearGray(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { SubpixelText.isNearGray(SIMD3(Int(c.r), Int(c.g), Int(c.b))) }
        if isNearGray(colours[startIndex]), isNearGray(colours[endIndex]) { return false }
        let line = ColourSegment(from: colours[startIndex], to: colours[endIndex], in: curve)
        return colours.allSatisfy { line.distance(to: $0, &labCache) <= noiseDeltaE }
    }

    /// sRGB content converted for the usual display profiles, from linear sRGB (D65) to each
    /// profile's linear light and tone curve: Display P3 (sRGB's curve), Adobe RGB (1998) (a
    /// power of about 2.2), and Generic RGB (Apple's primaries at D65, a power of 1.8), the
    /// three that Chromium's `--force-color-profile` offers besides sRGB for 8-bit output.
    static let standardConversions: [(matrix: [Double], curve: ToneCurve)] = [
        ([0.822_462_1, 0.177_538_0, 0, 0.033_194_2, 0.966_805_8, 0, 0.017_082_7, 0.072_397_4, 0.910_519_9], .sRGB),
        ([0.715_162_7, 0.284_837_3, 0, 0, 1, 0, 0, 0.041_170_5, 0.958_829_5], .power(2.2)),
        ([0.975_103_2, 0.027_067_7, -0.002_170_9, -0.019_985_5, 1.054_205_3, -0.034_219_7, 0.001_703_3, 0.001_592_9, 0.996_703_8], .power(1.8)),
    ]

    /// The reference as the fitted colour management draws it.
    func applied(to image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        let slots = 1 << 14
        var keys = [UInt32](repeating: .max, count: slots)
        var values = [(r: UInt8, g: UInt8, b: UInt8)](repeating: (0, 0, 0), count: slots)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let key = UInt32(pixels[index]) << 16 | UInt32(pixels[index + 1]) << 8 | UInt32(pixels[index + 2])
            let slot = Int((key &* 2_654_435_761) >> 18)
            if keys[slot] != key {
                keys[slot] = key
                values[slot] = map((pixels[index], pixels[index + 1], pixels[index + 2]))
            }
            (pixels[index], pixels[index + 1], pixels[index + 2]) = values[slot]
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    func map(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> (r: UInt8, g: UInt8, b: UInt8) {
        Self.predict(c, matrix, curve)
    }

    static func predict(_ c: (r: UInt8, g: UInt8, b: UInt8), _ matrix: [Double], _ curve: ToneCurve) -> (r: UInt8, g: UInt8, b: UInt8) {
        let x = (SRGB.linear[Int(c.r)], SRGB.linear[Int(c.g)], SRGB.linear[Int(c.b)])
        func row(_ i: Int) -> Double { matrix[3 * i] * x.0 + matrix[3 * i + 1] * x.1 + matrix[3 * i + 2] * x.2 }
        return (curve.encoded(row(0)), curve.encoded(row(1)), curve.encoded(row(2)))
    }

    /// The matrix from the reference's linear light to the new image's, under `curve`, by least
    /// squares weighted by the root of each colour's area, pulled slightly towards the identity
    /// so that colours that span fewer than three dimensions still give one answer.
    static func fit(_ solids: [SolidColour], curve: ToneCurve) -> [Double] {
        var normal = [Double](repeating: 0, count: 9)
        var right = [Double](repeating: 0, count: 9)
        var totalWeight = 0.0
        for solid in solids {
            let w = Double(solid.pixels).squareRoot()
            totalWeight += w
            let x = [SRGB.linear[Int(solid.reference.r)], SRGB.linear[Int(solid.reference.g)], SRGB.linear[Int(solid.reference.b)]]
            let t = [curve.linear(solid.actual.r), curve.linear(solid.actual.g), curve.linear(solid.actual.b)]
            for i in 0..<3 {
                for j in 0..<3 {
                    normal[3 * i + j] += w * x[i] * x[j]
                    right[3 * i + j] += w * x[i] * t[j]
                }
            }
        }
        let ridge = 1e-3 * max(totalWeight, 1)
        for i in 0..<3 {
            normal[4 * i] += ridge
            right[4 * i] += ridge
        }
        guard let inverse = inverted(normal) else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        // Row k of the matrix solves (XᵀWX) m_k = XᵀW t_k.
        var matrix = [Double](repeating: 0, count: 9)
        for k in 0..<3 {
            for i in 0..<3 {
                matrix[3 * k + i] = (0..<3).reduce(0) { $0 + inverse[3 * i + $1] * right[3 * $1 + k] }
            }
        }
        return matrix
    }

    static func inverted(_ m: [Double]) -> [Double]? {
        let determinant = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard abs(determinant) > 1e-12 else { return nil }
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return cofactors.map { $0 / determinant }
    }

    static func residual(_ solid: SolidColour, _ matrix: [Double], _ curve: ToneCurve, _ labCache: inout LabCache) -> Double {
        labCache.cie94(predict(solid.reference, matrix, curve), solid.actual)
    }

    /// The reference's solid colours, each with the colour the new image mostly has where it
    /// lies, or nil when a pixel of either image is not opaque (colour management of
    /// translucent pixels depends on what they are drawn over). A solid pixel shares its colour
    /// with both neighbours along a row or a column; a colour counts when it has
    /// ``minimumSolidPixels`` such pixels, and one new colour holds at least half of them (a
    /// display profile moves every pixel of a colour alike; hinting moves only some).
    static func solidColours(_ reference: RGBAImage, _ actual: RGBAImage, bands: Int = 0) -> [SolidColour]? {
        let (width, height) = (reference.width, reference.height)
        guard width >= 3, height >= 3 else { return nil }
        let opaqueAlpha = UInt32(0xFF) << 24
        let checksAlpha = reference.hasAlpha || actual.hasAlpha
        let bands = RowBands.count(height: height, requested: bands)
        let perBand = reference.pixels.withUnsafeBytes { a in
            actual.pixels.withUnsafeBytes { b in
                let shared = UncheckedSendable((a.bindMemory(to: UInt32.self), b.bindMemory(to: UInt32.self)))
                return RowBands.map(height: height, bands: bands) { _, rows in
                    let (a, b) = shared.value
                    var counts = PairCounts()
                    var alpha = UInt32.max
                    for y in rows {
                        if checksAlpha {
                            for index in (y * width)..<(y * width + width) { alpha &= a[index] & b[index] }
                        }
                        guard y > 0, y < height - 1 else { continue }
                        var run: (reference: UInt32, actual: UInt32, pixels: Int) = (.max, .max, 0)
                        func count(_ centre: UInt32, _ new: UInt32) {
                            if centre != run.reference || new != run.actual {
                                if run.pixels > 0 { counts.add(run.reference, run.actual, run.pixels) }
                                run = (centre, new, 0)
                            }
                            run.pixels += 1
                        }
                        var index = y * width + 1
                        let end = y * width + width - 1
                        while index + 8 <= end {
                            if run.pixels > 0, continuesRun(a, b, at: index, reference: run.reference, actual: run.actual) {
                                run.pixels += 8
                            } else {
                                let solid = solidLanes(a, at: index, width: width)
                                if !isZero(solid) {
                                    for lane in 0..<8 where solid[lane] != 0 { count(a[index + lane], b[index + lane]) }
                                }
                            }
                            index += 8
                        }
                        for index in index..<end {
                            let centre = a[index]
                            guard (centre == a[index - 1] && centre == a[index + 1])
                                || (centre == a[index - width] && centre == a[index + width])
                            else { continue }
                            count(centre, b[index])
                        }
                        if run.pixels > 0 { counts.add(run.reference, run.actual, run.pixels) }
                    }
                    return (counts: counts, opaque: alpha & opaqueAlpha == opaqueAlpha)
                }
            }
        }
        guard perBand.allSatisfy(\.opaque) else { return nil }
        var pairs = PairCounts(capacity: perBand.reduce(0) { $0 + $1.counts.count })
        for band in perBand { band.counts.forEach { reference, actual, pixels in pairs.add(reference, actual, pixels) } }
        var modes = ColourModes(capacity: pairs.count)
        pairs.forEach { reference, actual, pixels in modes.add(reference, actual, pixels) }
        func colour(_ word: UInt32) -> (r: UInt8, g: UInt8, b: UInt8) {
            (UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word >> 16))
        }
        var solids: [(key: UInt32, solid: SolidColour)] = []
        modes.forEach { reference, pixels, mode in
            guard pixels >= minimumSolidPixels, 2 * mode.pixels >= pixels else { return }
            solids.append((reference, SolidColour(reference: colour(reference), actual: colour(mode.colour), pixels: pixels)))
        }
        return solids.sorted { $0.key < $1.key }.map(\.solid)
    }

    /// Whether the eight pixels from `index` on continue a run: each, and its neighbours
    /// along the row, is `reference` in `a`, and each is `actual` in `b`.
    @inline(__always)
    static func continuesRun(
        _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, at index: Int, reference: UInt32, actual: UInt32
    ) -> Bool {
        let (reference, actual) = (SIMD8(repeating: reference), SIMD8(repeating: actual))
        return isZero((words(a, at: index - 1) ^ reference) | (words(a, at: index + 1) ^ reference) | (words(b, at: index) ^ actual))
    }

    /// The eight pixels of `image` from `index` on.
    @inline(__always)
    static func words(_ image: UnsafeBufferPointer<UInt32>, at index: Int) -> SIMD8<UInt32> {
        UnsafeRawBufferPointer(image).loadUnaligned(fromByteOffset: index * 4, as: SIMD8<UInt32>.self)
    }

    /// Whether every lane of `lanes` is zero, folded with plain ORs: a comparison of whole
    /// vectors reduces by a lane minimum, which SSE2 lacks for 32-bit lanes.
    @inline(__always)
    static func isZero(_ lanes: SIMD8<UInt32>) -> Bool {
        let halves = unsafeBitCast(lanes, to: SIMD4<UInt64>.self)
        let folded = halves.lowHalf | halves.highHalf
        return folded[0] | folded[1] == 0
    }

    /// Which of the eight pixels of `image` from `index` on are solid (all bits of their lane
    /// set): each shares its colour with both neighbours along the row, or both along the column.
    @inline(__always)
    static func solidLanes(_ image: UnsafeBufferPointer<UInt32>, at index: Int, width: Int) -> SIMD8<UInt32> {
        let centres = words(image, at: index)
        let alongRow = (centres .== words(image, at: index - 1)) .& (centres .== words(image, at: index + 1))
        let alongColumn = (centres .== words(image, at: index - width)) .& (centres .== words(image, at: index + width))
        return unsafeBitCast(alongRow .| alongColumn, to: SIMD8<UInt32>.self)
    }

    /// By colour of the reference: its pixels, and the new colour that holds most of them (the
    /// lower colour word of two that hold as many), in an open-addressed table: a photograph
    /// holds tens of thousands of colours.
    struct ColourModes {
        private var keys: [UInt32]
        private var pixels: [Int]
        private var modes: [(colour: UInt32, pixels: Int)]

        /// A table that holds `capacity` colours without growing.
        init(capacity: Int) {
            var slots = 16
            while slots < 2 * capacity { slots *= 2 }
            keys = [UInt32](repeating: 0, count: slots)
            pixels = [Int](repeating: 0, count: slots)
            modes = [(colour: UInt32, pixels: Int)](repeating: (0, 0), count: slots)
        }

        /// Counts `count` pixels of `reference` that are `actual` in the new image; at most
        /// `capacity` distinct references.
        mutating func add(_ reference: UInt32, _ actual: UInt32, _ count: Int) {
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (UInt64(reference) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
            while pixels[slot] != 0, keys[slot] != reference { slot = (slot + 1) & mask }
            if pixels[slot] == 0 {
                keys[slot] = reference
                modes[slot] = (actual, count)
            } else if count > modes[slot].pixels || (count == modes[slot].pixels && actual < modes[slot].colour) {
                modes[slot] = (actual, count)
            }
            pixels[slot] += count
        }

        /// Calls `body` with every reference colour counted, its pixels and its mode.
        func forEach(_ body: (_ reference: UInt32, _ pixels: Int, _ mode: (colour: UInt32, pixels: Int)) -> Void) {
            for slot in keys.indices where pixels[slot] != 0 { body(keys[slot], pixels[slot], modes[slot]) }
        }
    }

    /// Pixel counts by a pair of colours (the reference's, the new image's), in an open-addressed
    /// table: a band of rows ends a run thousands of times, and a dictionary of dictionaries
    /// would hash each end twice.
    struct PairCounts {
        private var keys: [UInt64]
        private var counts: [Int]
        private var occupied = 0

        /// A table that holds `capacity` pairs without growing.
        init(capacity: Int = 512) {
            var slots = 1024
            while slots < 2 * capacity { slots *= 2 }
            keys = [UInt64](repeating: 0, count: slots)
            counts = [Int](repeating: 0, count: slots)
        }

        /// The pairs counted.
        var count: Int { occupied }

        mutating func add(_ reference: UInt32, _ actual: UInt32, _ pixels: Int) {
            let key = UInt64(reference) << 32 | UInt64(actual)
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
            while counts[slot] != 0, keys[slot] != key { slot = (slot + 1) & mask }
            if counts[slot] == 0 {
                keys[slot] = key
                occupied += 1
            }
            counts[slot] += pixels
            if 2 * occupied > keys.count { grow() }
        }

        /// Calls `body` with every pair counted and its pixels.
        func forEach(_ body: (_ reference: UInt32, _ actual: UInt32, _ pixels: Int) -> Void) {
            for slot in keys.indices where counts[slot] != 0 {
                body(UInt32(truncatingIfNeeded: keys[slot] >> 32), UInt32(truncatingIfNeeded: keys[slot]), counts[slot])
            }
        }

        private mutating func grow() {
            let old = self
            keys = [UInt64](repeating: 0, count: 2 * old.keys.count)
            counts = [Int](repeating: 0, count: 2 * old.keys.count)
            occupied = 0
            old.forEach { reference, actual, pixels in add(reference, actual, pixels) }
        }
    }
}
