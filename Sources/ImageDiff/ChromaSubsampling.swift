/// JPEG's chroma subsampling, as the structural mode explains it on a pair that carries
/// recompression's signature (``RecompressionNoise``).
///
/// A JPEG encoder turns RGB into JFIF YCbCr and, by default (4:2:0), keeps the two chroma planes
/// at half resolution: each 2 × 2 block of pixels, counted from the image's top-left corner,
/// shares the mean of its Cb and of its Cr. The decoder brings the planes back to full size,
/// libjpeg by default with a triangular filter (each pixel ¾ its own block, ¼ the next one, in
/// each direction), some decoders by repeating each block. Luma keeps every pixel. Thin
/// saturated text and 1-px coloured lines on white therefore lose their colour to their
/// neighbours, and the neighbours, pushed past white, are clipped: tens of levels on pixels
/// whose block means move too far for the block model alone.
///
/// The model has no free parameter: ``reconstructions(of:)`` gives the reference as each
/// upsampling decodes it, and the structural mode compares the new image with the one that
/// leaves the fewest candidates, or with the reference itself when neither does better. A
/// changed element keeps its difference in luma, or in the colour of areas wider than a block,
/// which averaging within blocks cannot make.
struct ChromaSubsampling {
    /// How a decoder brings the chroma planes back to full size.
    enum Upsampling: CaseIterable {
        /// libjpeg's default ("fancy") upsampling: 9:3:3:1 of the four nearest block means.
        case triangular
        /// Each block mean repeated over its 2 × 2 pixels.
        case replicated
    }

    /// The reference as a 4:2:0 JPEG round trip draws it, under each upsampling; none for an
    /// image with translucent pixels, which JPEG cannot hold, or 16-bit samples.
    static func reconstructions(of image: RGBAImage) -> [RGBAImage] {
        guard !image.is16Bit, let planes = Planes(image) else { return [] }
        return Upsampling.allCases.map { planes.image(upsampling: $0, hasAlpha: image.hasAlpha) }
    }

    /// The luma at full resolution and the chroma block means of an opaque image.
    struct Planes {
        let width: Int
        let height: Int
        let luma: [Float]
        /// Per 2 × 2 block, row-major over ``blockColumns`` × ``blockRows``.
        let blue: [Float]
        let red: [Float]
        var blockColumns: Int { (width + 1) / 2 }
        var blockRows: Int { (height + 1) / 2 }

        init?(_ image: RGBAImage) {
            let (width, height) = (image.width, image.height)
            let (blockColumns, blockRows) = ((width + 1) / 2, (height + 1) / 2)
            var luma = [Float](repeating: 0, count: width * height)
            var blue = [Float](repeating: 0, count: blockColumns * blockRows)
            var red = [Float](repeating: 0, count: blockColumns * blockRows)
            let opaque = image.pixels.withUnsafeBufferPointer { pixels -> Bool in
                for y in 0..<(blockRows * 2) {
                    // An odd last row or column is repeated, as the encoder pads it.
                    let sourceY = min(y, height - 1)
                    for x in 0..<(blockColumns * 2) {
                        let k = (sourceY * width + min(x, width - 1)) * 4
                        if image.hasAlpha && pixels[k + 3] != 255 { return false }
                        let (r, g, b) = (Float(pixels[k]), Float(pixels[k + 1]), Float(pixels[k + 2]))
                        if y < height && x < width { luma[y * width + x] = 0.299 * r + 0.587 * g + 0.114 * b }
                        let block = (y / 2) * blockColumns + x / 2
                        blue[block] += (-0.168_736 * r - 0.331_264 * g + 0.5 * b) / 4
                        red[block] += (0.5 * r - 0.418_688 * g - 0.081_312 * b) / 4
                    }
                }
                return true
            }
            guard opaque else { return nil }
            (self.width, self.height, self.luma, self.blue, self.red) = (width, height, luma, blue, red)
        }

        /// The image the decoder draws: full-resolution luma, chroma brought back by
        /// `upsampling`, converted to RGB and clipped.
        func image(upsampling: Upsampling, hasAlpha: Bool) -> RGBAImage {
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let (cb, cr) = chroma(x: x, y: y, upsampling: upsampling)
                    let yValue = luma[y * width + x]
                    let k = (y * width + x) * 4
                    pixels[k] = Self.clipped(yValue + 1.402 * cr)
                    pixels[k + 1] = Self.clipped(yValue - 0.344_136 * cb - 0.714_136 * cr)
                    pixels[k + 2] = Self.clipped(yValue + 1.772 * cb)
                }
            }
            return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
        }

        /// The chroma the decoder gives pixel (x, y), centred on zero.
        func chroma(x: Int, y: Int, upsampling: Upsampling) -> (cb: Float, cr: Float) {
            let (column, row) = (x / 2, y / 2)
            switch upsampling {
            case .replicated:
                return (blue[row * blockColumns + column], red[row * blockColumns + column])
            case .triangular:
                // The block beside and the block above or below on the pixel's side, repeated
                // at the image's edges.
                let nextColumn = min(blockColumns - 1, max(0, column + (x % 2 == 0 ? -1 : 1)))
                let nextRow = min(blockRows - 1, max(0, row + (y % 2 == 0 ? -1 : 1)))
                func mixed(_ plane: [Float]) -> Float {
                    (9 * plane[row * blockColumns + column] + 3 * plane[row * blockColumns + nextColumn]
                        + 3 * plane[nextRow * blockColumns + column] + plane[nextRow * blockColumns + nextColumn]) / 16
                }
                return (mixed(blue), mixed(red))
            }
        }

        static func clipped(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }
    }
}
