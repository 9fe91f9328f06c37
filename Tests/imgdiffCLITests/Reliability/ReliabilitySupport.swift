import Foundation
import TestSupport
import XCTest

/// A scratch folder of snapshot folders for the reliability tests, with names built byte by
/// byte where a Swift string cannot hold them.
class ReliabilityTestCase: XCTestCase {
    var work: URL!
    let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
    var same: URL { login.appendingPathComponent("ref.png") }
    var changed: URL { login.appendingPathComponent("fail.png") }

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-reliability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let work { _ = try? runProcess(URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+rwx", work.path]) }
        try? FileManager.default.removeItem(at: work)
    }

    func path(_ relative: String) -> String { work.appendingPathComponent(relative).path }

    /// Copies `source` to `relative` under the scratch folder, creating folders.
    @discardableResult
    func place(_ relative: String, _ source: URL) throws -> String {
        let destination = work.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: destination)
        return destination.path
    }

    /// A reference folder and a new folder holding one changed pair and one identical pair.
    func makeSuite(_ reference: String = "ref", _ new: String = "new") throws {
        try place("\(reference)/changed.png", same)
        try place("\(new)/changed.png", changed)
        try place("\(reference)/same.png", same)
        try place("\(new)/same.png", same)
    }

    /// Writes `contents` at `folder/NAME` where NAME is raw bytes (not necessarily UTF-8).
    func placeRaw(name: [UInt8], in folder: String, _ source: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: source))
        let fullPath = Array(folder.utf8) + [UInt8(ascii: "/")] + name
        let descriptor = (fullPath.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        XCTAssertEqual(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, bytes.count)
    }

    /// Runs imgdiff through `sh`, for arguments that are not UTF-8: `script` sees imgdiff as
    /// "$0", e.g. `exec "$0" "$(printf 'a\377.png')" b.png`.
    func imgdiffShell(_ script: String) throws -> CLIRun {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, IMGDiffExecutable.url.path], currentDirectory: work)
    }

    /// Runs imgdiff as `nobody` when root (root reads every folder); plainly otherwise.
    func imgdiffUnprivileged(_ arguments: [String]) throws -> CLIRun {
        guard getuid() == 0 else { return try imgdiff(arguments) }
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: setpriv.path), "needs setpriv to drop root")
        return try runProcess(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", IMGDiffExecutable.url.path] + arguments)
    }

    func report(_ out: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("report.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func paths(_ report: [String: Any], _ list: String) -> [String] { report[list] as? [String] ?? [] }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The names in `folder`, hidden ones included.
    func entries(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    }

    /// A process ID no process has: a child that has exited and been reaped.
    func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
