// swift-tools-version:6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, whatever the clone is called.
let imgdiff = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

// The benchmark suite lives in its own package so that users of imgdiff's libraries never
// pull in the benchmark harness.
let package = Package(
    name: "imgdiff-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ImageDiffBenchmarks",
            dependencies: [
                .product(name: "ImageDiff", package: imgdiff),
                .product(name: "ImageCodecs", package: imgdiff),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ImageDiffBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The decode floor of `imgdiff batch` for scripts/bench-batch: decodes every image under
        // the given folders on one thread per core. Kept out of Benchmarks/, where the benchmark
        // plugin would take any executable target for a benchmark.
        .executableTarget(
            name: "decode-all",
            dependencies: [
                .product(name: "ImageDiff", package: imgdiff),
                .product(name: "ImageCodecs", package: imgdiff),
            ],
            path: "Tools/DecodeAll"
        ),
    ]
)
