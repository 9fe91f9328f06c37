import RealModule

/// JPEG's quantization, as the structural mode recognises and explains it, beside JPEG's chroma
/// subsampling (``ChromaSubsampling/quantized(quality:bands:)``): a pair whose luma it explains
/// is recompressed, whether or not its blocks kept their means (``RecompressionNoise``).
///
/// A baseline JPEG encoder cuts each plane into 8 × 8 blocks, takes each block's discrete cosine
/// transform, and divides each of its 64 coefficients by the matching entry of a quantization
/// table, rounding to a whole number; the decoder multiplies back and transforms back. What is
/// lost is the rounding: ringing beside sharp edges, strongest where a saturated colour meets
/// white, tens of levels on an orange icon or a red button at quality 90. libjpeg, and every
/// encoder built on it (cjpeg, ImageMagick, Pillow, Chromium), writes the example tables of the
/// JPEG standard (Annex K) scaled by one quality setting, 1 to 100.
///
/// So the quality is read off the pair, not assumed: the reference's luma blocks are quantized
/// under each quality's luma table and compared with the new image's blocks, coefficient by
/// coefficient (the transform keeps distances), and the quality that leaves the least difference
/// is taken (``estimate(_:_:)``). That is the setting's one free value, and it is
/// measured; a pair from an encoder with other tables is drawn no closer, and the structural
/// mode then keeps the reference as it is. A changed element keeps its difference: quantization
/// only loses detail within each block.
enum JPEGQuantization {
    /// The luma table of the JPEG standard (Annex K.1), the one libjpeg scales, row by row.
    static let lumaTable: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    /// The chroma table of the JPEG standard (Annex K.1), row by row.
    static let chromaTable: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
    ] + [Int](repeating: 99, count: 32)

    /// The qualities tried.
    static let qualities = 1...100

    /// At most this many of the reference's textured luma blocks are compared to find the
    /// quality: spread over the image, they bound the search on a large pair.
    static let largestSample = 256

    /// `base` as libjpeg scales it for `quality` (1-100): below 50 by 5000 / quality percent,
    /// above by 200 - 2 × quality percent, rounded, within 1...255.
    static func table(_ base: [Int], quality: Int) -> [Float] {
        let quality = min(max(quality, 1), 100)
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return base.map { Float(min(255, max(1, ($0 * scale + 50) / 100))) }
    }

    /// The orthonormal DCT-II basis: `basis[u * 8 + x]` is the weight of sample x in frequency u.
    static let basis: [Float] = (0..<64).map { index in
        let (u, x) = (index / 8, index % 8)
        let weight = u == 0 ? (1.0 / 8).squareRoot() : (2.0 / 8).squareRoot()
        return Float(weight * Double.cos(Double((2 * x + 1) * u) * Double.pi / 16))
    }

    /// The 8 × 8 block's transform: `block` samples row by row in, coefficients out.
    static func forward(_ block: inout [Float], _ scratch: inout [Float]) {
        separable(&block, &scratch) { output, input in basis[output * 8 + input] }
    }

    /// The inverse of ``forward(_:_:)``: the transposed basis.
    static func inverse(_ block: inout [Float], _ scratch: inout [Float]) {
        separable(&block, &scratch) { output, input in basis[input * 8 + output] }
    }

    /// `block` with the 8 × 8 matrix `weight(output, input)` applied along each row, then down
    /// each column.
    @inline(__always)
    private static func separable(_ block: inout [Float], _ scratch: inout [Float], _ weight: (Int, Int) -> Float) {
        for row in 0..<8 {
            for output in 0..<8 {
                var sum: Float = 0
                for input in 0..<8 { sum += weight(output, input) * block[row * 8 + input] }
                scratch[row * 8 + output] = sum
            }
        }
        for column in 0..<8 {
            for output in 0..<8 {
                var sum: Float = 0
                for input in 0..<8 { sum += weight(output, input) * scratch[input * 8 + column] }
                block[output * 8 + column] = sum
            }
        }
    }

    /// Each coefficient rounded to a whole multiple of its table entry.
    @inline(__always)
    static func quantize(_ block: inout [Float], _ table: [Float]) {
        for k in 0..<64 { block[k] = nearest(block[k] / table[k]) * table[k] }
    }

    /// `value` rounded to the nearest whole number (halves to even), for |value| below 2²²: the
    /// addition of 1.5 × 2²³ leaves no fraction bits, in one instruction where `rounded()` is a
    /// call.
    @inline(__always)
    static func nearest(_ value: Float) -> Float {
        (value + 12_582_912) - 12_582_912
    }

    /// The 8 × 8 block as a JPEG with `table` draws it: transformed, quantized and transformed
    /// back.
    @inline(__always)
    static func requantize(_ block: inout [Float], _ scratch: inout [Float], _ table: [Float]) {
        forward(&block, &scratch)
        quantize(&block, table)
        inverse(&block, &scratch)
    }

    /// Where a plane's samples come from, each centred on zero.
    enum Plane {
        /// `width` × `height` samples, row by row.
        case samples([Float], width: Int, height: Int)
        /// The luma of each pixel of an 8-bit opaque image, rounded to a level, as the encoder
        /// holds it (no plane of it is held first).
        case luma(RGBAImage)

        var size: (width: Int, height: Int) {
            switch self {
            case .samples(_, let width, let height): return (width, height)
            case .luma(let image): return (image.width, image.height)
            }
        }
    }

    /// `plane` as a JPEG with `table` draws it, one level (0...255, the centred value + 128) a
    /// sample, row by row: each 8 × 8 block (the last ones filled by repeating the edge samples,
    /// as the encoder pads them) requantized, each sample rounded and clipped.
    static func quantized(_ plane: Plane, table: [Float], bands: Int = 0) -> [UInt8] {
        let (width, height) = plane.size
        let blockRows = (height + 7) / 8
        var output = [UInt8](repeating: 0, count: width * height)
        let (samples, image): ([Float], RGBAImage?) = switch plane {
        case .samples(let samples, _, _): (samples, nil)
        case .luma(let image): ([], image)
        }
        output.withUnsafeMutableBufferPointer { output in
            samples.withUnsafeBufferPointer { samples in
                (image?.pixels ?? []).withUnsafeBufferPointer { pixels in
                    let shared = UncheckedSendable((samples, pixels, output))
                    let fromPixels = image != nil
                    RowBands.forEach(height: blockRows, bands: RowBands.count(height: blockRows, requested: bands)) { _, rows in
                        let (samples, pixels, output) = shared.value
                        var block = [Float](repeating: 0, count: 64), scratch = block
                        for top in rows.lazy.map({ $0 * 8 }) {
                            for left in stride(from: 0, to: width, by: 8) {
                                for y in 0..<8 {
                                    let row = min(top + y, height - 1) * width
                                    for x in 0..<8 {
                                        let index = row + min(left + x, width - 1)
                                        block[y * 8 + x] = fromPixels ? nearest(luma(pixels, index * 4) - 128) : samples[index]
                                    }
                                }
                                requantize(&block, &scratch, table)
                                for y in 0..<min(8, height - top) {
                                    for x in 0..<min(8, width - left) {
                                        output[(top + y) * width + left + x] = UInt8(min(255, max(0, nearest(block[y * 8 + x]) + 128)))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// The luma of the pixel at byte offset `k` (JFIF, 0...255).
    @inline(__always)
    static func luma(_ pixels: UnsafeBufferPointer<UInt8>, _ k: Int) -> Float {
        0.299 * Float(pixels[k]) + 0.587 * Float(pixels[k + 1]) + 0.114 * Float(pixels[k + 2])
    }

    /// The quality a pair's luma was quantized at, and how much of its difference that explains.
    struct Estimate: Equatable {
        /// libjpeg's scale of the standard tables.
        var quality: Int
        /// Samples of the sampled blocks whose luma differs by more than ``decoderRounding``
        /// levels from the new image's: with the reference's blocks as they are, and quantized at
        /// ``quality``.
        var unquantizedDiffering: Int
        var quantizedDiffering: Int

        /// Whether quantizing the reference explains most of the luma difference: some samples
        /// differ, and quantized it leaves at most half as many. A JPEG round trip of the
        /// reference is drawn again to within its decoder's rounding almost everywhere: on the
        /// render corpora's round trips, a fiftieth to four fifths of the differing samples still
        /// differ (where the encoder's integer transform rounded a coefficient the other way, or
        /// clipped colours moved luma), under half on 39 of 49. Any other difference is only moved
        /// further by quantizing: 0.96 or more of the samples on every other pair.
        var explainsDifference: Bool { unquantizedDiffering > 0 && quantizedDiffering * 2 <= unquantizedDiffering }
    }

    /// The sum of squared differences between `actual`'s coefficients and `reference`'s
    /// quantized at `quality`, block after block and coefficient after coefficient.
    private static func squaredError(at quality: Int, _ reference: UnsafeBufferPointer<Float>, _ actual: UnsafeBufferPointer<Float>) -> Float {
        let steps = table(lumaTable, quality: quality)
        let reciprocal = steps.map { 1 / $0 }
        return steps.withUnsafeBufferPointer { steps in
            reciprocal.withUnsafeBufferPointer { reciprocal in
                var error: Float = 0
                for start in stride(from: 0, to: reference.count, by: 64) {
                    for k in 0..<64 {
                        let difference = nearest(reference[start + k] * reciprocal[k]) * steps[k] - actual[start + k]
                        error += difference * difference
                    }
                }
                return error
            }
        }
    }

    /// Luma differences of at most this many levels are a decoder's rounding.
    static let decoderRounding: Float = 3

    /// The quality at which the reference's luma, quantized, comes closest to the new image's
    /// (the least sum of squared differences of the coefficients, ties going to the higher
    /// quality), over up to ``largestSample`` whole blocks spread over the image where the
    /// reference is not one level. Nil for images of different sizes or 16-bit samples, or
    /// without such a block. The qualities are tried in `bands` lanes (0: as many as the
    /// image's rows allow), each sum in one order, so the answer does not depend on them.
    static func estimate(_ reference: RGBAImage, _ actual: RGBAImage, bands: Int = 0) -> Estimate? {
        guard reference.width == actual.width, reference.height == actual.height, !reference.is16Bit, !actual.is16Bit else {
            return nil
        }
        let (width, height) = (reference.width, reference.height)
        let (blockColumns, blockRows) = (width / 8, height / 8)
        guard blockColumns > 0, blockRows > 0 else { return nil }
        // Both images' sampled blocks, 64 samples each (the reference's luma rounded, as the
        // encoder holds it, the new image's as it is), and their transforms.
        var (referenceBlocks, actualBlocks) = ([Float](), [Float]())
        var (referenceCoefficients, actualCoefficients) = ([Float](), [Float]())
        var (block, scratch) = ([Float](repeating: 0, count: 64), [Float](repeating: 0, count: 64))
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                var (first, second) = ([Float](repeating: 0, count: 64), [Float](repeating: 0, count: 64))
                // Every block row of a small image; on a large one, rows spread evenly over it, each
                // read along (so that memory is read in order).
                let rowsVisited = min(blockRows, (4 * largestSample + blockColumns - 1) / blockColumns)
                visits: for visit in 0..<rowsVisited {
                    let top = (visit * blockRows / rowsVisited) * 8
                    for left in stride(from: 0, to: blockColumns * 8, by: 8) {
                        guard referenceBlocks.count < 64 * largestSample else { break visits }
                        for index in 0..<64 {
                            let k = ((top + index / 8) * width + left + index % 8) * 4
                            (first[index], second[index]) = (nearest(luma(a, k) - 128), luma(b, k) - 128)
                        }
                        guard let low = first.min(), let high = first.max(), high - low > 1 else { continue }
                        referenceBlocks += first
                        actualBlocks += second
                        forward(&first, &scratch)
                        forward(&second, &scratch)
                        referenceCoefficients += first
                        actualCoefficients += second
                    }
                }
            }
        }
        guard !referenceBlocks.isEmpty else { return nil }
        let sampled = referenceBlocks.count / 64
        let lanes = RowBands.count(height: height, requested: bands)
        let errors = referenceCoefficients.withUnsafeBufferPointer { reference in
            actualCoefficients.withUnsafeBufferPointer { actual in
                let shared = UncheckedSendable((reference, actual))
                return RowBands.map(height: qualities.count, bands: lanes) { _, offsets in
                    offsets.map { squaredError(at: qualities.lowerBound + $0, shared.value.0, shared.value.1) }
                }.flatMap { $0 }
            }
        }
        var best = (quality: qualities.upperBound, error: Float.infinity)
        for candidate in qualities.reversed() where errors[candidate - qualities.lowerBound] < best.error {
            best = (candidate, errors[candidate - qualities.lowerBound])
        }
        let quality = best.quality
        let steps = Self.table(lumaTable, quality: quality)
        var (unquantizedDiffering, quantizedDiffering) = (0, 0)
        for index in 0..<sampled {
            let start = index * 64
            block.replaceSubrange(0..<64, with: referenceCoefficients[start..<(start + 64)])
            quantize(&block, steps)
            inverse(&block, &scratch)
            for k in 0..<64 {
                let actualSample = actualBlocks[start + k]
                if abs(referenceBlocks[start + k] - actualSample) > decoderRounding { unquantizedDiffering += 1 }
                if abs(min(127, max(-128, nearest(block[k]))) - actualSample) > decoderRounding { quantizedDiffering += 1 }
            }
        }
        return Estimate(quality: quality, unquantizedDiffering: unquantizedDiffering, quantizedDiffering: quantizedDiffering)
    }
}
