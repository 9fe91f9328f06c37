import Dispatch
import ImageCodecs
import ImageDiff

/// The streamed route: two PNG files compared while both decode, a band of rows at a time:
/// neither image is ever held whole, so memory stays at a few MiB (plus a byte a pixel for a
/// mask) whatever their size, and no time goes to faulting in two full-size pixel buffers.
///
/// Each round decodes the next band of the reference and the same band of the new image (on
/// two threads with ``Parallelism/allCores``), then judges the band before, whose rows and
/// their context are complete, in two halves. The result equals ``compare(_:_:options:)`` on
/// the decoded images, and the overlay equals the whole-image route's blend, byte for byte.
/// Asked to hand over, it stops comparing at the first differing pixel and returns both images
/// whole (``Outcome/decoded(reference:actual:)``) for the whole-image route.
enum StreamedRoute {
    /// Bytes of each image a band decodes at a time when its two images decode on two cores, or
    /// an overlay is deflated: about a MiB (fewer rounds measured faster than half a MiB on
    /// cypress, the same on syn-4k; a quarter MiB took 1.07x and 1.14x the time on syn-4k and
    /// syn-8k). The whole-image route deflates its blend in the pieces these bands make
    /// (``overlayPieces(width:height:)``), so an overlay always uses them.
    static let bandBytes = 1 << 20
    /// Bytes a band decodes when one core runs the whole pair with no overlay (batch's
    /// workers): the four slots then stay near the core's L2 between decoding a band and
    /// judging it. Batch took 0.94x the time on bench-batch's reencoded suite.
    static let oneCoreBandBytes = 1 << 18

    /// The overlay's settings; the alpha-ness of both images comes from their streams.
    struct Overlay {
        let rounding: ImageMagickRounding
        let level: Int
    }

    /// Compares the PNG files' bytes, with ImageMagick's review overlay (``ImageMagickBlend``)
    /// as a PNG file's bytes when `overlay` is set. `bandBytes`, when given, replaces
    /// ``bandBytes`` or ``oneCoreBandBytes``; no result depends on it, and an overlay's bytes
    /// only through ``overlayPieces(width:height:)``.
    ///
    /// - Returns: nil when the streamed route does not apply: a file that is not an 8-bit RGB
    ///   or RGBA non-interlaced PNG, sizes that differ, or ImageMagick's AE count.
    /// - Throws: ``ImageFileError`` naming the broken file, or the one beyond `limits`.
    static func run(
        _ reference: EncodedImage, _ actual: EncodedImage, options: ComparisonOptions, limits: DecodingLimits,
        overlay: Overlay?, parallelism: Parallelism, handsOverOnDifference: Bool = false, bandBytes: Int? = nil
    ) throws(ImageFileError) -> Outcome? {
        let bandBytes = bandBytes ?? (overlay == nil && parallelism == .callingThread ? oneCoreBandBytes : Self.bandBytes)
        if let overlay { precondition((0...3).contains(overlay.level), "compression level \(overlay.level) is not in 0…3") }
        return try reference.bytes.withUnsafeBufferPointer { referenceBytes throws(ImageFileError) in
            try actual.bytes.withUnsafeBufferPointer { actualBytes throws(ImageFileError) in
                let inflatesWhole = parallelism == .callingThread
                guard let first = try open(referenceBytes, name: reference.name, limits: limits, inflatesWhole: inflatesWhole),
                    let second = try open(actualBytes, name: actual.name, limits: limits, inflatesWhole: inflatesWhole),
                    first.width == second.width, first.height == second.height,
                    let comparison = StreamedComparison(width: first.width, height: first.height, options: options)
                else { return nil }
                let reopen = handsOverOnDifference
                    ? reopener([(referenceBytes, reference.name), (actualBytes, actual.name)], limits: limits) : nil
                return try compare(
                    (first, reference.name), (second, actual.name), comparison, overlay: overlay,
                    parallelism: parallelism, bandBytes: bandBytes, handingOverWith: reopen)
            }
        }
    }

    /// What the streamed route made of a pair.
    enum Outcome {
        /// Every row compared on the way, with the overlay when one was asked for.
        case compared(result: DiffResult, overlay: [UInt8]?)
        /// A differing pixel turned up and the route was asked to hand over
        /// (`handsOverOnDifference`): both images whole, the rows decoded so far kept, the rest
        /// decoded on, and the rows above them decoded again, for the whole-image route.
        case decoded(reference: RGBAImage, actual: RGBAImage)
    }

    /// Opens side 0's (the reference's) or side 1's PNG afresh.
    typealias Reopen = @Sendable (_ side: Int) throws(ImageFileError) -> PNGRowStream

