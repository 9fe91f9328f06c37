import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import ImageDiff

/// ImageMagick's metric family, live: Debian's `compare` (ImageMagick 6.9.11 Q16) prints each
/// metric for pairs of the package's fixtures, 8- and 16-bit, with and without alpha, grey and
/// palette, JPEG, and sizes that differ, with and without `-fuzz 5%`; imgdiff's
/// `--metric M` must print the same text.
final class LiveImageMagickMetricsTests: XCTestCase {
    static let compareTool = "/usr/bin/compare-im6.q16"

    static let pairs: [(String, String)] = [
        ("login/ref.png", "login/fail.png"),
        ("codecs/rgba16.png", "codecs/rgba8.png"),
        ("codecs/rgb8.png", "codecs/rgb16.png"),
        ("codecs/rgb8.png", "codecs/rgba8.png"),
        ("codecs/rgba8.png", "codecs/graya8.png"),
        ("codecs/graya16.png", "codecs/rgba16.png"),
        ("codecs/palette8_trns.png", "codecs/palette2_trns.png"),
        ("batch/ref/legacy/about.png", "batch/ref/home.png"),
        ("batch/ref/home.png", "batch/ref/legacy/about.png"),
        ("tune/noise/ref/jpeg-recompress.jpg", "tune/noise/new/jpeg-recompress.jpg"),
        ("login/ref.png", "login/ref.png"),
    ]

    func testEveryMetricPrintsWhatImageMagickPrints() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.compareTool) else {
            throw XCTSkip("\(Self.compareTool) is missing: install imagemagick-6.q16 (scripts/deps --test does) to run this test")
        }
        let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures")
        XCTAssertEqual(try run(["-list", "metric"]).split(separator: "\n").map(String.init).sorted(),
                       (["AE", "PHASH"] + ImageMagickMetric.allCases.map(\.rawValue)).sorted(),
                       "the metrics ImageMagick lists: all but PHASH are here (see the README)")
        for (first, second) in Self.pairs {
            let a = fixtures.appendingPathComponent(first).path, b = fixtures.appendingPathComponent(second).path
            let reference = try ImageDecoder.decode(contentsOf: a), actual = try ImageDecoder.decode(contentsOf: b)
            for fuzz in [nil, "5%"] {
                let fuzzArguments = fuzz.map { ["-fuzz", $0] } ?? []
                for metric in ImageMagickMetric.allCases {
                    let theirs = try run(["-metric", metric.rawValue] + fuzzArguments + [a, b, "null:"])
                    let result = compare(reference, actual, options: ComparisonOptions(metric: .imageMagick(metric, threshold: 0)))
                    XCTAssertEqual(result.imageMagick?.printed, theirs, "\(metric.rawValue) \(fuzz ?? "") \(first) \(second)")
                }
                let fuzzUnits = fuzz == nil ? 0 : ImageMagickCompare.fuzz(percent: 5)
                let ae = compare(reference, actual, options: ComparisonOptions(metric: .imageMagickAE(fuzz: fuzzUnits)))
                XCTAssertEqual("\(ae.differentPixels)", try run(["-metric", "AE"] + fuzzArguments + [a, b, "null:"]), "AE \(first) \(second)")
            }
        }
    }

    func testVerdictHoldsTheThreshold() {
        let reference = RGBAImage(width: 4, height: 1, filledWith: RGBA(0, 0, 0))
        var actual = reference
        actual[0, 0] = RGBA(255, 255, 255)
        // One of four pixels white: MAE 0.25, PSNR 10·log10(4) = 6.02 dB.
        for (metric, threshold, match) in [
            (ComparisonMetric.imageMagick(.mae, threshold: 0.25), true), (.imageMagick(.mae, threshold: 0.2499), false),
            (.imageMagick(.psnr, threshold: 6), true), (.imageMagick(.psnr, threshold: 6.1), false),
            (.imageMagick(.pae, threshold: 0.99), false),
            // MEPP is judged by its normalized mean error (the first figure in parentheses,
            // 3 of 12 samples off by all: 0.25), not by its sum, which grows with the image.
            (.imageMagick(.mepp, threshold: 0.25), true), (.imageMagick(.mepp, threshold: 0.2499), false),
        ].map({ ($0.0, $0.0.threshold, $0.1) }) {
            XCTAssertEqual(compare(reference, actual, options: ComparisonOptions(metric: metric)).match, match, "\(metric) \(threshold)")
        }
        XCTAssertEqual(ComparisonMetric(name: "psnr"), .imageMagick(.psnr, threshold: .infinity))
        XCTAssertEqual(ComparisonMetric(name: "rmse"), .imageMagick(.rmse, threshold: 0))
        XCTAssertNil(ComparisonMetric(name: "RMSE"))
    }

    /// stderr of `compare`, which prints the metric there.
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.compareTool)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile() + output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
