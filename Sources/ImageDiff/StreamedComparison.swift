/// Compares two same-size images that arrive a band of rows at a time, for instance while both
/// decode, so that neither is ever held whole.
///
/// Each thread scans its rows with its own ``Scanner``; ``result(merging:)`` adds the
/// scanners up. Whatever the split of rows into bands and threads, the result equals
/// ``compare(_:_:options:)`` on the whole images.
public struct StreamedComparison: Sendable {
    /// The rows above and below a row that judging it may read: anti-aliasing detection looks
    /// up to two rows away.
    public static let contextRows = 2

    public let width: Int
    public let height: Int
    let options: ComparisonOptions
    let ignored: IgnoreMap?

    /// Nil for the options that need whole images: a collected mask, or ImageMagick's AE
    /// count (which reads 16-bit samples).
    public init?(width: Int, height: Int, options: ComparisonOptions) {
        guard width > 0, height > 0, !options.collectsMask else { return nil }
        if case .imageMagickAE = options.metric { return nil }
        self.width = width
        self.height = height
        self.options = options
        ignored = IgnoreMap(options: options, width: width, height: height)
    }

    /// A scanner for one thread; its colour caches stay warm from band to band.
    public func makeScanner() -> Scanner { Scanner(self) }

    /// The comparison of every row, from the scanners that covered them once each.
    public func result(merging scanners: [Scanner]) -> DiffResult {
        var total = BandStatistics()
        for scanner in scanners {
            if let statistics = scanner.judge?.statistics { total.merge(statistics) }
        }
        let size = ImageSize(width: width, height: height)
        return DiffResult(
            total, options: options, width: width, height: height, referenceSize: size, actualSize: size, mask: nil)
    }

    /// Judges rows of the two images, band after band.
    public struct Scanner {
        let comparison: StreamedComparison
        /// Made at the first band, and kept for its caches.
        var judge: PixelJudge?

        init(_ comparison: StreamedComparison) { self.comparison = comparison }

        /// Judges `rows`. `reference` and `actual` point at row `firstRow` of buffers that
        /// hold at least the rows `rows` widened by ``StreamedComparison/contextRows`` on each
        /// side (clipped to the image), `width * 4` bytes a row.
        public mutating func scan(
            rows: Range<Int>, reference: UnsafePointer<UInt8>, actual: UnsafePointer<UInt8>, firstRow: Int
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
            judge?.scanVectorized(rows: rows)
        }
    }
}
