/// One image that shows a failure at a glance, readable in any viewer: the reference, the new
/// image, and a highlight side by side, over a line of numbers.
///
/// The highlight is the reference faded to a fifth of its contrast, every changed pixel (even
/// one level) in orange, the pixels the metric counts in red, and a magenta box around each
/// region of counted pixels, so that a one-level change the blend hides still shows. The line below reads
/// `COUNTED/CHANGED px  RATIO%  dE MAX`.
public enum ReviewImage {
    /// Pixels of grey between the three panels, and of white margin around the caption below them.
    public static let gap = 8
    static let scale = 2
    static let gapColour = RGBA(128, 128, 128)
    static let changedColour = RGBA(255, 160, 0)
    static let countedColour = RGBA(230, 0, 0)
    static let boxColour = RGBA(255, 0, 255)

    /// The size of the review image of a pair spanning `width × height`, but for a caption
    /// wider than its three panels.
    public static func canvasSize(width: Int, height: Int) -> ImageSize {
        ImageSize(width: 3 * max(width, 1) + 2 * gap, height: max(height, 1) + Glyphs.height * scale + 2 * gap)
    }

    /// The review image of a compared pair. `result.mask`, when present, marks the pixels the
    /// metric counts; without it, every changed pixel counts.
    public static func render(reference: RGBAImage, actual: RGBAImage, result: DiffResult) -> RGBAImage {
        let panelWidth = max(reference.width, actual.width, 1), panelHeight = max(reference.height, actual.height, 1)
        let text = caption(result, changed: changedPixels(reference, actual, width: panelWidth, height: panelHeight))
        let canvas = canvasSize(width: panelWidth, height: panelHeight)
        let width = max(canvas.width, Glyphs.width(text) * scale + 2 * gap)
        var image = RGBAImage(width: width, height: canvas.height, filledWith: RGBA(255, 255, 255))
        for y in 0..<panelHeight {
            for x in panelWidth..<(panelWidth + gap) where x < width { image[x, y] = gapColour }
            for x in (2 * panelWidth + gap)..<(2 * panelWidth + 2 * gap) where x < width { image[x, y] = gapColour }
        }
        copy(reference, into: &image, x: 0)
        copy(actual, into: &image, x: panelWidth + gap)
        drawHighlight(reference, actual, result: result, into: &image, x: 2 * (panelWidth + gap), size: (panelWidth, panelHeight))
        Glyphs.draw(text, into: &image, x: gap, y: panelHeight + gap, scale: scale, colour: RGBA(0, 0, 0))
        return image
    }

    /// `COUNTED/CHANGED px  RATIO%  dE MAX`.
    static func caption(_ result: DiffResult, changed: Int) -> String {
        "\(result.differentPixels)/\(changed) px  \(decimal(result.differentRatio * 100, 2))%  dE \(decimal(result.maxDeltaE, 1))"
    }

    /// Pixels of the `width × height` area that changed (``changed(_:_:x:y:)``).
    static func changedPixels(_ reference: RGBAImage, _ actual: RGBAImage, width: Int, height: Int) -> Int {
        var count = 0
        for y in 0..<height {
            for x in 0..<width where changed(reference, actual, x: x, y: y) { count += 1 }
        }
        return count
    }

    /// Whether the pixel at `x, y` of the compared area differs at all, or lies outside either
    /// image (as a comparison of two sizes counts it, in one image only or in neither).
    static func changed(_ reference: RGBAImage, _ actual: RGBAImage, x: Int, y: Int) -> Bool {
        let inReference = x < reference.width && y < reference.height
        let inActual = x < actual.width && y < actual.height
        return !(inReference && inActual) || reference[x, y] != actual[x, y]
    }

    static func decimal(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let units = Int((value * scale).rounded())
        let whole = units / Int(scale), fraction = units % Int(scale)
        var fractionText = String(fraction)
        while fractionText.count < digits { fractionText = "0" + fractionText }
        return "\(whole).\(fractionText)"
    }

    static func copy(_ source: RGBAImage, into image: inout RGBAImage, x left: Int) {
        for y in 0..<source.height {
            for x in 0..<source.width { image[left + x, y] = source[x, y].overWhite }
        }
    }

