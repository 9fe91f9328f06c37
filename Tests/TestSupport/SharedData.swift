import Foundation
import XCTest

/// The reference material in ../shared, found from the package root.
public enum SharedData {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The URL of a file under ../shared; fails the test (rather than passing silently) when
    /// the reference material is missing.
    public static func url(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            XCTFail("missing reference material \(url.path): check out ../shared beside the package", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }

    /// Rows of a CSV file with a header, as dictionaries.
    public static func csv(_ relativePath: String) throws -> [[String: String]] {
        let text = try String(contentsOf: url(relativePath), encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return lines.map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",").map(String.init)))
        }
    }
}
