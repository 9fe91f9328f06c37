/// JPEG recompression noise, as the structural mode recognises and explains it.
///
/// A JPEG encoder quantizes the cosine coefficients of each 8 × 8 block, and keeps the block's
/// mean (its DC coefficient) the finest. Re-encoding therefore moves a little nearly every
/// pixel of every textured block, but each block's mean lightness only by a few levels (the DC
/// step, and ringing clipped at black and white). A changed element moves the means of the
/// blocks it covers by more: a removed 1-px border of 35 levels moves its blocks by 4.4.
///
/// The pair is taken as recompressed only when it carries the signature: at least
/// ``texturedShare`` of the reference's textured blocks differ, at most ``flatShare`` of its
/// flat blocks do, and at least ``smallShare`` of the differing pixels differ by at most
/// ``smallDifference`` levels. Other render noise
/// (hinting, LCD text, colour profiles) differs in larger steps or in fewer blocks, and dither
/// or jitter changes flat blocks too, so a pair rendered twice is never judged by block means.
struct RecompressionNoise {
    /// The side of the blocks a JPEG encoder quantizes.
    static let blockSide = 8
    /// How far, in levels of BT.601 luma, a block's mean may move under recompression.
    static let lumaTolerance = 4.0
    static let texturedShare = 0.95
    static let smallShare = 0.5
    /// A flat block is one colour, its cosine coefficients all but the mean zero: it survives
    /// recompression but for chroma bled from its neighbours. Dither and jitter change it.
    static let flatShare = 0.5
    static let smallDifference: UInt8 = 2
    /// Too few textured blocks make no signature.
    static let minimumTexturedBlocks = 16

    let width: Int
    let columns: Int
    /// Per block, row-major: whether its mean luma and those of the blocks around it stayed
    /// within ``lumaTolerance`` (a change that straddles a block edge moves one side only a
    /// little).
    let keepsMean: [Bool]

    /// The recompression model of the pair, or nil when the pair does not carry its signature.
    /// Both images have the same size.
    init?(_ reference: RGBAImage, _ actual: RGBAImage) {
        let (width, height, side) = (reference.width, reference.height, Self.blockSide)
        let columns = (width + side - 1) / side, rows = (height + side - 1) / side
        var lumaChange = [Double](repeating: 0, count: columns * rows)
        var (textured, texturedDiffering, flatDiffering, differing, small) = (0, 0, 0, 0, 0)
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for row in 0..<rows {
                    for column in 0..<columns {
                        let (left, top) = (column * side, row * side)
                        let first = PixelDelta.rgbOverWhite(a, (top * width + left) * 4)
                        var (flat, differs, change, count) = (true, false, 0.0, 0)
                        for y in top..<min(height, top + side) {
                            for x in left..<min(width, left + side) {
                                let k = (y * width + x) * 4
                                let before = PixelDelta.rgbOverWhite(a, k), after = PixelDelta.rgbOverWhite(b, k)
                                if before != first { flat = false }
                                change += Self.luma(after) - Self.luma(before)
                                count += 1
                                let largest = max(
                                    Self.distance(before.r, after.r), Self.distance(before.g, after.g),
                                    Self.distance(before.b, after.b))
                                guard largest > 0 else { continue }
                                differs = true
                                differing += 1
                                if largest <= Self.smallDifference { small += 1 }
                            }
                        }
                        lumaChange[row * columns + column] = change / Double(count)
                        if !flat {
                            textured += 1
                            if differs { texturedDiffering += 1 }
                        } else if differs {
                            flatDiffering += 1
                        }
                    }
                }
            }
        }
        guard textured >= Self.minimumTexturedBlocks,
            Double(texturedDiffering) >= Self.texturedShare * Double(textured),
            Double(flatDiffering) <= Self.flatShare * Double(columns * rows - textured),
            Double(small) >= Self.smallShare * Double(differing)
        else { return nil }
        self.width = width
        self.columns = columns
        let kept = lumaChange.map { abs($0) <= Self.lumaTolerance }
        keepsMean = kept.indices.map { block in
            let (column, row) = (block % columns, block / columns)
            return (max(0, row - 1)...min(rows - 1, row + 1)).allSatisfy { neighbourRow in
                (max(0, column - 1)...min(columns - 1, column + 1)).allSatisfy { kept[neighbourRow * columns + $0] }
            }
        }
    }

    /// `mask` less the pixels whose block kept its mean.
    func removingExplained(from mask: DifferenceMask) -> DifferenceMask {
        var remaining = mask
        remaining.withUnsafeMutableBytes { bits in
            guard let bits else { return }
            for index in 0..<(mask.width * mask.height) where bits[index] != 0 {
                let (x, y) = (index % width, index / width)
                if keepsMean[(y / Self.blockSide) * columns + x / Self.blockSide] { bits[index] = 0 }
            }
        }
        return remaining
    }

    static func luma(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> Double {
        0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b)
    }

    static func distance(_ p: UInt8, _ q: UInt8) -> UInt8 { p > q ? p - q : q - p }
}
