import Dispatch
import ImageCodecs
import ImageDiff
import SnapshotRule

/// The one way a pair of images goes through imgdiff: decode → compare → render → encode.
///
/// Every front end calls it: the CLI's `compare`, `batch` and `tune`, and the snapshot-testing
/// adapter. It alone picks the route for a pair:
/// 1. byte-identical files whose structure is sound: nothing is decoded;
/// 2. two 8-bit PNGs of one size: decoded and compared a band of rows at a time
///    (``PairRoute/streamedRows``), the blend and mask made on the way;
/// 3. anything else: both images decoded whole, compared, and the outputs rendered.
/// Every route gives the same numbers and the same output bytes for the same pair.
public enum Pipeline {
    /// Compares two encoded images and renders the requested outputs.
    ///
    /// - Throws: ``ImageFileError`` naming the file that could not be decoded or is beyond
    ///   the limits; an output that cannot be encoded is reported against `actual`.
    public static func compare(
        _ reference: EncodedImage, _ actual: EncodedImage, request: ComparisonRequest
    ) throws(ImageFileError) -> PairOutcome {
        let options = request.engineOptions
        // Identical images match, so only outputs rendered for every pair (and NCC's figure)
        // need their pixels.
        if request.outputPolicy == .whenDifferent || request.outputs.isSubset(of: [.mask]),
            !options.metric.needsPixelsOfIdenticalImages,
            let size = try identicalImageSize(reference, actual, limits: request.limits)
        {
            return try identicalOutcome(size, options: options, request: request, name: actual.name)
        }
        if !holdsWholeForLazyBlend(reference, actual, request),
            let outcome = try streamedOutcome(reference, actual, options: options, request: request)
        {
            return outcome
        }
        let (referenceImage, actualImage) = try decodePair(reference, actual, request: request)
        do {
            return try compare(referenceImage, actualImage, request: request)
        } catch {
            throw ImageFileError(path: actual.name, error: error)
        }
    }

    /// Compares two image files; see ``compare(_:_:request:)-(EncodedImage,_,_)``.
    public static func compare(
        contentsOf reference: String, _ actual: String, request: ComparisonRequest
    ) throws(ImageFileError) -> PairOutcome {
        let (referenceFile, actualFile) = try readPair(reference, actual, request: request)
        return try compare(referenceFile, actualFile, request: request)
    }

    /// Reads both files, on two threads with ``Parallelism/allCores``.
    ///
    /// - Throws: ``ImageFileError`` naming the first file, in argument order, that failed.
    static func readPair(
        _ reference: String, _ actual: String, request: ComparisonRequest
    ) throws(ImageFileError) -> (EncodedImage, EncodedImage) {
        let paths = [reference, actual]
        return try bothSides(request.parallelism) { side throws(ImageFileError) in
            try EncodedImage(contentsOf: paths[side], limits: request.limits)
        }
    }

    /// Compares two decoded images and renders the requested outputs: the whole-image route,
    /// for callers that hold buffers rather than files.
    ///
    /// - Throws: ``ImageCodecError/pairExceedsMemory(needed:limit:)`` when comparing the two
    ///   (over their larger width and height, with the outputs) would take more than
    ///   `request.limits.maxMemory`, as two small images of other shapes can (1×65535 beside
    ///   65535×1 spans 4.3 billion pixels); ``ImageCodecError`` when an output cannot be encoded.
    public static func compare(
        _ reference: RGBAImage, _ actual: RGBAImage, request: ComparisonRequest
    ) throws(ImageCodecError) -> PairOutcome {
        if let needed = memoryBeyondLimit(reference, actual, limits: request.limits, outputs: request.outputs) {
            throw .pairExceedsMemory(needed: needed, limit: request.limits.maxMemory)
        }
        let result = ImageDiff.compare(reference, actual, options: request.engineOptions)
        let snapshot = request.snapshotPrecision.map { precision in
            request.snapshotPrecisionAfterMetric
                ? precision.verdict(reference: reference, actual: actual, after: result)
                : precision.verdict(reference: reference, actual: actual)
        }
        var outcome = PairOutcome(result: result, snapshot: snapshot, route: .wholeImage, outputs: [:])
        guard rendersOutputs(for: outcome, request) else { return outcome }
        outcome.outputs = try render(request.outputs, reference: reference, actual: actual, result: result, request: request)
        return outcome
    }

