import ImageCodecs
import ImageDiff
import XCTest

/// Fixtures/codecs/*.png (scripts/make-codec-fixtures.py) in every colour type and bit depth.
/// The expected samples are the script's formulas, written out again here.
final class FixtureTests: XCTestCase {
    /// One RGBA pixel on the fixture's own scale (8- or 16-bit).
    private typealias Pixel = (Int, Int, Int, Int)

    private struct Expectation: Sendable {
        var width = 7
        var height = 5
        var sixteenBit = false
        var hasAlpha = false
        var pixel: @Sendable (Int, Int) -> Pixel
    }

    private static func gray(_ v: Int, max: Int = 255) -> Pixel { (v, v, v, max) }
    private static func palette(_ i: Int) -> Pixel { ((16 * i + 5) % 256, (255 - 6 * i) % 256, (53 * i) % 256, 255) }
    private static func rgb8(_ x: Int, _ y: Int) -> Pixel { (40 * x + 3, 50 * y + 7, (7 * x * y + 5) % 256, 255) }
    private static func rgb16(_ x: Int, _ y: Int) -> Pixel { (9000 * x + y, 12000 * y + 5, (1234 * x * y + 77) % 65536, 65535) }
    private static func gray8(_ x: Int, _ y: Int) -> Int { (37 * x + 11 * y + 3) % 256 }

    private static let expectations: [String: Expectation] = [
        "gray1": Expectation { x, y in gray((x + y) % 2 * 255) },
        "gray2": Expectation { x, y in gray((x + 2 * y) % 4 * 85) },
        "gray4": Expectation { x, y in gray((3 * x + 5 * y) % 16 * 17) },
        "gray8": Expectation { x, y in gray(gray8(x, y)) },
        "gray16": Expectation(sixteenBit: true) { x, y in gray((4099 * x + 771 * y + 1) % 65536, max: 65535) },
        "gray8_trns": Expectation(hasAlpha: true) { x, y in
            let v = gray8(x, y)
            return (v, v, v, v == gray8(2, 1) ? 0 : 255)
        },
        "gray4_adam7": Expectation(width: 11, height: 9) { x, y in gray((3 * x + 5 * y) % 16 * 17) },
        "rgb8": Expectation { x, y in rgb8(x, y) },
        "rgb8_gamma": Expectation { x, y in rgb8(x, y) },
        "rgb16": Expectation(sixteenBit: true) { x, y in rgb16(x, y) },
        "rgb8_trns": Expectation(hasAlpha: true) { x, y in
            var p = rgb8(x, y)
            if x == 1 && y == 1 { p.3 = 0 }
            return p
        },
        "rgb16_trns": Expectation(sixteenBit: true, hasAlpha: true) { x, y in
            var p = rgb16(x, y)
            if x == 2 && y == 3 { p.3 = 0 }
            return p
        },
        "rgb16_adam7": Expectation(width: 11, height: 9, sixteenBit: true) { x, y in
            (6000 * x + y, 7000 * y + x, 800 * x * y, 65535)
        },
        "palette1": Expectation { x, y in palette((x + y) % 2) },
        "palette2": Expectation { x, y in palette((x + 2 * y) % 4) },
        "palette2_trns": Expectation(hasAlpha: true) { x, y in
            let i = (x + 2 * y) % 4
            var p = palette(i)
            p.3 = [0, 100, 200, 255][i]
            return p
        },
        "palette4": Expectation { x, y in palette((x + 7 * y) % 16) },
        "palette8": Expectation { x, y in palette((3 * x + 7 * y) % 40) },
        "palette8_trns": Expectation(hasAlpha: true) { x, y in
            let i = (3 * x + 7 * y) % 40
            var p = palette(i)
            p.3 = i < 5 ? 50 * i : 255
            return p
        },
        "graya8": Expectation(hasAlpha: true) { x, y in
            let v = (30 * x + y) % 256
            return (v, v, v, (60 * y + x) % 256)
        },
        "graya16": Expectation(sixteenBit: true, hasAlpha: true) { x, y in
            let v = 5000 * x + 3 * y
            return (v, v, v, 65535 - 9000 * y - x)
        },
        "rgba8": Expectation(hasAlpha: true) { x, y in (36 * x, 51 * y, (9 * x * y) % 256, 255 - 20 * x - 10 * y) },
        "rgba16": Expectation(sixteenBit: true, hasAlpha: true) { x, y in
            (9362 * x + 1, 16383 * y, (3001 * x * y) % 65536, 65535 - 5000 * x - 3000 * y)
        },
        "rgba8_adam7": Expectation(width: 11, height: 9, hasAlpha: true) { x, y in
            (23 * x, 28 * y, 12 * (x + y), 255 - 10 * x - 5 * y)
        },
    ]

    func testEveryFixtureIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.path)
            .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }
        XCTAssertEqual(Set(names), Set(Self.expectations.keys), "run scripts/make-codec-fixtures.py")
    }

    func testFixturesDecodeToTheirFormulas() throws {
        for (name, expected) in Self.expectations.sorted(by: { $0.key < $1.key }) {
            let image = try ImageDecoder.decode(TestPaths.fixture(name + ".png"), name: name)
            XCTAssertEqual(image.width, expected.width, name)
            XCTAssertEqual(image.height, expected.height, name)
            XCTAssertEqual(image.is16Bit, expected.sixteenBit, name)
            XCTAssertEqual(image.hasAlpha, expected.hasAlpha, name)
            guard image.width == expected.width, image.height == expected.height else { continue }
            var mismatches = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = expected.pixel(x, y)
                    let want = [p.0, p.1, p.2, p.3]
                    let index = (y * image.width + x) * 4
                    let got8 = image.pixels[index..<index + 4].map(Int.init)
                    if let samples = image.samples16 {
                        let got16 = samples[index..<index + 4].map(Int.init)
                        if got16 != want || got8 != want.map({ $0 / 257 }) {
                            mismatches += 1
                            if mismatches <= 3 { XCTFail("\(name) (\(x),\(y)): \(got16) / \(got8), expected \(want)") }
                        }
                    } else if got8 != want {
                        mismatches += 1
                        if mismatches <= 3 { XCTFail("\(name) (\(x),\(y)): \(got8), expected \(want)") }
                    }
                }
            }
            XCTAssertEqual(mismatches, 0, "\(name): pixels differing from the formula")
        }
    }

    /// gAMA = 0.2 and cHRM are present, and ignored: samples stay raw.
    func testGammaChunksAreIgnored() throws {
        let plain = try ImageDecoder.decode(TestPaths.fixture("rgb8.png"), name: "rgb8")
        let withGamma = try ImageDecoder.decode(TestPaths.fixture("rgb8_gamma.png"), name: "rgb8_gamma")
        XCTAssertEqual(plain, withGamma)
    }

    func testDecodingFromAFileEqualsDecodingBytes() throws {
        let path = TestPaths.fixtures.appendingPathComponent("palette8_trns.png").path
        XCTAssertEqual(
            try ImageDecoder.decode(contentsOf: path),
            try ImageDecoder.decode(TestPaths.fixture("palette8_trns.png"), name: path))
    }
}
