import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// Our blend, diff image and AE counts against ImageMagick's own files, in decoded samples,
/// every case of the reference material's conformance/imagemagick (``SharedData``), both IM6
/// Q16 and HDRI (IM7) rounding. LiveImageMagickTests runs ImageMagick itself on the package's
/// fixtures.
final class ImageMagickConformanceTests: XCTestCase {
    struct Case {
        let name: String
        let directory: URL
        let referenceFile: String
        let failureFile: String
        let ae: Int
        let aeFuzz5: Int
    }

    func cases() throws -> [Case] {
        let index = try SharedData.url("conformance/imagemagick/cases.json")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: Any])
        let cases = try XCTUnwrap(json["cases"] as? [[String: Any]])
        return try cases.map { entry in
            let files = try XCTUnwrap(entry["files"] as? [String: [String: Any]])
            let counts = try XCTUnwrap(entry["im_compare"] as? [String: [String: Any]])
            return Case(
                name: try XCTUnwrap(entry["name"] as? String),
                directory: index.deletingLastPathComponent().appendingPathComponent(try XCTUnwrap(entry["dir"] as? String)),
                referenceFile: try XCTUnwrap(files["ref"]?["file"] as? String),
                failureFile: try XCTUnwrap(files["fail"]?["file"] as? String),
                ae: try XCTUnwrap(counts["ae"]?["count"] as? Int),
                aeFuzz5: try XCTUnwrap(counts["ae_fuzz5"]?["count"] as? Int))
        }
    }

    func testThereAreElevenCases() throws {
        let cases = try cases()
        XCTAssertEqual(cases.count, 11)
    }

    func testAECounts() throws {
        for entry in try cases() {
            let (reference, failure) = try inputs(entry)
            XCTAssertEqual(ImageMagickCompare.absoluteError(reference, failure).count, entry.ae, entry.name)
            let fuzz = ImageMagickCompare.fuzz(percent: 5)
            XCTAssertEqual(ImageMagickCompare.absoluteError(reference, failure, fuzz: fuzz).count, entry.aeFuzz5, "\(entry.name) fuzz 5%")
            let viaCompare = compare(reference, failure, options: ComparisonOptions(metric: .imageMagickAE(fuzz: fuzz)))
            XCTAssertEqual(viaCompare.differentPixels, entry.aeFuzz5, entry.name)
        }
    }

    func testBlendIM6() throws {
        try checkOutputs(file: "blend.png") { reference, failure in
            ImageMagickBlend.render(reference: reference, failure: failure, rounding: .im6)
        }
    }

    func testBlendIM7() throws {
        try checkOutputs(file: "blend.q16hdri.png") { reference, failure in
            ImageMagickBlend.render(reference: reference, failure: failure, rounding: .im7)
        }
    }

    func testDiffIM6() throws {
        try checkOutputs(file: "diff.png") { ImageMagickCompare.differenceImage($0, $1, rounding: .im6) }
        try checkOutputs(file: "diff_fuzz5.png") {
            ImageMagickCompare.differenceImage($0, $1, fuzz: ImageMagickCompare.fuzz(percent: 5), rounding: .im6)
        }
    }

    func testDiffIM7() throws {
        try checkOutputs(file: "diff.q16hdri.png") { ImageMagickCompare.differenceImage($0, $1, rounding: .im7) }
        try checkOutputs(file: "diff_fuzz5.q16hdri.png") {
            ImageMagickCompare.differenceImage($0, $1, fuzz: ImageMagickCompare.fuzz(percent: 5), rounding: .im7)
        }
    }

    /// Renders each case, writes it through our PNG encoder, decodes it again, and compares
    /// the samples with ImageMagick's file: 16-bit exactly when both are 16-bit.
    func checkOutputs(
        file: String, render: (RGBAImage, RGBAImage) -> RGBAImage, line: UInt = #line
    ) throws {
        for entry in try cases() {
            let (reference, failure) = try inputs(entry)
            let ours = try ImageDecoder.decode(PNGEncoder.encode(render(reference, failure)), name: "ours")
            let theirs = try ImageDecoder.decode(contentsOf: entry.directory.appendingPathComponent(file).path)
            XCTAssertEqual(ours.size, theirs.size, "\(entry.name) \(file)", line: line)
            XCTAssertEqual(ours.is16Bit, theirs.is16Bit, "\(entry.name) \(file) bit depth", line: line)
            let mismatches: Int
            if let a = ours.samples16, let b = theirs.samples16 {
                mismatches = zip(a, b).filter { $0 != $1 }.count
            } else {
                mismatches = zip(ours.pixels, theirs.pixels).filter { $0 != $1 }.count
            }
            XCTAssertEqual(mismatches, 0, "\(entry.name) \(file): samples differ", line: line)
        }
    }

    func inputs(_ entry: Case) throws -> (RGBAImage, RGBAImage) {
        (
            try ImageDecoder.decode(contentsOf: entry.directory.appendingPathComponent(entry.referenceFile).path),
            try ImageDecoder.decode(contentsOf: entry.directory.appendingPathComponent(entry.failureFile).path)
        )
    }
}