    /// Renders and encodes `outputs` of a pair already compared: the one route to each review
    /// image. An output with nothing to draw (an empty image) is left out.
    ///
    /// - Throws: ``ImageCodecError`` when an output cannot be encoded.
    public static func render(
        _ outputs: Set<ReviewOutput>, reference: RGBAImage, actual: RGBAImage, result: DiffResult,
        request: ComparisonRequest
    ) throws(ImageCodecError) -> [ReviewOutput: [UInt8]] {
        var files: [ReviewOutput: [UInt8]] = [:]
        for output in outputs {
            files[output] = try ReviewRenderer.encode(output, reference: reference, actual: actual, result: result, request: request)
        }
        return files
    }

    /// About the most memory the whole-image route takes for the pair and `outputs`, from the
    /// sizes the files declare: both images decoded, a mask byte and a rendered RGBA pixel per
    /// pixel of the area the comparison spans (the wider width by the taller height, when the
    /// sizes differ), the copies of the images' overlap a comparison of two sizes makes, and
    /// for a review image its canvas, rendered and encoded. Nil when a file's header does not
    /// say (formats ImageMagick decodes); the decoded sizes are then checked
    /// (``checkComparedArea(_:_:limits:outputs:name:)``).
    public static func wholeImageMemory(
        _ reference: EncodedImage, _ actual: EncodedImage, outputs: Set<ReviewOutput> = []
    ) -> Int? {
        declaredSizes(reference, actual).map { wholeImageMemory($0, outputs: outputs) }
    }

    private typealias DeclaredSize = (size: ImageSize, bytesPerPixel: Int)

    private static func declaredSizes(_ reference: EncodedImage, _ actual: EncodedImage) -> [DeclaredSize]? {
        guard let first = ContainerFormat.declaredDecodedSize(reference.bytes),
            let second = ContainerFormat.declaredDecodedSize(actual.bytes)
        else { return nil }
        return [first, second]
    }

    private static func wholeImageMemory(_ declared: [DeclaredSize], outputs: Set<ReviewOutput>) -> Int {
        wholeImageMemory(decodedBytes: declared.map(ContainerFormat.decodedBytes).reduce(0, +), sizes: declared.map(\.size), outputs: outputs)
    }

    /// `decodedBytes` for the two images, a mask byte and a rendered RGBA pixel per pixel of
    /// the area a comparison of images of `sizes` spans (the widest width by the tallest
    /// height: two small images of other shapes, 1 × 65535 and 65535 × 1, span far more than
    /// either holds), the two RGBA copies of the overlap that images of two sizes are compared
    /// in, and a review image's canvas, its RGBA pixels twice (drawn, then encoded) and a byte
    /// per pixel of the area.
    private static func wholeImageMemory(decodedBytes: Double, sizes: [ImageSize], outputs: Set<ReviewOutput>) -> Int {
        let width = sizes.map(\.width).max() ?? 0, height = sizes.map(\.height).max() ?? 0
        let area = Double(width) * Double(height)
        var needed = decodedBytes + 5 * area
        if Set(sizes.map { [$0.width, $0.height] }).count > 1 {
            needed += 2 * 4 * Double(sizes.map(\.width).min() ?? 0) * Double(sizes.map(\.height).min() ?? 0)
        }
        if outputs.contains(.review) {
            let canvas = ReviewImage.canvasSize(width: width, height: height)
            needed += 8 * Double(canvas.width) * Double(canvas.height) + area
        }
        return Int(min(needed, Double(Int.max / 2)))
    }

    /// Refuses, after decoding, a pair of decoded images whose comparison takes more than
    /// ``DecodingLimits/maxMemory``: the check ``checkWholeImageMemory(_:_:limits:outputs:)``
    /// makes before decoding, for files whose headers do not declare their sizes.
    static func checkComparedArea(
        _ reference: RGBAImage, _ actual: RGBAImage, limits: DecodingLimits, outputs: Set<ReviewOutput>, name: String
    ) throws(ImageFileError) {
        guard let needed = memoryBeyondLimit(reference, actual, limits: limits, outputs: outputs) else { return }
        throw ImageFileError(path: name, error: .pairExceedsMemory(needed: needed, limit: limits.maxMemory))
    }