    static func drawHighlight(
        _ reference: RGBAImage, _ actual: RGBAImage, result: DiffResult, into image: inout RGBAImage, x left: Int,
        size: (width: Int, height: Int)
    ) {
        var counted = [Bool](repeating: false, count: size.width * size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let inReference = x < reference.width && y < reference.height
                let base = inReference ? reference[x, y].overWhite : RGBA(255, 255, 255)
                let faded = RGBA(fade(base.r), fade(base.g), fade(base.b))
                let differs = changed(reference, actual, x: x, y: y)
                let counts = result.mask.map { x < $0.width && y < $0.height && $0.contains(x: x, y: y) } ?? differs
                counted[y * size.width + x] = counts
                image[left + x, y] = counts ? countedColour : differs ? changedColour : faded
            }
        }
        for box in regions(counted, width: size.width, height: size.height) {
            drawBox(box.expanded(by: 2, width: size.width, height: size.height), into: &image, x: left)
        }
    }

    static func fade(_ c: UInt8) -> UInt8 { UInt8(255 - (255 - Int(c)) / 5) }

    /// Bounding boxes of the marked pixels, joined over 16 × 16 cells: marked cells that touch
    /// (including diagonally) form one region.
    static func regions(_ marked: [Bool], width: Int, height: Int) -> [PixelRect] {
        let cell = 16
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        var boxes = [PixelRect?](repeating: nil, count: columns * rows)
        for y in 0..<height {
            for x in 0..<width where marked[y * width + x] {
                let index = (y / cell) * columns + x / cell
                let pixel = PixelRect(minX: x, minY: y, maxX: x, maxY: y)
                boxes[index] = boxes[index].map { $0.union(pixel) } ?? pixel
            }
        }
        var seen = [Bool](repeating: false, count: columns * rows)
        var regions: [PixelRect] = []
        for start in boxes.indices where boxes[start] != nil && !seen[start] {
            var region: PixelRect?
            var stack = [start]
            seen[start] = true
            while let index = stack.popLast() {
                if let box = boxes[index] { region = region.map { $0.union(box) } ?? box }
                let cx = index % columns, cy = index / columns
                for ny in max(0, cy - 1)...min(rows - 1, cy + 1) {
                    for nx in max(0, cx - 1)...min(columns - 1, cx + 1) {
                        let next = ny * columns + nx
                        if boxes[next] != nil && !seen[next] {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
            if let region { regions.append(region) }
        }
        return regions
    }

    static func drawBox(_ box: PixelRect, into image: inout RGBAImage, x left: Int) {
        for x in box.minX...box.maxX {
            image[left + x, box.minY] = boxColour
            image[left + x, box.maxY] = boxColour
        }
        for y in box.minY...box.maxY {
            image[left + box.minX, y] = boxColour
            image[left + box.maxX, y] = boxColour
        }
    }
}

extension PixelRect {
    /// The rectangle grown by `margin` on every side, kept within `width × height`.
    func expanded(by margin: Int, width: Int, height: Int) -> PixelRect {
        PixelRect(
            minX: max(0, minX - margin), minY: max(0, minY - margin),
            maxX: min(width - 1, maxX + margin), maxY: min(height - 1, maxY + margin))
    }
}

/// A 5 × 7 bitmap font for the review image's numbers: digits and the few signs and letters
/// the caption uses.
enum Glyphs {
    static let height = 7
    static let advance = 6

    static let rows: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ".": [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C], "%": [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
        "/": [0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00], " ": [0, 0, 0, 0, 0, 0, 0],
        "p": [0x00, 0x00, 0x1E, 0x11, 0x1E, 0x10, 0x10], "x": [0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11],
        "d": [0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F], "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        "-": [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
    ]

    static func width(_ text: String) -> Int { text.count * advance }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide;
    /// characters without a glyph are left blank.
    static func draw(_ text: String, into image: inout RGBAImage, x: Int, y: Int, scale: Int, colour: RGBA) {
        for (index, character) in text.enumerated() {
            guard let glyph = rows[character] else { continue }
            for (row, bits) in glyph.enumerated() {
                for column in 0..<5 where bits & (0x10 >> column) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = x + (index * advance + column) * scale + dx, py = y + row * scale + dy
                            if px < image.width && py < image.height { image[px, py] = colour }
                        }
                    }
                }
            }
        }
    }
}
