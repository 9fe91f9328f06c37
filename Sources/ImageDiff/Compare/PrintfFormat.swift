/// Numbers written as C's `printf` writes them with `%.Nf` and `%.Ng`, in pure Swift: the
/// binary value's exact decimal expansion, rounded half to even (as glibc rounds it). With it
/// the core writes its summary line, and ImageMagick's metrics to ImageMagick's own `%.*g`,
/// without Foundation's `String(format:)`.
public enum PrintfFormat {
    /// `%.<decimals>f`, or `%+.<decimals>f` with `plusSign`. `decimals` is taken within
    /// 0…``maxDecimals``: a double has no non-zero digit beyond it.
    public static func fixed(_ value: Double, decimals: Int, plusSign: Bool = false) -> String {
        guard value.isFinite else { return special(value, plusSign: plusSign) }
        return sign(value, plusSign: plusSign) + fixedDigits(ExactDecimal(value.magnitude), decimals: min(max(0, decimals), maxDecimals))
    }

    /// `%.<significantDigits>g`: `significantDigits` digits (at least one), in fixed notation
    /// when the exponent X of the rounded value satisfies −4 ≤ X < significantDigits and in
    /// exponent notation otherwise, with trailing zeros (and a bare point) dropped.
    /// `significantDigits` is taken within 1…``maxSignificantDigits``, which no double's exact
    /// expansion exceeds.
    public static func general(_ value: Double, significantDigits: Int, plusSign: Bool = false) -> String {
        guard value.isFinite else { return special(value, plusSign: plusSign) }
        let precision = min(max(1, significantDigits), maxSignificantDigits)
        let exact = ExactDecimal(value.magnitude)
        let body: String
        if exact.digits.isEmpty {
            body = "0"
        } else {
            var significant = exact
            let exponent = significant.round(keepingDecimals: precision - exact.pointPosition) - 1
            if exponent >= -4, exponent < precision {
                body = withoutTrailingZeros(fixedDigits(significant, decimals: precision - 1 - exponent))
            } else {
                var mantissa = significant.digitString(count: precision)
                mantissa.insert(".", at: mantissa.index(after: mantissa.startIndex))
                let magnitude = String(abs(exponent))
                body = withoutTrailingZeros(mantissa) + (exponent < 0 ? "e-" : "e+") + (magnitude.count < 2 ? "0" : "") + magnitude
            }
        }
        return sign(value, plusSign: plusSign) + body
    }

    /// The decimals of the smallest subnormal double's exact expansion, 2⁻¹⁰⁷⁴.
    public static let maxDecimals = 1074

    /// The significant digits of the longest exact expansion of a double.
    public static let maxSignificantDigits = 767

    static func sign(_ value: Double, plusSign: Bool) -> String {
        value.sign == .minus ? "-" : plusSign ? "+" : ""
    }

    static func special(_ value: Double, plusSign: Bool) -> String {
        sign(value, plusSign: plusSign) + (value.isNaN ? "nan" : "inf")
    }

    /// The digits of `exact` rounded to `decimals` places after the point, the point included
    /// when there are any.
    static func fixedDigits(_ exact: ExactDecimal, decimals: Int) -> String {
        var rounded = exact
        _ = rounded.round(keepingDecimals: decimals)
        let integerCount = max(1, rounded.pointPosition)
        let digits = rounded.digitString(count: integerCount + decimals, startingAt: rounded.pointPosition - integerCount)
        guard decimals > 0 else { return digits }
        var text = digits
        text.insert(".", at: text.index(text.startIndex, offsetBy: integerCount))
        return text
    }

    static func withoutTrailingZeros(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed.removeLast() }
        if trimmed.last == "." { trimmed.removeLast() }
        return String(trimmed)
    }
}

/// A non-negative finite double as its exact decimal expansion: `digits` (most significant
/// first, no leading zero; empty for zero) with the decimal point after the first
/// `pointPosition` of them (a negative position puts zeros before them).
struct ExactDecimal {
    var digits: [UInt8]
    var pointPosition: Int

