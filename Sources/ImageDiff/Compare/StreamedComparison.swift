/// Compares two same-size images that arrive a band of rows at a time, for instance while both
/// decode, so that neither is ever held whole.
///
/// Each thread scans its rows with its own ``Scanner``; ``result(merging:mask:)`` adds the
/// scanners up. Whatever the split of rows into bands and threads, the result equals
/// ``compare(_:_:options:)`` on the whole images.
package struct StreamedComparison: Sendable {
    /// The rows above and below a row that judging it may read: anti-aliasing detection looks
    /// up to two rows away.
    package static let contextRows = 2

    package let width: Int
    package let height: Int
    let options: ComparisonOptions
    let ignored: IgnoreMap?

    /// Nil for ImageMagick's AE count, which reads 16-bit samples, the structural mode, which
    /// clusters, and ssim-cie94, whose windows reach 15 rows each way: they take whole images.
    package init?(width: Int, height: Int, options: ComparisonOptions) {
        guard width > 0, height > 0 else { return nil }
        switch options.metric {
        case .imageMagickAE, .imageMagick, .structural, .ssimCIE94: return nil
        default: break
        }
        self.width = width
        self.height = height
        self.options = options
        ignored = IgnoreMap(options: options, width: width, height: height)
    }

    /// Whether the scanners mark differing pixels (``ComparisonOptions/collectsMask``): they
    /// then need a ``MaskBuffer`` of the whole image.
    package var collectsMask: Bool { options.collectsMask }

    /// A scanner for one thread; its colour caches stay warm from band to band.
    package func makeScanner() -> Scanner { Scanner(self) }

    /// The comparison of every row, from the scanners that covered them once each, with the
    /// mask they marked.
    package func result(merging scanners: [Scanner], mask: MaskBuffer? = nil) -> DiffResult {
        var total = BandStatistics()
        for scanner in scanners {
            if let statistics = scanner.judge?.statistics { total.merge(statistics) }
        }
        let size = ImageSize(width: width, height: height)
        return DiffResult(
            total, options: options, width: width, height: height, referenceSize: size, actualSize: size,
            mask: collectsMask ? mask?.mask : nil)
    }

    /// The whole image's mask, which scanners on several threads mark, each its own rows.
    package final class MaskBuffer: @unchecked Sendable {
        let width: Int
        let height: Int
        /// One byte a pixel, row-major, 1 where the pixel differs.
        package let bytes: UnsafeMutablePointer<UInt8>

        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
            bytes = .allocate(capacity: max(1, width * height))
            bytes.initialize(repeating: 0, count: max(1, width * height))
        }

        deinit { bytes.deallocate() }

        var mask: DifferenceMask {
            DifferenceMask(width: width, height: height, bits: Array(UnsafeBufferPointer(start: bytes, count: width * height)))
        }
    }

    /// Judges rows of the two images, band after band.
    package struct Scanner {
        let comparison: StreamedComparison
        /// Made at the first band, and kept for its caches.
        var judge: PixelJudge?

        init(_ comparison: StreamedComparison) { self.comparison = comparison }

        /// Whether a row judged so far held a differing pixel.
        package var hasFoundDifferences: Bool { (judge?.statistics.differentPixels ?? 0) > 0 }

        /// Judges `rows`. `reference` and `actual` point at row `firstRow` of buffers that
        /// hold at least the rows `rows` widened by ``StreamedComparison/contextRows`` on each
        /// side (clipped to the image), `width * 4` bytes a row. `mask` points at row 0 of the
        /// whole image's mask when the comparison collects one.
        package mutating func scan(
            rows: Range<Int>, reference: UnsafePointer<UInt8>, actual: UnsafePointer<UInt8>, firstRow: Int,
            mask: UnsafeMutablePointer<UInt8>? = nil
        ) {
            let offset = -firstRow * comparison.width * 4
            let a = reference.advanced(by: offset), b = actual.advanced(by: offset)
            if judge == nil {
                judge = PixelJudge(
                    options: comparison.options, width: comparison.width, height: comparison.height,
                    a: a, b: b, mask: nil, maskWidth: comparison.width, ignored: comparison.ignored)
            }
            judge?.a = a
            judge?.b = b
            judge?.mask = comparison.collectsMask ? mask : nil
            judge?.scanVectorized(rows: rows)
        }
    }
}
