import ImageDiff

/// The pass/fail rule of pointfreeco/swift-snapshot-testing's image strategies, reproduced
/// exactly (Docs/comparison-semantics.md §3), including its `Float` arithmetic and
/// failure messages.
public struct SnapshotPrecision: Sendable, Equatable, Codable {
    /// With `perceptualPrecision == 1`: the fraction of premultiplied bytes that must match.
    /// Otherwise: the fraction of pixels that must pass the perceptual test.
    public var precision: Float
    /// A pixel passes iff its CIE94 ΔE ≤ `(1 − perceptualPrecision) · 100`.
    public var perceptualPrecision: Float
    /// Which of swift-snapshot-testing's two perceptual paths is modelled.
    public var arithmetic: PerceptualArithmetic

    /// How swift-snapshot-testing's perceptual comparison computes on Apple platforms. Both
    /// paths render Core Image's ΔE image as half floats (`CIFormat.Rh`), so each pixel's ΔE
    /// is rounded to a `Float16` before it meets the threshold.
    public enum PerceptualArithmetic: String, Sendable, Equatable, Codable, CaseIterable {
        /// The vImage path, taken where Metal is missing (virtualized CI runners): failing
        /// pixels are counted, and the share is computed in `Float`.
        case cpu
        /// The Metal path (Macs and devices with a GPU): the thresholded image is averaged by
        /// `CIAreaAverage`, and that average is read back as a half float too:
        /// `1 − half(failing / total)`.
        case metal
    }

    /// Both precisions run from 0 to 1; at 1 and 1 (the default) only images whose premultiplied
    /// bytes are equal pass.
    public init(precision: Float = 1, perceptualPrecision: Float = 1, arithmetic: PerceptualArithmetic = .cpu) {
        self.precision = precision
        self.perceptualPrecision = perceptualPrecision
        self.arithmetic = arithmetic
    }

    enum CodingKeys: String, CodingKey {
        case precision, perceptualPrecision, arithmetic
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        precision = try container.decode(Float.self, forKey: .precision)
        perceptualPrecision = try container.decode(Float.self, forKey: .perceptualPrecision)
        arithmetic = try container.decodeIfPresent(PerceptualArithmetic.self, forKey: .arithmetic) ?? .cpu
    }

    /// Judges `actual` against the recorded `reference`.
    public func verdict(reference: RGBAImage, actual: RGBAImage) -> SnapshotVerdict {
        guard actual.width != 0, actual.height != 0 else {
            return .failed("Newly-taken snapshot is empty.")
        }
        guard reference.width == actual.width, reference.height == actual.height else {
            return .failed(
                "Newly-taken snapshot@\(Self.sizeDescription(actual)) does not match reference@\(Self.sizeDescription(reference)).")
        }
        let old = Premultiplied(reference), new = Premultiplied(actual)
        if ByteComparison.areEqual(old.bytes, new.bytes) { return .passed }
        if let unusable = [precision, perceptualPrecision].first(where: { !$0.isFinite }) {
            return .failed("imgdiff: precision and perceptualPrecision must be numbers between 0 and 1, not \(unusable.isNaN ? "NaN" : "\(unusable)")")
        }
        if precision >= 1, perceptualPrecision >= 1 {
            return .failed("Newly-taken snapshot does not match reference.")
        }
        if perceptualPrecision < 1 {
            return perceptualVerdict(reference: reference, actual: actual)
        }
        let byteCount = old.bytes.count
        // swift-snapshot-testing's figure, held within Int's range: a precision far outside 0…1
        // allows every byte, or none.
        let byteCountThreshold = Int(max(min((1 - precision) * Float(byteCount), 1e18), -1e18))
        var differentByteCount = 0
        for index in 0..<byteCount where old.bytes[index] != new.bytes[index] {
            differentByteCount += 1
        }
        guard differentByteCount > byteCountThreshold else { return .passed }
        let actualPrecision = 1 - Float(differentByteCount) / Float(byteCount)
        return .failed("Actual image precision \(actualPrecision) is less than required \(precision)")
    }

    /// Judges `actual` against `reference` after a metric: the pixels `difference` (the
    /// metric's comparison of the two, with its mask) does not count are taken as equal to
    /// the reference's, and the rule judges the rest. This is how the snapshot adapter, and
    /// the CLI with a metric or a settings file, apply a precision to a metric's tolerance.
    /// A `difference` without a mask, or whose mask does not cover the images, forgives
    /// nothing: the verdict is then the strict one.
    public func verdict(reference: RGBAImage, actual: RGBAImage, after difference: DiffResult) -> SnapshotVerdict {
        let strict = verdict(reference: reference, actual: actual)
        guard !strict.passed, !difference.sizeDiffers, let mask = difference.mask,
              mask.width == actual.width, mask.height == actual.height else { return strict }
        return verdict(reference: reference, actual: Self.forgivingUnmarkedPixels(of: actual, reference: reference, mask: mask))
    }