    /// The memory comparing two decoded images takes with `outputs`, when it exceeds
    /// ``DecodingLimits/maxMemory``; nil within it.
    static func memoryBeyondLimit(
        _ reference: RGBAImage, _ actual: RGBAImage, limits: DecodingLimits, outputs: Set<ReviewOutput>
    ) -> Int? {
        let needed = wholeImageMemory(
            decodedBytes: Double(reference.pixels.count + actual.pixels.count),
            sizes: [reference, actual].map { ImageSize(width: $0.width, height: $0.height) }, outputs: outputs)
        return needed > limits.maxMemory ? needed : nil
    }

    /// Refuses, before decoding, a pair whose images each fit the limits but together exceed
    /// ``DecodingLimits/maxMemory``; an image beyond the limits on its own is named first.
    static func checkWholeImageMemory(
        _ reference: EncodedImage, _ actual: EncodedImage, limits: DecodingLimits, outputs: Set<ReviewOutput>
    ) throws(ImageFileError) {
        guard let declared = declaredSizes(reference, actual) else { return }
        let needed = wholeImageMemory(declared, outputs: outputs)
        guard needed > limits.maxMemory else { return }
        for (image, declared) in zip([reference, actual], declared) {
            do {
                try limits.check(
                    width: declared.size.width, height: declared.size.height, bytesPerPixel: declared.bytesPerPixel)
            } catch {
                throw ImageFileError(path: image.name, error: error)
            }
        }
        let larger = ContainerFormat.decodedBytes(declared[0]) > ContainerFormat.decodedBytes(declared[1]) ? reference : actual
        throw ImageFileError(path: larger.name, error: .pairExceedsMemory(needed: needed, limit: limits.maxMemory))
    }

    /// Decodes both images, on two threads with ``Parallelism/allCores``. On the calling thread
    /// (batch's workers, which decode pair after pair and reuse the freed buffers) an 8-bit PNG's
    /// image data is inflated at once by libdeflate; a single pair on both cores inflates it in
    /// chunks, which on screenshots cost the same time there without holding the filtered rows.
    ///
    /// A pair whose comparison would take more than the limits' `maxMemory` is refused, before
    /// decoding when the headers declare the sizes and after it otherwise
    /// (``wholeImageMemory(_:_:)``).
    ///
    /// - Throws: ``ImageFileError`` naming the first file, in argument order, that failed.
    public static func decodePair(
        _ reference: EncodedImage, _ actual: EncodedImage, request: ComparisonRequest
    ) throws(ImageFileError) -> (RGBAImage, RGBAImage) {
        try checkWholeImageMemory(reference, actual, limits: request.limits, outputs: request.outputs)
        let images = [reference, actual]
        let inflatesWhole = request.parallelism == .callingThread
        let (referenceImage, actualImage) = try bothSides(request.parallelism) { side throws(ImageFileError) in
            try ImageDecoder.decode(images[side].bytes, name: images[side].name, limits: request.limits, inflatesWhole: inflatesWhole)
        }
        try checkComparedArea(
            referenceImage, actualImage, limits: request.limits, outputs: request.outputs,
            name: referenceImage.pixels.count > actualImage.pixels.count ? reference.name : actual.name)
        return (referenceImage, actualImage)
    }

    /// `work` for side 0 (the reference) and side 1 (the actual image), on two threads with
    /// ``Parallelism/allCores``.
    ///
    /// - Throws: the reference's error when both sides failed.
    private static func bothSides<Value: Sendable>(
        _ parallelism: Parallelism, _ work: @escaping @Sendable (Int) throws(ImageFileError) -> Value
    ) throws(ImageFileError) -> (Value, Value) {
        let results = PairResults<Value>()
        let run: @Sendable (Int) -> Void = { side in
            results.set(side, Result { () throws(ImageFileError) in try work(side) })
        }
        switch parallelism {
        case .allCores: DispatchQueue.concurrentPerform(iterations: 2, execute: run)
        case .callingThread: for side in 0..<2 { run(side) }
        }
        return try results.get()
    }

    static func rendersOutputs(for outcome: PairOutcome, _ request: ComparisonRequest) -> Bool {
        !request.outputs.isEmpty && (request.outputPolicy == .always || !outcome.match)
    }

    /// Byte-identical PNG files are identical images: their structure is checked (limits
    /// included), their pixels need not be decoded. Nil when the files differ or are not PNGs.
    static func identicalImageSize(
        _ reference: EncodedImage, _ actual: EncodedImage, limits: DecodingLimits
    ) throws(ImageFileError) -> ImageSize? {
        guard !reference.bytes.isEmpty, ByteComparison.areEqual(reference.bytes, actual.bytes) else {
            return nil
        }
        return try ImageDecoder.structurallyValidPNGSize(reference.bytes, name: reference.name, limits: limits)
    }

