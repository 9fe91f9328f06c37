import RealModule

/// A colour in CIE L\*a\*b\* (D65), in the convention of Docs/comparison-semantics.md §2.
public struct LabColor: Sendable, Equatable {
    /// Lightness L\*: 0 for black to 100 for white.
    public var l: Double
    /// a\*: green (negative) to red (positive); 0 for greys, about −86 to 98 over sRGB colours.
    public var a: Double
    /// b\*: blue (negative) to yellow (positive); 0 for greys, about −108 to 94 over sRGB colours.
    public var b: Double

    /// A colour from its coordinates, taken as given: nothing is checked or clamped.
    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// Converts an 8-bit sRGB colour: sRGB decoding, the D65 matrix from the sRGB primaries,
    /// and CIE's ε/κ form of f(t) (greys come out exactly neutral).
    public init(r: UInt8, g: UInt8, b: UInt8) {
        let t = Self.whiteRatios(r: r, g: g, b: b)
        let fx = Self.f(t.x)
        let fy = Self.f(t.y)
        let fz = Self.f(t.z)
        self.l = 116 * fy - 16
        self.a = 500 * (fx - fy)
        self.b = 200 * (fy - fz)
    }

    /// X/Xn, Y/Yn and Z/Zn of an 8-bit sRGB colour: what f(t) takes.
    @inline(__always)
    static func whiteRatios(r: UInt8, g: UInt8, b: UInt8) -> (x: Double, y: Double, z: Double) {
        let linear = SRGB.linear
        let lr = linear[Int(r)], lg = linear[Int(g)], lb = linear[Int(b)]
        let x = 0.41239079926595934 * lr + 0.35758433938387796 * lg + 0.1804807884018343 * lb
        let y = 0.2126390058715103 * lr + 0.7151686787677559 * lg + 0.07219231536073371 * lb
        let z = 0.019330818715591825 * lr + 0.11919477979462595 * lg + 0.9505321522496606 * lb
        return (x / 0.9504559270516716, y, z / 1.0890577507598784)
    }

    @inline(__always)
    static func f(_ t: Double) -> Double {
        t > 216.0 / 24389.0 ? cubeRoot(t) : (24389.0 / 27.0 * t + 16) / 116
    }

    /// The cube root of `t` (positive and normal), within a unit in the last place, exact on
    /// exact cubes, and the same on every platform: glibc's `cbrt` takes twice as long, is up
    /// to 1.8 units off, and other C libraries round it otherwise.
    ///
    /// The exponent divided by three gives 5 bits; two Halley steps, each tripling the bits,
    /// give 45; a last Newton step, its residual `t − y³` taken with fused multiply-adds,
    /// gives the rest.
    @inline(__always)
    static func cubeRoot(_ t: Double) -> Double {
        var y = Double(bitPattern: t.bitPattern / 3 &+ 0x2A9F_7893_0000_0000)
        for _ in 0..<2 {
            let cube = y * y * y
            y *= (cube + 2 * t) / (2 * cube + t)
        }
        let square = y * y
        let squareError = (-square).addingProduct(y, y)
        let residual = t.addingProduct(-square, y) - squareError * y
        return y + residual / (3 * square)
    }

    /// Chroma, √(a² + b²).
    public var chroma: Double { (a * a + b * b).squareRoot() }
}

/// Upper bounds on ΔE76 and ΔE94 between two colours, found without a cube root: a run that
/// only reports the largest ΔE need not convert a pair whose bound is below the largest so
/// far, nor one that asks whether ΔE passes a threshold a pair whose bound is below it.
///
/// f(t) is continuous, non-decreasing and concave, its slope falling from κ/116 (below ε) as
/// t^(−2/3)/3. So f(t₁) − f(t₂) is (t₁ − t₂) times a slope between f′(max t) and f′(min t),
/// and a table of f′ at the edges of 1,024 steps of t bounds both. Those intervals for fx, fy
/// and fz bound ΔL\* = 116 Δfy, Δa\* = 500 Δ(fx − fy) and Δb\* = 200 Δ(fy − fz), and the
/// same intervals for one colour's own fx, fy and fz bound its chroma, which sets CIE94's
/// weights. Playwright's Lab takes the same f (in σ = 6/29 form) of its own ratios, so the
/// bounds hold for it too.
enum DeltaEBound {
    private static let steps = 1024

