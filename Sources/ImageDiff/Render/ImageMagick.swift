/// Which ImageMagick build's rounding an output reproduces.
public enum ImageMagickRounding: String, Sendable, CaseIterable, Codable {
    /// ImageMagick 7's default Q16 HDRI build: samples are floats and the PNG writer rounds.
    case im7
    /// ImageMagick 6 Q16 (Debian's): samples are rounded to integers, the PNG writer truncates.
    case im6
}

/// ImageMagick's Q16 arithmetic, as Docs/imagemagick-semantics.md states it.
enum Q16 {
    static let range = 65535.0
    static let scale = 1.0 / 65535.0

    /// `ClampToQuantum` / `ClampPixel` of a non-HDRI build.
    @inline(__always)
    static func clampRounded(_ value: Double) -> Double {
        if value <= 0 { return 0 }
        if value >= range { return range }
        return (value + 0.5).rounded(.down)
    }

    /// `PerceptibleReciprocal`.
    @inline(__always)
    static func reciprocal(_ x: Double) -> Double {
        let sign: Double = x < 0 ? -1 : 1
        if sign * x >= 1e-12 { return 1 / x }
        return sign / 1e-12
    }

    /// A stored sample as the PNG writer emits it at `depth` (8 or 16 bits).
    @inline(__always)
    static func written(_ stored: Double, rounding: ImageMagickRounding, sixteenBit: Bool) -> UInt16 {
        switch rounding {
        case .im6:
            let q = clampRounded(stored)
            return sixteenBit ? UInt16(q) : UInt16(q / 257)
        case .im7:
            let q = Double(Float(stored))
            let maximum = sixteenBit ? 65535.0 : 255.0
            let scaled = maximum * q / range + 0.5
            if scaled <= 0 { return 0 }
            if scaled >= maximum { return UInt16(maximum) }
            return UInt16(scaled.rounded(.down))
        }
    }

    /// A stored opacity written as alpha. Q16 stores opacity as an integer, so alpha is
    /// exactly `QuantumRange − opacity` and the writer's rounding of opacity carries over. The
    /// HDRI build stores opacity as a float, and the writer takes alpha as the float
    /// `QuantumRange − opacity` and rounds that, half up: an opacity of 46828.5 is written as
    /// alpha 18707, not 65535 − 46829.
    @inline(__always)
    static func writtenAlpha(opacity: Double, rounding: ImageMagickRounding, sixteenBit: Bool) -> UInt16 {
        switch rounding {
        case .im6:
            let maximum: UInt16 = sixteenBit ? 65535 : 255
            return maximum - written(opacity, rounding: rounding, sixteenBit: sixteenBit)
        case .im7:
            let alpha = Float(range) - Float(opacity)
            return written(Double(alpha), rounding: rounding, sixteenBit: sixteenBit)
        }
    }
}

/// Builds an output image of `width × height` from 16-bit-scale samples per pixel.
struct OutputBuilder {
    let width: Int
    let height: Int
    let sixteenBit: Bool
    let hasAlpha: Bool
    var pixels: [UInt8]
    var samples16: [UInt16]

    init(width: Int, height: Int, sixteenBit: Bool, hasAlpha: Bool) {
        self.width = width
        self.height = height
        self.sixteenBit = sixteenBit
        self.hasAlpha = hasAlpha
        pixels = sixteenBit ? [] : [UInt8](repeating: 0, count: width * height * 4)
        samples16 = sixteenBit ? [UInt16](repeating: 0, count: width * height * 4) : []
    }

    @inline(__always)
    mutating func set(_ index: Int, _ r: UInt16, _ g: UInt16, _ b: UInt16, _ a: UInt16) {
        let k = index * 4
        if sixteenBit {
            samples16[k] = r
            samples16[k + 1] = g
            samples16[k + 2] = b
            samples16[k + 3] = a
        } else {
            pixels[k] = UInt8(truncatingIfNeeded: r)
            pixels[k + 1] = UInt8(truncatingIfNeeded: g)
            pixels[k + 2] = UInt8(truncatingIfNeeded: b)
            pixels[k + 3] = UInt8(truncatingIfNeeded: a)
        }
    }

