import ImageCodecs
import ImageDiff

/// Renders and encodes the review images of decoded pairs: one route for each output, used
/// by every front end.
enum ReviewRenderer {
    /// The PNG file of `output`, or nil when there is nothing to draw (an empty image).
    static func encode(
        _ output: ReviewOutput, reference: RGBAImage, actual: RGBAImage, result: DiffResult, request: ComparisonRequest
    ) throws(ImageCodecError) -> [UInt8]? {
        let rounding = request.rounding
        switch output {
        case .blend:
            guard reference.pixelCount > 0, actual.pixelCount > 0 else { return nil }
            if reference.is16Bit || actual.is16Bit {
                return try encode(output.image(reference: reference, actual: actual, result: result, rounding: rounding))
            }
            // Deflated in the streamed route's pieces, so that both routes write the same bytes.
            return try PNGEncoder.encode(
                ImageMagickBlend.Renderer(reference: reference, failure: actual, rounding: rounding),
                pieces: StreamedRoute.overlayPieces(width: actual.width, height: actual.height))
        case .difference:
            let fuzz = request.differenceFuzz
            if reference.is16Bit || reference.pixelCount == 0 || actual.pixelCount == 0 {
                return try encode(output.image(reference: reference, actual: actual, result: result, rounding: rounding, differenceFuzz: fuzz))
            }
            return try PNGEncoder.encode(
                ImageMagickCompare.DifferenceRenderer(reference: reference, failure: actual, fuzz: fuzz, rounding: rounding))
        case .mask:
            guard let mask = result.mask else { return nil }
            return try encode(mask: mask, color: request.maskColor)
        default:
            return try encode(output.image(reference: reference, actual: actual, result: result))
        }
    }

    private static func encode(_ image: RGBAImage?) throws(ImageCodecError) -> [UInt8]? {
        guard let image else { return nil }
        return try PNGEncoder.encode(image)
    }

    /// The one mask encoding: a 1-bit palette PNG, differing pixels in `color`, the rest
    /// transparent. Nil for an empty mask.
    static func encode(mask: DifferenceMask, color: RGBA) throws(ImageCodecError) -> [UInt8]? {
        guard mask.width > 0, mask.height > 0 else { return nil }
        return try PNGEncoder.encode(mask: mask, color: color)
    }
}
