import CImageCodecs
import Foundation
import TestSupport
import XCTest

@testable import ImageCodecs
@testable import ImageDiff
@testable import ImagePipeline

/// Comparing two PNGs while they decode, band by band, gives what decoding both and comparing
/// gives; broken files are errors that name the file.
final class StreamedRouteTests: XCTestCase {
    var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func read(_ relativePath: String) throws -> EncodedImage {
        let url = root.appendingPathComponent(relativePath)
        return EncodedImage(name: url.lastPathComponent, bytes: try [UInt8](Data(contentsOf: url)))
    }

    func streamed(
        _ reference: EncodedImage, _ actual: EncodedImage, options: ComparisonOptions = ComparisonOptions(),
        overlay: StreamedRoute.Overlay? = nil, parallelism: Parallelism = .allCores,
        bandBytes: Int = StreamedRoute.bandBytes
    ) throws -> (result: DiffResult, overlay: [UInt8]?)? {
        try StreamedRoute.run(
            reference, actual, options: options, limits: .default, overlay: overlay, parallelism: parallelism,
            bandBytes: bandBytes)
    }

    func testStreamedEqualsDecodeThenCompareOnRealPairs() throws {
        let pairs = [
            ("Fixtures/login/ref.png", "Fixtures/login/fail.png"),
            ("../shared/corpus/syn-1080p/a.png", "../shared/corpus/syn-1080p/b.png"),
            ("../shared/corpus/orange/a.png", "../shared/corpus/orange/b.png"),
            ("../shared/corpus/aa/a.png", "../shared/corpus/aa/b.png"),
        ]
        let optionSets = [
            ComparisonOptions(),
            ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true),
            ComparisonOptions(metric: .deltaE(.ciede2000, threshold: 2)),
            ComparisonOptions(metric: .exact, ignoreRegions: [PixelRect(minX: 0, minY: 0, maxX: 99, maxY: 99)]),
            ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true, collectsMask: true),
            ComparisonOptions(metric: .channel(tolerance: 3), collectsMask: true),
        ]
        var streamedPairs = 0
        for (first, second) in pairs {
            let reference = try read(first), actual = try read(second)
            let referenceImage = try ImageDecoder.decode(reference.bytes, name: reference.name)
            let actualImage = try ImageDecoder.decode(actual.bytes, name: actual.name)
            let rowBytes = referenceImage.width * 4
            // Bands of one and three rows too, shorter than the rows anti-aliasing looks at.
            let bandSizes = referenceImage.height < 1000 ? [rowBytes, 3 * rowBytes, StreamedRoute.bandBytes] : [StreamedRoute.bandBytes]
            for options in optionSets {
                let expected = compare(referenceImage, actualImage, options: options)
                for bandBytes in bandSizes {
                    for parallelism in [Parallelism.allCores, .callingThread] {
                        guard let streamed = try streamed(
                            reference, actual, options: options, parallelism: parallelism, bandBytes: bandBytes)
                        else { continue }
                        streamedPairs += 1
                        let label = "\(first) \(options.metric) bands of \(bandBytes) bytes, \(parallelism)"
                        XCTAssertEqual(streamed.result, expected, label)
                        XCTAssertEqual(streamed.result.mask, expected.mask, label)
                        XCTAssertEqual(streamed.result.mask != nil, options.collectsMask, label)
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(streamedPairs, 60, "8-bit RGB/RGBA PNG pairs of one size must stream")
    }

    /// The overlay written band by band as the rows decode equals the one rendered from the
    /// decoded images, pixel for pixel, in any band size and either rounding; so does the count.
    func testStreamedOverlayEqualsWholeImageOverlay() throws {
        var generator = SplitMix(seed: 0x0E1A)
        func translucent(_ width: Int, _ height: Int) -> RGBAImage {
            let pixels = (0..<(width * height * 4)).map { index -> UInt8 in
                let value = UInt8(truncatingIfNeeded: generator.next())
                return index % 4 == 3 && value > 120 ? 255 : value
            }
            return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: true)
        }
        let synthetic = (0..<2).map { _ in translucent(37, 23) }
        var pairs = try [
            ("Fixtures/login/ref.png", "Fixtures/login/fail.png"),
            ("../shared/corpus/syn-1080p/a.png", "../shared/corpus/syn-1080p/b.png"),
            ("../shared/corpus/aa/a.png", "../shared/corpus/aa/b.png"),
        ].map { (try read($0.0), try read($0.1)) }
        pairs.append(try (
            EncodedImage(name: "a.png", bytes: PNGEncoder.encode(synthetic[0])),
            EncodedImage(name: "b.png", bytes: PNGEncoder.encode(synthetic[1]))))
        let options = ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true)
        for (reference, actual) in pairs {
            let referenceImage = try ImageDecoder.decode(reference.bytes, name: reference.name)
            let actualImage = try ImageDecoder.decode(actual.bytes, name: actual.name)
            let expected = compare(referenceImage, actualImage, options: options)
            let rowBytes = referenceImage.width * 4
            // Bands of one and three rows on the small images, several rounds on the large one.
            let bandSizes = referenceImage.height < 1000 ? [rowBytes, 3 * rowBytes, StreamedRoute.bandBytes] : [StreamedRoute.bandBytes]
            for rounding in ImageMagickRounding.allCases {
                let expectedOverlay = ImageMagickBlend.render(reference: referenceImage, failure: actualImage, rounding: rounding)
                for bandBytes in bandSizes {
                    let streamed = try XCTUnwrap(streamed(
                        reference, actual, options: options, overlay: .init(rounding: rounding, level: 1),
                        bandBytes: bandBytes))
                    let label = "\(reference.name) bands of \(bandBytes) bytes, \(rounding)"
                    XCTAssertEqual(streamed.result, expected, label)
                    let overlay = try ImageDecoder.decode(XCTUnwrap(streamed.overlay), name: "overlay.png")
                    XCTAssertTrue(overlay == expectedOverlay, label)
                }
            }
        }
    }

    func testNotStreamedWhenItCannotApply() throws {
        let png = try read("Fixtures/login/ref.png")
        XCTAssertNil(try streamed(png, png, options: ComparisonOptions(metric: .imageMagickAE(fuzz: 0))))
        let other = try read("Fixtures/batch/ref/login.png")
        XCTAssertNil(try streamed(png, other), "sizes differ")
        let jpeg = try read("Fixtures/tune/noise/ref/jpeg-recompress.jpg")
        XCTAssertNil(try streamed(png, jpeg))
    }

    /// A file whose chunks are sound but whose image data stops half-way fails part-way
    /// through the stream, and one cut inside a chunk fails at once: errors naming that file,
    /// never a count.
    func testBrokenImageDataNamesTheFile() throws {
        let reference = try read("Fixtures/login/ref.png")
        let halfData = pngWithImageDataCut(reference.bytes, keeping: 0.5)
        var cutChunk = Array(reference.bytes.prefix(reference.bytes.count * 2 / 3))
        cutChunk += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        for broken in [halfData, cutChunk] {
            let brokenImage = EncodedImage(name: "broken.png", bytes: broken)
            XCTAssertThrowsError(try streamed(reference, brokenImage)) { error in
                XCTAssertEqual((error as? ImageFileError)?.path, "broken.png")
            }
            XCTAssertThrowsError(try streamed(brokenImage, reference)) { error in
                XCTAssertEqual((error as? ImageFileError)?.path, "broken.png")
            }
        }
    }

    /// The PNG with its IHDR, one IDAT holding the first `fraction` of the image data (with a
    /// correct CRC), and IEND.
    func pngWithImageDataCut(_ png: [UInt8], keeping fraction: Double) -> [UInt8] {
        func be32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(png[offset + $1]) } }
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + payload
            let crc = body.withUnsafeBufferPointer { cic_crc32(0, $0.baseAddress, $0.count) }
            let length = UInt32(payload.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + body
                + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        }
        var data = [UInt8](), position = 8
        while position + 12 <= png.count {
            let length = be32(position)
            if String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self) == "IDAT" {
                data += png[(position + 8)..<(position + 8 + length)]
            }
            position += 12 + length
        }
        return Array(png.prefix(33)) + chunk("IDAT", Array(data.prefix(Int(Double(data.count) * fraction)))) + chunk("IEND", [])
    }
}