    static func identicalOutcome(
        _ size: ImageSize, options: ComparisonOptions, request: ComparisonRequest, name: String
    ) throws(ImageFileError) -> PairOutcome {
        var options = options
        options.collectsMask = options.collectsMask && request.outputPolicy == .always
        let result = DiffResult(identicalImagesOf: size, options: options)
        var outcome = PairOutcome(
            result: result, snapshot: request.snapshotPrecision.map { _ in .passed }, route: .identicalBytes, outputs: [:])
        if request.outputPolicy == .always, request.outputs.contains(.mask), let mask = result.mask {
            do {
                outcome.outputs[.mask] = try ReviewRenderer.encode(mask: mask, color: request.maskColor)
            } catch {
                throw ImageFileError(path: name, error: error)
            }
        }
        return outcome
    }

    /// The decoded size up to which a pair whose blend is wanted only if it differs may be held
    /// whole: decoded whole from the start, or handed over by the streamed route at its first
    /// difference. Two 8-megapixel images; larger pairs stream, in bounded memory, and a larger
    /// pair that differs is streamed a second time for its blend.
    static let lazyBlendWholeImageBudget = 64 << 20

    /// The share of differing pairs above which decoding pairs whole for their lazy blend costs
    /// less than streaming them all and decoding the differing ones again. Streaming a pair
    /// takes about 0.9 of the time decoding it whole and comparing the buffers does (no pixel
    /// buffer to fill and read back from memory; `scripts/bench-batch`, re-encoded suite), and a
    /// differing pair then decodes again the rows above its first difference: the figure was
    /// set when that was the whole pair, once one pair in ten differs, and stays on the side of
    /// holding pairs whole.
    public static let wholeDecodeBreakEvenShare = 0.1

    /// The share of differing pairs above which a pair whose blend is wanted only if it differs
    /// streams with its blend and mask made on the way, both dropped when it matches: a pair
    /// then costs one streamed pass, its blend rendered while its rows are in the cache, where
    /// holding it whole costs a whole decode and a blend read back from memory. On
    /// `scripts/bench-batch-share`'s suites it took 0.93x the time of holding pairs whole when
    /// 9 in 10 differ and 0.89x when all do; with this threshold at 0.5 it took 1.03x at 3 in 4
    /// and 1.10x at half, so it waits for nearly every pair to differ.
    public static let speculativeBlendShare = 0.85

    /// How a pair whose blend is wanted only if it differs is taken, by the share of pairs
    /// expected to differ.
    enum LazyBlend {
        /// Streamed without its blend, which is made only once the pair is seen to differ
        /// (few pairs differ).
        case afterDifference
        /// Decoded whole from the start, blended only if it differs, when both images fit
        /// ``lazyBlendWholeImageBudget`` (above ``wholeDecodeBreakEvenShare``).
        case wholeFromStart
        /// Streamed with its blend and mask, both dropped if it matches (above
        /// ``speculativeBlendShare``).
        case speculative
    }

    /// Nil unless the blend is wanted only if the pair differs.
    static func lazyBlend(_ request: ComparisonRequest) -> LazyBlend? {
        guard request.outputPolicy == .whenDifferent, request.outputs.contains(.blend) else { return nil }
        if request.expectedDifferingShare > speculativeBlendShare { return .speculative }
        return request.expectedDifferingShare > wholeDecodeBreakEvenShare ? .wholeFromStart : .afterDifference
    }

    static func holdsWholeForLazyBlend(_ reference: EncodedImage, _ actual: EncodedImage, _ request: ComparisonRequest) -> Bool {
        lazyBlend(request) == .wholeFromStart && fitsLazyBlendBudget(reference, actual, limits: request.limits)
    }

    /// Whether both PNGs declare sizes that decode within ``lazyBlendWholeImageBudget``, and
    /// the whole-image route fits the limits' `maxMemory` (``wholeImageMemory(_:_:)``): a pair
    /// the streamed route can judge within them is never held whole beyond them, so whether it
    /// is judged does not depend on the pairs judged before it.
    static func fitsLazyBlendBudget(_ reference: EncodedImage, _ actual: EncodedImage, limits: DecodingLimits) -> Bool {
        guard let referenceSize = ContainerFormat.declaredPNGSize(reference.bytes),
            let actualSize = ContainerFormat.declaredPNGSize(actual.bytes),
            let wholeImageMemory = wholeImageMemory(reference, actual), wholeImageMemory <= limits.maxMemory
        else { return false }
        let decodedBytes = [referenceSize, actualSize].reduce(0.0) { $0 + 4 * Double($1.width) * Double($1.height) }
        return decodedBytes <= Double(lazyBlendWholeImageBudget)
    }

