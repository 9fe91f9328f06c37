import Dispatch

/// An 8-bit RGBA image produced a band of rows at a time, so that an encoder can write it
/// without the whole image in memory, and bands can be made on separate cores.
public protocol RowRenderer: Sendable {
    /// Width in pixels.
    var width: Int { get }
    /// Height in pixels: the rows are `0..<height`.
    var height: Int { get }
    /// Whether the image carries alpha (an encoder may drop A otherwise).
    var hasAlpha: Bool { get }
    /// Writes `rows` as 8-bit RGBA, `width * 4` bytes a row, into `output`.
    ///
    /// Row `rows.lowerBound` goes at `output` itself.
    /// - Precondition: `rows` lies within `0..<height`, and `output` has room for
    ///   `rows.count * width * 4` bytes.
    func renderRows(_ rows: Range<Int>, into output: UnsafeMutablePointer<UInt8>)
}

extension RowRenderer {
    /// The whole image, rendered in row bands on all cores.
    public func image() -> RGBAImage {
        let rowBytes = width * 4
        let pixels = [UInt8](filling: height * rowBytes) { buffer, count in
            if let base = buffer.baseAddress {
                let output = UncheckedSendable(base)
                RowBands.forEach(height: height, bytesPerRow: rowBytes) { rows in
                    renderRows(rows, into: output.value + rows.lowerBound * rowBytes)
                }
            }
            count = height * rowBytes
        }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }
}

/// Splits an image's rows into bands run on all cores; bands are large enough to be worth a
/// thread, and nothing computed depends on how the rows were split.
package enum RowBands {
    /// About one band per MiB of rows, at most 64.
    package static func count(height: Int, bytesPerRow: Int) -> Int {
        max(1, min(64, height, height * bytesPerRow / (1 << 20)))
    }

    static func rows(ofBand band: Int, of bands: Int, height: Int) -> Range<Int> {
        (height * band / bands)..<(height * (band + 1) / bands)
    }

    static func forEach(height: Int, bytesPerRow: Int, _ body: @Sendable (Range<Int>) -> Void) {
        forEach(height: height, bands: count(height: height, bytesPerRow: bytesPerRow)) { _, rows in body(rows) }
    }

    /// Concurrent lanes for ``forEachLane(bands:_:)``: enough to keep 16 cores busy, few enough
    /// that per-lane state (a judge's colour caches) is made a handful of times, not per band.
    static let lanes = 16

    /// Runs `body` once per lane, concurrently; each lane is handed every `lanes`-th band in
    /// order (lane 1 of 4: bands 1, 5, 9, …), so state a lane keeps serves all of its bands.
    /// On the calling thread when there is one band.
    static func forEachLane(bands: Int, _ body: @Sendable (_ bands: StrideTo<Int>) -> Void) {
        let lanes = max(1, min(Self.lanes, bands))
        if lanes == 1 {
            body(stride(from: 0, to: bands, by: 1))
            return
        }
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            body(stride(from: lane, to: bands, by: lanes))
        }
    }

    /// The bands a whole-image pass asked for (`requested`, as ``ComparisonOptions/bands``), or
    /// one per 128 rows, at most 8.
    package static func count(height: Int, requested: Int) -> Int {
        requested > 0 ? requested : max(1, min(8, height / 128))
    }

    /// Runs `body` for each band as ``forEach(height:bands:_:)`` does, and returns what each band
    /// made, in the order of the bands: one result per band of `max(1, min(bands, height))`.
    package static func map<BandResult: Sendable>(
        height: Int, bands: Int, _ body: @Sendable (_ band: Int, _ rows: Range<Int>) -> BandResult
    ) -> [BandResult] {
        let bands = max(1, min(bands, height))
        return [BandResult](filling: bands) { results, initializedCount in
            guard let first = results.baseAddress else { return }
            let slots = UncheckedSendable(first)
            forEach(height: height, bands: bands) { band, rows in
                (slots.value + band).initialize(to: body(band, rows))
            }
            initializedCount = bands
        }
    }

    /// Runs `body` for each band, on the calling thread when there is one band.
    package static func forEach(height: Int, bands: Int, _ body: @Sendable (_ band: Int, _ rows: Range<Int>) -> Void) {
        let bands = max(1, min(bands, height))
        if bands == 1 {
            body(0, 0..<height)
            return
        }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body(band, rows(ofBand: band, of: bands, height: height))
        }
    }
}