    func image() -> RGBAImage {
        sixteenBit
            ? RGBAImage(width: width, height: height, samples16: samples16, hasAlpha: hasAlpha)
            : RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }
}

/// The review overlay of snapshot teams: the reference tinted red by ImageMagick's
/// `-color-matrix "6x3: 1 0 0 0 0 0.4  0 1 0 0 0 0  0 0 1 0 0 0"`, dissolved 60 % over the
/// failure (`-compose dissolve -define compose:args='60,100' -composite`), bit-exact.
public enum ImageMagickBlend {
    /// The red lift of the colour matrix: 0.4 · QuantumRange, rounded; 102 levels at 8 bits.
    static let redOffset = 26214

    /// Renders the overlay. The result has the failure's size, bit depth and alpha-ness; only
    /// the intersection with the reference is blended, the rest is the failure unchanged.
    public static func render(
        reference: RGBAImage, failure: RGBAImage, rounding: ImageMagickRounding = .im7
    ) -> RGBAImage {
        if reference.is16Bit || failure.is16Bit || failure.pixelCount == 0 {
            return renderGeneral(reference: reference, failure: failure, rounding: rounding)
        }
        return renderEightBit(reference: reference, failure: failure, rounding: rounding)
    }

    /// Pixel by pixel in ImageMagick's Q16 arithmetic: the path for 16-bit images, and the
    /// reference the 8-bit path is tested against.
    static func renderGeneral(
        reference: RGBAImage, failure: RGBAImage, rounding: ImageMagickRounding
    ) -> RGBAImage {
        var output = OutputBuilder(
            width: failure.width, height: failure.height,
            sixteenBit: failure.is16Bit, hasAlpha: failure.hasAlpha)
        let blendWidth = min(reference.width, failure.width)
        let blendHeight = min(reference.height, failure.height)
        for y in 0..<failure.height {
            for x in 0..<failure.width {
                let d = y * failure.width + x
                if x < blendWidth && y < blendHeight {
                    let p = blendedPixel(reference, y * reference.width + x, failure, d, rounding, sixteenBit: output.sixteenBit)
                    output.set(d, p.r, p.g, p.b, p.a)
                } else if output.sixteenBit {
                    output.set(
                        d, UInt16(failure.quantum(d, 0)), UInt16(failure.quantum(d, 1)),
                        UInt16(failure.quantum(d, 2)), UInt16(failure.quantum(d, 3)))
                } else {
                    let k = d * 4
                    output.set(
                        d, UInt16(failure.pixels[k]), UInt16(failure.pixels[k + 1]),
                        UInt16(failure.pixels[k + 2]), UInt16(failure.pixels[k + 3]))
                }
            }
        }
        return output.image()
    }

    /// 8-bit images, row bands on all cores.
    static func renderEightBit(
        reference: RGBAImage, failure: RGBAImage, rounding: ImageMagickRounding
    ) -> RGBAImage {
        Renderer(reference: reference, failure: failure, rounding: rounding).image()
    }

    /// The overlay of two 8-bit images, row by row: an encoder can write it band by band
    /// without holding the whole overlay. Opaque pixel pairs take the closed integer form, the
    /// others ImageMagick's general arithmetic.
    public struct Renderer: RowRenderer {
        /// The image tinted red and dissolved over the failure; the part outside it is dropped.
        public let reference: RGBAImage
        /// The canvas: the overlay keeps its size and alpha-ness, and its pixels outside the
        /// reference unchanged.
        public let failure: RGBAImage
        /// Which ImageMagick build's rounding the overlay's samples follow.
        public let rounding: ImageMagickRounding

        /// - Precondition: both images are 8-bit (16-bit ones go through ``render(reference:failure:rounding:)``).
        public init(reference: RGBAImage, failure: RGBAImage, rounding: ImageMagickRounding = .im7) {
            precondition(!reference.is16Bit && !failure.is16Bit, "the row renderer is for 8-bit images")
            self.reference = reference
            self.failure = failure
            self.rounding = rounding
        }

        /// The failure's width, which the overlay keeps.
        public var width: Int { failure.width }
        /// The failure's height, which the overlay keeps.
        public var height: Int { failure.height }
        /// The failure's alpha-ness, which the overlay keeps.
        public var hasAlpha: Bool { failure.hasAlpha }

