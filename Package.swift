// swift-tools-version:6.2
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
        .library(name: "SnapshotFiles", targets: ["SnapshotFiles"]),
        .library(name: "ImageDiffSnapshotTesting", targets: ["ImageDiffSnapshotTesting"]),
        .library(name: "ImageDiffSnapshotTestingCore", targets: ["ImageDiffSnapshotTestingCore"]),
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
        // The JSON files kept beside snapshots: the settings file and review entries.
        .target(name: "SnapshotFiles", dependencies: ["ImageDiff", "SnapshotRule"]),
        .target(
            name: "ToleranceTuning",
            dependencies: ["ImageDiff", "SnapshotRule", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
        ),
        // ImageMagick itself, linked by the tests that hold imgdiff to it; the decoder loads
        // MagickWand on first use instead (CImageCodecs' cic_magick.h).
        .systemLibrary(
            name: "CMagickWand", pkgConfig: "MagickWand",
            providers: [.apt(["libmagickwand-dev"]), .brew(["imagemagick@6"])]
        ),
        .systemLibrary(
            name: "CLibISAL", pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]
        ),
        .systemLibrary(
            name: "CLibDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .target(
            name: "CImageCodecs",
            dependencies: ["CLibPNG", "CLibJPEG", "CLibISAL", "CLibDeflate"],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "ImageCodecs",
            dependencies: ["ImageDiff", "CImageCodecs"]
        ),
        .target(
            name: "ImagePipeline",
            dependencies: ["ImageDiff", "ImageCodecs", "SnapshotRule", "SnapshotFiles"]
        ),
        .target(name: "CBuildInfo"),
        .executableTarget(
            name: "imgdiff",
            dependencies: [
                "ImageDiff", "ImageCodecs", "ImagePipeline", "SnapshotFiles", "SnapshotRule", "ToleranceTuning", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImageDiffTests", dependencies: ["ImageDiff", "SnapshotRule", "ToleranceTuning", "TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "ImageDiff", "CMagickWand", "TestSupport"]),
        .testTarget(
            name: "ConformanceTests", dependencies: ["ImageDiff", "ImageCodecs", "CMagickWand", "TestSupport"]),
        .testTarget(
            name: "ImagePipelineTests",
            dependencies: ["ImagePipeline", "ImageCodecs", "ImageDiff", "SnapshotFiles", "ToleranceTuning", "TestSupport"]),
        .testTarget(
            name: "imgdiffCLITests",
            dependencies: [
                "imgdiff", "ImageDiff", "ImageCodecs", "SnapshotFiles", "SnapshotRule", "TestSupport",
                .product(name: "Yams", package: "Yams"),
            ]),
        // The snapshot adapter's logic, over a codec protocol: builds without the C libraries.
        .target(
            name: "ImageDiffSnapshotTestingCore",
            dependencies: [
                "ImageDiff", "SnapshotRule", "SnapshotFiles",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        // The adapter with libpng and libjpeg-turbo as its codec, and the file and data strategies.
        .target(
            name: "ImageDiffSnapshotTesting",
            dependencies: ["ImageDiffSnapshotTestingCore", "ImageCodecs", "ImagePipeline"]
        ),
        .testTarget(
            name: "ImageDiffSnapshotTestingTests",
            dependencies: [
                "ImageDiffSnapshotTesting", "ImageDiffSnapshotTestingCore", "ImageDiff", "ImageCodecs", "SnapshotRule",
                "SnapshotFiles", "TestSupport",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ]
)
