import XCTest
@testable import ImageDiff
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``PrintfFormat`` against the C library's own `printf`, on values of every magnitude, exact
/// ties, carries into a new digit and the edges of `%g`'s two notations.
final class PrintfFormatTests: XCTestCase {
    func c(_ format: String, _ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = withVaList([value]) { arguments in vsnprintf(&buffer, buffer.count, format, arguments) }
        return String(cString: buffer)
    }

    var values: [Double] {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 1.5, 2.5, 0.125, 0.375, 2.675, 1.005, 9.5, 99.5, 9.9995, 9.99949, 99.995, 0.00001234,
            0.0001, 0.000099999, 123456, 1234567, 999999.5, 1e21, 1e-7, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
            0.049999999999999996, 0.05, 0.15, 0.25, 0.35, 100, 1e15, 123.456, 0.1, 0.2, 0.3, 26.720553952948762,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            let exponent = Int(state % 41) - 20
            values.append((state & 1 == 0 ? 1 : -1) * unit * pow(10, Double(exponent)))
            values.append(Double(Int(unit * 100_000)) / 1000)
        }
        return values
    }

    func testFixedIsPrintfsF() {
        for value in values {
            for decimals in [0, 1, 2, 3, 4, 6] {
                XCTAssertEqual(PrintfFormat.fixed(value, decimals: decimals), c("%.\(decimals)f", value), "%.\(decimals)f of \(value)")
            }
            XCTAssertEqual(PrintfFormat.fixed(value, decimals: 0, plusSign: true), c("%+.0f", value), "%+.0f of \(value)")
        }
    }

    func testGeneralIsPrintfsG() {
        for value in values {
            for digits in [1, 3, 4, 6, 10] {
                XCTAssertEqual(PrintfFormat.general(value, significantDigits: digits), c("%.\(digits)g", value), "%.\(digits)g of \(value)")
            }
        }
    }

    /// At the caps, the expansions are printf's whole; past them (up to `Int.max`) they are the
    /// same digits, where the digit buffers overflowed or took terabytes.
    func testDigitCountsUpToTheirCapsArePrintfsAndLargerOnesAreCapped() {
        func c(_ format: String, _ value: Double, length: Int) -> String {
            var buffer = [CChar](repeating: 0, count: length)
            _ = withVaList([value]) { arguments in vsnprintf(&buffer, buffer.count, format, arguments) }
            return String(cString: buffer)
        }
        let smallest = 5e-324, longest = 2.2250738585072009e-308
        XCTAssertEqual(PrintfFormat.fixed(smallest, decimals: PrintfFormat.maxDecimals), c("%.1074f", smallest, length: 1200))
        XCTAssertEqual(PrintfFormat.general(longest, significantDigits: PrintfFormat.maxSignificantDigits), c("%.767g", longest, length: 1200))
        XCTAssertEqual(PrintfFormat.general(longest, significantDigits: 800), c("%.800g", longest, length: 1200), "%g drops the zeros past the cap")
        for value in [smallest, longest, 1.5e300, -2.5] {
            XCTAssertEqual(PrintfFormat.fixed(value, decimals: .max), PrintfFormat.fixed(value, decimals: PrintfFormat.maxDecimals))
            XCTAssertEqual(PrintfFormat.general(value, significantDigits: .max), PrintfFormat.general(value, significantDigits: 800))
        }
    }

    func testInfinityAndNaN() {
        for value in [Double.infinity, -.infinity, .nan] {
            XCTAssertEqual(PrintfFormat.general(value, significantDigits: 6), c("%.6g", value))
            XCTAssertEqual(PrintfFormat.fixed(value, decimals: 2), c("%.2f", value))
        }
    }
}