    /// f′ at t = i / steps, for i in 0...steps + 1.
    private static let slopes: [Double] = (0...(steps + 1)).map { index in
        let t = Double(index) / Double(steps)
        return t <= 216.0 / 24389.0 ? 24389.0 / 27.0 / 116 : 1 / (3 * Double.pow(t, 2.0 / 3.0))
    }

    /// Whether ΔE by `formula` between two colours, given by their
    /// ``LabColor/whiteRatios(r:g:b:)`` (or another conversion's, with the same f), is surely
    /// below `floor`: by more than the rounding of any of the conversions. Never for CIEDE2000,
    /// whose a′ rescaling can take it above ΔE76.
    @inline(__always)
    static func isSurelyBelow(
        _ floor: Double, _ p: (x: Double, y: Double, z: Double), _ q: (x: Double, y: Double, z: Double),
        formula: DeltaEFormula
    ) -> Bool {
        guard formula != .ciede2000 else { return false }
        let delta = labChange(p, q)
        if isSurelyBelow(floor, square: squaredCIE76(delta)) { return true }
        guard formula == .cie94 else { return false }
        return isSurelyBelow(floor, square: squaredCIE94(delta, smallestSH: smallestSH(p)))
    }

    /// ``isSurelyBelow(_:_:_:formula:)`` for two 8-bit sRGB colours. Levels apart first: the
    /// colours are joined by a path of single-level steps, one channel at a time, and ΔE76 (a
    /// distance, which ΔE94 never exceeds) is at most the sum of the steps' ΔE76, each at most
    /// its channel's ``levelSteps``; only a pair that this leaves undecided is bounded from
    /// its white ratios.
    @inline(__always)
    static func isSurelyBelow(
        _ floor: Double, _ p: (r: UInt8, g: UInt8, b: UInt8), _ q: (r: UInt8, g: UInt8, b: UInt8), formula: DeltaEFormula
    ) -> Bool {
        guard formula != .ciede2000 else { return false }
        let steps = levelSteps.r * Double(abs(Int(p.r) - Int(q.r))) + levelSteps.g * Double(abs(Int(p.g) - Int(q.g)))
            + levelSteps.b * Double(abs(Int(p.b) - Int(q.b)))
        return isSurelyBelow(floor, square: steps * steps)
            || isSurelyBelow(floor, LabColor.whiteRatios(r: p.r, g: p.g, b: p.b), LabColor.whiteRatios(r: q.r, g: q.g, b: q.b), formula: formula)
    }

    /// The largest ΔE76 between an 8-bit sRGB colour and the one a level higher in red, in
    /// green or in blue, over every colour, rounded up: 0.852199…, 1.188521… and 0.889788…
    /// (`DeltaETests` searches every colour for them).
    static let levelSteps = (r: 0.8522, g: 1.1886, b: 0.8898)

    /// The square of an upper bound on ΔE76 between two colours given by their white ratios.
    @inline(__always)
    static func squaredCIE76(_ p: (x: Double, y: Double, z: Double), _ q: (x: Double, y: Double, z: Double)) -> Double {
        squaredCIE76(labChange(p, q))
    }

    /// The square of an upper bound on ΔE94 between two colours given by their white ratios,
    /// the first colour's chroma C₁ weighting the terms. ΔC² + ΔH² = Δa² + Δb² (ΔH² is clamped
    /// at zero only when rounding takes it below), and S_C ≥ S_H ≥ 1, so ΔE94² is at most
    /// ΔL² + (Δa² + Δb²) / S_H²; the bound takes the largest Δ and the smallest S_H that the
    /// intervals allow.
    @inline(__always)
    static func squaredCIE94(_ p: (x: Double, y: Double, z: Double), _ q: (x: Double, y: Double, z: Double)) -> Double {
        squaredCIE94(labChange(p, q), smallestSH: smallestSH(p))
    }

