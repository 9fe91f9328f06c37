/// Text drawn in another ink, told from the same text drawn again by other hinting.
///
/// Hinting, sub-pixel positions and another machine's rasterizer move the partly covered
/// pixels of a glyph, so a word they redraw changes its lightness both ways, as a word in a
/// new colour redrawn by them does too. What they never change is the ink itself: a fully
/// covered pixel takes the text's colour exactly, and a partly covered one a blend of that
/// colour and the ground, on the line between them. So a word's ink is the farthest colour
/// along its line from the ground that many pixels share exactly (a plateau), and other hinting
/// leaves it where it was. Another text colour replaces it: the reference's ink is gone from
/// the place, and a plateau the reference never shows there is the new image's farthest.
///
/// A plateau is at least ``minimumInkPixels`` pixels. Partly covered shades repeat too (a
/// hinted bar's lower edge, the same on every glyph of a line), and where a light label holds
/// no fully covered pixel its darkest shade is such a plateau, which full hinting can replace
/// by the true ink. Measured on the noise pairs of the labelled render corpora (a sketch of
/// this test over the places where a pair differs), such a replaced shade held at most 7
/// pixels; a word's full-coverage ink holds several times that, and the bound is twice that
/// maximum, rounded up.
enum InkReplacement {
    /// Pixels of one exact colour that make it a plateau.
    static let minimumInkPixels = 16

    /// The largest box searched, in pixels: a changed element is a word, a label or a line,
    /// and a box of a page's many groups merged says nothing about one ink.
    static let largestBox = 1 << 18

    /// How far (in levels, Euclidean) a colour may lie from the line between the ground and an
    /// ink and still be taken for a blend of them: the rounding of each channel, and the text
    /// gamma some rasterizers apply to partial coverage.
    static let blendTolerance = 8.0

    /// How far (in levels, per channel) a colour may lie from a plateau of a pair drawn as
    /// given and still be that plateau.
    static let plateauTolerance = 2

    /// Whether the ink of `box` was replaced between `reference` and `actual`. An ink is a
    /// plateau at least the rule's strong contrast (ΔE94) from the ground (the reference's most
    /// common colour in the box) with no colour of two pixels or more beyond it on the line from
    /// the ground. The reference's ink is gone when the new image holds at most a quarter as
    /// many pixels near it, and an ink of the new image is new when the reference holds at most
    /// a quarter as many near it: within ``plateauTolerance`` in a pair `asGiven`, within the
    /// noise threshold in a pair a model redrew (a fitted display profile moves a colour by a
    /// level or two). It was replaced when one ink is gone and a new one, of a third to three
    /// times as many pixels, lies at least twice the noise threshold from it.
    static func replaces(
        in box: PixelRect, _ reference: RGBAImage, _ actual: RGBAImage, asGiven: Bool, rule: StructuralRule, labCache: inout LabCache
    ) -> Bool {
        guard box.width * box.height <= largestBox else { return false }
        let before = Histogram(box, reference)
        guard let ground = before.mostCommon else { return false }
        let inks = before.inks(from: ground, rule: rule, labCache: &labCache)
        guard !inks.isEmpty else { return false }
        let after = Histogram(box, actual)
        func count(_ histogram: Histogram, near colour: Colour) -> Int {
            asGiven
                ? histogram.count(near: colour)
                : histogram.count(near: colour, within: rule.noiseDeltaE, labCache: &labCache)
        }
        let gone = inks.filter { ink in
            4 * count(after, near: ink.colour) <= ink.pixels
        }
        guard !gone.isEmpty else { return false }
        let come = after.inks(from: ground, rule: rule, labCache: &labCache).filter { ink in
            4 * count(before, near: ink.colour) <= ink.pixels
        }
        return gone.contains { old in
            come.contains { new in
                3 * new.pixels >= old.pixels && new.pixels <= 3 * old.pixels
                    && labCache.cie94(old.colour.rgb, new.colour.rgb) >= rule.lineDeltaE
            }
        }
    }

    /// An opaque colour's channels packed as 0xRRGGBB, the alpha apart.
    struct Colour: Hashable {
        var packed: UInt32

        var channels: SIMD3<Double> {
            SIMD3(Double(packed >> 16), Double((packed >> 8) & 0xFF), Double(packed & 0xFF))
        }

        var rgb: (r: UInt8, g: UInt8, b: UInt8) {
            (UInt8(packed >> 16), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF))
        }

