import Foundation
import ImageDiffSnapshotTestingCore

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
        image(comparison, codec: .png, artifacts: artifacts, file: file, testName: testName)
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
        image(comparison, codec: .png, artifacts: artifacts, file: file, testName: testName)
    }
}
