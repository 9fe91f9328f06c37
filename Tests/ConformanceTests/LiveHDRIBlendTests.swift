import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// ImageMagick 7's rounding (`--rounding im7`), live: Debian's HDRI build of ImageMagick 6
/// (`imagemagick-6.q16hdri`, same float samples as ImageMagick 7's default build) runs the
/// review blend on random translucent pairs, 16-bit and 8-bit, and imgdiff's output must equal
/// it sample for sample. Half-way alphas are the case that needs the writer's rule: it rounds
/// `QuantumRange − opacity`, not opacity.
final class LiveHDRIBlendTests: XCTestCase {
    static let convert = "/usr/bin/convert-im6.q16hdri"

    func testBlendEqualsTheHDRIBuildOnRandomTranslucentPairs() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.convert) else {
            throw XCTSkip("\(Self.convert) is missing: install imagemagick-6.q16hdri (scripts/deps --test does) to run this test")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-hdri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var random = SplitMix(seed: 0x4844_5249)
        for (index, sixteenBit) in [true, true, false, false].enumerated() {
            var reference = Self.randomImage(&random, sixteenBit: sixteenBit)
            var failure = Self.randomImage(&random, sixteenBit: sixteenBit)
            if sixteenBit, var a = reference.samples16, var b = failure.samples16 {
                // Alphas 15029 over 11235 blend to 18706.501 (opacity 46828.499, a float 46828.5).
                (a[3], b[3]) = (15029, 11235)
                reference = RGBAImage(width: reference.width, height: reference.height, samples16: a, hasAlpha: true)
                failure = RGBAImage(width: failure.width, height: failure.height, samples16: b, hasAlpha: true)
            }
            let paths = ["ref", "fail", "change", "blend"].map { work.appendingPathComponent("\($0)\(index).png").path }
            try Data(PNGEncoder.encode(reference)).write(to: URL(fileURLWithPath: paths[0]))
            try Data(PNGEncoder.encode(failure)).write(to: URL(fileURLWithPath: paths[1]))
            try run([paths[0], "-color-matrix", "6x3: 1 0 0 0 0 0.4  0 1 0 0 0 0  0 0 1 0 0 0", paths[2]])
            try run([paths[1], paths[2], "-compose", "dissolve", "-define", "compose:args=60,100", "-composite", paths[3]])
            let theirs = try ImageDecoder.decode(contentsOf: paths[3])
            let ours = ImageMagickBlend.render(reference: reference, failure: failure, rounding: .im7)
            XCTAssertEqual(ours.is16Bit, theirs.is16Bit)
            let differing = sixteenBit
                ? zip(ours.samples16 ?? [], theirs.samples16 ?? []).filter { $0 != $1 }.count
                : zip(ours.pixels, theirs.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "pair \(index) (\(sixteenBit ? 16 : 8)-bit): samples differ from ImageMagick HDRI")
        }
    }

    /// 48×48 RGBA with every channel random and alpha 0, 255/65535 or random, a third each.
    static func randomImage(_ random: inout SplitMix, sixteenBit: Bool) -> RGBAImage {
        let count = 48 * 48
        if sixteenBit {
            var samples: [UInt16] = []
            for _ in 0..<count {
                for _ in 0..<3 { samples.append(UInt16(truncatingIfNeeded: random.next())) }
                let alpha = [UInt16(0), 65535, UInt16(truncatingIfNeeded: random.next())][Int(random.next() % 3)]
                samples.append(alpha)
            }
            return RGBAImage(width: 48, height: 48, samples16: samples, hasAlpha: true)
        }
        var pixels: [UInt8] = []
        for _ in 0..<count {
            for _ in 0..<3 { pixels.append(random.nextByte()) }
            pixels.append([UInt8(0), 255, random.nextByte()][Int(random.next() % 3)])
        }
        return RGBAImage(width: 48, height: 48, pixels: pixels, hasAlpha: true)
    }

    func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.convert)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "convert \(arguments)")
    }
}
