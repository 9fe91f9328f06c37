import Benchmark
import Foundation
import ImageCodecs
import ImageDiff

/// The hot path, at an iPhone screenshot (1170x2532) and at 4K (3840x2160): decode, compare in
/// every mode on identical, 1 % and 100 % different pairs, render, and encode. Images are real
/// screenshot content: crops of ../shared/corpus/cypress.
///
/// Each benchmark runs in a process of its own and builds only its own size's inputs, in
/// `setup`, outside the measurement. Its memory figure is the bytes the measured work allocates.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocBytesCount],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 300
    )

    for size in FixtureSize.allCases {
        // Names without spaces: `thresholds update` writes them with spaces turned to
        // underscores, and `thresholds check` looks them up as they are (package-benchmark #373).
        let name = size.name

        measure("decode_PNG_\(name)", size) { fixture in
            try ImageDecoder.decode(fixture.encodedReference, name: "reference")
        }

        for pair in FixturePair.allCases {
            for mode in Fixture.modes {
                measure("compare_\(mode.name)_\(pair.rawValue)_\(name)", size) { fixture in
                    compare(fixture.reference, fixture.image(pair), options: mode.options)
                }
            }
        }

        measure("render_blend_\(name)", size) { fixture in
            ImageMagickBlend.render(reference: fixture.reference, failure: fixture.onePercent)
        }
        measure("render_diff_\(name)", size) { fixture in
            ImageMagickCompare.differenceImage(fixture.reference, fixture.onePercent)
        }
        measure("encode_blend_PNG_\(name)", size) { fixture in
            try PNGEncoder.encode(fixture.blend)
        }
        measure("encode_mask_PNG_\(name)", size) { fixture in
            try PNGEncoder.encode(mask: fixture.mask)
        }
    }

    for pair in CorpusPair.allCases {
        for (mode, options) in CorpusPair.modes {
            let name = "compare_\(mode)_\(pair.rawValue)"
            Benchmark(name, configuration: .init(thresholds: Tolerance.thresholds(for: name), setup: { _ = pair.images })) { benchmark in
                let (reference, actual) = pair.images
                for _ in benchmark.scaledIterations {
                    blackHole(compare(reference, actual, options: options))
                }
            }
        }
    }
}

/// Two of the corpus's synthetic page pairs (text, UI and a photo, with real changes), decoded
/// beforehand: the structural mode next to YIQ with pixelmatch's detector, which
/// `scripts/bench-modes` times as whole processes, decoding included. Here each is the
/// comparison alone, on both cores.
enum CorpusPair: String, CaseIterable, Sendable {
    case syn1080p = "syn-1080p"
    case syn4K = "syn-4k"

    static let modes: [(name: String, options: ComparisonOptions)] = [
        ("yiq+aa", ComparisonOptions(metric: .yiq(threshold: 0.1), ignoreAntialiasing: true)),
        ("structural", ComparisonOptions(metric: .structural(StructuralRule()))),
    ]

    private static let syn1080pImages = decoded("syn-1080p")
    private static let syn4KImages = decoded("syn-4k")

    /// The pair's two images, decoded on first use (each benchmark runs in a process of its own).
    var images: (RGBAImage, RGBAImage) {
        switch self {
        case .syn1080p: Self.syn1080pImages
        case .syn4K: Self.syn4KImages
        }
    }

    private static func decoded(_ name: String) -> (RGBAImage, RGBAImage) {
        let folder = sharedCorpus.appendingPathComponent(name)
        guard let reference = try? ImageDecoder.decode(contentsOf: folder.appendingPathComponent("a.png").path),
            let actual = try? ImageDecoder.decode(contentsOf: folder.appendingPathComponent("b.png").path)
        else {
            fatalError("benchmarks need ../shared/corpus/\(name)/a.png and b.png beside the package")
        }
        return (reference, actual)
    }
}

/// Registers a benchmark that times `work` on `size`'s fixture, built beforehand.
///
/// An error stops the process: package-benchmark reports a benchmark that throws and then
/// leaves it out of `thresholds check`, which would pass without it.
private func measure<Result>(
    _ name: String,
    _ size: FixtureSize,
    _ work: @escaping @Sendable (Fixture) throws -> Result
) {
    Benchmark(
        name,
        configuration: .init(thresholds: Tolerance.thresholds(for: name), setup: { _ = size.fixture })
    ) { benchmark in
        let fixture = size.fixture
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try work(fixture))
            } catch {
                fatalError("\(name): \(error)")
            }
        }
    }
}