    private typealias Interval = (low: Double, high: Double)
    private typealias LabChange = (l: Interval, a: Interval, b: Interval)

    @inline(__always)
    private static func squaredCIE76(_ delta: LabChange) -> Double {
        let l = 116 * farthestFromZero(delta.l), a = 500 * farthestFromZero(delta.a), b = 200 * farthestFromZero(delta.b)
        return l * l + a * a + b * b
    }

    @inline(__always)
    private static func squaredCIE94(_ delta: LabChange, smallestSH: Double) -> Double {
        let l = 116 * farthestFromZero(delta.l), a = 500 * farthestFromZero(delta.a), b = 200 * farthestFromZero(delta.b)
        return l * l + (a * a + b * b) / (smallestSH * smallestSH)
    }

    /// The smallest S_H of CIE94 that a colour's a\* and b\* allow.
    @inline(__always)
    private static func smallestSH(_ p: (x: Double, y: Double, z: Double)) -> Double {
        let ownA = change(p.x, p.y), ownB = change(p.y, p.z)
        let lowChroma = (500 * nearestToZero(ownA), 200 * nearestToZero(ownB))
        return 1 + 0.015 * (lowChroma.0 * lowChroma.0 + lowChroma.1 * lowChroma.1).squareRoot()
    }

    /// The intervals that hold fy₁ − fy₂ (ΔL\* / 116), (fx − fy)₁ − (fx − fy)₂ (Δa\* / 500) and
    /// (fy − fz)₁ − (fy − fz)₂ (Δb\* / 200).
    @inline(__always)
    private static func labChange(_ p: (x: Double, y: Double, z: Double), _ q: (x: Double, y: Double, z: Double)) -> LabChange {
        let x = change(p.x, q.x), y = change(p.y, q.y), z = change(p.z, q.z)
        return (y, (x.low - y.high, x.high - y.low), (y.low - z.high, y.high - z.low))
    }

    @inline(__always)
    private static func farthestFromZero(_ interval: Interval) -> Double {
        Swift.max(-interval.low, interval.high)
    }

    /// Zero when the interval holds zero.
    @inline(__always)
    private static func nearestToZero(_ interval: Interval) -> Double {
        Swift.max(0, interval.low, -interval.high)
    }

    /// Whether a distance whose square is at most `square` is surely below `floor`: by more
    /// than the rounding of any of the conversions.
    @inline(__always)
    static func isSurelyBelow(_ floor: Double, square: Double) -> Bool {
        floor > 0 && square * (1 + 1e-6) + 1e-6 < floor * floor
    }

    /// The interval that holds f(t₁) − f(t₂).
    @inline(__always)
    private static func change(_ t1: Double, _ t2: Double) -> Interval {
        let difference = t1 - t2
        let lowerEdge = Swift.min(Int(Swift.min(t1, t2) * Double(steps)), steps)
        let upperEdge = Swift.min(Int(Swift.max(t1, t2) * Double(steps)), steps) + 1
        let steepest = slopes[lowerEdge] * difference, shallowest = slopes[upperEdge] * difference
        return (Swift.min(steepest, shallowest), Swift.max(steepest, shallowest))
    }
}

enum SRGB {
    /// sRGB 8-bit value → linear light.
    static let linear: [Double] = (0...255).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : Double.pow((c + 0.055) / 1.055, 2.4)
    }
}

/// The ΔE formulas imgdiff offers.
public enum DeltaEFormula: String, Sendable, CaseIterable, Codable {
    /// Euclidean distance in L\*a\*b\*.
    case cie76
    /// CIE94, graphic-arts weights; asymmetric: the reference's chroma weights the terms.
    case cie94
    /// CIEDE2000 (Sharma, Wu & Dalal 2005).
    case ciede2000

    /// ΔE between a reference colour and a sample.
    public func difference(_ reference: LabColor, _ sample: LabColor) -> Double {
        switch self {
        case .cie76: return DeltaE.cie76(reference, sample)
        case .cie94: return DeltaE.cie94(reference, sample)
        case .ciede2000: return DeltaE.ciede2000(reference, sample)
        }
    }
}

