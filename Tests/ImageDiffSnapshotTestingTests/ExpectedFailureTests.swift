import Foundation
import ImageCodecs
import ImageDiff
import ImageDiffSnapshotTesting
import SnapshotTesting
import Testing

/// `assertSnapshot` under Swift Testing, with swift-snapshot-testing's `.snapshots` trait: a
/// failing snapshot is an expected issue (`withKnownIssue`), not a skipped test.
@Suite(.snapshots(record: SnapshotTestEnvironment.record, diffTool: SnapshotTestEnvironment.diffTool))
struct ExpectedFailureTests {
    init() {
        _ = SnapshotTestEnvironment.artifactsRoot
    }

    @Test func unchangedScenePasses() {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
    }

    @Test func driftPassesWithinPerceptualTolerance() {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        assertSnapshot(of: Scene.badgeOnAnotherMachine, as: .scene(perceptualPrecision: 0.98), named: "badge")
    }

    @Test func movedDiscIsReportedWithArtifacts() throws {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        withKnownIssue {
            assertSnapshot(of: Scene.badgeWithMovedDisc, as: .scene(precision: 0.99), named: "badge")
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("Actual image precision 0.92285156 is less than required 0.99")
                && text.contains("blend:")
        }
        let base = SnapshotTestEnvironment.artifactsDirectory() + "/movedDiscIsReportedWithArtifacts.badge"
        for kind in ["reference", "failure", "blend", "mask"] {
            let image = try ImageDecoder.decode(contentsOf: "\(base).\(kind).png")
            #expect(image.size == ImageSize(width: 48, height: 32))
        }
    }

    @Test func driftIsAnIssueWithoutTolerance() {
        assertSnapshot(of: Scene.badge, as: .scene(), named: "badge")
        withKnownIssue {
            assertSnapshot(of: Scene.badgeOnAnotherMachine, as: .scene(), named: "badge")
        } matching: { issue in
            String(describing: issue).contains("Newly-taken snapshot does not match reference.")
        }
    }
}