    /// Opens `sources` (the files' bytes, which outlive the streams, and names) afresh, each as
    /// ``open(_:name:limits:inflatesWhole:)`` opened it the first time, a chunk at a time: it
    /// reads only the rows above those a hand-over kept.
    static func reopener(_ sources: [(bytes: UnsafeBufferPointer<UInt8>, name: String)], limits: DecodingLimits) -> Reopen {
        let sources = UncheckedSendable(sources)
        return { (side: Int) throws(ImageFileError) -> PNGRowStream in
            let (bytes, name) = sources.value[side]
            guard let stream = try open(bytes, name: name, limits: limits) else {
                throw ImageFileError(path: name, error: .corruptPNG("no longer opens as a PNG"))
            }
            return stream
        }
    }

    /// Opens a PNG's row stream; nil for a file the route does not take. With `inflatesWhole`
    /// (one core runs the pair: batch's workers) its image data is inflated at once, up to
    /// ``PNGRowStream/wholeInflateBytes``: libdeflate took batch on bench-batch's reencoded
    /// suite to 0.70x the time. With both cores on one pair the chunks stay, so that decoding
    /// overlaps judging and a large pair is never held.
    static func open(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, limits: DecodingLimits, inflatesWhole: Bool = false
    ) throws(ImageFileError) -> PNGRowStream? {
        guard bytes.count <= limits.maxFileSize, ContainerFormat(sniffing: bytes) == .png else { return nil }
        do {
            let stream = try PNGRowStream(bytes, limits: limits)
            if inflatesWhole { stream?.inflateWhole(upTo: PNGRowStream.wholeInflateBytes) }
            return stream
        } catch {
            throw ImageFileError(path: name, error: error)
        }
    }

