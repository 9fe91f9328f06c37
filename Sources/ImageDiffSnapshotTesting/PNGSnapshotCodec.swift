import ImageCodecs
import ImageDiffSnapshotTestingCore
import ImagePipeline

/// References stored as PNG, written with libpng; read as PNG or JPEG (libpng,
/// libjpeg-turbo), or any format ImageMagick reads. Artifacts are the bytes `imgdiff compare`
/// writes for the same pair: the blend and the 1-bit mask through the pipeline's one route each.
public struct PNGSnapshotCodec: SnapshotImageCodec {
    /// The same codec as ``SnapshotImageCodec/png``.
    public init() {}

    /// Decodes a reference stored as PNG, JPEG or any format ImageMagick reads, within the default
    /// ``DecodingLimits``.
    ///
    /// - Throws: ``ImageFileError`` naming the file `reference`.
    public func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        try ImageDecoder.decode(bytes, name: "reference")
    }

    /// `image` as a PNG file's bytes: 16-bit when it holds 16-bit samples, RGB when it has no
    /// alpha.
    ///
    /// - Throws: ``ImageCodecError/cannotEncode(_:)``.
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        try PNGEncoder.encode(image)
    }

    /// The PNG bytes `imgdiff compare` writes for `output` (without `--fuzz`), through the same
    /// renderer; nil when there is nothing to draw.
    ///
    /// - Throws: ``ImageCodecError/cannotEncode(_:)``.
    public func encode(
        _ output: ReviewOutput, reference: RGBAImage, actual: RGBAImage, result: DiffResult,
        rounding: ImageMagickRounding, maskColor: RGBA
    ) throws -> [UInt8]? {
        let request = ComparisonRequest(rounding: rounding, maskColor: maskColor)
        return try Pipeline.render([output], reference: reference, actual: actual, result: result, request: request)[output]
    }
}

extension SnapshotImageCodec where Self == PNGSnapshotCodec {
    /// PNG through libpng: the default of every strategy of `ImageDiffSnapshotTesting`.
    public static var png: PNGSnapshotCodec { PNGSnapshotCodec() }
}
