import Dispatch
import ImageDiff

/// Compares two PNG files while both decode, a band of rows at a time on two threads: neither
/// image is ever held whole, so memory stays at a few MiB whatever their size, and no time
/// goes to faulting in two full-size pixel buffers.
///
/// Each round, one thread decodes the next band of the reference and the other the same band
/// of the new image, and each then judges half of the band before, whose rows and their
/// context are complete. The result equals ``compare(_:_:options:)`` on the decoded images.
public enum StreamedPNGComparison {
    /// Rows a band decodes at a time: about half a MiB of each image.
    static let bandBytes = 512 << 10

    /// Compares the PNG files' bytes; `name`s only label errors.
    ///
    /// - Returns: nil when the streamed path does not apply (a file that is not an 8-bit RGB or
    ///   RGBA non-interlaced PNG, sizes that differ, or options that need whole images:
    ///   ``StreamedComparison/init(width:height:options:)``); decode and compare them then.
    /// - Throws: ``ImageFileError`` naming the broken file, or the one beyond `limits`.
    public static func compare(
        _ reference: (bytes: [UInt8], name: String), _ actual: (bytes: [UInt8], name: String),
        options: ComparisonOptions = ComparisonOptions(), limits: DecodingLimits = .default
    ) throws(ImageFileError) -> DiffResult? {
        try reference.bytes.withUnsafeBufferPointer { referenceBytes throws(ImageFileError) in
            try actual.bytes.withUnsafeBufferPointer { actualBytes throws(ImageFileError) in
                guard let first = try open(referenceBytes, name: reference.name, limits: limits),
                    let second = try open(actualBytes, name: actual.name, limits: limits),
                    first.width == second.width, first.height == second.height,
                    let comparison = StreamedComparison(width: first.width, height: first.height, options: options)
                else { return nil }
                return try compare((first, reference.name), (second, actual.name), comparison)
            }
        }
    }

    static func open(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, limits: DecodingLimits
    ) throws(ImageFileError) -> PNGRowStream? {
        guard bytes.count <= limits.maxFileSize, ContainerFormat(sniffing: bytes) == .png else { return nil }
        do {
            return try PNGRowStream(bytes, limits: limits)
        } catch {
            throw ImageFileError(path: name, error: error)
        }
    }

    static func compare(
        _ reference: (rows: PNGRowStream, name: String), _ actual: (rows: PNGRowStream, name: String),
        _ comparison: StreamedComparison
    ) throws(ImageFileError) -> DiffResult {
        let height = comparison.height, rowBytes = comparison.width * 4
        let context = StreamedComparison.contextRows
        let band = max(1, bandBytes / rowBytes)
        // Rows kept for judging (a band and its context) plus the band being decoded, with room
        // to slide rarely.
        let windowRows = min(height, 4 * band + 2 * context)
        let windows = [UnsafeMutablePointer<UInt8>.allocate(capacity: windowRows * rowBytes),
                       UnsafeMutablePointer<UInt8>.allocate(capacity: windowRows * rowBytes)]
        defer { windows.forEach { $0.deallocate() } }
        let streams = [reference.rows, actual.rows]
        var scanners = [comparison.makeScanner(), comparison.makeScanner()]
        var failures: [ImageCodecError?] = [nil, nil]

        var windowStart = 0, decoded = 0, judged = 0
        while judged < height {
            let decoding = decoded..<min(height, decoded + band)
            let judging = judged..<(decoding.isEmpty ? height : max(judged, decoded - context))
            if decoding.upperBound - windowStart > windowRows {
                let keep = max(0, judged - context)
                for window in windows {
                    window.update(from: window + (keep - windowStart) * rowBytes, count: (decoded - keep) * rowBytes)
                }
                windowStart = keep
            }
            let middle = (judging.lowerBound + judging.upperBound) / 2
            let halves = [judging.lowerBound..<middle, middle..<judging.upperBound]
            scanners.withUnsafeMutableBufferPointer { scanners in
                failures.withUnsafeMutableBufferPointer { failures in
                    let shared = UncheckedSendableBox((streams, windows, scanners, failures, windowStart))
                    DispatchQueue.concurrentPerform(iterations: 2) { side in
                        let (streams, windows, scanners, failures, windowStart) = shared.value
                        do throws(ImageCodecError) {
                            if !decoding.isEmpty {
                                try streams[side].read(
                                decoding.count, into: windows[side] + (decoding.lowerBound - windowStart) * rowBytes)
                            }
                        } catch {
                            failures[side] = error
                        }
                        scanners[side].scan(
                            rows: halves[side], reference: windows[0], actual: windows[1], firstRow: windowStart)
                    }
                }
            }
            if let failure = failures[0] { throw ImageFileError(path: reference.name, error: failure) }
            if let failure = failures[1] { throw ImageFileError(path: actual.name, error: failure) }
            decoded = decoding.upperBound
            judged = judging.upperBound
        }
        return comparison.result(merging: scanners)
    }
}
