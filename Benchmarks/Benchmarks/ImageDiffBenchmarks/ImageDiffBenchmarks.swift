import Benchmark
import Foundation
import ImageCodecs
import ImageDiff

/// The hot path, at an iPhone screenshot (1170x2532) and at 4K (3840x2160): decode, compare in
/// every mode on identical, 1 % and 100 % different pairs, render, and encode. Images are real
/// screenshot content: crops of ../shared/corpus/cypress.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(2),
        maxIterations: 30,
        thresholds: [
            .wallClock: BenchmarkThresholds(relative: [.p50: 25, .p90: 35]),
            .peakMemoryResident: BenchmarkThresholds(relative: [.p90: 15]),
        ]
    )

    for size in Fixture.sizes {
        let fixture = Fixture.load(width: size.width, height: size.height)
        let name = "\(size.width)x\(size.height)"
        // Names without spaces: `thresholds update` writes them with spaces turned to
        // underscores, and `thresholds check` looks them up as they are (package-benchmark #373).

        Benchmark("decode_PNG_\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try ImageDecoder.decode(fixture.encodedReference, name: "reference"))
            }
        }

        for (pairName, other) in [("identical", fixture.copy), ("1%", fixture.onePercent), ("100%", fixture.everyPixel)] {
            for (modeName, options) in Fixture.modes {
                Benchmark("compare_\(modeName)_\(pairName)_\(name)") { benchmark in
                    for _ in benchmark.scaledIterations {
                        blackHole(compare(fixture.reference, other, options: options))
                    }
                }
            }
        }

        Benchmark("render_blend_\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(ImageMagickBlend.render(reference: fixture.reference, failure: fixture.onePercent))
            }
        }
        Benchmark("render_diff_\(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(ImageMagickCompare.differenceImage(fixture.reference, fixture.onePercent))
            }
        }
        Benchmark("encode_blend_PNG_\(name)") { benchmark in
            let blend = ImageMagickBlend.render(reference: fixture.reference, failure: fixture.onePercent)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try PNGEncoder.encode(blend))
            }
        }
        Benchmark("encode_mask_PNG_\(name)") { benchmark in
            let options = ComparisonOptions(metric: .exact, collectsMask: true)
            guard let mask = compare(fixture.reference, fixture.onePercent, options: options).mask else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try PNGEncoder.encode(mask: mask))
            }
        }
    }
}

/// Benchmark inputs, made once per size.
struct Fixture: @unchecked Sendable {
    static let sizes: [(width: Int, height: Int)] = [(1170, 2532), (3840, 2160)]

    static let modes: [(String, ComparisonOptions)] = [
        ("exact", ComparisonOptions(metric: .exact)),
        ("yiq", ComparisonOptions(metric: .yiq(threshold: 0.1))),
        ("yiq+aa", ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true)),
        ("cie94", ComparisonOptions(metric: .deltaE(.cie94, threshold: 2))),
        ("ciede2000", ComparisonOptions(metric: .deltaE(.ciede2000, threshold: 2))),
        ("ae", ComparisonOptions(metric: .imageMagickAE(fuzz: 0))),
    ]

    let reference: RGBAImage
    /// The reference in a buffer of its own, so that "identical" streams two buffers.
    let copy: RGBAImage
    let onePercent: RGBAImage
    let everyPixel: RGBAImage
    let encodedReference: [UInt8]

    static func load(width: Int, height: Int) -> Fixture {
        let corpus = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/cypress/a.png")
        guard let source = try? ImageDecoder.decode(contentsOf: corpus.path) else {
            fatalError("benchmarks need ../shared/corpus/cypress/a.png beside the package")
        }
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let start = (y % source.height) * source.width * 4
            for x in 0..<width {
                let k = start + (x % source.width) * 4
                pixels += source.pixels[k..<(k + 4)]
            }
        }
        let reference = RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: source.hasAlpha)
        var onePercent = reference, everyPixel = reference
        var state: UInt64 = 0x1234_5678
        for _ in 0..<(width * height / 100) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let index = Int(state >> 33) % (width * height)
            onePercent.pixels[index * 4] &+= 40
        }
        for index in stride(from: 0, to: everyPixel.pixels.count, by: 4) {
            everyPixel.pixels[index + 1] &+= UInt8(1 + index % 7)
        }
        let encoded = (try? PNGEncoder.encode(reference, compressionLevel: 6)) ?? []
        let copy = RGBAImage(width: width, height: height, pixels: Array(reference.pixels), hasAlpha: reference.hasAlpha)
        return Fixture(
            reference: reference, copy: copy, onePercent: onePercent, everyPixel: everyPixel, encodedReference: encoded)
    }
}
