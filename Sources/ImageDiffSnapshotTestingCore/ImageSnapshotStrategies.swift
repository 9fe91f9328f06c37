import Foundation
import ImageDiff
import SnapshotTesting

extension Diffing where Value == RGBAImage {
    /// Compares images with ``ImageSnapshotComparison`` and stores them through `codec`.
    ///
    /// A failure message is swift-snapshot-testing's, word for word, followed by one line that
    /// says where and how much the images differ and the paths of the images described in
    /// ``ImageSnapshotArtifacts``.
    ///
    /// - Parameters:
    ///   - comparison: The thresholds and options; `ImageSnapshotComparison()` is
    ///     swift-snapshot-testing's exact rule.
    ///   - codec: How references and artifacts are stored.
    ///   - artifacts: Whether and where failures leave images.
    ///   - file: The test file, used to file the artifacts beside swift-snapshot-testing's own.
    ///     Forward it when you build the strategy in a helper.
    ///   - testName: The test function, used the same way.
    public static func image(
        _ comparison: ImageSnapshotComparison,
        codec: some SnapshotImageCodec,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Diffing {
        let writer = ArtifactWriter(
            settings: artifacts, location: SnapshotTestLocation(filePath: "\(file)", testName: testName), codec: codec)
        return .diff(
            toData: { image in
                // A snapshot that could not be made, or holds no pixels, is stored empty.
                guard image.pixelCount > 0 else { return Data() }
                do {
                    return Data(try codec.encode(image))
                } catch {
                    // swift-snapshot-testing writes what this returns, and cannot be stopped:
                    // the codec's reason is told, and nothing that looks like an image is kept.
                    TestAttachments.recordIssue("imgdiff: the snapshot could not be encoded (\(error)); an empty file is written in its place")
                    return Data()
                }
            },
            fromData: { data in
                UnreadableReference.reason = nil
                guard !data.isEmpty else { return .unreadableSnapshot }
                do {
                    return try codec.decode(Array(data))
                } catch {
                    UnreadableReference.reason = "\(error)"
                    return .unreadableSnapshot
                }
            },
            diffV2: { reference, actual in
                ImageSnapshotFailure.describe(
                    reference: reference, actual: actual, comparison: comparison, writer: writer)
            })
    }
}

extension Snapshotting where Value == RGBAImage, Format == RGBAImage {
    /// Snapshots images through `codec` and compares them with ``ImageSnapshotComparison``;
    /// the parameters are those of
    /// ``SnapshotTesting/Diffing/image(_:codec:artifacts:file:testName:)``.
    public static func image(
        _ comparison: ImageSnapshotComparison,
        codec: some SnapshotImageCodec,
        artifacts: ImageSnapshotArtifacts = .automatic,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting(
            pathExtension: codec.pathExtension,
            diffing: .image(comparison, codec: codec, artifacts: artifacts, file: file, testName: testName))
    }
}

extension RGBAImage {
    /// The snapshot of something that could not be made into an image, and the reference read
    /// from bytes that are not one: no pixels, so nothing is recorded that looks like a
    /// reference.
    package static let unreadableSnapshot = RGBAImage(width: 0, height: 0, pixels: [])
}

/// Why the reference swift-snapshot-testing just read could not be decoded: it reads the
/// file, decodes it (`fromData`) and compares (`diff`) on one thread, one assertion at a time,
/// so the decoder's reason is kept for that thread's next comparison.
enum UnreadableReference {
    private static let key = "imgdiff.unreadableReference"

    static var reason: String? {
        get { Thread.current.threadDictionary[key] as? String }
        set { Thread.current.threadDictionary[key] = newValue }
    }

    /// The reason, cleared.
    static func take() -> String? {
        defer { reason = nil }
        return reason
    }
}

/// The failure message and attachments of an image snapshot.
enum ImageSnapshotFailure {
    /// `nil` when `actual` passes; otherwise swift-snapshot-testing's message, imgdiff's summary
    /// and the artifacts, which are also returned as attachments.
    static func describe(
        reference: RGBAImage, actual: RGBAImage, comparison: ImageSnapshotComparison, writer: ArtifactWriter
    ) -> (String, [DiffAttachment])? {
        guard reference.pixelCount > 0 else {
            if let reason = UnreadableReference.take() {
                return ("""
                    Reference image could not be loaded.

                    imgdiff: the stored reference could not be decoded: \(reason).
                    """, [])
            }
            return ("""
                Reference image could not be loaded.

                imgdiff: the stored reference is empty or not an image. An empty one was recorded \
                from a snapshot that could not be made, or that held no pixels (an image of zero \
                width or height); delete it, fix the cause, and record again.
                """, [])
        }
        let evaluation = comparison.evaluate(reference: reference, actual: actual)
        guard !evaluation.verdict.passed else {
            if writer.settings.isEnabled { writer.removeEntries(passing: reference) }
            return nil
        }
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
        let attachments = artifacts.map { DiffAttachment.data(Data($0.bytes), name: URL(fileURLWithPath: $0.path).lastPathComponent) }
        return (lines.joined(separator: "\n"), attachments)
    }
}

extension SnapshotTestingConfiguration.DiffTool {
    /// The line a failure message shows to open the review: `imgdiff review FOLDER`, the
    /// folder that holds the failure and its review image, where accepting replaces the
    /// reference. Set it with `withSnapshotTesting(diffTool: .imgdiff)` or the `.snapshots`
    /// trait.
    public static let imgdiff = Self { _, failure in
        let folder = URL(fileURLWithPath: failure.hasPrefix("file://") ? String(failure.dropFirst("file://".count)) : failure)
            .deletingLastPathComponent().path
        return "imgdiff review \(shellWord(folder))"
    }

    /// `text` as one word of a POSIX shell: as it is when it holds only characters no shell
    /// reads specially, else in single quotes (a quote in it written `'\''`), so that the line
    /// pastes into a terminal as it reads.
    static func shellWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@%".unicodeScalars.contains(scalar)
        }
        if plain, !text.isEmpty { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