    /// `actual` with every pixel that `mask` does not mark replaced by the reference's pixel.
    static func forgivingUnmarkedPixels(of actual: RGBAImage, reference: RGBAImage, mask: DifferenceMask) -> RGBAImage {
        var pixels = actual.pixels
        for y in 0..<actual.height {
            for x in 0..<actual.width where !mask.contains(x: x, y: y) {
                let k = (y * actual.width + x) * 4
                pixels[k..<(k + 4)] = reference.pixels[k..<(k + 4)]
            }
        }
        return RGBAImage(width: actual.width, height: actual.height, pixels: pixels, hasAlpha: actual.hasAlpha)
    }

    func perceptualVerdict(reference: RGBAImage, actual: RGBAImage) -> SnapshotVerdict {
        var failingPixelCount = 0
        var maximumDeltaE: Float = 0
        reference.pixels.withUnsafeBufferPointer { old in
            actual.pixels.withUnsafeBufferPointer { new in
                guard let a = old.baseAddress, let b = new.baseAddress else { return }
                for index in 0..<reference.pixelCount {
                    let k = index * 4
                    guard PixelDelta.maxChannelDelta(a, b, k) != 0 else { continue }
                    let deltaE = Self.halfFloat(PixelDelta.deltaE(a, b, k, formula: .cie94))
                    if deltaE > (1 - perceptualPrecision) * 100 {
                        failingPixelCount += 1
                        maximumDeltaE = max(maximumDeltaE, deltaE)
                    }
                }
            }
        }
        let actualPixelPrecision = actualPixelPrecision(failingPixels: failingPixelCount, of: reference.pixelCount)
        guard actualPixelPrecision < precision else { return .passed }
        let minimumPerceptualPrecision = 1 - min(maximumDeltaE / 100, 1)
        return .failed(
            """
            The percentage of pixels that match \(actualPixelPrecision) is less than required \(precision)
            The lowest perceptual color precision \(minimumPerceptualPrecision) is less than required \(perceptualPrecision)
            """)
    }

    /// The share of pixels that pass the per-pixel perceptual test, as swift-snapshot-testing
    /// computes it from `failingPixels` of `totalPixels`: in `Float`, the failing share read back
    /// as a half float on the Metal path. The pair passes when it is not below ``precision``.
    package func actualPixelPrecision(failingPixels: Int, of totalPixels: Int) -> Float {
        var failingPixelPercent = Float(failingPixels) / Float(totalPixels)
        if arithmetic == .metal { failingPixelPercent = Self.halfFloat(failingPixelPercent) }
        return 1 - failingPixelPercent
    }

    /// The per-pixel perceptual test as swift-snapshot-testing computes it: ΔE read back as a
    /// half float, against the threshold in `Float`. At 0.98 the threshold is 1.9999981, so
    /// ΔE = 2.0 fails, and so does 1.9996, which a half float holds as 2.0.
    public func pixelFails(deltaE: Double) -> Bool {
        Self.halfFloat(deltaE) > (1 - perceptualPrecision) * 100
    }

    /// `value` rounded to the nearest half float (IEEE binary16), as a `Float`.
    public static func halfFloat(_ value: Double) -> Float { halfFloat(Float(value)) }

    /// `value` rounded to the nearest half float (IEEE binary16), as a `Float`.
    public static func halfFloat(_ value: Float) -> Float { HalfFloat.rounded(value) }

    /// How `CGSize` prints at scale 1.
    static func sizeDescription(_ image: RGBAImage) -> String {
        "(\(Double(image.width)), \(Double(image.height)))"
    }
}

/// A swift-snapshot-testing verdict.
public struct SnapshotVerdict: Sendable, Equatable, Codable {
    /// Whether swift-snapshot-testing passes the snapshot; ``message`` is nil when it does.
    public var passed: Bool
    /// swift-snapshot-testing's failure message, word for word; for a precision that is not a
    /// number, where swift-snapshot-testing traps, imgdiff's own message saying so.
    public var message: String?

    /// A passing verdict, without a message.
    public static let passed = SnapshotVerdict(passed: true, message: nil)
    /// A failing verdict carrying `message`.
    public static func failed(_ message: String) -> SnapshotVerdict {
        SnapshotVerdict(passed: false, message: message)
    }
}

/// Premultiplied 8-bit RGBA, as a CoreGraphics `premultipliedLast` context holds it:
/// `c' = round(c · a / 255)`.
package struct Premultiplied {
    package let bytes: [UInt8]

    package init(_ image: RGBAImage) {
        var bytes = image.pixels
        for k in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = Int(bytes[k + 3])
            if alpha == 255 { continue }
            for c in 0..<3 { bytes[k + c] = UInt8((Int(bytes[k + c]) * alpha + 127) / 255) }
        }
        self.bytes = bytes
    }
}

/// IEEE binary16 rounding in portable code (`Float16` is missing on Intel Macs): to nearest,
/// ties to even, at 11 significant bits; subnormals below 2⁻¹⁴; infinity from 65520.
enum HalfFloat {
    static func rounded(_ value: Float) -> Float {
        guard value.isFinite, value != 0 else { return value }
        let magnitude = abs(value)
        if magnitude >= 65520 { return value < 0 ? -.infinity : .infinity }
        let exponent = max(magnitude.exponent, -14)
        let quantum = Float(sign: .plus, exponent: exponent - 10, significand: 1)
        let rounded = (magnitude / quantum).rounded(.toNearestOrEven) * quantum
        return value < 0 ? -rounded : rounded
    }
}
