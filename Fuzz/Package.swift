// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for imgdiff. Built and run by scripts/fuzz, which adds
// -sanitize=fuzzer,address (Swift) and -fsanitize=fuzzer-no-link,address (the C shim).
let package = Package(
    name: "imgdiff-fuzz",
    dependencies: [.package(name: "imgdiff", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzPNGDecode",
            dependencies: [
                "FuzzSupport",
                .product(name: "ImageCodecs", package: "imgdiff"),
                .product(name: "ImagePipeline", package: "imgdiff"),
                .product(name: "ImageDiff", package: "imgdiff"),
            ]
        ),
        .executableTarget(
            name: "FuzzJPEGDecode",
            dependencies: [
                "FuzzSupport",
                .product(name: "ImageCodecs", package: "imgdiff"),
                .product(name: "ImageDiff", package: "imgdiff"),
            ]
        ),
        .executableTarget(
            name: "FuzzCompareRender",
            dependencies: [
                "FuzzSupport",
                .product(name: "ImageCodecs", package: "imgdiff"),
                .product(name: "ImageDiff", package: "imgdiff"),
                .product(name: "SnapshotRule", package: "imgdiff"),
            ]
        ),
    ]
)
