import ImageCodecs
import ImageDiff
import SnapshotRule

/// When the requested outputs are rendered.
public enum OutputPolicy: Sendable {
    /// For every pair, as `imgdiff compare -o` writes them.
    case always
    /// Only for pairs that do not match, as `batch` and the snapshot adapter write them.
    case whenDifferent
}

/// How much of the machine one pair may use.
public enum Parallelism: Sendable {
    /// Decoding, comparing and encoding spread over all cores: one pair at a time.
    case allCores
    /// Everything on the calling thread: for callers that already run one pair per core.
    case callingThread
}

/// Everything that shapes the handling of one pair, from decoding to the encoded outputs.
public struct ComparisonRequest: Sendable {
    /// Which pixels count as different.
    public var options: ComparisonOptions
    /// swift-snapshot-testing's rule, when the verdict is to be its own.
    public var snapshotPrecision: SnapshotPrecision?
    /// Whether that rule judges only the pixels the metric counts, the others taken as equal
    /// to the reference's (``SnapshotPrecision/verdict(reference:actual:after:)``), as the
    /// snapshot adapter applies a precision to a metric: when an option beside the precision
    /// sets which pixels count (a metric, a threshold, ignored regions), or a settings file
    /// does. Off, the rule judges the pixels as they are.
    public var snapshotPrecisionAfterMetric: Bool
    /// The review images wanted, encoded as PNG.
    public var outputs: Set<ReviewOutput>
    /// Whether ``outputs`` are rendered for every pair or only for pairs that do not match.
    public var outputPolicy: OutputPolicy
    /// The rounding of the blend and the difference image.
    public var rounding: ImageMagickRounding
    /// ImageMagick's fuzz for the difference image, in Q16 units.
    public var differenceFuzz: Double
    /// The colour of differing pixels in the mask.
    public var maskColor: RGBA
    /// Refusals applied before anything is allocated.
    public var limits: DecodingLimits
    /// Whether the pair's work spreads over all cores or stays on the calling thread.
    public var parallelism: Parallelism
    /// The share of pairs the caller expects to differ, from 0 to 1: how a batch's pairs went
    /// so far. With ``OutputPolicy/whenDifferent`` it picks between streaming a pair without its
    /// blend (``Pipeline/wholeDecodeBreakEvenShare``), decoding it whole, so a differing pair is
    /// blended without decoding it again, and streaming it with its blend made on the way
    /// (``Pipeline/speculativeBlendShare``). It never changes a result or an output byte.
    public var expectedDifferingShare: Double

    /// By default: no review images, ImageMagick 7 rounding, no fuzz, an opaque red mask, the
    /// default limits, all cores, and every pair expected to differ.
    public init(
        options: ComparisonOptions = ComparisonOptions(),
        snapshotPrecision: SnapshotPrecision? = nil,
        snapshotPrecisionAfterMetric: Bool = false,
        outputs: Set<ReviewOutput> = [],
        outputPolicy: OutputPolicy = .always,
        rounding: ImageMagickRounding = .im7,
        differenceFuzz: Double = 0,
        maskColor: RGBA = RGBA(255, 0, 0, 255),
        limits: DecodingLimits = .default,
        parallelism: Parallelism = .allCores,
        expectedDifferingShare: Double = 1
    ) {
        self.options = options
        self.snapshotPrecision = snapshotPrecision
        self.snapshotPrecisionAfterMetric = snapshotPrecisionAfterMetric
        self.outputs = outputs
        self.outputPolicy = outputPolicy
        self.rounding = rounding
        self.differenceFuzz = differenceFuzz
        self.maskColor = maskColor
        self.limits = limits
        self.parallelism = parallelism
        self.expectedDifferingShare = expectedDifferingShare
    }

    /// The options as the engine takes them: a mask collected when one is to be written or a
    /// precision judges the metric's pixels, and one band on the calling thread when the caller
    /// runs pairs side by side.
    var engineOptions: ComparisonOptions {
        var options = self.options
        if outputs.contains(.mask) || outputs.contains(.review) || snapshotPrecision != nil && snapshotPrecisionAfterMetric {
            options.collectsMask = true
        }
        if parallelism == .callingThread { options.bands = 1 }
        return options
    }
}

/// An encoded image file and the name its errors carry.
public struct EncodedImage: Sendable {
    /// The file's path, or another label, by which errors name the image.
    public var name: String
    /// The file's bytes, not yet decoded: PNG, JPEG or a format ImageMagick reads.
    public var bytes: [UInt8]

    /// An image file already in memory; nothing is read or decoded yet.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Reads the file at `path`, at most `limits.maxFileSize` bytes of it.
    ///
    /// - Throws: ``ImageFileError`` naming `path`.
    public init(contentsOf path: String, limits: DecodingLimits = .default) throws(ImageFileError) {
        self.init(name: path, bytes: try ImageFile.read(path, maxBytes: limits.maxFileSize))
    }
}

/// The way the pipeline took through a pair.
public enum PairRoute: String, Sendable, Codable {
    /// The files are byte-identical: their structure was checked, no pixel was decoded.
    case identicalBytes
    /// Both PNGs were decoded and compared a band of rows at a time, never held whole.
    case streamedRows
    /// Both images were decoded whole, then compared.
    case wholeImage
}

/// What the pipeline made of one pair.
public struct PairOutcome: Sendable {
    /// The comparison's numbers.
    public var result: DiffResult
    /// swift-snapshot-testing's verdict, when ``ComparisonRequest/snapshotPrecision`` was set.
    public var snapshot: SnapshotVerdict?
    /// The route the pipeline took; every route gives the same result and output bytes.
    public var route: PairRoute
    /// The requested review images that were rendered, as PNG files' bytes.
    public var outputs: [ReviewOutput: [UInt8]]

    /// The verdict: swift-snapshot-testing's when its precisions were given, else "no pixel
    /// differs".
    public var match: Bool { snapshot?.passed ?? result.match }
}
