import Foundation
import ImageCodecs
import ImageDiffSnapshotTestingCore

extension Snapshotting where Value == String, Format == RGBAImage {
    /// Snapshots the image file at a path (PNG, JPEG, or any format ImageMagick reads): a chart
    /// a server rendered, an exported image, a browser screenshot. The parameters are those of
    /// ``SnapshotTesting/Snapshotting/image(precision:perceptualPrecision:metric:ignoring:ignoresAntialiasing:artifacts:file:testName:)``.
    ///
    /// A relative path is taken from the test process's working directory. When the file
    /// cannot be read, the test fails with one line naming the file and the problem, and the
    /// snapshot is empty: nothing that looks like a reference is recorded from it.
    public static func imageFile(
        precision: Float = 1,
        perceptualPrecision: Float = 1,
        metric: ComparisonMetric = .exact,
        ignoring ignoredRegions: [PixelRect] = [],
        ignoresAntialiasing: Bool = false,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>
            .image(
                precision: precision, perceptualPrecision: perceptualPrecision, metric: metric,
                ignoring: ignoredRegions, ignoresAntialiasing: ignoresAntialiasing,
                artifacts: artifacts, file: file, testName: testName)
            .pullback(SnapshotInput.decode(path:))
    }

    /// Snapshots the image file at a path, judged by a fully specified
    /// ``ImageSnapshotComparison``: for instance the settings file `imgdiff tune --write-config`
    /// wrote, as `.imageFile(try ImageSnapshotComparison(contentsOf: path))`.
    public static func imageFile(
        _ comparison: ImageSnapshotComparison,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>
            .image(comparison, artifacts: artifacts, file: file, testName: testName)
            .pullback(SnapshotInput.decode(path:))
    }
}

extension Snapshotting where Value == Data, Format == RGBAImage {
    /// Snapshots encoded image bytes (PNG or JPEG) as the image they hold. The parameters are
    /// those of ``SnapshotTesting/Snapshotting/imageFile(precision:perceptualPrecision:metric:ignoring:ignoresAntialiasing:artifacts:file:testName:)``;
    /// bytes that are not a readable image fail the test with the decoder's reason.
    public static func imageData(
        precision: Float = 1,
        perceptualPrecision: Float = 1,
        metric: ComparisonMetric = .exact,
        ignoring ignoredRegions: [PixelRect] = [],
        ignoresAntialiasing: Bool = false,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>
            .image(
                precision: precision, perceptualPrecision: perceptualPrecision, metric: metric,
                ignoring: ignoredRegions, ignoresAntialiasing: ignoresAntialiasing,
                artifacts: artifacts, file: file, testName: testName)
            .pullback(SnapshotInput.decode(data:))
    }

    /// Snapshots encoded image bytes, judged by a fully specified ``ImageSnapshotComparison``,
    /// as ``SnapshotTesting/Snapshotting/imageFile(_:artifacts:file:testName:)`` judges a file.
    public static func imageData(
        _ comparison: ImageSnapshotComparison,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>
            .image(comparison, artifacts: artifacts, file: file, testName: testName)
            .pullback(SnapshotInput.decode(data:))
    }
}

/// Images to snapshot that come as files or bytes.
enum SnapshotInput {
    static func decode(path: String) -> RGBAImage {
        do {
            return try ImageDecoder.decode(contentsOf: path)
        } catch {
            let location = PathText.isAbsolute(path) ? "" : " (relative to \(FileManager.default.currentDirectoryPath))"
            return failed("imgdiff: \(error.description)\(location); the snapshot is empty")
        }
    }

    static func decode(data: Data) -> RGBAImage {
        do {
            return try ImageDecoder.decode([UInt8](data), name: "image data")
        } catch {
            return failed("imgdiff: \(error.description); the snapshot is empty")
        }
    }

    static func failed(_ message: String) -> RGBAImage {
        TestAttachments.recordIssue(message)
        return .unreadableSnapshot
    }
}
