import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// Every image of the ImageMagick conformance cases (reference material, conformance/imagemagick)
/// decodes to the samples cases.json records.
///
/// `pixel_sha256` (see the file's "notes") is the SHA-256 of "WxHxDEPTH:" followed by the RGBA
/// samples, palette/tRNS/gray expanded and a missing alpha added as 255 or 65535, each as a
/// big-endian uint16; DEPTH is 16 for 16-bit files and 8 otherwise (palette files of any bit
/// depth expand to 8-bit samples). Gray files below 8 bits would hash unscaled values; there are none.
final class ConformanceTests: XCTestCase {
    private struct Entry {
        let caseName: String
        let path: String
        let fields: [String: Any]
    }

    private func entries() throws -> [Entry] {
        let index = try SharedData.url("conformance/imagemagick/cases.json")
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: Any])
        let cases = try XCTUnwrap(root["cases"] as? [[String: Any]])
        var entries: [Entry] = []
        for testCase in cases {
            let name = try XCTUnwrap(testCase["name"] as? String)
            let directory = index.deletingLastPathComponent().appendingPathComponent(try XCTUnwrap(testCase["dir"] as? String))
            var files = try XCTUnwrap(testCase["files"] as? [String: [String: Any]])
            if let hdri = (testCase["q16hdri"] as? [String: Any])?["files"] as? [String: [String: Any]] {
                for (key, value) in hdri { files["q16hdri." + key] = value }
            }
            for (_, fields) in files.sorted(by: { $0.key < $1.key }) {
                let file = try XCTUnwrap(fields["file"] as? String)
                entries.append(Entry(caseName: name, path: directory.appendingPathComponent(file).path, fields: fields))
            }
        }
        return entries
    }

    func testEveryPNGMatchesSizeDepthAlphaAndPixelHash() throws {
        let pngs = try entries().filter { $0.path.hasSuffix(".png") }
        XCTAssertGreaterThanOrEqual(pngs.count, 100, "cases.json lists fewer PNG files than expected")
        var colorTypesSeen = Set<String>()
        var hashInputs: [[UInt8]] = []
        var expectedHashes: [(label: String, hash: String?)] = []
        for entry in pngs {
            let label = "\(entry.caseName)/\((entry.path as NSString).lastPathComponent)"
            let image = try ImageDecoder.decode(contentsOf: entry.path)
            let bitDepth = try XCTUnwrap(entry.fields["bit_depth"] as? Int, label)
            let colorType = try XCTUnwrap(entry.fields["color_type"] as? Int, label)
            let hasTRNS = try XCTUnwrap(entry.fields["has_tRNS"] as? Bool, label)
            colorTypesSeen.insert(try XCTUnwrap(entry.fields["color_type_name"] as? String))
            XCTAssertFalse(colorType == 0 && bitDepth < 8, "\(label): sub-byte gray hashes unscaled values")

            XCTAssertEqual(image.width, entry.fields["width"] as? Int, label)
            XCTAssertEqual(image.height, entry.fields["height"] as? Int, label)
            XCTAssertEqual(image.is16Bit, bitDepth == 16, label)
            XCTAssertEqual(image.hasAlpha, colorType == 4 || colorType == 6 || hasTRNS, label)
            if !image.hasAlpha {
                XCTAssertTrue(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 }, label)
            }
            if let samples = image.samples16 {
                XCTAssertEqual(image.pixels, samples.map { UInt8($0 / 257) }, label)
            }
            hashInputs.append(pixelHashInput(image))
            expectedHashes.append((label, entry.fields["pixel_sha256"] as? String))
        }
        for (hash, expected) in zip(try sha256Hex(hashInputs), expectedHashes) {
            XCTAssertEqual(hash, expected.hash, "\(expected.label): samples differ")
        }
        XCTAssertEqual(colorTypesSeen, ["rgb", "rgba", "gray", "palette"])
    }

    func testJPEGEntriesMatchTheirPixelHash() throws {
        let jpegs = try entries().filter { $0.path.hasSuffix(".jpg") }
        XCTAssertEqual(jpegs.count, 2)
        for entry in jpegs {
            let image = try ImageDecoder.decode(contentsOf: entry.path)
            XCTAssertFalse(image.hasAlpha)
            XCTAssertFalse(image.is16Bit)
            XCTAssertEqual(try sha256Hex([pixelHashInput(image)]), [entry.fields["pixel_sha256"] as? String], entry.path)
        }
    }

    func testSHA256() throws {
        XCTAssertEqual(
            try sha256Hex([[], Array("abc".utf8)]),
            ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
             "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