/// How far a run may stray from its committed p90 (`Thresholds/`) before `thresholds check`
/// fails. A change either way fails, so that an improvement gets recorded too.
///
/// Wall clock may move by 50 % or by 2 ms, whichever is more. Three full runs on the 2-core
/// machine the thresholds come from put the same p90 up to 1.5x apart for benchmarks of a few
/// milliseconds, and up to 1.7x apart for those under one, where 2 ms is the tighter useful
/// bound: without the vectorized scan, an identical 4K comparison takes about 12 ms, not 2.5.
/// Bytes allocated are the same in every run, and may grow by 8 MiB, less than one more copy
/// of the smaller image (11.8 MB).
enum Tolerance {
    static let relativeWallClock = 50.0
    static let absoluteWallClockNanoseconds = 2_000_000
    static let allocationGrowthBytes = 8 << 20

    static func thresholds(for name: String) -> [BenchmarkMetric: BenchmarkThresholds] {
        let committed = committedWallClockP90(of: name) ?? Int.max
        let wallClockIsShort = Double(committed) * relativeWallClock / 100 < Double(absoluteWallClockNanoseconds)
        return [
            .wallClock: wallClockIsShort
                ? BenchmarkThresholds(absolute: [.p90: absoluteWallClockNanoseconds])
                : BenchmarkThresholds(relative: [.p90: relativeWallClock]),
            .mallocBytesCount: BenchmarkThresholds(absolute: [.p90: allocationGrowthBytes]),
        ]
    }

    /// The p90 in `Thresholds/`, in nanoseconds, as `thresholds update` wrote it.
    private static func committedWallClockP90(of name: String) -> Int? {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Thresholds/ImageDiffBenchmarks.\(name).p90.json")
        guard let data = try? Data(contentsOf: file),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["wallClock"] as? Int
    }
}

/// `../shared/corpus`, beside the package.
let sharedCorpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpus")

/// The two sizes, each with its fixture built on first use.
enum FixtureSize: CaseIterable, Sendable {
    case iPhoneScreenshot
    case uhd4K

    var name: String {
        switch self {
        case .iPhoneScreenshot: "1170x2532"
        case .uhd4K: "3840x2160"
        }
    }

    var fixture: Fixture {
        switch self {
        case .iPhoneScreenshot: Fixture.iPhoneScreenshot
        case .uhd4K: Fixture.uhd4K
        }
    }
}

/// The other side of a compared pair.
enum FixturePair: String, CaseIterable, Sendable {
    case identical
    case onePercent = "1%"
    case everyPixel = "100%"
}

/// Benchmark inputs at one size.
struct Fixture: @unchecked Sendable {
    static let iPhoneScreenshot = Fixture(width: 1170, height: 2532)
    static let uhd4K = Fixture(width: 3840, height: 2160)

    static let modes: [(name: String, options: ComparisonOptions)] = [
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
    /// Red raised by 40 levels in 1 % of the pixels, spread at random.
    let onePercent: RGBAImage
    /// Green raised by 1 to 7 levels in every pixel.
    let everyPixel: RGBAImage
    let encodedReference: [UInt8]
    /// The blend overlay of the 1 % pair, for the encoder.
    let blend: RGBAImage
    /// The exact-mode mask of the 1 % pair, for the encoder.
    let mask: DifferenceMask

    func image(_ pair: FixturePair) -> RGBAImage {
        switch pair {
        case .identical: copy
        case .onePercent: onePercent
        case .everyPixel: everyPixel
        }
    }

    /// The top-left of ../shared/corpus/cypress/a.png, tiled where the size exceeds it.
    private init(width: Int, height: Int) {
        let corpus = sharedCorpus.appendingPathComponent("cypress/a.png")
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
        reference = RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: source.hasAlpha)
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
        self.onePercent = onePercent
        self.everyPixel = everyPixel
        let copiedPixels = reference.pixels.withUnsafeBufferPointer { Array($0) }
        copy = RGBAImage(width: width, height: height, pixels: copiedPixels, hasAlpha: reference.hasAlpha)
        guard let encoded = try? PNGEncoder.encode(reference),
            let mask = compare(reference, onePercent, options: ComparisonOptions(metric: .exact, collectsMask: true)).mask
        else {
            fatalError("benchmark fixture \(width)x\(height): the reference could not be encoded or masked")
        }
        encodedReference = encoded
        self.mask = mask
        blend = ImageMagickBlend.render(reference: reference, failure: onePercent)
    }
}
