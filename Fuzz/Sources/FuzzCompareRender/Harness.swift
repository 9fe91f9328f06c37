import FuzzSupport
import ImageCodecs

@testable import ImageDiff
@testable import SnapshotRule

/// Reads the fuzzer's bytes as choices; past the end every read is 0.
struct Choices {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(byte()) % range.count }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    /// The next `count` bytes, zeros past the end.
    mutating func bytes(_ count: Int) -> [UInt8] {
        let available = max(min(count, bytes.count - offset), 0)
        let result = Array(bytes[offset..<offset + available]) + repeatElement(0, count: count - available)
        offset += available
        return result
    }

    /// An image of up to 24 x 24 pixels, 8 or 16-bit, with or without alpha.
    mutating func image() -> RGBAImage {
        let width = int(1...24), height = int(1...24)
        let sixteenBit = bool(), hasAlpha = bool()
        let count = width * height * 4
        if sixteenBit {
            let raw = bytes(count * 2)
            var samples = [UInt16](repeating: 0, count: count)
            for i in 0..<count { samples[i] = UInt16(raw[2 * i]) << 8 | UInt16(raw[2 * i + 1]) }
            if !hasAlpha { for i in stride(from: 3, to: count, by: 4) { samples[i] = 65535 } }
            return RGBAImage(width: width, height: height, samples16: samples, hasAlpha: hasAlpha)
        }
        var pixels = bytes(count)
        if !hasAlpha { for i in stride(from: 3, to: count, by: 4) { pixels[i] = 255 } }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }

    mutating func options() -> ComparisonOptions {
        let formulas = DeltaEFormula.allCases
        let metric: ComparisonMetric = switch int(0...6) {
        case 0: .exact
        case 1: .channel(tolerance: Int(byte()))
        case 2: .yiq(threshold: Double(byte()) / 255)
        case 3, 4, 5: .deltaE(formulas[int(0...formulas.count - 1)], threshold: Double(byte()) / 8)
        default: .imageMagickAE(fuzz: Double(uint16()))
        }
        var options = ComparisonOptions(
            metric: metric, ignoreAntialiasing: bool(), reportedDeltaE: formulas[int(0...formulas.count - 1)],
            collectsMask: bool(), bands: int(0...6))
        for _ in 0..<int(0...2) {
            let x = int(-4...30), y = int(-4...30)
            options.ignoreRegions.append(PixelRect(minX: x, minY: y, maxX: x + int(-2...30), maxY: y + int(-2...30)))
        }
        if int(0...3) == 0 { options.ignoreMask = image() }
        return options
    }
}

/// Comparison and rendering of two fuzzed images under fuzzed options: the parallel,
/// vectorised engine must equal the scalar reference, the renderers must not trap, and the
/// rendered outputs must survive a PNG round trip.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var choices = Choices(bytes: UnsafeBufferPointer(start: data, count: size))
    let options = choices.options()
    let rounding: ImageMagickRounding = choices.bool() ? .im7 : .im6
    let fuzz = Double(choices.uint16())
    let precision = SnapshotPrecision(
        precision: Float(choices.byte()) / 255, perceptualPrecision: Float(choices.byte()) / 255)
    let reference = choices.image(), actual = choices.image()

    let result = compare(reference, actual, options: options)
    let scalar = compareScalar(reference, actual, options: options)
    if result != scalar { fatalError("the engine and the scalar reference disagree:\n\(result)\n\(scalar)") }
    if result.differentPixels > result.totalPixels || result.differentPixels < 0 {
        fatalError("\(result.differentPixels) of \(result.totalPixels) pixels differ")
    }
    _ = precision.verdict(reference: reference, actual: actual)
    _ = ImageMagickCompare.absoluteError(reference, actual, fuzz: fuzz)

    let blend = ImageMagickBlend.render(reference: reference, failure: actual, rounding: rounding)
    let difference = ImageMagickCompare.differenceImage(reference, actual, fuzz: fuzz, rounding: rounding)
    for image in [blend, difference] + (result.mask.map { [$0.render()] } ?? []) {
        do {
            let decoded = try ImageDecoder.decode(PNGEncoder.encode(image), name: "round trip")
            if decoded.size != image.size || decoded.pixels != image.pixels || decoded.samples16 != image.samples16 {
                fatalError("a PNG round trip changed a rendered image")
            }
        } catch {
            fatalError("a rendered image could not be encoded and decoded: \(error)")
        }
    }
    if let mask = result.mask {
        do {
            _ = try ImageDecoder.decode(PNGEncoder.encode(mask: mask), name: "mask")
        } catch {
            fatalError("a difference mask could not be encoded and decoded: \(error)")
        }
    }
    return 0
}

@_cdecl("FuzzCompareRender_main")
func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