        public func renderRows(_ rows: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
            precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows \(rows) are not within 0..<\(height)")
            let rowBytes = width * 4
            let blendWidth = min(reference.width, failure.width)
            let blendHeight = min(reference.height, failure.height)
            let kernel = RowKernel(referenceHasAlpha: reference.hasAlpha, failureHasAlpha: failure.hasAlpha, rounding: rounding)
            failure.pixels.withUnsafeBufferPointer { failBuffer in
                reference.pixels.withUnsafeBufferPointer { refBuffer in
                    guard let fail = failBuffer.baseAddress else { return }
                    for y in rows {
                        let out = output + (y - rows.lowerBound) * rowBytes
                        let row = fail + y * rowBytes
                        guard y < blendHeight, let ref = refBuffer.baseAddress else {
                            out.update(from: row, count: rowBytes)
                            continue
                        }
                        kernel.blend(reference: ref + y * reference.width * 4, failure: row, count: blendWidth, into: out)
                        let rest = (width - blendWidth) * 4
                        if rest > 0 { (out + blendWidth * 4).update(from: row + blendWidth * 4, count: rest) }
                    }
                }
            }
        }
    }

    /// The overlay of one row of 8-bit RGBA pixels: eight or four opaque pixel pairs at a time
    /// in SIMD lanes (the closed integer forms), the others one by one in ImageMagick's
    /// arithmetic. Eight opaque pairs equal to the eight before reuse their blend, and eight
    /// unchanged pixels (the same bytes in both images) have only their red tinted.
    package struct RowKernel: Sendable {
        let referenceHasAlpha: Bool
        let failureHasAlpha: Bool
        let rounding: ImageMagickRounding
        /// Lane constants of the four-pixel step, kept as values: as literals the optimiser
        /// splits the lanes they single out into scalar code.
        let redLift = SIMD8<UInt16>(102, 0, 102, 0, 102, 0, 102, 0)
        let greenLanes = SIMD8<UInt16>(0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0)
        /// The same for eight pixels at a time.
        let eightPixelRedLift = SIMD16<UInt16>(102, 0, 102, 0, 102, 0, 102, 0, 102, 0, 102, 0, 102, 0, 102, 0)
        let eightPixelGreenLanes = SIMD16<UInt16>(
            0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0, 0xFFFF, 0)

        package init(referenceHasAlpha: Bool, failureHasAlpha: Bool, rounding: ImageMagickRounding) {
            self.referenceHasAlpha = referenceHasAlpha
            self.failureHasAlpha = failureHasAlpha
            self.rounding = rounding
        }

        /// Blends `count` pixels of `reference` over `failure` into `output` (`count * 4` bytes each).
        package func blend(
            reference: UnsafePointer<UInt8>, failure: UnsafePointer<UInt8>, count: Int,
            into output: UnsafeMutablePointer<UInt8>
        ) {
            // An image without alpha counts as opaque whatever its fourth byte holds.
            let referenceOpaque: UInt32 = referenceHasAlpha ? 0 : 0xFF00_0000
            let failureOpaque: UInt32 = failureHasAlpha ? 0 : 0xFF00_0000
            let ref = UnsafeRawPointer(reference), fail = UnsafeRawPointer(failure)
            // The last translucent pair and its blend: transparent backgrounds repeat one pair
            // for whole rows, and the general dissolve is the costly path.
            var last: (pair: UInt64, blended: UInt32)?
            func blendRemembering(_ k: Int) {
                let pair = UInt64(ref.loadUnaligned(fromByteOffset: k, as: UInt32.self))
                    | UInt64(fail.loadUnaligned(fromByteOffset: k, as: UInt32.self)) << 32
                if let last, last.pair == pair {
                    UnsafeMutableRawPointer(output).storeBytes(of: last.blended, toByteOffset: k, as: UInt32.self)
                    return
                }
                blendPixel(reference, failure, k, into: output)
                last = (pair, UnsafeRawPointer(output).loadUnaligned(fromByteOffset: k, as: UInt32.self))
            }
            let opaqueAlphas = SIMD8<UInt32>(repeating: 0xFF00_0000)
            let (referenceOpaqueLanes, failureOpaqueLanes) = (SIMD8(repeating: referenceOpaque), SIMD8(repeating: failureOpaque))
            // The last eight opaque pixel pairs and their blend (at first, zero bytes'): flat
            // ground repeats them along a row.
            var lastEight = (reference: SIMD16<UInt16>(), failure: SIMD16<UInt16>(), blended: SIMD16<UInt16>())
            lastEight.blended = blendOpaque(lastEight.reference, lastEight.failure, redLift: eightPixelRedLift, greenLanes: eightPixelGreenLanes)
            var x = 0
            while x + 4 <= count {
                let offset = x * 4
                if x + 8 <= count {
                    let s = ref.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt16>.self)
                    let d = fail.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt16>.self)
                    let alphas = (unsafeBitCast(s, to: SIMD8<UInt32>.self) | referenceOpaqueLanes)
                        & (unsafeBitCast(d, to: SIMD8<UInt32>.self) | failureOpaqueLanes) & opaqueAlphas
                    if alphas == opaqueAlphas {
                        let blended: SIMD16<UInt16>
                        if sameBytes(lastEight.reference, s) && sameBytes(lastEight.failure, d) {
                            blended = lastEight.blended
                        } else if sameBytes(s, d) {
                            blended = blendUnchanged(s, redLift: eightPixelRedLift)
                        } else {
                            blended = blendOpaque(s, d, redLift: eightPixelRedLift, greenLanes: eightPixelGreenLanes)
                        }
                        UnsafeMutableRawPointer(output + offset).storeBytes(of: blended, as: SIMD16<UInt16>.self)
                        lastEight = (s, d, blended)
                        x += 8
                        continue
                    }
                }
                var alphas: UInt32 = 0xFFFF_FFFF
                for lane in 0..<4 {
                    alphas &= (ref.loadUnaligned(fromByteOffset: offset + lane * 4, as: UInt32.self) | referenceOpaque)
                        & (fail.loadUnaligned(fromByteOffset: offset + lane * 4, as: UInt32.self) | failureOpaque)
                }
                if alphas >= 0xFF00_0000 {
                    let blended = blendOpaque(
                        ref.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt16>.self),
                        fail.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt16>.self), redLift: redLift, greenLanes: greenLanes)
                    UnsafeMutableRawPointer(output + offset).storeBytes(of: blended, as: SIMD8<UInt16>.self)
                } else {
                    for pixel in x..<(x + 4) { blendRemembering(pixel * 4) }
                }
                x += 4
            }
            while x < count {
                blendRemembering(x * 4)
                x += 1
            }
        }

        /// One pixel at a time: the reference the SIMD path is tested against.
        package func blendScalar(
            reference: UnsafePointer<UInt8>, failure: UnsafePointer<UInt8>, count: Int,
            into output: UnsafeMutablePointer<UInt8>
        ) {
            for x in 0..<count { blendPixel(reference, failure, x * 4, into: output) }
        }

        /// Opaque pixels as 16-bit lanes (four in `SIMD8`, eight in `SIMD16`): the low bytes
        /// (R, B) and the high bytes (G, A) of each 16-bit word are blended apart and put back
        /// together. `redLift` and `greenLanes` are the lane constants at that width.
        @inline(__always)
        func blendOpaque<Lanes: SIMD<UInt16>>(_ s: Lanes, _ d: Lanes, redLift: Lanes, greenLanes: Lanes) -> Lanes {
            let low = Lanes(repeating: 0xFF)
            let redBlue = blend(liftedRed(s, redLift: redLift), d & low)
            let greenAlpha = blend(s &>> 8, d &>> 8) & greenLanes | (d &>> 8) & ~greenLanes
            return redBlue | greenAlpha &<< 8
        }

        /// Whether eight pixels hold the same bytes; in 64-bit lanes, since the comparison of
        /// sixteen 16-bit lanes compiles to one lane at a time.
        @inline(__always)
        func sameBytes(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> Bool {
            unsafeBitCast(a, to: SIMD4<UInt64>.self) ^ unsafeBitCast(b, to: SIMD4<UInt64>.self) == SIMD4<UInt64>()
        }

        /// ``blendOpaque(_:_:redLift:greenLanes:)`` of pixels over themselves: a blend of equal
        /// samples is that sample, so only red, lifted by the tint, changes.
        @inline(__always)
        func blendUnchanged<Lanes: SIMD<UInt16>>(_ s: Lanes, redLift: Lanes) -> Lanes {
            let low = Lanes(repeating: 0xFF)
            return blend(liftedRed(s, redLift: redLift), s & low) | s & ~low
        }

        /// The low byte of each lane plus `redLift`, saturated at 255: the tinted red (even
        /// lanes) and blue as it is (odd lanes).
        @inline(__always)
        func liftedRed<Lanes: SIMD<UInt16>>(_ s: Lanes, redLift: Lanes) -> Lanes {
            let low = Lanes(repeating: 0xFF)
            let lifted = (s & low) &+ redLift
            return (lifted | (0 &- (lifted &>> 8))) & low
        }

        @inline(__always)
        func blend<Lanes: SIMD<UInt16>>(_ s: Lanes, _ d: Lanes) -> Lanes {
            switch rounding {
            case .im6: (3 &* s &+ 2 &* d) / 5
            case .im7: (6 &* s &+ 4 &* d &+ 5) / 10
            }
        }

        @inline(__always)
        func blendPixel(_ ref: UnsafePointer<UInt8>, _ fail: UnsafePointer<UInt8>, _ k: Int, into out: UnsafeMutablePointer<UInt8>) {
            if (ref[k + 3] == 255 || !referenceHasAlpha) && (fail[k + 3] == 255 || !failureHasAlpha) {
                out[k] = UInt8(opaqueBlend8(min(255, Int(ref[k]) + 102), Int(fail[k]), rounding))
                out[k + 1] = UInt8(opaqueBlend8(Int(ref[k + 1]), Int(fail[k + 1]), rounding))
                out[k + 2] = UInt8(opaqueBlend8(Int(ref[k + 2]), Int(fail[k + 2]), rounding))
                out[k + 3] = fail[k + 3]
                return
            }
            let p = dissolve(
                source: (Int(ref[k]) * 257, Int(ref[k + 1]) * 257, Int(ref[k + 2]) * 257,
                         referenceHasAlpha ? Int(ref[k + 3]) * 257 : 65535),
                canvas: (Int(fail[k]) * 257, Int(fail[k + 1]) * 257, Int(fail[k + 2]) * 257,
                         failureHasAlpha ? Int(fail[k + 3]) * 257 : 65535),
                canvasHasAlpha: failureHasAlpha, rounding: rounding, sixteenBit: false)
            out[k] = UInt8(p.r)
            out[k + 1] = UInt8(p.g)
            out[k + 2] = UInt8(p.b)
            out[k + 3] = UInt8(p.a)
        }
    }

    /// `(3s + 2d) div 5` (IM6) or `(6s + 4d + 5) div 10` (IM7) for opaque 8-bit samples.
    @inline(__always)
    static func opaqueBlend8(_ s: Int, _ d: Int, _ rounding: ImageMagickRounding) -> Int {
        switch rounding {
        case .im6: return (3 * s + 2 * d) / 5
        case .im7: return (6 * s + 4 * d + 5) / 10
        }
    }

    /// One pixel of the general Porter-Duff dissolve of two images at any depth.
    @inline(__always)
    static func blendedPixel(
        _ reference: RGBAImage, _ s: Int, _ failure: RGBAImage, _ d: Int,
        _ rounding: ImageMagickRounding, sixteenBit: Bool
    ) -> (r: UInt16, g: UInt16, b: UInt16, a: UInt16) {
        dissolve(
            source: (reference.quantum(s, 0), reference.quantum(s, 1), reference.quantum(s, 2),
                     reference.hasAlpha ? reference.quantum(s, 3) : 65535),
            canvas: (failure.quantum(d, 0), failure.quantum(d, 1), failure.quantum(d, 2),
                     failure.hasAlpha ? failure.quantum(d, 3) : 65535),
            canvasHasAlpha: failure.hasAlpha, rounding: rounding, sixteenBit: sixteenBit)
    }

    /// The colour-matrix tint of a reference pixel dissolved over a failure pixel, in
    /// ImageMagick's own double arithmetic on Q16 samples, as written at 8 or 16 bits.
    @inline(__always)
    static func dissolve(
        source: (r: Int, g: Int, b: Int, alpha: Int), canvas: (r: Int, g: Int, b: Int, alpha: Int),
        canvasHasAlpha: Bool, rounding: ImageMagickRounding, sixteenBit: Bool
    ) -> (r: UInt16, g: UInt16, b: UInt16, a: UInt16) {
        let sourceOpacity = Q16.range - Double(source.alpha)
        let canvasOpacity = Q16.range - Double(canvas.alpha)
        let sa = 1 - Q16.scale * (Q16.range - 0.6 * (Q16.range - sourceOpacity))
        let da = 1 - Q16.scale * (Q16.range - 1.0 * (Q16.range - canvasOpacity))
        let gamma = sa + da - sa * da
        let opacity = Q16.range * (1 - gamma)
        let inverse = Q16.reciprocal(gamma)
        func channel(_ source: Int, _ canvas: Int) -> UInt16 {
            let value = inverse * (sa * Double(source) + da * Double(canvas) * (1 - sa))
            return Q16.written(value, rounding: rounding, sixteenBit: sixteenBit)
        }
        let alpha: UInt16 =
            canvasHasAlpha
            ? Q16.writtenAlpha(opacity: opacity, rounding: rounding, sixteenBit: sixteenBit)
            : (sixteenBit ? 65535 : 255)
        return (
            channel(min(65535, source.r + redOffset), canvas.r),
            channel(source.g, canvas.g),
            channel(source.b, canvas.b),
            alpha
        )
    }
}

