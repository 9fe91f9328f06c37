/// JPEG recompression noise, as the structural mode recognises and explains it.
///
/// A JPEG encoder quantizes the cosine coefficients of each 8 × 8 block, and keeps the block's
/// mean (its DC coefficient) the finest. Re-encoding therefore moves a little nearly every
/// pixel of every textured block, but each block's mean lightness only by a few levels (the DC
/// step, and ringing clipped at black and white), and the means of its 2-pixel strips by a few
/// more. A changed element moves the means of the blocks it covers by more: a removed 1-px
/// border of 35 levels moves its blocks by 4.4 and one strip of each by 17.
///
/// The pair is taken as recompressed only when it carries the signature: at least
/// ``texturedShare`` of the reference's textured blocks differ, at most ``flatShare`` of its
/// plain blocks (flat blocks amid flat blocks of their colour) do, and at least ``smallShare``
/// of the differing pixels differ by at most ``smallDifference`` levels. Other render noise
/// (hinting, LCD text, colour profiles) differs in larger steps or in fewer blocks, and dither
/// or jitter changes plain blocks too, so a pair rendered twice is never judged by block means.
struct RecompressionNoise {
    /// The side of the blocks a JPEG encoder quantizes.
    static let blockSide = 8
    /// How far, in levels of BT.601 luma, a block's mean may move under recompression.
    static let lumaTolerance = 4.0
    /// How far the mean of a 2-pixel strip of a block (two rows, or two columns) may move: the
    /// encoder keeps the low frequencies that such means are made of nearly as well, and a
    /// removed 1-px line moves one strip by half its contrast.
    static let stripTolerance = 8.0
    static let texturedShare = 0.95
    static let smallShare = 0.25
    /// A flat block is one colour, its cosine coefficients all but the mean zero: it survives
    /// recompression but for chroma bled from its neighbours (4:2:0 codes chroma per 16 × 16
    /// pixels, and upsampling reaches a sample further), so the signature reads only plain
    /// blocks: flat, with the eight blocks around them flat in the same colour. Dither and
    /// jitter change those too.
    static let flatShare = 0.5
    static let smallDifference: UInt8 = 2
    /// Too few textured blocks make no signature.
    static let minimumTexturedBlocks = 16

    let width: Int
    let columns: Int
    /// Per block, row-major: whether its mean luma (within ``lumaTolerance``) and its strip
    /// means (within ``stripTolerance``), and those of the blocks around it, stayed (a change
    /// that straddles a block edge moves one side only a little).
    let keepsMean: [Bool]

