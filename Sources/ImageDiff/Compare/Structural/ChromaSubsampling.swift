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
/// The model has no free parameter: ``reconstruction(upsampling:)`` gives the reference as each
/// upsampling decodes it (one image at a time, from the chroma block means), and the
/// structural mode compares the new image with the one that leaves the fewest candidates, or
/// with the reference itself when neither does better. When the pair's luma shows JPEG's
/// quantization, the planes are quantized first at the quality read off the pair
/// (``quantized(quality:bands:)``, ``JPEGQuantization``). A
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

    let image: RGBAImage
    /// Per 2 × 2 block, row-major over ``blockColumns`` × ``blockRows``: the mean Cb and Cr,
    /// centred on zero.
    private(set) var blue: [Float]
    private(set) var red: [Float]
    /// Per pixel, row-major: the luma a decoder draws, when the model also quantizes
    /// (``quantized(quality:bands:)``); nil, each pixel keeps its own.
    private(set) var luma: [UInt8]?
    var blockColumns: Int { (image.width + 1) / 2 }
    var blockRows: Int { (image.height + 1) / 2 }

    /// The chroma block means of `image`; nil for an image with translucent pixels, which JPEG
    /// cannot hold, or 16-bit samples.
    init?(_ image: RGBAImage) {
        guard !image.is16Bit else { return nil }
        let (width, height) = (image.width, image.height)
        let (blockColumns, blockRows) = ((width + 1) / 2, (height + 1) / 2)
        var blue = [Float](repeating: 0, count: blockColumns * blockRows)
        var red = [Float](repeating: 0, count: blockColumns * blockRows)
        let opaque = image.pixels.withUnsafeBufferPointer { pixels -> Bool in
            for y in 0..<(blockRows * 2) {
                // An odd last row or column is repeated, as the encoder pads it.
                let sourceY = min(y, height - 1)
                for x in 0..<(blockColumns * 2) {
                    let k = (sourceY * width + min(x, width - 1)) * 4
                    if image.hasAlpha && pixels[k + 3] != 255 { return false }
                    let (cb, cr) = Self.chroma(pixels[k], pixels[k + 1], pixels[k + 2])
                    let block = (y / 2) * blockColumns + x / 2
                    blue[block] += cb / 4
                    red[block] += cr / 4
                }
            }
            return true
        }
        guard opaque else { return nil }
        (self.image, self.blue, self.red) = (image, blue, red)
    }

    /// The model with every plane also quantized as a JPEG of `quality` quantizes it
    /// (``JPEGQuantization``): the luma of each pixel and the chroma block means, each rounded to
    /// a level first, as the encoder holds them.
    func quantized(quality: Int, bands: Int = 0) -> ChromaSubsampling {
        let chromaTable = JPEGQuantization.table(JPEGQuantization.chromaTable, quality: quality)
        func chroma(_ plane: [Float]) -> [Float] {
            JPEGQuantization.quantized(
                .samples(plane.map(JPEGQuantization.nearest), width: blockColumns, height: blockRows), table: chromaTable, bands: bands
            ).map { Float($0) - 128 }
        }
        var model = self
        model.luma = JPEGQuantization.quantized(
            .luma(image), table: JPEGQuantization.table(JPEGQuantization.lumaTable, quality: quality), bands: bands)
        (model.blue, model.red) = (chroma(blue), chroma(red))
        return model
    }

    /// The image a decoder draws: each pixel's own luma, chroma brought back by `upsampling`,
    /// converted to RGB and clipped.
    func reconstruction(upsampling: Upsampling, bands: Int = 0) -> RGBAImage {
        let (width, height) = (image.width, image.height)
        let pixels = [UInt8](filling: width * height * 4) { output, initialized in
            image.pixels.withUnsafeBufferPointer { source in
                let shared = UncheckedSendable((self, source, output))
                RowBands.forEach(height: height, bands: RowBands.count(height: height, requested: bands)) { _, rows in
                    let (model, source, output) = shared.value
                    for y in rows {
                        for x in 0..<width {
                            let k = (y * width + x) * 4
                            let luma: Float
                            if let quantized = model.luma {
                                luma = Float(quantized[y * width + x])
                            } else {
                                luma = JPEGQuantization.luma(source, k)
                            }
                            let (cb, cr) = model.chroma(x: x, y: y, upsampling: upsampling)
                            output[k] = Self.clipped(luma + 1.402 * cr)
                            output[k + 1] = Self.clipped(luma - 0.344_136 * cb - 0.714_136 * cr)
                            output[k + 2] = Self.clipped(luma + 1.772 * cb)
                            output[k + 3] = 255
                        }
                    }
                }
            }
            initialized = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    /// The chroma the decoder gives pixel (x, y), centred on zero.
    @inline(__always)
    func chroma(x: Int, y: Int, upsampling: Upsampling) -> (cb: Float, cr: Float) {
        let (column, row) = (x / 2, y / 2)
        switch upsampling {
        case .replicated:
            return (blue[row * blockColumns + column], red[row * blockColumns + column])
        case .triangular:
            // The block beside and the block above or below on the pixel's side, repeated at
            // the image's edges.
            let nextColumn = min(blockColumns - 1, max(0, column + (x % 2 == 0 ? -1 : 1)))
            let nextRow = min(blockRows - 1, max(0, row + (y % 2 == 0 ? -1 : 1)))
            func mixed(_ plane: [Float]) -> Float {
                (9 * plane[row * blockColumns + column] + 3 * plane[row * blockColumns + nextColumn]
                    + 3 * plane[nextRow * blockColumns + column] + plane[nextRow * blockColumns + nextColumn]) / 16
            }
            return (mixed(blue), mixed(red))
        }
    }

    /// JFIF's Cb and Cr of a colour, centred on zero.
    @inline(__always)
    static func chroma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (cb: Float, cr: Float) {
        let (r, g, b) = (Float(r), Float(g), Float(b))
        return (-0.168_736 * r - 0.331_264 * g + 0.5 * b, 0.5 * r - 0.418_688 * g - 0.081_312 * b)
    }

    /// `value` rounded to the nearest level, within 0…255.
    @inline(__always)
    static func clipped(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value)) + 0.5) }
}