/// ImageMagick `compare -metric AE [-fuzz F]`: the count and the difference image.
public enum ImageMagickCompare {
    /// `compare`'s highlight colour, `#f1001ecc`.
    public static let highlight = RGBA(241, 0, 30, 204)
    /// `compare`'s lowlight colour, `#ffffffcc`.
    public static let lowlight = RGBA(255, 255, 255, 204)

    /// The fuzz distance for a percentage, as `-fuzz P%` sets it: `P/100 · (QuantumRange + 1)`.
    public static func fuzz(percent: Double) -> Double { percent / 100 * 65536 }

    /// The AE count over `max(w) × max(h)`, the smaller image extended by edge replication.
    /// `fuzz` is a distance in Q16 units (0…65535 a channel), as ImageMagick's `-fuzz N` without
    /// `%`; for a percentage, pass ``fuzz(percent:)``.
    public static func absoluteError(
        _ reference: RGBAImage, _ failure: RGBAImage, fuzz: Double = 0, collectsMask: Bool = false
    ) -> (count: Int, area: Int, boundingBox: PixelRect?, mask: DifferenceMask?) {
        let width = max(reference.width, failure.width)
        let height = max(reference.height, failure.height)
        var mask = collectsMask ? DifferenceMask(width: width, height: height) : nil
        guard reference.pixelCount > 0 && failure.pixelCount > 0 else {
            for y in 0..<height { for x in 0..<width { mask?.set(x: x, y: y) } }
            let box = width * height > 0 ? PixelRect(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1) : nil
            return (width * height, width * height, box, mask)
        }
        let test = DifferenceTest(reference: reference, failure: failure, fuzz: fuzz)
        let bandCount = RowBands.count(height: height, bytesPerRow: width * 8)
        let bands = mask.withMaskPointer { maskPointer in
            let shared = UncheckedSendable(maskPointer)
            return RowBands.map(height: height, bands: bandCount) { _, rows in
                let maskPointer = shared.value
                var count = 0
                var box: PixelRect?
                for y in rows {
                    test.forEachDifference(inRow: y, width: width) { x in
                        count += 1
                        maskPointer?[y * width + x] = 1
                        box.formUnion(PixelRect(minX: x, minY: y, maxX: x, maxY: y))
                    }
                }
                return (count: count, box: box)
            }
        }
        let count = bands.reduce(0) { $0 + $1.count }
        var box: PixelRect?
        for bandBox in bands.compactMap(\.box) { box.formUnion(bandBox) }
        return (count, width * height, box, mask)
    }

