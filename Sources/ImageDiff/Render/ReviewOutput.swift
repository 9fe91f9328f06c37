/// A review image that can be drawn for a compared pair.
public enum ReviewOutput: String, Sendable, CaseIterable, Codable {
    /// ImageMagick's review overlay: the reference tinted red, dissolved 60 % over the new
    /// image (``ImageMagickBlend``).
    case blend
    /// ImageMagick `compare`'s difference image (``ImageMagickCompare``).
    case difference
    /// The differing pixels in red over transparent (``DifferenceMask/render(color:)``).
    case mask
    /// Reference | new | highlight, with the numbers (``ReviewImage``): readable in any viewer,
    /// a one-level change included.
    case review

    /// The output drawn for `reference` and `actual`, compared as `result`; nil when there is
    /// nothing to draw (an empty image, or a result without a mask).
    ///
    /// - Parameters:
    ///   - rounding: The rounding of the blend and the difference image.
    ///   - differenceFuzz: ImageMagick's fuzz for the difference image, in Q16 units.
    ///   - maskColor: The colour of differing pixels in the mask.
    public func image(
        reference: RGBAImage, actual: RGBAImage, result: DiffResult,
        rounding: ImageMagickRounding = .im7, differenceFuzz: Double = 0, maskColor: RGBA = RGBA(255, 0, 0, 255)
    ) -> RGBAImage? {
        switch self {
        case .blend:
            guard reference.pixelCount > 0, actual.pixelCount > 0 else { return nil }
            return ImageMagickBlend.render(reference: reference, failure: actual, rounding: rounding)
        case .difference:
            let image = ImageMagickCompare.differenceImage(reference, actual, fuzz: differenceFuzz, rounding: rounding)
            return image.pixelCount > 0 ? image : nil
        case .mask:
            guard let mask = result.mask, mask.width > 0, mask.height > 0 else { return nil }
            return mask.render(color: maskColor)
        case .review:
            return ReviewImage.render(reference: reference, actual: actual, result: result)
        }
    }
}
