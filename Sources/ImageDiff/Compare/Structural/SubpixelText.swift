/// Text drawn with sub-pixel (LCD) anti-aliasing in one image and with grayscale
/// anti-aliasing in the other, as the structural mode recognises and explains it.
///
/// An LCD renderer covers a pixel's red, green and blue stripes apart, each a third of a pixel
/// aside, so grayscale text gets coloured fringes: warm (red above blue) on one side of a stem,
/// cool on the other. A fringe pixel holds about the ink the grayscale pixel holds, but its
/// channels reach darker and lighter than any pixel around it in the grayscale image, which no
/// blend of neighbouring colours explains.
///
/// The pair is taken as one such render only when it carries the signature: of the pixels
/// beyond the noise threshold, at least ``fringeShare`` are fringes in one image over
/// near-gray pixels of the other (a tint added, beyond that of the other pixel, of at least
/// ``fringeChroma``, with green between red and blue; the other pixel's chroma at most
/// ``textChroma``), warm and cool fringes each at least ``balance`` of them. A coloured icon
/// laid over gray, or a gray element recoloured, adds one hue, not both.
///
/// In such a pair, every pixel of the LCD image that differs, where the other image holds text
/// around it (an ink and a ground of any colour), is drawn as the grayscale renderer would draw
/// it: the mix of that ink and ground that holds as much ink
/// (``singleCoverageMix(of:in:x:y:width:height:)``). That mix is taken along the other
/// image's ink, so on its own it would also redraw a change of the ink's colour. Two tests keep
/// such changes: a pixel that the grayscale image covers alike with its left and right
/// neighbours is drawn the same by the LCD renderer, so a difference there is never explained
/// (``isCoveredAlike(_:x:y:width:)``, ``markingEvenlyCovered(in:candidates:_:_:)``): the ink
/// or the ground itself changed, as along a link's underline or a bold stem; and a word-scale
/// group of gray text in the images as drawn fails as a coherent change when its solid ink or
/// background changed lightness (``StructuralComparison/movesInk(of:_:_:rule:labCache:)``).
struct SubpixelText {
    /// The least tint a fringe adds, in levels of chroma (largest channel less smallest).
    static let fringeChroma = 24
    /// The most chroma of the pixel under a fringe: gray or slate text on a light background.
    static let textChroma = 24
    static let fringeShare = 0.25
    static let balance = 0.3
    /// How far, in levels, a fringe's green may lie outside the span of its red and blue.
    static let greenSlack = 4
    /// Too few fringes make no signature.
    static let minimumFringes = 32

    /// Whether the LCD-drawn image is the actual (new) one.
    let actualIsLCD: Bool

