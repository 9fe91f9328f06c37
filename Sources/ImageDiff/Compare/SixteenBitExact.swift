extension DiffResult {
    /// With ``ComparisonMetric/exact`` and a 16-bit source on either side, the pixels that the
    /// 16-bit samples tell apart count too: every other metric reads `floor(v / 257)`, which maps
    /// 257 samples to one level, so the 8-bit pass alone calls two such images equal.
    ///
    /// A pixel differs when any of its four samples on ImageMagick's Q16 scale differs (an 8-bit
    /// side's samples times 257), unless both are fully transparent (alpha 0 in 16 bits).
    /// Every pixel the 8-bit rule finds different differs so too, so only the overlap's pixels
    /// that the 8-bit pass found equal are looked at again: those beyond the ignored regions
    /// that differ are counted, or, with `ignoreAntialiasing`, taken for anti-aliasing where
    /// pixelmatch's detector finds the 8-bit pixel so. The statistics of the 8-bit pass (largest
    /// channel difference, ΔE, histogram) stay as they are, in 8-bit levels.
    func applyingSixteenBitExactCount(_ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions) -> DiffResult {
        guard options.metric == .exact, reference.is16Bit || actual.is16Bit else { return self }
        let width = min(reference.width, actual.width), height = min(reference.height, actual.height)
        let ignored = IgnoreMap(options: options, width: width, height: height)
        // The 8-bit samples of the overlap, for the 8-bit rule and the anti-aliasing detector.
        let (first, second) = (reference.overlap(width: width, height: height), actual.overlap(width: width, height: height))
        var result = self
        var mask = result.mask.take()
        let maskWidth = mask?.width ?? 0
        first.pixels.withUnsafeBufferPointer { a in
            second.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for y in 0..<height {
                    guard !reference.rowMatchesInSixteenBits(actual, y, width: width) else { continue }
                    for x in 0..<width where ignored?.contains(x: x, y: y) != true {
                        // Equal by the 8-bit pass's rule (no channel apart, or both fully transparent), unequal in 16 bits.
                        guard PixelDelta.maxChannelDelta(a, b, (y * width + x) * 4) == 0,
                            reference.differsInSixteenBits(actual, y * reference.width + x, y * actual.width + x)
                        else { continue }
                        if options.ignoreAntialiasing,
                            PixelMatch.isAntialiasedVectorized(a, x: x, y: y, width: width, height: height, a, b)
                                || PixelMatch.isAntialiasedVectorized(b, x: x, y: y, width: width, height: height, b, a)
                        {
                            result.antialiasedPixels += 1
                            if options.marksAntialiasedPixels {
                                mask?.withUnsafeMutableBytes { bits in bits?[y * maskWidth + x] = 2 }
                            }
                            continue
                        }
                        result.differentPixels += 1
                        mask?.set(x: x, y: y)
                        result.boundingBox.formUnion(PixelRect(minX: x, minY: y, maxX: x, maxY: y))
                    }
                }
            }
        }
        result.mask = mask
        result.differentRatio = result.totalPixels == 0 ? 0 : Double(result.differentPixels) / Double(result.totalPixels)
        result.judge(by: options.allowance)
        return result
    }
}

extension RGBAImage {
    /// The image cut to `width` × `height` from its top-left corner (8-bit samples only), or
    /// itself when it is that size.
    fileprivate func overlap(width: Int, height: Int) -> RGBAImage {
        self.width == width && self.height == height ? self : cropped(width: width, height: height)
    }

    /// Whether the first `width` pixels of row `y` hold the same 16-bit samples as `other`'s,
    /// both images 16-bit.
    fileprivate func rowMatchesInSixteenBits(_ other: RGBAImage, _ y: Int, width: Int) -> Bool {
        guard let mine = samples16, let theirs = other.samples16 else { return false }
        let (row, otherRow) = (y * self.width * 4, y * other.width * 4)
        return mine[row..<(row + width * 4)].elementsEqual(theirs[otherRow..<(otherRow + width * 4)])
    }

    /// The exact rule on Q16 samples (``quantum(_:_:)``): pixel `index` of this image against
    /// pixel `otherIndex` of `other`.
    fileprivate func differsInSixteenBits(_ other: RGBAImage, _ index: Int, _ otherIndex: Int) -> Bool {
        guard quantum(index, 3) != 0 || other.quantum(otherIndex, 3) != 0 else { return false }
        return (0..<4).contains { quantum(index, $0) != other.quantum(otherIndex, $0) }
    }
}
