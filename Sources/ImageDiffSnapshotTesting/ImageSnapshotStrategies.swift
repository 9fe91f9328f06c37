import Foundation
import ImageCodecs
import ImageDiff
import SnapshotTesting

extension Diffing where Value == RGBAImage {
    /// Compares images as swift-snapshot-testing's `image(precision:perceptualPrecision:)`
    /// strategies do on Apple platforms, same thresholds, same verdicts, same messages, and
    /// stores them as PNG.
    ///
    /// A failure message is swift-snapshot-testing's, word for word, followed by one line that
    /// says where and how much the images differ and the paths of the PNGs described in
    /// ``ImageSnapshotArtifacts``.
    ///
    /// - Parameters:
    ///   - precision: The fraction of bytes that must match; with `perceptualPrecision < 1`, the
    ///     fraction of pixels that must pass the perceptual test.
    ///   - perceptualPrecision: A pixel passes iff its CIE94 ΔE is at most
    ///     `(1 − perceptualPrecision) · 100`; 0.98 admits ΔE up to just under 2.
    ///   - metric: Which pixels count as changed before `precision` is applied. The default,
    ///     ``ComparisonMetric/exact``, is swift-snapshot-testing's rule;
    ///     `.channel(tolerance: 2)` forgives pixels whose channels all moved by at most 2 levels,
    ///     `.deltaE(.ciede2000, threshold: 1)` those within ΔE00 1.
    ///   - ignoredRegions: Rectangles, in reference pixels, whose changes are forgiven.
    ///   - ignoresAntialiasing: Forgive pixels that pixelmatch's detector finds anti-aliased.
    ///   - artifacts: Whether and where failures leave PNGs.
    ///   - file: The test file, used to file the artifacts beside swift-snapshot-testing's own.
    ///     Forward it when you build the strategy in a helper.
    ///   - testName: The test function, used the same way.
    public static func image(
        precision: Float = 1,
        perceptualPrecision: Float = 1,
        metric: ComparisonMetric = .exact,
        ignoring ignoredRegions: [PixelRect] = [],
        ignoresAntialiasing: Bool = false,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Diffing {
        image(
            ImageSnapshotComparison(
                precision: precision, perceptualPrecision: perceptualPrecision,
                options: ComparisonOptions(
                    metric: metric, ignoreAntialiasing: ignoresAntialiasing, ignoreRegions: ignoredRegions)),
            artifacts: artifacts, file: file, testName: testName)
    }

    /// Compares images with a fully specified ``ImageSnapshotComparison`` (for instance one
    /// with an ignore mask) and stores them as PNG.
    public static func image(
        _ comparison: ImageSnapshotComparison,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Diffing {
        let writer = ArtifactWriter(
            settings: artifacts, location: SnapshotTestLocation(filePath: "\(file)", testName: testName))
        return .diff(
            toData: { image in Data(ImageSnapshotPNG.encode(image)) },
            fromData: { data in ImageSnapshotPNG.decode(data) },
            diffV2: { reference, actual in
                ImageSnapshotFailure.describe(
                    reference: reference, actual: actual, comparison: comparison, writer: writer)
            })
    }
}

extension Snapshotting where Value == RGBAImage, Format == RGBAImage {
    /// Snapshots images as PNG and compares them as swift-snapshot-testing's image strategies
    /// do; the parameters are those of `Diffing.image(precision:perceptualPrecision:…)`.
    ///
    /// Pull it back to snapshot anything that renders to pixels:
    ///
    /// ```swift
    /// extension Snapshotting where Value == Scene, Format == RGBAImage {
    ///     static func scene(
    ///         precision: Float = 1, file: StaticString = #filePath, testName: String = #function
    ///     ) -> Self {
    ///         Snapshotting<RGBAImage, RGBAImage>
    ///             .image(precision: precision, file: file, testName: testName)
    ///             .pullback { $0.rasterize() }
    ///     }
    /// }
    /// ```
    public static func image(
        precision: Float = 1,
        perceptualPrecision: Float = 1,
        metric: ComparisonMetric = .exact,
        ignoring ignoredRegions: [PixelRect] = [],
        ignoresAntialiasing: Bool = false,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting(
            pathExtension: "png",
            diffing: .image(
                precision: precision, perceptualPrecision: perceptualPrecision, metric: metric,
                ignoring: ignoredRegions, ignoresAntialiasing: ignoresAntialiasing,
                artifacts: artifacts, file: file, testName: testName))
    }

    /// Write `.image()`: the strategy needs the call's `#filePath` and `#function` to file its
    /// failure artifacts beside swift-snapshot-testing's, which a property cannot take.
    @available(*, unavailable, message: "write .image() with parentheses: imgdiff's strategy takes the test's file and name to file its artifacts")
    public static var image: Snapshotting { .image() }

    /// Snapshots images as PNG and compares them with a fully specified
    /// ``ImageSnapshotComparison``.
    public static func image(
        _ comparison: ImageSnapshotComparison,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting(
            pathExtension: "png",
            diffing: .image(comparison, artifacts: artifacts, file: file, testName: testName))
    }
}

/// The stored form of image snapshots.
enum ImageSnapshotPNG {
    /// The image as PNG; nothing for an image without pixels, which PNG cannot hold.
    static func encode(_ image: RGBAImage) -> [UInt8] {
        (try? PNGEncoder.encode(image)) ?? []
    }

    /// The decoded image; an image without pixels when `data` is not a readable image.
    static func decode(_ data: Data) -> RGBAImage {
        (try? ImageDecoder.decode([UInt8](data), name: "reference")) ?? unreadable
    }

    static let unreadable = RGBAImage(width: 0, height: 0, pixels: [])
}

/// The failure message and attachments of an image snapshot.
enum ImageSnapshotFailure {
    /// `nil` when `actual` passes; otherwise swift-snapshot-testing's message, imgdiff's summary
    /// and the artifacts, which are also returned as attachments.
    static func describe(
        reference: RGBAImage, actual: RGBAImage, comparison: ImageSnapshotComparison, writer: ArtifactWriter
    ) -> (String, [DiffAttachment])? {
        guard reference.pixelCount > 0 else {
            return ("""
                Reference image could not be loaded.

                imgdiff: the stored reference is empty or not an image. An empty one was recorded \
                from a snapshot that could not be made (the run that recorded it failed with the \
                reason); delete it, fix the cause, and record again.
                """, [])
        }
        let evaluation = comparison.evaluate(reference: reference, actual: actual)
        guard !evaluation.verdict.passed else { return nil }
        var lines = [evaluation.verdict.message ?? "Newly-taken snapshot does not match reference.", ""]
        lines.append(evaluation.summary)
        guard writer.settings.isEnabled else {
            return (lines.joined(separator: "\n"), [])
        }
        let (artifacts, problems) = writer.write(reference: reference, failure: actual, evaluation: evaluation)
        if !artifacts.isEmpty {
            lines.append("Artifacts:")
            let width = artifacts.map(\.kind.count).max() ?? 0
            for artifact in artifacts {
                let label = artifact.kind + ":" + String(repeating: " ", count: width - artifact.kind.count)
                lines.append("  \(label) \(artifact.path)")
            }
        }
        for problem in problems {
            lines.append("Could not write the \(problem)")
        }
        TestAttachments.record(artifacts)
        let attachments = artifacts.map { DiffAttachment.data(Data($0.png), name: "\($0.kind).png") }
        return (lines.joined(separator: "\n"), attachments)
    }
}
