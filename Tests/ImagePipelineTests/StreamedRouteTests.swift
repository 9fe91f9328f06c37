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
    typealias NamedFile = EncodedImage

    var root: URL { SharedData.packageRoot }

    func read(_ relativePath: String) throws -> NamedFile {
        try read(root.appendingPathComponent(relativePath))
    }

    func read(_ url: URL) throws -> NamedFile {
        EncodedImage(name: url.lastPathComponent, bytes: try [UInt8](Data(contentsOf: url)))
    }

    /// Pairs of 8-bit PNGs of one size among the package's fixtures.
    func fixturePairs() throws -> [(NamedFile, NamedFile)] {
        try [
            ("Fixtures/login/ref.png", "Fixtures/login/fail.png"),
            ("Fixtures/tune/changes/ref/colour-change.png", "Fixtures/tune/changes/new/colour-change.png"),
            ("Fixtures/tune/noise/ref/text-aa-offset.png", "Fixtures/tune/noise/new/text-aa-offset.png"),
        ].map { (try read($0.0), try read($0.1)) }
    }

    /// The pairs `names` of the reference material's corpus.
    func corpusPairs(_ names: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [(NamedFile, NamedFile)] {
        try names.map { name in
            (
                try read(SharedData.url("corpus/\(name)/a.png", file: file, line: line)),
                try read(SharedData.url("corpus/\(name)/b.png", file: file, line: line))
            )
        }
    }

    func streamed(
        _ reference: EncodedImage, _ actual: EncodedImage, options: ComparisonOptions = ComparisonOptions(),
        overlay: StreamedRoute.Overlay? = nil, parallelism: Parallelism = .allCores,
        bandBytes: Int = StreamedRoute.bandBytes
    ) throws -> (result: DiffResult, overlay: [UInt8]?)? {
        switch try StreamedRoute.run(
            reference, actual, options: options, limits: .default, overlay: overlay, parallelism: parallelism,
            bandBytes: bandBytes)
        {
        case nil: return nil
        case .compared(let result, let overlay)?: return (result, overlay)
        case .decoded?: XCTFail("handed over unasked"); return nil
        }
    }

    func testStreamedEqualsDecodeThenCompareOnFixturePairs() throws {
        let streamed = try assertStreamedEqualsDecodeThenCompare(fixturePairs())
        XCTAssertGreaterThanOrEqual(streamed, 60, "8-bit RGB/RGBA PNG pairs of one size must stream")
    }

    /// Larger pairs, the 1080p one streaming in several rounds of bands.
    func testStreamedEqualsDecodeThenCompareOnCorpusPairs() throws {
        let streamed = try assertStreamedEqualsDecodeThenCompare(corpusPairs(["syn-1080p", "orange", "aa"]))
        XCTAssertGreaterThanOrEqual(streamed, 36, "8-bit RGB/RGBA PNG pairs of one size must stream")
    }

    /// Streams each pair under several options and band sizes; returns how many runs streamed.
    func assertStreamedEqualsDecodeThenCompare(
        _ pairs: [(NamedFile, NamedFile)], file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        let optionSets = [
            ComparisonOptions(),
            ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true),
            ComparisonOptions(metric: .deltaE(.ciede2000, threshold: 2)),
            ComparisonOptions(metric: .exact, ignoreRegions: [PixelRect(minX: 0, minY: 0, maxX: 99, maxY: 99)]),
            ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true, collectsMask: true),
            ComparisonOptions(metric: .channel(tolerance: 3), collectsMask: true),
        ]
        var streamedPairs = 0
        for (reference, actual) in pairs {
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
                        let label = "\(reference.name) \(options.metric) bands of \(bandBytes) bytes, \(parallelism)"
                        XCTAssertEqual(streamed.result, expected, label, file: file, line: line)
                        XCTAssertEqual(streamed.result.mask, expected.mask, label, file: file, line: line)
                        XCTAssertEqual(streamed.result.mask != nil, options.collectsMask, label, file: file, line: line)
                    }
                }
            }
        }
        return streamedPairs
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
        try assertStreamedOverlayEqualsWholeImageOverlay(
            [(try read("Fixtures/login/ref.png"), try read("Fixtures/login/fail.png"))]
                + [try (
                    EncodedImage(name: "a.png", bytes: PNGEncoder.encode(synthetic[0])),
                    EncodedImage(name: "b.png", bytes: PNGEncoder.encode(synthetic[1])))])
    }

    func testStreamedOverlayEqualsWholeImageOverlayOnCorpusPairs() throws {
        try assertStreamedOverlayEqualsWholeImageOverlay(corpusPairs(["syn-1080p", "aa"]))
    }

    func assertStreamedOverlayEqualsWholeImageOverlay(
        _ pairs: [(NamedFile, NamedFile)], file: StaticString = #filePath, line: UInt = #line
    ) throws {
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
                        bandBytes: bandBytes), file: file, line: line)
                    let label = "\(reference.name) bands of \(bandBytes) bytes, \(rounding)"
                    XCTAssertEqual(streamed.result, expected, label, file: file, line: line)
                    let overlay = try ImageDecoder.decode(XCTUnwrap(streamed.overlay, file: file, line: line), name: "overlay.png")
                    XCTAssertTrue(overlay == expectedOverlay, label, file: file, line: line)
                }
            }
        }
    }

    /// A batch's pairs (blend and mask only when they differ) take one of three routes by how
    /// many pairs differed so far, with the same numbers and the same output bytes: streamed
    /// with their blend and mask made on the way once nearly every pair differs, decoded whole
    /// once differing pairs are common, streamed (and handed over to blend one that differs)
    /// while they are rare. A pair that matches carries no mask and no output on either
    /// streamed route, as on the identical-bytes route.
    func testLazyBlendRoutesGiveTheSameOutcome() throws {
        let reference = try read("Fixtures/login/ref.png")
        let sameImage = try EncodedImage(
            name: "reencoded.png",
            bytes: PNGEncoder.encode(ImageDecoder.decode(reference.bytes, name: reference.name), compressionLevel: 3))
        XCTAssertNotEqual(sameImage.bytes, reference.bytes)
        let pairs = [(reference, try read("Fixtures/login/fail.png")), (reference, sameImage)]
            + (try fixturePairs())
        let wholeShare = (Pipeline.wholeDecodeBreakEvenShare + Pipeline.speculativeBlendShare) / 2
        for (first, second) in pairs {
            for parallelism in [Parallelism.allCores, .callingThread] {
                var request = ComparisonRequest(
                    options: ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true),
                    outputs: [.blend, .mask], outputPolicy: .whenDifferent, parallelism: parallelism)
                request.expectedDifferingShare = wholeShare
                let whole = try Pipeline.compare(first, second, request: request)
                request.expectedDifferingShare = Pipeline.wholeDecodeBreakEvenShare / 2
                let streamed = try Pipeline.compare(first, second, request: request)
                request.expectedDifferingShare = 1
                let speculative = try Pipeline.compare(first, second, request: request)
                let label = "\(first.name) \(second.name) \(parallelism)"
                XCTAssertEqual(whole.route, .wholeImage, label)
                // A differing pair hands over to the whole-image route at its first difference.
                XCTAssertEqual(streamed.route, whole.match ? .streamedRows : .wholeImage, label)
                XCTAssertEqual(speculative.route, .streamedRows, label)
                var expected = whole.result
                if whole.match { expected.mask = nil }
                XCTAssertEqual(streamed.result, expected, label)
                XCTAssertEqual(speculative.result, expected, label)
                XCTAssertEqual(streamed.outputs, whole.outputs, label)
                XCTAssertEqual(speculative.outputs, whole.outputs, label)
                XCTAssertEqual(Set(whole.outputs.keys), whole.match ? [] : [.blend, .mask], label)
            }
        }
    }

    /// Handing over at the first differing pixel gives both images exactly as decoding them
    /// gives, wherever the difference lies (in the first band, mid-way, or in the last band), in
    /// bands of a few rows or one, on both parallelisms; a pair without a difference is compared
    /// to the end and not handed over.
    func testHandingOverGivesTheDecodedImages() throws {
        let reference = try read("Fixtures/login/ref.png")
        let decoded = try ImageDecoder.decode(reference.bytes, name: reference.name)
        let rowBytes = decoded.width * 4
        func changed(row: Int) throws -> EncodedImage {
            var pixels = decoded.pixels
            pixels[row * rowBytes + 5 * 4] ^= 0x80
            let image = RGBAImage(width: decoded.width, height: decoded.height, pixels: pixels, hasAlpha: decoded.hasAlpha)
            return EncodedImage(name: "changed-\(row).png", bytes: try PNGEncoder.encode(image, compressionLevel: 1))
        }
        let sameImage = EncodedImage(name: "same.png", bytes: try PNGEncoder.encode(decoded, compressionLevel: 3))
        for actual in [try changed(row: 0), try changed(row: 97), try changed(row: decoded.height - 1), sameImage] {
            let expected = try ImageDecoder.decode(actual.bytes, name: actual.name)
            for bandBytes in [rowBytes, 7 * rowBytes, StreamedRoute.bandBytes] {
                for parallelism in [Parallelism.allCores, .callingThread] {
                    let label = "\(actual.name) band \(bandBytes / rowBytes) rows \(parallelism)"
                    let outcome = try XCTUnwrap(StreamedRoute.run(
                        reference, actual, options: ComparisonOptions(metric: .exact), limits: .default, overlay: nil,
                        parallelism: parallelism, handsOverOnDifference: true, bandBytes: bandBytes), label)
                    switch outcome {
                    case .decoded(let first, let second):
                        XCTAssertNotEqual(actual.name, sameImage.name, label)
                        XCTAssertEqual(first, decoded, label)
                        XCTAssertEqual(second, expected, label)
                    case .compared(let result, _):
                        XCTAssertEqual(actual.name, sameImage.name, label)
                        XCTAssertTrue(result.match, label)
                    }
                }
            }
        }
    }

    /// A file that differs in its first row and is cut half-way fails while the rest of it is
    /// decoded after the hand-over, naming it.
    func testBrokenImageDataNamesTheFileAfterAHandOver() throws {
        let reference = try read("Fixtures/login/ref.png")
        var image = try ImageDecoder.decode(reference.bytes, name: reference.name)
        image.pixels[0] ^= 0x80
        let broken = EncodedImage(name: "broken.png", bytes: pngWithImageDataCut(try PNGEncoder.encode(image, compressionLevel: 1), keeping: 0.6))
        let rowBytes = image.width * 4
        XCTAssertThrowsError(try StreamedRoute.run(
            reference, broken, options: ComparisonOptions(metric: .exact), limits: .default, overlay: nil,
            parallelism: .allCores, handsOverOnDifference: true, bandBytes: 4 * rowBytes)) { error in
            XCTAssertEqual((error as? ImageFileError)?.path, "broken.png")
        }
    }

    /// Byte-identical files, never decoded, give the result comparing their pixels gives, in
    /// every metric (the structural mode's empty list of clusters too).
    func testIdenticalBytesGiveTheWholeImageResult() throws {
        let png = try read("Fixtures/login/ref.png")
        let image = try ImageDecoder.decode(png.bytes, name: png.name)
        for name in ComparisonMetric.names {
            let options = ComparisonOptions(metric: try XCTUnwrap(ComparisonMetric(name: name)))
            let outcome = try Pipeline.compare(png, png, request: ComparisonRequest(options: options))
            if name != "ncc" { XCTAssertEqual(outcome.route, .identicalBytes, name) }
            XCTAssertEqual(outcome.result, compare(image, image, options: options), name)
        }
        XCTAssertEqual(ComparisonMetric.channel(tolerance: 0).with(threshold: .nan), .channel(tolerance: 0), "NaN takes no trap")
    }

    func testNotStreamedWhenItCannotApply() throws {
        let png = try read("Fixtures/login/ref.png")
        XCTAssertNil(try streamed(png, png, options: ComparisonOptions(metric: .imageMagickAE(fuzz: 0))))
        let other = try read("Fixtures/batch/ref/home.png")
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

    /// Two buffers of other shapes span the product of their sides: the buffer route refuses the
    /// pair beyond the memory limit, as the file routes do, where it allocated a mask of it.
    func testBuffersWhoseComparedAreaExceedsTheMemoryLimitAreRefused() throws {
        let tall = RGBAImage(width: 1, height: 4000, filledWith: RGBA(255, 255, 255))
        let wide = RGBAImage(width: 4000, height: 1, filledWith: RGBA(255, 255, 255))
        let limits = DecodingLimits(maxMemory: 8 << 20)
        let request = ComparisonRequest(options: ComparisonOptions(collectsMask: true), outputs: [.mask], limits: limits)
        XCTAssertThrowsError(try Pipeline.compare(tall, wide, request: request)) { error in
            guard case ImageCodecError.pairExceedsMemory(_, let limit)? = error as? ImageCodecError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(limit, 8 << 20)
        }
        XCTAssertNoThrow(try Pipeline.compare(tall, tall, request: request))
    }
}