    /// `compare`'s difference image: the reference made opaque, with the highlight composited
    /// over differing pixels and the lowlight over the rest. Reference size and bit depth.
    /// `fuzz` as for ``absoluteError(_:_:fuzz:collectsMask:)``: Q16 units, not a percentage.
    public static func differenceImage(
        _ reference: RGBAImage, _ failure: RGBAImage, fuzz: Double = 0,
        rounding: ImageMagickRounding = .im7
    ) -> RGBAImage {
        if reference.is16Bit || reference.pixelCount == 0 || failure.pixelCount == 0 {
            return differenceImageGeneral(reference, failure, fuzz: fuzz, rounding: rounding)
        }
        return DifferenceRenderer(reference: reference, failure: failure, fuzz: fuzz, rounding: rounding).image()
    }

    /// `compare`'s difference image of an 8-bit reference, row by row.
    public struct DifferenceRenderer: RowRenderer {
        let test: DifferenceTest
        /// Which ImageMagick build's rounding the samples follow; it does not change which pixels
        /// are highlighted.
        public let rounding: ImageMagickRounding

        /// `fuzz` in Q16 units, as for ``ImageMagickCompare/absoluteError(_:_:fuzz:collectsMask:)``.
        /// ``ImageMagickCompare/differenceImage(_:_:fuzz:rounding:)`` takes every pair, and
        /// picks this renderer where it applies.
        ///
        /// - Precondition: the reference is 8-bit and neither image is empty.
        public init(reference: RGBAImage, failure: RGBAImage, fuzz: Double = 0, rounding: ImageMagickRounding = .im7) {
            precondition(!reference.is16Bit && reference.pixelCount > 0 && failure.pixelCount > 0,
                         "the row renderer takes an 8-bit reference and two images with pixels; differenceImage takes any")
            test = DifferenceTest(reference: reference, failure: failure, fuzz: fuzz)
            self.rounding = rounding
        }