    /// The recompression model of the pair, or nil when the pair does not carry its signature.
    /// Both images have the same size.
    init?(_ reference: RGBAImage, _ actual: RGBAImage, bands: Int = 0) {
        let (width, height, side) = (reference.width, reference.height, Self.blockSide)
        let columns = (width + side - 1) / side, rows = (height + side - 1) / side
        guard Self.carriesSignature(reference, actual, bands: bands) else { return nil }
        // Per block: the mean luma change, and per 2-pixel strip along rows and along columns.
        var lumaChange = [Double](repeating: 0, count: columns * rows)
        var strips = [Double](repeating: 0, count: columns * rows * 2 * (side / 2))
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for y in 0..<height {
                    for x in 0..<width {
                        let k = (y * width + x) * 4
                        let change = Self.luma(PixelDelta.rgbOverWhite(b, k)) - Self.luma(PixelDelta.rgbOverWhite(a, k))
                        let block = (y / side) * columns + x / side
                        lumaChange[block] += change
                        strips[block * side + (y % side) / 2] += change
                        strips[block * side + side / 2 + (x % side) / 2] += change
                    }
                }
            }
        }
        var kept = [Bool](repeating: false, count: columns * rows)
        for block in lumaChange.indices {
            let (column, row) = (block % columns, block / columns)
            let (blockWidth, blockHeight) = (min(width, (column + 1) * side) - column * side, min(height, (row + 1) * side) - row * side)
            let stripMeans = (0..<side).map { strip in
                abs(strips[block * side + strip]) / Double(strip < side / 2 ? 2 * blockWidth : 2 * blockHeight)
            }
            kept[block] = abs(lumaChange[block]) / Double(blockWidth * blockHeight) <= Self.lumaTolerance
                && stripMeans.allSatisfy { $0 <= Self.stripTolerance }
        }
        self.width = width
        self.columns = columns
        keepsMean = kept.indices.map { block in
            let (column, row) = (block % columns, block / columns)
            return (max(0, row - 1)...min(rows - 1, row + 1)).allSatisfy { neighbourRow in
                (max(0, column - 1)...min(columns - 1, column + 1)).allSatisfy { kept[neighbourRow * columns + $0] }
            }
        }
    }

    /// Whether the pair carries recompression's signature (see ``RecompressionNoise``), read
    /// from whole RGBA samples.
    static func carriesSignature(_ reference: RGBAImage, _ actual: RGBAImage, bands: Int = 0) -> Bool {
        let total = blockCounts(reference, actual, bands: bands)
        guard total.textured >= minimumTexturedBlocks,
            Double(total.texturedDiffering) >= texturedShare * Double(total.textured),
            Double(total.small) >= smallShare * Double(total.differing)
        else { return false }
        let plain = total.plainBlocks(columns: (reference.width + blockSide - 1) / blockSide)
        return Double(plain.differing) <= flatShare * Double(plain.count)
    }

    /// Whether `comparison`, of the pair's whole images with no pixel ignored, leaves room for
    /// the signature's share of small differences (``smallShare``), read off its histogram
    /// without a pass over the blocks: the pixels it counts above 0 differ, by their largest
    /// sample difference, and so, by an unknown amount, do the fully transparent pixels whose
    /// bytes changed. False only where ``carriesSignature(_:_:bands:)`` is false too.
    static func allowsSmallShare(_ comparison: DiffResult) -> Bool {
        let histogram = comparison.maxChannelDeltaHistogram
        guard comparison.ignoredPixels == 0, histogram.count > Int(smallDifference) else { return true }
        let transparent = comparison.changedTransparentPixels
        let differing = histogram.dropFirst().reduce(0, +) + transparent
        let smallAtMost = histogram[1...Int(smallDifference)].reduce(0, +) + transparent
        return Double(smallAtMost) >= smallShare * Double(differing)
    }

    /// The pair's blocks of ``blockSide`` pixels in row-major order, as the signature reads
    /// them; the rows of blocks taken in bands on all cores.
    static func blockCounts(_ reference: RGBAImage, _ actual: RGBAImage, bands: Int = 0) -> BlockCounts {
        let (width, height, side) = (reference.width, reference.height, blockSide)
        let blockRows = (height + side - 1) / side
        let bands = RowBands.count(height: height, requested: bands)
        let counts = reference.pixels.withUnsafeBytes { a in
            actual.pixels.withUnsafeBytes { b in
                let shared = UncheckedSendable((a.bindMemory(to: UInt32.self), b.bindMemory(to: UInt32.self)))
                return RowBands.map(height: blockRows, bands: bands) { _, blockRowRange in
                    let (a, b) = shared.value
                    var tally = BlockCounts()
                    tally.blocks.reserveCapacity(blockRowRange.count * ((width + side - 1) / side))
                    for top in blockRowRange.lazy.map({ $0 * side }) {
                        let bottom = min(height, top + side)
                        var left = 0
                        while left + side <= width {
                            tally.addBlockVectorized(a, b, width: width, rows: top..<bottom, left: left)
                            left += side
                        }
                        if left < width { tally.addBlock(a, b, width: width, rows: top..<bottom, columns: left..<width) }
                    }
                    return tally
                }
            }
        }
        return counts.reduce(into: BlockCounts()) { $0.add($1) }
    }

    /// What the signature reads off the blocks and their pixels.
    struct BlockCounts: Equatable {
        /// Each block counted, in the order counted (row-major when counted so).
        var blocks: [Block] = []
        var differing = 0, small = 0

        /// A block of the reference: whether it is one colour (`colour`), and whether the new
        /// image differs in it.
        struct Block: Equatable {
            var colour: UInt32?
            var differs: Bool
        }

        var textured: Int { blocks.count { $0.colour == nil } }
        var texturedDiffering: Int { blocks.count { $0.colour == nil && $0.differs } }
        var flatDiffering: Int { blocks.count { $0.colour != nil && $0.differs } }

        /// Of a row-major grid of blocks `columns` wide: how many are plain (they and the
        /// blocks around them, within the grid, flat in one colour), and in how many of those
        /// the new image differs.
        func plainBlocks(columns: Int) -> (count: Int, differing: Int) {
            let rows = columns == 0 ? 0 : blocks.count / columns
            var plain = (count: 0, differing: 0)
            for (index, block) in blocks.enumerated() {
                guard let colour = block.colour else { continue }
                let (column, row) = (index % columns, index / columns)
                let isPlain = (max(0, row - 1)...min(rows - 1, row + 1)).allSatisfy { neighbourRow in
                    (max(0, column - 1)...min(columns - 1, column + 1)).allSatisfy {
                        blocks[neighbourRow * columns + $0].colour == colour
                    }
                }
                guard isPlain else { continue }
                plain.count += 1
                if block.differs { plain.differing += 1 }
            }
            return plain
        }

        /// Counts one block of packed RGBA pixels: `columns` of `rows` of images `width` wide.
        /// The plain reference of ``addBlockVectorized(_:_:width:rows:left:)``.
        mutating func addBlock(
            _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, width: Int, rows: Range<Int>, columns: Range<Int>
        ) {
            let first = a[rows.lowerBound * width + columns.lowerBound]
            var (flat, differs) = (true, false)
            for y in rows {
                for x in columns {
                    let (before, after) = (a[y * width + x], b[y * width + x])
                    if before != first { flat = false }
                    guard before != after else { continue }
                    differs = true
                    differing += 1
                    if largestSampleDistance(before, after) <= smallDifference { small += 1 }
                }
            }
            blocks.append(Block(colour: flat ? first : nil, differs: differs))
        }

        /// ``addBlock(_:_:width:rows:columns:)`` for a block ``RecompressionNoise/blockSide``
        /// pixels wide from column `left`, a row of it at a time.
        mutating func addBlockVectorized(
            _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, width: Int, rows: Range<Int>, left: Int
        ) {
            guard let a = a.baseAddress, let b = b.baseAddress else { return }
            let colour = a[rows.lowerBound * width + left]
            let first = SIMD8(repeating: colour)
            var flat = true
            var differingLanes = SIMD8<UInt32>.zero, smallLanes = SIMD8<UInt32>.zero
            for y in rows {
                let before = UnsafeRawPointer(a + y * width + left).loadUnaligned(as: SIMD8<UInt32>.self)
                let after = UnsafeRawPointer(b + y * width + left).loadUnaligned(as: SIMD8<UInt32>.self)
                if any(before .!= first) { flat = false }
                let differs = before .!= after
                guard any(differs) else { continue }
                // A sample differs by at most `smallDifference` when its difference, moved up by
                // that much, wraps to at most twice it.
                @inline(__always)
                func sampleIsSmall(_ shift: UInt32) -> SIMDMask<SIMD8<Int32>> {
                    let moved = ((before &>> shift) & 0xFF) &- ((after &>> shift) & 0xFF) &+ UInt32(smallDifference)
                    return moved .<= SIMD8(repeating: 2 * UInt32(smallDifference))
                }
                let isSmall = differs .& sampleIsSmall(0) .& sampleIsSmall(8) .& sampleIsSmall(16) .& sampleIsSmall(24)
                differingLanes &+= SIMD8<UInt32>.zero.replacing(with: 1, where: differs)
                smallLanes &+= SIMD8<UInt32>.zero.replacing(with: 1, where: isSmall)
            }
            let differingPixels = Int(differingLanes.wrappedSum())
            differing += differingPixels
            small += Int(smallLanes.wrappedSum())
            blocks.append(Block(colour: flat ? colour : nil, differs: differingPixels > 0))
        }

        /// `other`'s blocks counted after these.
        mutating func add(_ other: BlockCounts) {
            blocks += other.blocks
            differing += other.differing
            small += other.small
        }
    }

    /// The largest difference between the four samples of two packed RGBA pixels.
    static func largestSampleDistance(_ p: UInt32, _ q: UInt32) -> UInt8 {
        var largest: UInt8 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            largest = max(largest, distance(UInt8(truncatingIfNeeded: p >> shift), UInt8(truncatingIfNeeded: q >> shift)))
        }
        return largest
    }

    /// Unmarks the pixels of `mask` whose block kept its mean, but for those of a line one pixel
    /// thick and at least `lineLength` long that differs by `lineDeltaE` (CIE94) somewhere:
    /// recompression blurs a thin line over three pixels and keeps it, while a faint rule taken
    /// away moves only its strip of each block, by less than ``stripTolerance`` when it is faint.
    /// A pixel whose chroma leaves what the reference holds around it (`chroma`, made of the
    /// reference as given and as JPEG's chroma subsampling draws it) stays marked too: the block
    /// means are luma's, and a tint moves chroma alone. Returns those pixels (indices,
    /// row-major): no blend of the colours around them explains them either.
    func removeExplained(
        from mask: inout DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, keepingLinesOf lineLength: Int,
        lineDeltaE: Double, chroma: ChromaRange
    ) -> [Int] {
        let height = mask.height
        let lines = reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return Set<Int>() }
                return Self.thinLines(in: mask, length: lineLength) { index in
                    PixelDelta.deltaE(a, b, index * 4, formula: .cie94) >= lineDeltaE
                }
            }
        }
        var chroma = chroma
        var tinted: [Int] = []
        actual.pixels.withUnsafeBufferPointer { b in
            mask.withUnsafeMutableBytes { bits in
                guard let bits, let b = b.baseAddress else { return }
                for y in 0..<height {
                    let row = bits + y * width, blockRow = (y / Self.blockSide) * columns
                    DifferenceMask.forEachMarked(inRow: row, width: width) { x in
                        guard keepsMean[blockRow + x / Self.blockSide], !lines.contains(y * width + x) else { return }
                        if chroma.admits(b, width: width, height: height, x: x, y: y) {
                            row[x] = 0
                        } else {
                            tinted.append(y * width + x)
                        }
                    }
                }
            }
        }
        return tinted
    }

    /// The chroma a recompression of the reference can give each pixel: within the range of Cb
    /// and of Cr that the reference holds in the pixel's 16 × 16 tile and the tiles around it
    /// (a 4:2:0 encoder codes chroma per 16 × 16 pixels, its cosines ring across the whole tile,
    /// and the decoder's upsampling reaches a sample beyond it), widened by ``tolerance``, by
    /// ``overshoot`` of the range's own span (quantization rings past the colours it blurs), and
    /// away from gray by ``saturation`` times the range's reach on that side (a reference that
    /// is itself the JPEG holds thin coloured strokes averaged with their ground, so the new
    /// image, drawn sharp, holds the same hues more saturated). Recompression mixes the colours
    /// of an area and cannot make a hue it lacks: gray text or a white ground that turns a
    /// little blue, or a fill tinted towards gray or another hue, is a change.
    ///
    /// The new pixel is judged as it is and as 4:2:0 averages it with its 2 × 2 block: when the
    /// reference is the JPEG and the new image the sharp one, a coloured line one pixel wide
    /// holds its full hue in the new image and only half of it in the reference. A tint of an
    /// area keeps its hue averaged. Within ``edgeReach`` of the image's edges nothing is
    /// bounded: an image cut from a larger one after encoding holds there the colour of what
    /// was cut away.
    ///
    /// The ranges are read from every image given, for the reference clipped at black and white
    /// after upsampling holds chroma that its pixels do not; a tile's range, and its merge with
    /// the tiles around it, is read when a pixel of it is first asked about.
    struct ChromaRange {
        static let tileSide = 16
        static let tolerance: Float = 2
        static let overshoot: Float = 0.5
        static let saturation: Float = 3
        /// How far into the image colour from beyond its edge reaches, when the image was cut
        /// from a larger one after encoding: one chroma sample of 4:2:0 (two pixels), whose
        /// colour the encoder averaged with what was cut away. There any chroma is admitted.
        static let edgeReach = 2

        private let sources: [RGBAImage]
        private let columns: Int, rows: Int
        /// Per tile, row-major: the lowest and highest Cb and Cr of its pixels in any source.
        private var tiles: [Extent?]
        /// Per tile: its extent merged with those of the tiles around it.
        private var neighbourhoods: [Extent?]

        /// The lowest and highest Cb and Cr of some pixels.
        struct Extent {
            var blue = (low: Float.infinity, high: -Float.infinity)
            var red = (low: Float.infinity, high: -Float.infinity)

            mutating func include(_ other: Extent) {
                blue = (min(blue.low, other.blue.low), max(blue.high, other.blue.high))
                red = (min(red.low, other.red.low), max(red.high, other.red.high))
            }

            mutating func include(cb: Float, cr: Float) {
                blue = (min(blue.low, cb), max(blue.high, cb))
                red = (min(red.low, cr), max(red.high, cr))
            }

            /// Whether `cb` and `cr` lie within the extent widened by ``ChromaRange/tolerance``
            /// and ``ChromaRange/overshoot``.
            func admits(cb: Float, cr: Float) -> Bool {
                func within(_ value: Float, _ range: (low: Float, high: Float)) -> Bool {
                    let margin = ChromaRange.tolerance + ChromaRange.overshoot * (range.high - range.low)
                    return value >= range.low - margin - ChromaRange.saturation * max(-range.low, 0)
                        && value <= range.high + margin + ChromaRange.saturation * max(range.high, 0)
                }
                return within(cb, blue) && within(cr, red)
            }
        }

        /// The ranges of `sources`, images of one size.
        init(_ sources: [RGBAImage]) {
            self.sources = sources
            let (width, height) = (sources.first?.width ?? 0, sources.first?.height ?? 0)
            columns = (width + Self.tileSide - 1) / Self.tileSide
            rows = (height + Self.tileSide - 1) / Self.tileSide
            tiles = Array(repeating: nil, count: columns * rows)
            neighbourhoods = tiles
        }

        /// Whether a recompression of the reference can give pixel (x, y) of `image` its colour,
        /// as it is or as 4:2:0 subsampling averages it with the pixels of its 2 × 2 block.
        mutating func admits(_ image: UnsafePointer<UInt8>, width: Int, height: Int, x: Int, y: Int) -> Bool {
            guard !sources.isEmpty else { return true }
            let edge = Self.edgeReach
            guard x >= edge, y >= edge, x < width - edge, y < height - edge else { return true }
            let range = neighbourhood(ofTile: (y / Self.tileSide) * columns + x / Self.tileSide)
            let own = PixelDelta.rgbOverWhite(image, (y * width + x) * 4)
            let (cb, cr) = ChromaSubsampling.chroma(own.r, own.g, own.b)
            if range.admits(cb: cb, cr: cr) { return true }
            // The block lies within the image: the pixel is at least ``edgeReach`` from its edges.
            let (left, top) = (x & ~1, y & ~1)
            var (blue, red): (Float, Float) = (0, 0)
            for blockY in top...(top + 1) {
                for blockX in left...(left + 1) {
                    let rgb = PixelDelta.rgbOverWhite(image, (blockY * width + blockX) * 4)
                    let (cb, cr) = ChromaSubsampling.chroma(rgb.r, rgb.g, rgb.b)
                    (blue, red) = (blue + cb, red + cr)
                }
            }
            return range.admits(cb: blue / 4, cr: red / 4)
        }

        /// The extent of a tile and the tiles around it, merged once.
        private mutating func neighbourhood(ofTile tile: Int) -> Extent {
            if let known = neighbourhoods[tile] { return known }
            let (column, row) = (tile % columns, tile / columns)
            var around = Extent()
            for neighbourRow in max(0, row - 1)...min(rows - 1, row + 1) {
                for neighbourColumn in max(0, column - 1)...min(columns - 1, column + 1) {
                    around.include(extent(ofTile: neighbourRow * columns + neighbourColumn))
                }
            }
            neighbourhoods[tile] = around
            return around
        }

        private mutating func extent(ofTile tile: Int) -> Extent {
            if let known = tiles[tile] { return known }
            let (column, row) = (tile % columns, tile / columns)
            var found = Extent()
            for image in sources {
                image.pixels.withUnsafeBufferPointer { pixels in
                    guard let pixels = pixels.baseAddress else { return }
                    for y in (row * Self.tileSide)..<min(image.height, (row + 1) * Self.tileSide) {
                        for x in (column * Self.tileSide)..<min(image.width, (column + 1) * Self.tileSide) {
                            let rgb = PixelDelta.rgbOverWhite(pixels, (y * image.width + x) * 4)
                            let (cb, cr) = ChromaSubsampling.chroma(rgb.r, rgb.g, rgb.b)
                            found.include(cb: cb, cr: cr)
                        }
                    }
                }
            }
            tiles[tile] = found
            return found
        }
    }

    /// The marked pixels (indices, row-major) of runs at least `length` long along a row with
    /// nothing marked above or below them, or along a column with nothing marked beside them,
    /// of which `reaches` holds for one pixel at least.
    static func thinLines(in mask: DifferenceMask, length: Int, reaches: (_ index: Int) -> Bool) -> Set<Int> {
        let (width, height) = (mask.width, mask.height)
        var lines: Set<Int> = []
        mask.withUnsafeBytes { bits in
            /// The run of marked pixels from `first` on, `step` apart, at most `count` of them; it
            /// is thin when no pixel `side` away is marked, before it (where `hasBefore`) or after
            /// it (where `hasAfter`).
            func run(from first: Int, step: Int, count: Int, side: Int, hasBefore: Bool, hasAfter: Bool) -> (length: Int, thin: Bool) {
                var (length, thin) = (0, true)
                while length < count, bits[first + length * step] != 0 {
                    let index = first + length * step
                    if (hasBefore && bits[index - side] != 0) || (hasAfter && bits[index + side] != 0) { thin = false }
                    length += 1
                }
                return (length, thin)
            }
            func keep(from first: Int, step: Int, length: Int) {
                let indices = (0..<length).map { first + $0 * step }
                if indices.contains(where: reaches) { lines.formUnion(indices) }
            }
            for y in 0..<height {
                guard let base = bits.baseAddress, let span = DifferenceMask.markedSpan(inRow: base + y * width, width: width) else { continue }
                var x = span.lowerBound
                while x <= span.upperBound {
                    let found = run(from: y * width + x, step: 1, count: width - x, side: width, hasBefore: y > 0, hasAfter: y < height - 1)
                    if found.thin, found.length >= length { keep(from: y * width + x, step: 1, length: found.length) }
                    x += max(found.length, 1)
                }
            }
            for x in 0..<width {
                var y = 0
                while y < height {
                    let found = run(from: y * width + x, step: width, count: height - y, side: 1, hasBefore: x > 0, hasAfter: x < width - 1)
                    if found.thin, found.length >= length { keep(from: y * width + x, step: width, length: found.length) }
                    y += max(found.length, 1)
                }
            }
        }
        return lines
    }

    static func luma(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> Double {
        0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b)
    }

    static func distance(_ p: UInt8, _ q: UInt8) -> UInt8 { p > q ? p - q : q - p }
}
