extension DeltaEFormula {
    /// The formula's symbol in text: `ΔE76`, `ΔE94`, `ΔE2000`.
    public var symbol: String {
        switch self {
        case .cie76: return "ΔE76"
        case .cie94: return "ΔE94"
        case .ciede2000: return "ΔE2000"
        }
    }
}

extension DiffResult {
    /// The one-line summary every front end prints:
    /// `2940 of 64000 pixels differ (4.594%, yiq 0.1), max ΔE94 89.67, max channel Δ 255, box 40:40-199:165`,
    /// followed when they apply by the pixels left out, those not counted as anti-aliased, and
    /// the two sizes.
    public var summary: String {
        let percent = PrintfFormat.general(differentRatio * 100, significantDigits: 4) + "%"
        let metricText = metric == .exact ? metric.name : "\(metric.name) \(metric.threshold.plainText)"
        var parts = ["\(differentPixels) of \(totalPixels) pixels differ (\(percent), \(metricText))"]
        if let imageMagick { parts.append("\(imageMagick.metric.rawValue) \(imageMagick.printed)") }
        parts.append("max \(deltaEFormula.symbol) \(PrintfFormat.fixed(maxDeltaE, decimals: 2))")
        parts.append("max channel Δ \(maxChannelDelta)")
        parts.append("box \(boundingBox?.description ?? "none")")
        if ignoredPixels > 0 { parts.append("\(ignoredPixels) ignored") }
        if antialiasedPixels > 0 { parts.append("\(antialiasedPixels) anti-aliased not counted") }
        if sizeDiffers { parts.append("size differs: \(referenceSize) vs \(actualSize)") }
        return parts.joined(separator: ", ")
    }
}

extension Double {
    /// The number as a person types it: `2` rather than `2.0`, `0.1` as `0.1`.
    package var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

extension Float {
    /// The number as a person types it: `2` rather than `2.0`, `0.985` as `0.985`.
    package var plainText: String {
        self == rounded() && abs(self) < 1e7 ? String(Int(self)) : String(self)
    }
}