        /// The reference's width, which the difference image keeps.
        public var width: Int { test.reference.width }
        /// The reference's height, which the difference image keeps.
        public var height: Int { test.reference.height }
        /// Always false: the difference image is opaque.
        public var hasAlpha: Bool { false }

        public func renderRows(_ rows: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
            precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows \(rows) are not within 0..<\(height)")
            test.reference.pixels.withUnsafeBufferPointer { refBuffer in
                guard let ref = refBuffer.baseAddress else { return }
                for y in rows {
                    let out = output + (y - rows.lowerBound) * width * 4
                    for x in 0..<width {
                        let k = (y * width + x) * 4, o = x * 4
                        let color = test.differs(x: x, y: y) ? highlight : lowlight
                        out[o] = overlay8(color.r, ref[k], rounding)
                        out[o + 1] = overlay8(color.g, ref[k + 1], rounding)
                        out[o + 2] = overlay8(color.b, ref[k + 2], rounding)
                        out[o + 3] = 255
                    }
                }
            }
        }
    }

    /// `c` at 80 % over `v`, as written at 8 bits: `floor((4c + v) / 5)` under IM6 Q16,
    /// rounded under IM7 HDRI.
    @inline(__always)
    static func overlay8(_ c: UInt8, _ v: UInt8, _ rounding: ImageMagickRounding) -> UInt8 {
        let sum = 4 * Int(c) + Int(v)
        switch rounding {
        case .im6: return UInt8(sum / 5)
        case .im7: return UInt8((2 * sum + 5) / 10)
        }
    }

