import Foundation
import XCTest

#if canImport(Testing) && compiler(>=6.2)
import Testing
#endif

/// Attaches failure PNGs to the running Swift Testing test where swift-snapshot-testing does
/// not.
///
/// swift-snapshot-testing hands a strategy's attachments to XCTest or Swift Testing only on
/// Apple platforms when Xcode runs the tests; there it gets them from the strategy. Everywhere
/// else (Linux, `swift test` on macOS) a Swift Testing test receives them from here, and
/// `swift test --attachments-path DIR` saves them.
package enum TestAttachments {
    package static func record(_ artifacts: [ImageSnapshotArtifact]) {
        #if canImport(Testing) && compiler(>=6.2)
        guard Test.current != nil, !swiftSnapshotTestingAttaches else { return }
        for artifact in artifacts {
            Attachment.record(artifact.bytes, named: URL(fileURLWithPath: artifact.path).lastPathComponent)
        }
        #endif
    }

    /// Fails the running test with `message`: a Swift Testing issue inside a `@Test`, an
    /// XCTest failure otherwise.
    package static func recordIssue(_ message: String) {
        #if canImport(Testing) && compiler(>=6.2)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message))
            return
        }
        #endif
        XCTFail(message)
    }

    /// swift-snapshot-testing's own condition for attaching.
    static var swiftSnapshotTestingAttaches: Bool {
        #if os(Linux) || os(Android) || os(Windows)
        return false
        #else
        return ProcessInfo.processInfo.environment.keys.contains("__XCODE_BUILT_PRODUCTS_DIR_PATHS")
        #endif
    }
}