    /// The pair's sub-pixel text, or nil when it does not carry the signature. `marked` holds
    /// the pixels beyond the noise threshold.
    init?(_ reference: RGBAImage, _ actual: RGBAImage, marked: DifferenceMask, bands: Int = 0) {
        guard !reference.is16Bit, !actual.is16Bit, reference.width == actual.width, reference.height == actual.height
        else { return nil }
        let (width, height) = (marked.width, marked.height)
        let bands = RowBands.count(height: height, requested: bands)
        let perBand = reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                marked.withUnsafeBytes { bits in
                    let shared = UncheckedSendable((a, b, bits))
                    return RowBands.map(height: height, bands: bands) { _, rows in
                        let (a, b, bits) = shared.value
                        var counts = (actual: FringeCount(), reference: FringeCount(), marked: 0)
                        guard let a = a.baseAddress, let b = b.baseAddress, let bits = bits.baseAddress else { return counts }
                        var lastPair = LastPair<(actual: Fringe?, reference: Fringe?)>()
                        for y in rows {
                            DifferenceMask.forEachMarked(inRow: bits + y * width, width: width) { x in
                                let index = y * width + x
                                let fringes = lastPair.value(a, b, pixel: index) {
                                    (Self.fringe(b, over: a, at: index * 4), Self.fringe(a, over: b, at: index * 4))
                                }
                                counts.marked += 1
                                counts.actual.add(fringes.actual)
                                counts.reference.add(fringes.reference)
                            }
                        }
                        return counts
                    }
                }
            }
        }
        let counts = perBand.reduce((actual: FringeCount(), reference: FringeCount())) { total, band in
            (FringeCount(warm: total.actual.warm + band.actual.warm, cool: total.actual.cool + band.actual.cool),
             FringeCount(warm: total.reference.warm + band.reference.warm, cool: total.reference.cool + band.reference.cool))
        }
        let markedCount = perBand.reduce(0) { $0 + $1.marked }
        func carries(_ count: FringeCount) -> Bool {
            let fringes = count.warm + count.cool
            return fringes >= Self.minimumFringes && Double(fringes) >= Self.fringeShare * Double(markedCount)
                && Double(min(count.warm, count.cool)) >= Self.balance * Double(fringes)
        }
        switch (carries(counts.actual), carries(counts.reference)) {
        case (true, false): actualIsLCD = true
        case (false, true): actualIsLCD = false
        default: return nil
        }
    }

    /// The pair with the LCD image's differing pixels drawn as grayscale anti-aliasing draws them.
    func grayscaled(_ reference: RGBAImage, _ actual: RGBAImage) -> (reference: RGBAImage, actual: RGBAImage) {
        actualIsLCD
            ? (reference, Self.redrawnInGrayscale(actual, over: reference))
            : (Self.redrawnInGrayscale(reference, over: actual), actual)
    }

    /// `image` (the LCD one) with every opaque pixel that differs from `other` and lies more
    /// than ``untintedDeparture`` from its ``singleCoverageMix(of:in:x:y:width:height:)``
    /// drawn as that mix.
    static func redrawnInGrayscale(_ image: RGBAImage, over other: RGBAImage) -> RGBAImage {
        let (width, height) = (image.width, image.height)
        var pixels = image.pixels
        image.pixels.withUnsafeBufferPointer { lcd in
            other.pixels.withUnsafeBufferPointer { gray in
                pixels.withUnsafeMutableBufferPointer { output in
                    guard let lcd = lcd.baseAddress, let gray = gray.baseAddress, let output = output.baseAddress else { return }
                    for y in 0..<height {
                        for x in 0..<width {
                            let k = (y * width + x) * 4
                            guard lcd[k + 3] == 255, gray[k + 3] == 255,
                                lcd[k] != gray[k] || lcd[k + 1] != gray[k + 1] || lcd[k + 2] != gray[k + 2],
                                let mix = singleCoverageMix(of: lcd, in: gray, x: x, y: y, width: width, height: height),
                                max(abs(Int(mix.0) - Int(lcd[k])), abs(Int(mix.1) - Int(lcd[k + 1])), abs(Int(mix.2) - Int(lcd[k + 2])))
                                    > untintedDeparture
                            else { continue }
                            (output[k], output[k + 1], output[k + 2]) = mix
                        }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    /// Columns to each side searched for the ink and the background: LCD filtering spreads a
    /// stem's ink over a pixel and a third to each side.
    static let inkReach = 2
    /// A pixel within this many levels of its one-coverage mix, in every channel, carries no
    /// fringe and is left as drawn.
    static let untintedDeparture = 4
    /// Ink and background at least this far apart in some channel make a mix.
    static let minimumSpan = 32

    /// The colour grayscale anti-aliasing gives the pixel at (x, y) of `lcd`. The ink and the
    /// background are those of `gray` around it (``inkAndBackground(around:_:in:width:height:)``);
    /// the pixel's coverage is its channels' distance from the background, each weighted by how
    /// far ink and background lie apart in it; the result is the background moved that far
    /// towards the ink. Nil where ink and background lie less than ``minimumSpan`` apart in
    /// every channel (flat colour: nothing to mix).
    static func singleCoverageMix(
        of lcd: UnsafePointer<UInt8>, in gray: UnsafePointer<UInt8>, x: Int, y: Int, width: Int, height: Int
    ) -> (UInt8, UInt8, UInt8)? {
        let (darkest, lightest) = inkAndBackground(around: x, y, in: gray, width: width, height: height)
        let span = darkest &- lightest
        let k = (y * width + x) * 4
        let pixel = SIMD3(Int(lcd[k]), Int(lcd[k + 1]), Int(lcd[k + 2]))
        let magnitude = abs(span.x) + abs(span.y) + abs(span.z)
        guard max(abs(span.x), abs(span.y), abs(span.z)) >= minimumSpan else { return nil }
        // The coverage of each channel, weighted by how far ink and background lie apart in it.
        let offset = pixel &- lightest
        let weighted = offset.x * span.x.signum() + offset.y * span.y.signum() + offset.z * span.z.signum()
        let coverage = Double(weighted) / Double(magnitude)
        func channel(_ index: Int) -> UInt8 { UInt8(clamping: Int((Double(lightest[index]) + coverage * Double(span[index])).rounded())) }
        return (channel(0), channel(1), channel(2))
    }

    static func chroma(_ colour: SIMD3<Int>) -> Int { colour.max() - colour.min() }

    /// Whether `colour` is near-gray: its chroma at most ``textChroma``.
    static func isNearGray(_ colour: SIMD3<Int>) -> Bool { chroma(colour) <= textChroma }

    /// The darkest and the lightest colour (by the sum of their channels) of `image` within
    /// ``inkReach`` columns and one row of (x, y): the ink and the background there, light on
    /// dark or dark on light, of any colour.
    static func inkAndBackground(
        around x: Int, _ y: Int, in image: UnsafePointer<UInt8>, width: Int, height: Int
    ) -> (ink: SIMD3<Int>, background: SIMD3<Int>) {
        let (darkest, lightest) = darkestAndLightest(
            in: image, width: width, columns: max(0, x - inkReach)...min(width - 1, x + inkReach),
            rows: max(0, y - 1)...min(height - 1, y + 1))
        return (darkest, lightest)
    }

    /// The darkest and the lightest colour (by the sum of their channels) of `image` over
    /// `columns` × `rows`; the first of equals.
    @inline(__always)
    static func darkestAndLightest(
        in image: UnsafePointer<UInt8>, width: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>
    ) -> (darkest: SIMD3<Int>, lightest: SIMD3<Int>) {
        var darkest = SIMD3<Int>(repeating: 255), lightest = SIMD3<Int>(repeating: 0)
        var (darkestSum, lightestSum) = (Int.max, Int.min)
        for y in rows {
            for x in columns {
                let k = (y * width + x) * 4
                let c = SIMD3(Int(image[k]), Int(image[k + 1]), Int(image[k + 2]))
                let sum = c.x + c.y + c.z
                if sum < darkestSum { (darkest, darkestSum) = (c, sum) }
                if sum > lightestSum { (lightest, lightestSum) = (c, sum) }
            }
        }
        return (darkest, lightest)
    }

    /// How many levels, in any channel, a neighbour may lie from a pixel that
    /// ``isCoveredAlike(_:x:y:width:)`` takes as covered alike with it.
    static let evenLevels = 2

    /// Whether the pixel at (x, y) of the grayscale image holds the colour of its left and right
    /// neighbours (within ``evenLevels`` in every channel): ink or ground covers it and both
    /// sides alike. LCD filtering spreads a stripe's ink at most two stripes (two thirds of a
    /// pixel) sideways, so the LCD renderer draws such a pixel in that same colour; of the LCD
    /// pages of the render corpora, at most 30 such pixels a page differ by more than 4 levels,
    /// none in a group. The first and last columns have one neighbour and are not taken.
    static func isCoveredAlike(_ gray: UnsafePointer<UInt8>, x: Int, y: Int, width: Int) -> Bool {
        guard x > 0, x < width - 1 else { return false }
        let k = (y * width + x) * 4
        func alike(_ neighbour: Int) -> Bool {
            (0..<3).allSatisfy { abs(Int(gray[neighbour + $0]) - Int(gray[k + $0])) <= evenLevels }
        }
        return alike(k - 4) && alike(k + 4)
    }

    /// `unexplained` with every pixel of `candidates` that the grayscale image of the pair
    /// covers alike (``isCoveredAlike(_:x:y:width:)``) marked again, whatever explained it: the
    /// LCD renderer draws such a pixel as the grayscale one does, so a difference there is a
    /// change of the ink's or the ground's own colour.
    func markingEvenlyCovered(
        in unexplained: inout DifferenceMask, candidates: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage
    ) {
        let gray = actualIsLCD ? reference : actual
        let width = candidates.width
        var evenlyCovered: [Int] = []
        gray.pixels.withUnsafeBufferPointer { pixels in
            candidates.withUnsafeBytes { bits in
                guard let pixels = pixels.baseAddress, let bits = bits.baseAddress else { return }
                for y in 0..<candidates.height {
                    DifferenceMask.forEachMarked(inRow: bits + y * width, width: width) { x in
                        if Self.isCoveredAlike(pixels, x: x, y: y, width: width) { evenlyCovered.append(y * width + x) }
                    }
                }
            }
        }
        for index in evenlyCovered { unexplained.set(x: index % width, y: index / width) }
    }

    enum Fringe { case warm, cool }

    /// The pixel at byte offset `k` less its mean level, channel by channel: its tint.
    @inline(__always)
    static func tint(_ image: UnsafePointer<UInt8>, at k: Int) -> SIMD3<Int> {
        let c = SIMD3(Int(image[k]), Int(image[k + 1]), Int(image[k + 2]))
        return 3 &* c &- (c.x + c.y + c.z)
    }

    /// How far the tint of the opaque pixel at byte offset `k` of `image` departs from that
    /// of `other` (in thirds of a level), or nil when either pixel is not opaque or `other`'s
    /// is not near-gray (its chroma above ``textChroma``): the LCD fringe it adds.
    @inline(__always)
    static func addedTint(_ image: UnsafePointer<UInt8>, over other: UnsafePointer<UInt8>, at k: Int) -> SIMD3<Int>? {
        guard image[k + 3] == 255, other[k + 3] == 255 else { return nil }
        let otherTint = tint(other, at: k)
        guard chroma(otherTint) <= 3 * textChroma else { return nil }
        return tint(image, at: k) &- otherTint
    }

    /// Whether the pixel at byte offset `k` of `image` is an LCD fringe over the grayscale
    /// text of `other`, and which: an added tint of at least ``fringeChroma`` with green
    /// between red and blue.
    @inline(__always)
    static func fringe(_ image: UnsafePointer<UInt8>, over other: UnsafePointer<UInt8>, at k: Int) -> Fringe? {
        guard let added = addedTint(image, over: other, at: k), chroma(added) >= 3 * fringeChroma,
            added.y >= min(added.x, added.z) - 3 * greenSlack, added.y <= max(added.x, added.z) + 3 * greenSlack
        else { return nil }
        return added.x > added.z ? .warm : .cool
    }

    struct FringeCount {
        var warm = 0
        var cool = 0

        mutating func add(_ fringe: Fringe?) {
            switch fringe {
            case .warm: warm += 1
            case .cool: cool += 1
            case nil: break
            }
        }
    }
}