    /// Pixel by pixel in ImageMagick's Q16 arithmetic: the path for 16-bit references, and the
    /// reference the 8-bit path is tested against.
    static func differenceImageGeneral(
        _ reference: RGBAImage, _ failure: RGBAImage, fuzz: Double, rounding: ImageMagickRounding
    ) -> RGBAImage {
        let test = DifferenceTest(reference: reference, failure: failure, fuzz: fuzz)
        let comparable = failure.pixelCount > 0
        var output = OutputBuilder(
            width: reference.width, height: reference.height,
            sixteenBit: reference.is16Bit, hasAlpha: false)
        let opaque: UInt16 = reference.is16Bit ? 65535 : 255
        for y in 0..<reference.height {
            for x in 0..<reference.width {
                let index = y * reference.width + x
                let color = !comparable || test.differs(x: x, y: y) ? highlight : lowlight
                let sa = 1 - Q16.scale * (Q16.range - Double(color.a) * 257)
                func channel(_ overlay: UInt8, _ c: Int) -> UInt16 {
                    let value = sa * Double(overlay) * 257 + Double(reference.quantum(index, c)) * (1 - sa)
                    return Q16.written(value, rounding: rounding, sixteenBit: output.sixteenBit)
                }
                output.set(index, channel(color.r, 0), channel(color.g, 1), channel(color.b, 2), opaque)
            }
        }
        return output.image()
    }

