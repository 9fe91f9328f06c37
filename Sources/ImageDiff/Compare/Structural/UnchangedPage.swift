/// A page drawn byte for byte the same but in a few places, each of which moved its lightness
/// one way: one element given another colour.
///
/// Render noise acts on a whole page. Other text gamma, hinting or a display profile redraws
/// every glyph or every solid colour of a kind, and a shift or other sub-pixel positions moves
/// ink both ways. Small text given another colour holds no solid stem to show its ink moved,
/// and at a glyph or two it stays under the coherent changes' size, so pixel by pixel it is
/// noise. Seen against the page it is not: the renderer drew everything else the same, down to
/// the byte, and most of the page's text is among what it drew the same.
enum UnchangedPage {
    /// Whether the pair as given (no noise model redrew either image) differs only within
    /// ``margin`` of `boxes` (the word-scale groups of its candidates, each of which moved
    /// lightness one way), and those places hold fewer of the reference's edges (pixels whose
    /// right-hand neighbour differs from them by the rule's strong contrast) than the rest of
    /// the page: a page of text that other gamma redrew has its edges in the places it changed.
    static func holdsAlone(_ boxes: [PixelRect], _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule, bands: Int = 0) -> Bool {
        guard !boxes.isEmpty, reference.width == actual.width, reference.height == actual.height else { return false }
        let places = boxes.map { box in
            PixelRect(minX: box.minX - margin, minY: box.minY - margin, maxX: box.maxX + margin, maxY: box.maxY + margin)
        }
        func isInPlace(_ x: Int, _ y: Int) -> Bool {
            places.contains { $0.minX <= x && x <= $0.maxX && $0.minY <= y && y <= $0.maxY }
        }
        guard differsOnly(where: isInPlace, reference, actual) else { return false }
        var edges = ReferenceEdges(reference, actual, rule: rule, bands: bands)
        let counts = edges.counts(rows: 0...Int.max, isOwn: isInPlace)
        return counts.own < counts.elsewhere
    }

    /// How far from a group's box its element's edges may change below the noise threshold:
    /// the side of the tiles that group it (``StructuralComparison/coherentTile``).
    static let margin = StructuralComparison.coherentTile

    /// Whether every pixel whose bytes differ between the images lies where `isInPlace` holds.
    static func differsOnly(where isInPlace: (Int, Int) -> Bool, _ reference: RGBAImage, _ actual: RGBAImage) -> Bool {
        let width = reference.width
        return reference.pixels.withUnsafeBytes { a in
            actual.pixels.withUnsafeBytes { b in
                let (a, b) = (a.bindMemory(to: UInt32.self), b.bindMemory(to: UInt32.self))
                for y in 0..<reference.height {
                    let row = y * width
                    for x in 0..<width where a[row + x] != b[row + x] && !isInPlace(x, y) { return false }
                }
                return true
            }
        }
    }
}
