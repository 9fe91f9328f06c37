import Foundation
import ImageCodecs
import ImageDiff
@testable import ImageDiffSnapshotTesting
import SnapshotTesting
import TestSupport
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

    /// The file and `Data` strategies snapshot what a Linux team renders: an image on disk, or
    /// PNG bytes. A missing file or unreadable bytes fail with one line naming the problem, and
    /// an empty reference says how it came to be and what to do.
    @Test func fileAndDataStrategies() throws {
        let fixture = SharedData.packageRoot.appendingPathComponent("Fixtures/login/ref.png").path
        assertSnapshot(of: fixture, as: .imageFile(), named: "login")
        assertSnapshot(of: try Data(contentsOf: URL(fileURLWithPath: fixture)), as: .imageData(), named: "login")
        withKnownIssue {
            assertSnapshot(of: "/no/such/chart.png", as: .imageFile(), named: "login")
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("imgdiff: /no/such/chart.png: no such file; the snapshot is empty")
                || text.contains("does not match reference")
        }
        withKnownIssue {
            assertSnapshot(of: "relative/chart.png", as: .imageFile(), named: "login")
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("relative/chart.png: no such file (relative to \(FileManager.default.currentDirectoryPath))")
                || text.contains("does not match reference")
        }
        withKnownIssue {
            assertSnapshot(of: Data("not an image".utf8), as: .imageData(), named: "login")
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("imgdiff: image data: ") || text.contains("does not match reference")
        }
        withKnownIssue {
            assertSnapshot(of: fixture, as: .imageFile(), named: "empty")
        } matching: { issue in
            String(describing: issue).contains("the stored reference is empty or not an image")
        }
    }

    /// The one line an unreadable input reports, alone (the assertion above also reports the
    /// mismatch with the reference).
    @Test func unreadableInputsReportOneLine() {
        withKnownIssue {
            #expect(SnapshotInput.decode(path: "/no/such/chart.png").pixelCount == 0, "an empty snapshot")
        } matching: { issue in
            String(describing: issue).contains("imgdiff: /no/such/chart.png: no such file; the snapshot is empty")
        }
        withKnownIssue {
            _ = SnapshotInput.decode(data: Data("not an image".utf8))
        } matching: { issue in
            String(describing: issue).contains("imgdiff: image data: ")
        }
    }
}