    /// The per-pixel test shared by the count and the image.
    struct DifferenceTest: Sendable {
        let reference: RGBAImage
        let failure: RGBAImage
        let thresholdSquared: Double
        /// Without premultiplication the test is `max |Δq| ≥ this`, in Q16 units.
        let integerThreshold: Int

        init(reference: RGBAImage, failure: RGBAImage, fuzz: Double) {
            self.reference = reference
            self.failure = failure
            // Beyond 2^20 (more than any two Q16 colours are apart) nothing differs anyway; a
            // fuzz that is not a number is none.
            let distance = min(max(fuzz.isNaN ? 0 : fuzz, 0.5.squareRoot()), Double(1 << 20))
            thresholdSquared = distance * distance
            var threshold = Int(distance.rounded(.up))
            while threshold > 0, Double((threshold - 1) * (threshold - 1)) >= thresholdSquared { threshold -= 1 }
            while Double(threshold * threshold) < thresholdSquared { threshold += 1 }
            integerThreshold = threshold
        }

        /// Calls `body` with each differing x of row `y`, over `width` columns. In the overlap of
        /// 8-bit images, equal rows are skipped (equal pixels are never different) and opaque
        /// pixel pairs take an integer test (premultiplying by alpha 1 changes nothing: the Q16
        /// scale of 65535 is exactly 1.0); the rest goes through the general test.
        @inline(__always)
        func forEachDifference(inRow y: Int, width: Int, _ body: (Int) -> Void) {
            var x = 0
            if !reference.is16Bit, !failure.is16Bit, y < min(reference.height, failure.height) {
                let overlap = min(reference.width, failure.width)
                let levels = (integerThreshold + 256) / 257
                let premultiplies = reference.hasAlpha
                reference.pixels.withUnsafeBufferPointer { refBuffer in
                    failure.pixels.withUnsafeBufferPointer { failBuffer in
                        guard let ref = refBuffer.baseAddress, let fail = failBuffer.baseAddress else { return }
                        let p = ref + y * reference.width * 4, q = fail + y * failure.width * 4
                        if ByteComparison.areEqual(p, q, count: overlap * 4) { return }
                        for column in 0..<overlap {
                            let k = column * 4
                            if premultiplies && (p[k + 3] != 255 || q[k + 3] != 255) {
                                if differs(x: column, y: y) { body(column) }
                            } else if abs(Int(p[k]) - Int(q[k])) >= levels || abs(Int(p[k + 1]) - Int(q[k + 1])) >= levels
                                || abs(Int(p[k + 2]) - Int(q[k + 2])) >= levels
                            {
                                body(column)
                            }
                        }
                    }
                }
                x = overlap
            }
            while x < width {
                if differs(x: x, y: y) { body(x) }
                x += 1
            }
        }

        @inline(__always)
        func differs(x: Int, y: Int) -> Bool {
            let p = min(y, reference.height - 1) * reference.width + min(x, reference.width - 1)
            let q = min(y, failure.height - 1) * failure.width + min(x, failure.width - 1)
            guard reference.hasAlpha else {
                for c in 0..<3 where abs(reference.quantum(p, c) - failure.quantum(q, c)) >= integerThreshold {
                    return true
                }
                return false
            }
            let sa = Q16.scale * Double(reference.quantum(p, 3))
            let da = Q16.scale * Double(failure.quantum(q, 3))
            for c in 0..<3 {
                let distance = sa * Double(reference.quantum(p, c)) - da * Double(failure.quantum(q, c))
                if distance * distance >= thresholdSquared { return true }
            }
            return false
        }
    }
}
