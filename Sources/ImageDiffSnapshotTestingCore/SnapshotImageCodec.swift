import ImageDiff

/// How image snapshots are stored: the bytes of a reference, and of each failure artifact.
///
/// The snapshot strategies need nothing else from a codec, so a suite that brings its own
/// decoder, or only ever compares ``RGBAImage`` buffers, depends on
/// `ImageDiffSnapshotTestingCore` alone and builds without libpng, libjpeg-turbo or
/// ImageMagick. `ImageDiffSnapshotTesting` supplies ``SnapshotImageCodec/png``, backed by
/// libpng and libjpeg-turbo, as every strategy's default.
public protocol SnapshotImageCodec: Sendable {
    /// The extension of the stored references and of the artifacts.
    var pathExtension: String { get }

    /// The image in `bytes`.
    func decode(_ bytes: [UInt8]) throws -> RGBAImage

    /// `image` as a file's bytes.
    func encode(_ image: RGBAImage) throws -> [UInt8]

    /// The file of a review output; nil when there is nothing to draw. The default draws
    /// ``ReviewOutput/image(reference:actual:result:rounding:differenceFuzz:maskColor:)`` and
    /// encodes it with ``encode(_:)``.
    func encode(
        _ output: ReviewOutput, reference: RGBAImage, actual: RGBAImage, result: DiffResult,
        rounding: ImageMagickRounding, maskColor: RGBA
    ) throws -> [UInt8]?
}

extension SnapshotImageCodec {
    /// `png`, for every codec that does not name its own extension.
    public var pathExtension: String { "png" }

    public func encode(
        _ output: ReviewOutput, reference: RGBAImage, actual: RGBAImage, result: DiffResult,
        rounding: ImageMagickRounding, maskColor: RGBA
    ) throws -> [UInt8]? {
        guard let image = output.image(reference: reference, actual: actual, result: result, rounding: rounding, maskColor: maskColor)
        else { return nil }
        return try encode(image)
    }
}