    init(_ value: Double) {
        guard value != 0 else {
            (digits, pointPosition) = ([], 1)
            return
        }
        let exponentBits = Int(value.exponentBitPattern)
        let significand = value.significandBitPattern | (exponentBits == 0 ? 0 : 1 << 52)
        let binaryExponent = (exponentBits == 0 ? 1 : exponentBits) - 1075
        // value = significand × 2^binaryExponent; below one, = significand × 5^k / 10^k.
        var number = BigNatural(significand)
        if binaryExponent >= 0 {
            number.multiply(byPowerOfTwo: binaryExponent)
        } else {
            for _ in 0..<(-binaryExponent) { number.multiply(by: 5) }
        }
        digits = number.decimalDigits()
        pointPosition = digits.count + min(0, binaryExponent)
        while digits.last == 0 { digits.removeLast() }
    }

    /// Rounds half to even to `decimals` places after the point (a negative count rounds to
    /// tens, hundreds…), and returns the new ``pointPosition``.
    mutating func round(keepingDecimals decimals: Int) -> Int {
        let kept = pointPosition + decimals
        guard kept < digits.count else { return pointPosition }
        guard kept >= 0 else {
            (digits, pointPosition) = ([], 1)
            return pointPosition
        }
        let first = digits[kept]
        let roundsUp: Bool
        if first != 5 {
            roundsUp = first > 5
        } else if digits[(kept + 1)...].contains(where: { $0 != 0 }) {
            roundsUp = true
        } else {
            roundsUp = kept > 0 && digits[kept - 1] % 2 == 1
        }
        digits.removeSubrange(kept...)
        if roundsUp {
            var index = kept - 1
            while index >= 0, digits[index] == 9 {
                digits[index] = 0
                index -= 1
            }
            if index >= 0 {
                digits[index] += 1
            } else {
                digits.insert(1, at: 0)
                pointPosition += 1
            }
        }
        while digits.last == 0 { digits.removeLast() }
        if digits.isEmpty { pointPosition = 1 }
        return pointPosition
    }

    /// `count` digit characters, starting `start` places after the first digit (zeros outside
    /// the digits).
    func digitString(count: Int, startingAt start: Int = 0) -> String {
        String(decoding: (start..<(start + count)).map { index in
            UInt8(ascii: "0") + (digits.indices.contains(index) ? digits[index] : 0)
        }, as: UTF8.self)
    }
}

/// The arbitrary-precision natural numbers that ``ExactDecimal`` needs: little-endian 32-bit
/// words, multiplied by small numbers and powers of two, and written in decimal.
struct BigNatural {
    var words: [UInt32]

    init(_ value: UInt64) {
        words = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
        trim()
    }

    mutating func trim() {
        while words.last == 0 { words.removeLast() }
    }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for index in words.indices {
            let product = UInt64(words[index]) * UInt64(factor) + carry
            words[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry > 0 { words.append(UInt32(carry)) }
    }

    mutating func multiply(byPowerOfTwo power: Int) {
        let (wordShift, bitShift) = (power / 32, UInt32(power % 32))
        if bitShift > 0 { multiply(by: 1 << bitShift) }
        words.insert(contentsOf: repeatElement(0, count: wordShift), at: 0)
    }

    /// The decimal digits, most significant first, by repeated division by 10⁹.
    func decimalDigits() -> [UInt8] {
        var remaining = words
        var chunks: [UInt32] = []
        while !remaining.isEmpty {
            var remainder: UInt64 = 0
            for index in remaining.indices.reversed() {
                let dividend = remainder << 32 | UInt64(remaining[index])
                remaining[index] = UInt32(dividend / 1_000_000_000)
                remainder = dividend % 1_000_000_000
            }
            chunks.append(UInt32(remainder))
            while remaining.last == 0 { remaining.removeLast() }
        }
        var digits: [UInt8] = []
        for (position, chunk) in chunks.reversed().enumerated() {
            var chunkDigits = [UInt8](repeating: 0, count: 9)
            var value = chunk
            for index in (0..<9).reversed() {
                chunkDigits[index] = UInt8(value % 10)
                value /= 10
            }
            digits += position == 0 ? Array(chunkDigits.drop(while: { $0 == 0 })) : chunkDigits
        }
        return digits
    }
}
