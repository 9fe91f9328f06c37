// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "imgdiff",
    products: [
        .library(name: "ImageDiff", targets: ["ImageDiff"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "SnapshotRule", targets: ["SnapshotRule"]),
        .library(name: "ToleranceTuning", targets: ["ToleranceTuning"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .executable(name: "imgdiff", targets: ["imgdiff"]),
        .library(name: "ImageDiffSnapshotTesting", targets: ["ImageDiffSnapshotTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.0"),
    ],
    targets: [
        // decode → compare → render → encode
        .target(
            name: "ImageDiff",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(name: "SnapshotRule", dependencies: ["ImageDiff"]),
        .target(
            name: "ToleranceTuning",
            dependencies: ["ImageDiff", "SnapshotRule", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // ImageMagick itself, linked by the tests that hold imgdiff to it; the decoder loads
        // MagickWand on first use instead (CImageCodecs' cic_magick.h).
        .systemLibrary(
            name: "CMagickWand", pkgConfig: "MagickWand",
            providers: [.apt(["libmagickwand-dev"])]
        ),
        .systemLibrary(
            name: "CLibISAL", pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        .target(
            name: "CImageCodecs",
            dependencies: ["CLibPNG", "CLibJPEG", "CLibISAL"],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "ImageCodecs",
            dependencies: ["ImageDiff", "CImageCodecs"]
        ),
        .target(
            name: "ImagePipeline",
            dependencies: ["ImageDiff", "ImageCodecs", "SnapshotRule"]
        ),
        .target(name: "CBuildInfo"),
        .executableTarget(
            name: "imgdiff",
            dependencies: [
                "ImageDiff", "ImageCodecs", "ImagePipeline", "SnapshotRule", "ToleranceTuning", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImageDiffTests", dependencies: ["ImageDiff", "SnapshotRule", "ToleranceTuning", "TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "ImageDiff", "CMagickWand", "TestSupport"]),
        .testTarget(
            name: "ConformanceTests", dependencies: ["ImageDiff", "ImageCodecs", "CMagickWand", "TestSupport"]),
        .testTarget(name: "ImagePipelineTests", dependencies: ["ImagePipeline", "ImageCodecs", "ImageDiff", "TestSupport"]),
        .testTarget(
            name: "imgdiffCLITests",
            dependencies: ["imgdiff", "ImageDiff", "ImageCodecs", "SnapshotRule", "TestSupport", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "ImageDiffSnapshotTesting",
            dependencies: [
                "ImageDiff", "ImageCodecs", "ImagePipeline", "SnapshotRule",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .testTarget(
            name: "ImageDiffSnapshotTestingTests",
            dependencies: [
                "ImageDiffSnapshotTesting", "ImageDiff", "ImageCodecs", "SnapshotRule", "TestSupport",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ]
)