    static func compare(
        _ reference: (rows: PNGRowStream, name: String), _ actual: (rows: PNGRowStream, name: String),
        _ comparison: StreamedComparison, overlay: Overlay?, parallelism: Parallelism, bandBytes: Int,
        handingOverWith reopen: Reopen? = nil
    ) throws(ImageFileError) -> Outcome {
        let width = comparison.width, height = comparison.height, rowBytes = width * 4
        let context = StreamedComparison.contextRows
        // A band is never taller than the image, so a small pair allocates no more than it holds.
        let band = min(height, bandRows(width: width, bandBytes: bandBytes))
        // Two slots an image: one receives the band being decoded while the other holds the band
        // before, which is judged, preceded by the rows its judging reads above it (copied from
        // the other slot before that is overwritten), so no band is ever moved.
        let prefixRows = 2 * context
        let slotRows = prefixRows + band
        // Every row is decoded into a slot before it is read.
        let slots = (0..<2).map { _ in (0..<2).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: slotRows * rowBytes) } }
        defer { slots.joined().forEach { $0.deallocate() } }
        // The first row of each slot's band (its prefix sits just above).
        var bandStarts = [0, 0]
        var judgeSlot = 1
        let streams = [reference.rows, actual.rows]
        var scanners = [comparison.makeScanner(), comparison.makeScanner()]
        var failures: [ImageCodecError?] = [nil, nil]
        let overlayLayout = PNGWriter.Layout(rendered: actual.rows.hasAlpha)
        let kernel = overlay.map {
            ImageMagickBlend.RowKernel(
                referenceHasAlpha: reference.rows.hasAlpha, failureHasAlpha: actual.rows.hasAlpha, rounding: $0.rounding)
        }
        // One deflater a thread, for half a band (and its context) at most.
        let deflaters = try overlay.map { overlay throws(ImageFileError) in
            try (0..<2).map { _ throws(ImageFileError) in
                guard let deflater = PNGWriter.BandDeflater(
                    layout: overlayLayout, width: width, maxRows: band + 2 * context, level: overlay.level)
                else { throw ImageFileError(path: actual.name, error: .cannotEncode("out of memory")) }
                return deflater
            }
        }
        var roundPieces: [PNGWriter.BandDeflater.Piece?] = [nil, nil]
        var overlayStream = PNGWriter.ZlibStream()
        let mask = comparison.collectsMask ? StreamedComparison.MaskBuffer(width: width, height: height) : nil

        for round in Schedule(height: height, band: band).rounds {
            let (decoding, judging, halves, writesPiece) = (round.decoding, round.judging, round.halves, round.writesPiece)
            let decodeSlot = 1 - judgeSlot
            let firstRow = bandStarts[judgeSlot] - prefixRows
            let prefix = max(0, firstRow)..<bandStarts[judgeSlot]
            if !prefix.isEmpty {
                let sourceFirstRow = bandStarts[decodeSlot] - prefixRows
                for side in 0..<2 {
                    (slots[side][judgeSlot] + (prefix.lowerBound - firstRow) * rowBytes).update(
                        from: slots[side][decodeSlot] + (prefix.lowerBound - sourceFirstRow) * rowBytes,
                        count: prefix.count * rowBytes)
                }
            }
            let windows = [slots[0][judgeSlot], slots[1][judgeSlot]]
            let targets = [slots[0][decodeSlot] + prefixRows * rowBytes, slots[1][decodeSlot] + prefixRows * rowBytes]
            scanners.withUnsafeMutableBufferPointer { scanners in
                failures.withUnsafeMutableBufferPointer { failures in
                    roundPieces.withUnsafeMutableBufferPointer { roundPieces in
                        let shared = UncheckedSendable((streams, windows, targets, scanners, failures, roundPieces, deflaters))
                        forBothSides(parallelism) { side in
                            let (streams, windows, targets, scanners, failures, roundPieces, deflaters) = shared.value
                            do throws(ImageCodecError) {
                                if !decoding.isEmpty { try streams[side].read(decoding.count, into: targets[side]) }
                            } catch {
                                failures[side] = error
                            }
                            scanners[side].scan(
                                rows: halves[side], reference: windows[0], actual: windows[1], firstRow: firstRow,
                                mask: mask?.bytes)
                            guard let kernel, let deflaters else { return }
                            guard writesPiece[side] else { return }
                            let final = side == 1 && judging.upperBound == height
                            roundPieces[side] = deflaters[side].deflate(halves[side], final: final) { rows, output in
                                for y in rows {
                                    let offset = (y - firstRow) * rowBytes
                                    kernel.blend(
                                        reference: windows[0] + offset, failure: windows[1] + offset, count: width,
                                        into: output + (y - rows.lowerBound) * rowBytes)
                                }
                            }
                        }
                    }
                }
            }
            if let failure = failures[0] { throw ImageFileError(path: reference.name, error: failure) }
            if let failure = failures[1] { throw ImageFileError(path: actual.name, error: failure) }
            if deflaters != nil, roundPieces[0] == nil && writesPiece[0] || roundPieces[1] == nil && writesPiece[1] {
                throw ImageFileError(path: actual.name, error: .cannotEncode("out of memory while compressing its overlay"))
            }
            for case let piece? in roundPieces {
                overlayStream.append(piece.bytes, adler: piece.adler, filteredCount: piece.filteredCount)
            }
            roundPieces = [nil, nil]
            if let reopen, scanners.contains(where: \.hasFoundDifferences) {
                // The bands in the slots are kept; the rest of each image decodes on.
                let judged = bandStarts[judgeSlot]..<(decoding.isEmpty ? height : decoding.lowerBound)
                let kept = [(rows: judged, slot: judgeSlot), (rows: decoding, slot: decodeSlot)].map { band in
                    (rows: band.rows, pixels: [slots[0][band.slot], slots[1][band.slot]].map { $0 + prefixRows * rowBytes })
                }
                let (first, second) = try wholeImages(
                    streams: streams, names: [reference.name, actual.name], kept: kept, width: width, height: height,
                    reopen: reopen, parallelism: parallelism)
                return .decoded(reference: first, actual: second)
            }
            if !decoding.isEmpty {
                bandStarts[decodeSlot] = decoding.lowerBound
                judgeSlot = decodeSlot
            }
        }
        let result = comparison.result(merging: scanners, mask: mask)
        guard overlay != nil else { return .compared(result: result, overlay: nil) }
        return .compared(result: result, overlay: PNGWriter.file(overlayStream, width: width, height: height, layout: overlayLayout))
    }

    /// Both images whole, as ``ImageDecoder`` decodes them: the `kept` bands (contiguous rows,
    /// with each side's pixels) copied, the streams read on to the last row, and the rows above
    /// the first kept band decoded again: unfiltered again from the image data a stream holds
    /// inflated (``PNGRowStream/holdsInflatedRows``), or from a freshly opened stream; both sides
    /// at once with ``Parallelism/allCores``.
    static func wholeImages(
        streams: [PNGRowStream], names: [String], kept: [(rows: Range<Int>, pixels: [UnsafeMutablePointer<UInt8>])],
        width: Int, height: Int, reopen: Reopen, parallelism: Parallelism
    ) throws(ImageFileError) -> (RGBAImage, RGBAImage) {
        let rowBytes = width * 4
        let firstKept = kept.first { !$0.rows.isEmpty }?.rows.lowerBound ?? height
        let decodedEnd = kept.last { !$0.rows.isEmpty }?.rows.upperBound ?? firstKept
        var images: [RGBAImage?] = [nil, nil]
        var failures: [ImageFileError?] = [nil, nil]
        images.withUnsafeMutableBufferPointer { images in
            failures.withUnsafeMutableBufferPointer { failures in
                let shared = UncheckedSendable((images, failures, streams, kept))
                forBothSides(parallelism) { side in
                    let (images, failures, streams, kept) = shared.value
                    let name = names[side]
                    func read(
                        _ rows: Int, from stream: PNGRowStream, into target: UnsafeMutablePointer<UInt8>, fromTop: Bool = false
                    ) throws(ImageFileError) {
                        do throws(ImageCodecError) {
                            if fromTop { try stream.readAgainFromTop(rows, into: target) } else { try stream.read(rows, into: target) }
                        } catch {
                            throw ImageFileError(path: name, error: error)
                        }
                    }
                    let pixels = [UInt8](filling: height * rowBytes) { buffer, count in
                        guard let base = buffer.baseAddress else { return }
                        HugePages.advise(base, count: buffer.count)
                        for band in kept where !band.rows.isEmpty {
                            (base + band.rows.lowerBound * rowBytes).update(from: band.pixels[side], count: band.rows.count * rowBytes)
                        }
                        do throws(ImageFileError) {
                            // A stream that inflated its data at once still holds the rows above,
                            // until its last row is read: they are unfiltered again from there.
                            if streams[side].holdsInflatedRows {
                                try read(firstKept, from: streams[side], into: base, fromTop: true)
                                try read(height - decodedEnd, from: streams[side], into: base + decodedEnd * rowBytes)
                            } else {
                                try read(height - decodedEnd, from: streams[side], into: base + decodedEnd * rowBytes)
                                try read(firstKept, from: try reopen(side), into: base)
                            }
                            count = height * rowBytes
                        } catch {
                            failures[side] = error
                            count = 0
                        }
                    }
                    if failures[side] == nil {
                        images[side] = RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: streams[side].hasAlpha)
                    }
                }
            }
        }
        if let failure = failures[0] ?? failures[1] { throw failure }
        guard let first = images[0], let second = images[1] else {
            throw ImageFileError(path: names[1], error: .corruptPNG("out of memory"))
        }
        return (first, second)
    }
}