        static func largestChannelDistance(_ first: Colour, _ second: Colour) -> Int {
            let difference = first.channels - second.channels
            return Int(max(abs(difference.x), abs(difference.y), abs(difference.z)))
        }
    }

    /// The exact colours of one image's box, with how many pixels hold each. Translucent
    /// pixels are left out: their colour shows what lies under them.
    struct Histogram {
        /// Each colour of the box once, with its pixels, in no particular order.
        private(set) var entries: [(colour: Colour, pixels: Int)] = []

        init(_ box: PixelRect, _ image: RGBAImage) {
            var table = ColourTable()
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in max(box.minY, 0)...min(box.maxY, image.height - 1) {
                    for x in max(box.minX, 0)...min(box.maxX, image.width - 1) {
                        let offset = (y * image.width + x) * 4
                        guard pixels[offset + 3] == 255 else { continue }
                        table.add(UInt32(pixels[offset]) << 16 | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2]))
                    }
                }
            }
            entries = table.entries
        }

        var mostCommon: Colour? {
            entries.max { $0.pixels < $1.pixels || ($0.pixels == $1.pixels && $0.colour.packed > $1.colour.packed) }?.colour
        }

        /// Pixels within ``plateauTolerance`` of `colour` in every channel.
        func count(near colour: Colour) -> Int {
            entries.reduce(0) { sum, entry in
                Colour.largestChannelDistance(entry.colour, colour) <= plateauTolerance ? sum + entry.pixels : sum
            }
        }

        /// Pixels whose colour lies within `deltaE` (CIE94) of `colour`.
        func count(near colour: Colour, within deltaE: Double, labCache: inout LabCache) -> Int {
            let target = colour.rgb
            var sum = 0
            for (other, pixels) in entries where labCache.cie94(other.rgb, target, isBelow: deltaE) { sum += pixels }
            return sum
        }

        /// The plateaus that are an ink on `ground`: at least the rule's strong contrast from
        /// it, and with no colour of two pixels or more beyond them on the line from it.
        func inks(from ground: Colour, rule: StructuralRule, labCache: inout LabCache) -> [(colour: Colour, pixels: Int)] {
            let groundChannels = ground.channels
            var found: [(colour: Colour, pixels: Int)] = []
            for (colour, pixels) in entries where pixels >= minimumInkPixels && colour != ground {
                guard labCache.cie94(ground.rgb, colour.rgb) >= rule.strongDeltaE else { continue }
                let direction = colour.channels - groundChannels
                let length = (direction * direction).sum().squareRoot()
                let beyond = entries.contains { other, otherPixels in
                    guard otherPixels >= 2, other != colour else { return false }
                    let offset = other.channels - groundChannels
                    let along = (offset * direction).sum() / length
                    let across = offset - direction * (along / length)
                    return along >= length + Double(plateauTolerance) + 1
                        && (across * across).sum().squareRoot() <= blendTolerance
                }
                if !beyond { found.append((colour, pixels)) }
            }
            return found
        }
    }

    /// Pixels counted by colour (0xRRGGBB) in a table of open addressing, its slot picked by
    /// multiplying the colour by a large odd constant (Fibonacci hashing) and kept at most half
    /// full. Swift's `Dictionary` hashes each key with a seeded SipHash, which took a tenth of a
    /// structural run on a 4K page; and a row of ground repeats its colour, so the last slot is
    /// tried first.
    struct ColourTable {
        private static let empty = UInt32.max
        private var keys = [UInt32](repeating: ColourTable.empty, count: 1024)
        private var counts = [Int](repeating: 0, count: 1024)
        private var shift = 64 - 10
        private var used = 0
        private var last = (key: ColourTable.empty, slot: 0)

        mutating func add(_ key: UInt32) {
            if key == last.key {
                counts[last.slot] += 1
                return
            }
            var slot = slot(of: key)
            if keys[slot] == Self.empty {
                if 2 * (used + 1) > keys.count {
                    grow()
                    slot = self.slot(of: key)
                }
                keys[slot] = key
                used += 1
            }
            counts[slot] += 1
            last = (key, slot)
        }

        /// The slot that holds `key`, or the empty one where it would go.
        private func slot(of key: UInt32) -> Int {
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
            while keys[slot] != key && keys[slot] != Self.empty { slot = (slot + 1) & mask }
            return slot
        }

        private mutating func grow() {
            let (oldKeys, oldCounts) = (keys, counts)
            keys = [UInt32](repeating: Self.empty, count: 2 * oldKeys.count)
            counts = [Int](repeating: 0, count: 2 * oldKeys.count)
            shift -= 1
            for (key, count) in zip(oldKeys, oldCounts) where key != Self.empty {
                let slot = slot(of: key)
                keys[slot] = key
                counts[slot] = count
            }
            last = (Self.empty, 0)
        }

        var entries: [(colour: Colour, pixels: Int)] {
            zip(keys, counts).compactMap { key, count in key == Self.empty ? nil : (Colour(packed: key), count) }
        }
    }
}