/// The ΔE formulas as pure functions.
public enum DeltaE {
    /// CIE76: the Euclidean distance between two colours in L\*a\*b\*, the same either way round.
    public static func cie76(_ p: LabColor, _ q: LabColor) -> Double {
        let dl = p.l - q.l, da = p.a - q.a, db = p.b - q.b
        return (dl * dl + da * da + db * db).squareRoot()
    }

    /// CIE94 with kL = kC = kH = 1, K1 = 0.045, K2 = 0.015; SC and SH use the chroma of
    /// `reference`.
    public static func cie94(_ reference: LabColor, _ sample: LabColor) -> Double {
        let c1 = reference.chroma
        let c2 = sample.chroma
        let dl = reference.l - sample.l
        let dc = c1 - c2
        let da = reference.a - sample.a
        let db = reference.b - sample.b
        let dh2 = Swift.max(0, da * da + db * db - dc * dc)
        let sc = 1 + 0.045 * c1
        let sh = 1 + 0.015 * c1
        let tc = dc / sc
        return (dl * dl + tc * tc + dh2 / (sh * sh)).squareRoot()
    }

    /// CIEDE2000; hue differences within 1e-9 of 180° take the "≤ 180°" branch.
    public static func ciede2000(_ p: LabColor, _ q: LabColor) -> Double {
        let c1 = p.chroma, c2 = q.chroma
        let meanC = (c1 + c2) / 2
        let meanC7 = pow7(meanC)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + 6_103_515_625)).squareRoot())
        let a1 = (1 + g) * p.a, a2 = (1 + g) * q.a
        let c1p = (a1 * a1 + p.b * p.b).squareRoot()
        let c2p = (a2 * a2 + q.b * q.b).squareRoot()
        let h1p = hueDegrees(p.b, a1)
        let h2p = hueDegrees(q.b, a2)

        let dLp = q.l - p.l
        let dCp = c2p - c1p
        var dhp = 0.0
        if c1p * c2p != 0 {
            let diff = h2p - h1p
            if abs(diff) <= 180 + 1e-9 {
                dhp = diff
            } else if diff > 180 {
                dhp = diff - 360
            } else {
                dhp = diff + 360
            }
        }
        let dHp = 2 * (c1p * c2p).squareRoot() * Double.sin(radians(dhp / 2))

        let meanL = (p.l + q.l) / 2
        let meanCp = (c1p + c2p) / 2
        var meanHp = h1p + h2p
        if c1p * c2p != 0 {
            let spread = abs(h1p - h2p)
            if spread <= 180 + 1e-9 {
                meanHp = (h1p + h2p) / 2
            } else if h1p + h2p < 360 {
                meanHp = (h1p + h2p + 360) / 2
            } else {
                meanHp = (h1p + h2p - 360) / 2
            }
        }
        let t = 1 - 0.17 * Double.cos(radians(meanHp - 30)) + 0.24 * Double.cos(radians(2 * meanHp))
            + 0.32 * Double.cos(radians(3 * meanHp + 6)) - 0.20 * Double.cos(radians(4 * meanHp - 63))
        let dTheta = 30 * Double.exp(-square((meanHp - 275) / 25))
        let meanCp7 = pow7(meanCp)
        let rc = 2 * (meanCp7 / (meanCp7 + 6_103_515_625)).squareRoot()
        let lShift = square(meanL - 50)
        let sl = 1 + 0.015 * lShift / (20 + lShift).squareRoot()
        let sc = 1 + 0.045 * meanCp
        let sh = 1 + 0.015 * meanCp * t
        let rt = -Double.sin(radians(2 * dTheta)) * rc
        let termL = dLp / sl, termC = dCp / sc, termH = dHp / sh
        return (termL * termL + termC * termC + termH * termH + rt * termC * termH).squareRoot()
    }

    @inline(__always) static func square(_ x: Double) -> Double { x * x }
    @inline(__always) static func pow7(_ x: Double) -> Double {
        let x2 = x * x
        return x2 * x2 * x2 * x
    }
    @inline(__always) static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    static func hueDegrees(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = Double.atan2(y: b, x: a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }
}
