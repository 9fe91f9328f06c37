/// The blends of two colours: the straight line between them in the space a tone curve decodes
/// code values to. A renderer mixes a pixel's ink and ground by its coverage, in linear light or
/// in sRGB's code values, so a partly covered pixel lies on such a line, whatever its coverage.
struct ColourSegment {
    typealias Colour = (r: UInt8, g: UInt8, b: UInt8)

    let curve: ColourDrift.ToneCurve
    let start: SIMD3<Double>
    let direction: SIMD3<Double>
    let squaredLength: Double

    /// The two spaces renderers blend in: linear light (sRGB's curve) and code values (power 1).
    static let blendingCurves: [ColourDrift.ToneCurve] = [.sRGB, .power(1)]

    init(from start: Colour, to end: Colour, in curve: ColourDrift.ToneCurve) {
        self.curve = curve
        self.start = Self.point(start, curve)
        direction = Self.point(end, curve) - self.start
        squaredLength = (direction * direction).sum()
    }

    /// The colour of the segment nearest `colour` in the curve's space; with `pastEnd`, of the
    /// segment drawn on past its end.
    func nearest(to colour: Colour, pastEnd: Bool = false) -> Colour {
        let offset = Self.point(colour, curve) - start
        let share = squaredLength > 0 ? max((offset * direction).sum() / squaredLength, 0) : 0
        let along = pastEnd ? share : min(share, 1)
        let point = start + along * direction
        return (curve.encoded(point.x), curve.encoded(point.y), curve.encoded(point.z))
    }

    /// The ΔE94 from `colour` to the nearest colour of the segment (drawn on past its end, with
    /// `pastEnd`).
    func distance(to colour: Colour, pastEnd: Bool = false, _ labCache: inout LabCache) -> Double {
        labCache.cie94(colour, nearest(to: colour, pastEnd: pastEnd))
    }

    private static func point(_ colour: Colour, _ curve: ColourDrift.ToneCurve) -> SIMD3<Double> {
        SIMD3(curve.linear(colour.r), curve.linear(colour.g), curve.linear(colour.b))
    }
}
