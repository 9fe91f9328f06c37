import Foundation
import XCTest

/// The reference material the repository does not hold: ImageMagick's own output files, the
/// colour-science tables and the image corpus, in imgdiff's `shared/` folder.
///
/// It is looked for in `$IMGDIFF_SHARED`, else in `shared` beside the package (`../shared`).
/// A test that needs it calls ``url(_:file:line:)`` (or ``requireAvailable(file:line:)``), which
/// skips the test with ``howToEnable`` when the folder is absent, and fails it when the folder is
/// there but the file is not, or when `$IMGDIFF_SHARED` names a folder that does not exist: a
/// run that has the material, or asked for it, must not pass by skipping. A Swift Testing test
/// uses `.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.howToEnable))`.
public enum SharedData {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The environment variable that overrides where the reference material is.
    public static let environmentVariable = "IMGDIFF_SHARED"

    /// Where the reference material is: `$IMGDIFF_SHARED`, else `../shared`.
    public static let root: URL = {
        if let configured = configuredPath { return URL(fileURLWithPath: configured, isDirectory: true) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
    }()

    /// The one line a test prints when it skips for want of the material.
    public static let howToEnable =
        "needs the reference material: put the imgdiff shared/ folder beside the package (../shared) or set \(environmentVariable)=/path/to/shared"

    /// Whether the reference material is there.
    public static var isAvailable: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static var configuredPath: String? {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
        return path
    }

    /// Skips the calling test unless the reference material is there (see ``SharedData``).
    public static func requireAvailable(file: StaticString = #filePath, line: UInt = #line) throws {
        guard !isAvailable else { return }
        if configuredPath != nil {
            XCTFail("\(environmentVariable)=\(root.path) is not a folder", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        throw XCTSkip(howToEnable, file: file, line: line)
    }

    /// The URL of a file or folder of the reference material. Skips the test when the material
    /// is absent; fails it (rather than passing silently) when this file is missing from it.
    public static func url(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try requireAvailable(file: file, line: line)
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing reference material \(url.path): the shared folder at \(root.path) is incomplete", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }

    /// Rows of a CSV file of the reference material (see ``csvRows(at:)``).
    public static func csv(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: String]] {
        try csvRows(at: url(relativePath, file: file, line: line))
    }
}

/// Rows of a CSV file with a header line and no quoted fields, each as column → value.
public func csvRows(at url: URL) throws -> [[String: String]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines = text.split(whereSeparator: \.isNewline).map(String.init)
    let header = lines.removeFirst().split(separator: ",").map(String.init)
    return lines.map { line in
        Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",").map(String.init)))
    }
}
