import Foundation
import ImageCodecs
import ImageDiff
import SnapshotTesting

/// What every snapshot test here shares: where failures leave artifacts, and the record mode.
enum SnapshotTestEnvironment {
    /// A fresh `$SNAPSHOT_ARTIFACTS` for this test process, so that failures the tests provoke
    /// on purpose land in a folder the tests can inspect.
    static let artifactsRoot: String = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("imgdiff-snapshot-artifacts-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        setenv("SNAPSHOT_ARTIFACTS", root, 1)
        return root
    }()

    /// `.never` unless `SNAPSHOT_TESTING_RECORD` says otherwise: a missing reference fails CI
    /// instead of being recorded silently. Re-record with `SNAPSHOT_TESTING_RECORD=all`.
    static var record: SnapshotTestingConfiguration.Record {
        ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"]
            .flatMap(SnapshotTestingConfiguration.Record.init(rawValue:)) ?? .never
    }

    /// A diff tool line that is short and stable, so that whole messages can be compared.
    static let diffTool = SnapshotTestingConfiguration.DiffTool { reference, failure in
        "imgdiff compare \(reference) \(failure)"
    }

    /// The `__Snapshots__` folder of a test file.
    static func snapshotDirectory(file: StaticString = #filePath) -> String {
        let url = URL(fileURLWithPath: "\(file)")
        return url.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
            .appendingPathComponent(url.deletingPathExtension().lastPathComponent).path
    }

    /// The folder swift-snapshot-testing writes a test file's failure artifacts into.
    static func artifactsDirectory(file: StaticString = #filePath) -> String {
        let name = URL(fileURLWithPath: "\(file)").deletingPathExtension().lastPathComponent
        return URL(fileURLWithPath: artifactsRoot).appendingPathComponent(name).path
    }

    /// A new empty folder for references the test records itself.
    static func scratchDirectory(_ name: String) -> String {
        let path = URL(fileURLWithPath: artifactsRoot).appendingPathComponent("scratch-\(name)").path
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
