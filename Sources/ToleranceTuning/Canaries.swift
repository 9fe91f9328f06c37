import ImageDiff

/// Must-fail pairs made from a team's own snapshots: small real changes, laid over a noise
/// pair's new image, that any recommended setting has to catch.
///
/// Each canary keeps the pair's render noise and adds one change of the kind a setting loosened
/// for noise lets through first:
/// - ``Kind/faintPatch``: a word-sized patch (40 × 12 px) where the reference has the most
///   detail (text, as a rule), its colours moved by ΔE94 3;
/// - ``Kind/faintSpot``: a 10 × 5 patch (50 px) where the reference is flattest, moved by
///   ΔE94 3: the smallest change a recommendation must never miss;
/// - ``Kind/shiftedBlock``: the 48 × 24 block of most detail moved 2 px right;
/// - ``Kind/removedLine``: a 1-px line, 32 px of it, painted over with the ground beside it
///   where the noise pair's new image draws it.
///
/// A canary is a visible change of its reference: every window is chosen among the reference's
/// opaque pixels (alpha 255, where the comparisons see a colour at its full size; over a
/// translucent pixel, blended over white, a shift of ΔE94 3 shows as a fainter one, and over a
/// fully transparent pixel as none), detail is measured between colours as the comparisons see
/// them (blended over white), and a canary that changes fewer than
/// ``minimumChangedPixels`` pixels as they are seen (a flat image, a reference with no opaque
/// area large enough) is left out.
public enum Canaries {
    /// The kinds of change; the raw value names a canary in reports (`PAIR + faint-patch`) and in
    /// `--write-canaries` file names.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case faintPatch = "faint-patch"
        case faintSpot = "faint-spot"
        case shiftedBlock = "shifted-block"
        case removedLine = "removed-line"
    }

    /// The colour change of the faint patches, in CIE94 ΔE.
    public static let faintDeltaE = 3.0

    /// The fewest pixels, as the comparisons see them (blended over white), a canary must change
    /// to be made.
    public static let minimumChangedPixels = 8

    /// `actual` with each kind of change applied, where the change alters enough pixels.
    public static func make(reference: RGBAImage, actual: RGBAImage) -> [(kind: Kind, image: RGBAImage)] {
        guard reference.size == actual.size else { return [] }
        return Kind.allCases.compactMap { kind in apply(kind, reference: reference, to: actual).map { (kind, $0) } }
    }

    /// `actual` with one change of `kind` where `reference` has the most detail, or `nil` when the
    /// image is too small or too flat for the change to show, or has no opaque area for it.
    static func apply(_ kind: Kind, reference: RGBAImage, to actual: RGBAImage) -> RGBAImage? {
        switch kind {
        case .faintPatch:
            return busiestWindow(reference, width: 40, height: 12).flatMap {
                visible(faintPatch(actual, at: $0, width: 40, height: 12), over: actual)
            }
        case .faintSpot:
            return flattestWindow(reference, width: 10, height: 5).flatMap {
                visible(faintPatch(actual, at: $0, width: 10, height: 5), over: actual)
            }
        case .shiftedBlock: return shiftedBlock(reference: reference, actual: actual)
        case .removedLine: return removedLine(reference: reference, actual: actual)
        }
    }

    /// `actual` with the patch's colours moved by ``faintDeltaE``, every pixel the same way: away
    /// from the end of the scale the patch as a whole is nearer to (a tint laid over a word, or a
    /// word and its ground lightened). Moved each its own way, ink lighter and ground darker, the
    /// patch only lowered the contrast of its text, as recompression and other anti-aliasing do,
    /// and on a page saved as a JPEG no setting that explains recompression could tell it from
    /// the noise; a pixel already at the end of the scale is left as it is.
    static func faintPatch(_ actual: RGBAImage, at origin: (x: Int, y: Int), width: Int, height: Int) -> RGBAImage {
        var image = actual
        var brightness = 0
        for y in origin.y..<(origin.y + height) {
            for x in origin.x..<(origin.x + width) {
                let pixel = actual[x, y]
                brightness += Int(pixel.r) + Int(pixel.g) + Int(pixel.b)
            }
        }
        let direction = brightness > 3 * 127 * width * height ? -1 : 1
        for y in origin.y..<(origin.y + height) {
            for x in origin.x..<(origin.x + width) {
                image[x, y] = shifted(image[x, y], byDeltaE: faintDeltaE, direction: direction)
            }
        }
        return image
    }

    /// The pixel with its R, G and B moved together by `direction` (1 lighter, -1 darker), by the
    /// fewest levels that reach `target` ΔE94, or as far as the scale allows (opaque pixels;
    /// others keep their alpha).
    static func shifted(_ pixel: RGBA, byDeltaE target: Double, direction: Int) -> RGBA {
        let original = LabColor(r: pixel.r, g: pixel.g, b: pixel.b)
        var candidate = pixel
        for step in 1...255 {
            func moved(_ c: UInt8) -> UInt8 { UInt8(clamping: Int(c) + direction * step) }
            let next = RGBA(moved(pixel.r), moved(pixel.g), moved(pixel.b), pixel.a)
            if next == candidate { break }
            candidate = next
            if DeltaEFormula.cie94.difference(original, LabColor(r: candidate.r, g: candidate.g, b: candidate.b)) >= target {
                break
            }
        }
        return candidate
    }

    static func shiftedBlock(reference: RGBAImage, actual: RGBAImage) -> RGBAImage? {
        let width = 48, height = 24, distance = 2
        guard let origin = busiestWindow(reference, width: width, height: height) else { return nil }
        var image = actual
        for y in origin.y..<(origin.y + height) {
            for x in stride(from: origin.x + width - 1, through: origin.x, by: -1) {
                image[x, y] = actual[max(x - distance, 0), y]
            }
        }
        return visible(image, over: actual)
    }

    static func removedLine(reference: RGBAImage, actual: RGBAImage) -> RGBAImage? {
        let length = 32
        guard reference.width >= length, reference.height >= 3 else { return nil }
        /// The row segment's colour when it is one opaque colour (within 8 levels), else `nil`.
        func uniformColour(_ x: Int, _ y: Int) -> RGBA? {
            let first = reference[x, y]
            guard first.a == 255 else { return nil }
            for dx in 1..<length {
                let p = reference[x + dx, y]
                guard p.a == 255 else { return nil }
                if abs(Int(p.r) - Int(first.r)) > 8 || abs(Int(p.g) - Int(first.g)) > 8 || abs(Int(p.b) - Int(first.b)) > 8 {
                    return nil
                }
            }
            return first
        }
        func contrast(_ a: RGBA, _ b: RGBA) -> Int { abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) }
        // A line: a segment of one colour between two rows of another, alike (a rule, a
        // border, an underline; not the edge of a larger shape, nor a stroke of text).
        var best: (x: Int, y: Int, contrast: Int)?
        for y in 1..<(reference.height - 1) {
            for x in stride(from: 0, through: reference.width - length, by: length / 2) {
                guard let line = uniformColour(x, y), let above = uniformColour(x, y - 1), let below = uniformColour(x, y + 1),
                    contrast(above, below) <= 24
                else { continue }
                let strength = min(contrast(line, above), contrast(line, below))
                if strength >= 48, strength > best?.contrast ?? 0 { best = (x, y, strength) }
            }
        }
        guard let line = best else { return nil }
        // Other hinting or sub-pixel positioning can draw the rule a pixel higher or lower: it is
        // taken away where the actual image holds it, the row within one of the reference's
        // whose segment lies nearest the rule's colour, and painted over with the row beside it
        // that lies farther from that colour (the ground).
        let colour = reference[line.x, line.y]
        func distance(fromRule y: Int) -> Int { (0..<length).reduce(0) { $0 + contrast(actual[line.x + $1, y], colour) } }
        let rows = [line.y, line.y - 1, line.y + 1].filter { $0 >= 1 && $0 < actual.height - 1 }
        guard let row = rows.min(by: { distance(fromRule: $0) < distance(fromRule: $1) }) else { return nil }
        let ground = distance(fromRule: row - 1) >= distance(fromRule: row + 1) ? row - 1 : row + 1
        var image = actual
        for dx in 0..<length { image[line.x + dx, row] = actual[line.x + dx, ground] }
        return visible(image, over: actual)
    }

    /// The top-left corner of the opaque `width × height` window (on a grid of half its size)
    /// whose pixels differ most from their right and lower neighbours.
    static func busiestWindow(_ image: RGBAImage, width: Int, height: Int) -> (x: Int, y: Int)? {
        window(image, width: width, height: height) { $0 > $1 }
    }

    /// The opaque window whose pixels differ least from their neighbours (the first of equals).
    static func flattestWindow(_ image: RGBAImage, width: Int, height: Int) -> (x: Int, y: Int)? {
        window(image, width: width, height: height) { $0 < $1 }
    }

    static func window(_ image: RGBAImage, width: Int, height: Int, better: (Int, Int) -> Bool) -> (x: Int, y: Int)? {
        guard image.width >= width + 1, image.height >= height + 1 else { return nil }
        var best: (x: Int, y: Int, detail: Int)?
        for y in stride(from: 0, through: image.height - height - 1, by: max(height / 2, 1)) {
            candidates: for x in stride(from: 0, through: image.width - width - 1, by: max(width / 2, 1)) {
                var detail = 0
                for wy in y..<(y + height) {
                    for wx in x..<(x + width) {
                        let p = image[wx, wy]
                        guard p.a == 255 else { continue candidates }
                        let right = image[wx + 1, wy].overWhite, below = image[wx, wy + 1].overWhite
                        detail += abs(Int(p.r) - Int(right.r)) + abs(Int(p.g) - Int(right.g)) + abs(Int(p.b) - Int(right.b))
                        detail += abs(Int(p.r) - Int(below.r)) + abs(Int(p.g) - Int(below.g)) + abs(Int(p.b) - Int(below.b))
                    }
                }
                if best.map({ better(detail, $0.detail) }) ?? true { best = (x, y, detail) }
            }
        }
        guard let best, best.detail > 0 || width * height <= 50 else { return nil }
        return (best.x, best.y)
    }

    /// `canary` when it changes at least ``minimumChangedPixels`` pixels of `actual` as the
    /// comparisons see them, else `nil`.
    static func visible(_ canary: RGBAImage, over actual: RGBAImage) -> RGBAImage? {
        visiblyChangedPixels(actual, canary) >= minimumChangedPixels ? canary : nil
    }

    /// The pixels whose colours, blended over white, differ.
    static func visiblyChangedPixels(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        let (pa, pb) = (a.pixels, b.pixels)
        var count = 0
        for index in stride(from: 0, to: min(pa.count, pb.count), by: 4) where pa[index..<(index + 4)] != pb[index..<(index + 4)] {
            let x = RGBA(pa[index], pa[index + 1], pa[index + 2], pa[index + 3])
            let y = RGBA(pb[index], pb[index + 1], pb[index + 2], pb[index + 3])
            if x.overWhite != y.overWhite { count += 1 }
        }
        return count
    }
}
