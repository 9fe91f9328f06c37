import Foundation
import XCTest

/// What one run of the `imgdiff` executable produced.
struct CLIRun {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Running the built `imgdiff` executable, shared by the CLI test cases.
extension XCTestCase {
    func imgdiff(_ arguments: String...) throws -> CLIRun { try imgdiff(arguments) }

    func imgdiff(_ arguments: [String]) throws -> CLIRun {
        try runProcess(IMGDiffExecutable.url, arguments)
    }

    /// Runs `executable`, reading stdout and stderr at once so neither pipe can fill up; after
    /// `timeout` seconds the process is terminated.
    func runProcess(
        _ executable: URL, _ arguments: [String], currentDirectory: URL? = nil, timeout: TimeInterval? = nil,
        environment: [String: String?] = [:]
    ) throws -> CLIRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let timeout {
            nonisolated(unsafe) let running = process
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if running.isRunning { running.terminate() }
            }
        }
        let stderrReader = PipeReader(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = stderrReader.wait()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a background thread.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

enum IMGDiffExecutable {
    /// The `imgdiff` built beside the test bundle.
    static let url: URL = {
        let directory = Bundle.main.bundleURL
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("imgdiff") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()
}