extension StreamedRoute {
    /// The order of the streamed route's work: each round decodes the next band of rows and
    /// judges, in two halves, the rows before it whose context is complete. Each half that
    /// writes a piece is deflated apart, so the pieces decide the overlay file's bytes, and the
    /// whole-image route deflates its blend in the same pieces (``overlayPieces(width:height:)``).
    struct Schedule {
        struct Round {
            let decoding: Range<Int>
            let judging: Range<Int>
            let halves: [Range<Int>]
            /// Whether each half writes an overlay piece: the last half ends the stream even
            /// when it is empty.
            let writesPiece: [Bool]
        }

        let rounds: [Round]

        init(height: Int, band: Int) {
            var rounds: [Round] = []
            var decoded = 0, judged = 0
            while judged < height {
                let decoding = decoded..<min(height, decoded + band)
                let judging = judged..<(decoding.isEmpty ? height : max(judged, decoded - StreamedComparison.contextRows))
                let middle = (judging.lowerBound + judging.upperBound) / 2
                let halves = [judging.lowerBound..<middle, middle..<judging.upperBound]
                let writesPiece = [!halves[0].isEmpty, !halves[1].isEmpty || judging.upperBound == height]
                rounds.append(Round(decoding: decoding, judging: judging, halves: halves, writesPiece: writesPiece))
                decoded = decoding.upperBound
                judged = judging.upperBound
            }
            self.rounds = rounds
        }
    }

    /// Rows a band decodes for an image `width` pixels wide.
    static func bandRows(width: Int, bandBytes: Int = bandBytes) -> Int {
        max(1, bandBytes / (width * 4))
    }

    /// The row ranges the streamed route deflates its overlay in, in order.
    static func overlayPieces(width: Int, height: Int) -> [Range<Int>] {
        Schedule(height: height, band: bandRows(width: width)).rounds.flatMap { round in
            zip(round.halves, round.writesPiece).compactMap { $1 ? $0 : nil }
        }
    }
}

/// Runs `body` for the reference's side (0) and the new image's (1): on two threads, or one
/// after the other on the calling thread.
private func forBothSides(_ parallelism: Parallelism, _ body: @Sendable (Int) -> Void) {
    switch parallelism {
    case .allCores: DispatchQueue.concurrentPerform(iterations: 2, execute: body)
    case .callingThread: for side in 0..<2 { body(side) }
    }
}