    /// The streamed route, when it applies: no snapshot verdict (it needs whole images) and no
    /// difference image. With ``OutputPolicy/whenDifferent`` and a blend, a pair streams with
    /// its blend and mask when nearly every pair is expected to differ
    /// (``LazyBlend/speculative``), and drops both if it matches; a pair that is not held
    /// whole either (``holdsWholeForLazyBlend(_:_:_:)``: few pairs expected to differ) streams
    /// without them; at its first differing pixel it hands over to the whole-image route, the
    /// rows decoded so far kept and those above them decoded again, when both images fit
    /// ``lazyBlendWholeImageBudget``; a larger pair that differs is streamed a second time,
    /// for its blend and its mask.
    static func streamedOutcome(
        _ reference: EncodedImage, _ actual: EncodedImage, options: ComparisonOptions, request: ComparisonRequest
    ) throws(ImageFileError) -> PairOutcome? {
        guard request.snapshotPrecision == nil, request.outputs.isSubset(of: [.blend, .mask]) else { return nil }
        let overlay = StreamedRoute.Overlay(rounding: request.rounding, level: PNGEncoder.defaultCompressionLevel)
        let wantsBlend = request.outputs.contains(.blend)
        let speculative = lazyBlend(request) == .speculative
        let blendNow = wantsBlend && (request.outputPolicy == .always || speculative)
        // A lazy blend is made after the pair is seen to differ, with its mask: a pair that
        // matches gets no mask, as on the identical-bytes route.
        var firstOptions = options
        if wantsBlend && !blendNow { firstOptions.collectsMask = false }
        let handsOver = wantsBlend && !blendNow && fitsLazyBlendBudget(reference, actual, limits: request.limits)
        guard let first = try StreamedRoute.run(
            reference, actual, options: firstOptions, limits: request.limits, overlay: blendNow ? overlay : nil,
            parallelism: request.parallelism, handsOverOnDifference: handsOver)
        else { return nil }
        let (result, firstOverlay): (DiffResult, [UInt8]?)
        switch first {
        case .decoded(let referenceImage, let actualImage):
            do {
                return try compare(referenceImage, actualImage, request: request)
            } catch {
                throw ImageFileError(path: actual.name, error: error)
            }
        case .compared(let compared, let overlay):
            (result, firstOverlay) = (compared, overlay)
        }
        var outcome = PairOutcome(result: result, snapshot: nil, route: .streamedRows, outputs: [:])
        guard rendersOutputs(for: outcome, request) else {
            if speculative { outcome.result.mask = nil }
            return outcome
        }
        if wantsBlend, firstOverlay == nil,
            case .compared(let secondResult, let secondOverlay)? = try StreamedRoute.run(
                reference, actual, options: options, limits: request.limits, overlay: overlay, parallelism: request.parallelism)
        {
            outcome.result = secondResult
            outcome.outputs[.blend] = secondOverlay
        } else {
            outcome.outputs[.blend] = firstOverlay
        }
        if request.outputs.contains(.mask), let mask = outcome.result.mask {
            do {
                outcome.outputs[.mask] = try ReviewRenderer.encode(mask: mask, color: request.maskColor)
            } catch {
                throw ImageFileError(path: actual.name, error: error)
            }
        }
        return outcome
    }
}

/// The results for the two sides of a pair, each written by its own thread into its own slot.
private final class PairResults<Value>: @unchecked Sendable {
    private let results = UnsafeMutablePointer<Result<Value, ImageFileError>?>.allocate(capacity: 2)

    init() { results.initialize(repeating: nil, count: 2) }

    deinit {
        results.deinitialize(count: 2)
        results.deallocate()
    }

    func set(_ side: Int, _ result: Result<Value, ImageFileError>) { results[side] = result }

    func get() throws(ImageFileError) -> (Value, Value) {
        guard let first = results[0], let second = results[1] else {
            preconditionFailure("both sides are done before the pair is read")
        }
        return (try first.get(), try second.get())
    }
}
