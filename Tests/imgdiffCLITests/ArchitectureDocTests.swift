import Foundation
import TestSupport
import XCTest

/// Docs/architecture.md's module table names every target that Package.swift builds, with the
/// dependencies Package.swift gives it: the page cannot fall behind the manifest unnoticed.
final class ArchitectureDocTests: XCTestCase {
    func testModuleTableMatchesThePackageManifest() throws {
        let manifest = try PackageManifest.targets(in: text(of: "Package.swift"))
        XCTAssertTrue(manifest.keys.contains("ImageDiff"), "the manifest reader found no ImageDiff target: \(manifest.keys.sorted())")
        XCTAssertEqual(manifest["ImageDiff"], ["swift-numerics"])
        let table = try moduleTable(in: text(of: "Docs/architecture.md"))
        XCTAssertEqual(
            Set(table.keys), Set(manifest.keys),
            "rows without a target: \(Set(table.keys).subtracting(manifest.keys).sorted()); targets without a row: \(Set(manifest.keys).subtracting(table.keys).sorted())")
        for (target, dependencies) in manifest {
            guard let documented = table[target] else { continue }
            XCTAssertEqual(documented, dependencies, "Docs/architecture.md's row for \(target)")
        }
    }

    func testManifestReaderTakesProductsAsTheirPackageAndSkipsTestTargets() throws {
        let targets = try PackageManifest.targets(in: """
            targets: [
                .target(name: "A", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
                .systemLibrary(name: "CLib", pkgConfig: "lib", providers: [.apt(["lib-dev"])]),
                .executableTarget(
                    name: "tool",
                    dependencies: ["A", "CLib", .product(name: "ArgumentParser", package: "swift-argument-parser")]
                ),
                .target(name: "TestSupport", path: "Tests/TestSupport"),
                .testTarget(name: "ATests", dependencies: ["A"]),
            ]
            """)
        XCTAssertEqual(targets, ["A": ["swift-numerics"], "CLib": [], "tool": ["A", "CLib", "swift-argument-parser"]])
    }

    private func text(of path: String) throws -> String {
        try String(contentsOf: SharedData.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The rows of the table headed `| target | depends on | holds |`: each target's
    /// dependencies, with `none` as no dependency.
    private func moduleTable(in page: String) throws -> [String: Set<String>] {
        let lines = page.components(separatedBy: "\n")
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("| target | depends on |") }, "no module table")
        var table: [String: Set<String>] = [:]
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let target = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let dependencies = cells[2] == "none" ? [] : cells[2].components(separatedBy: ", ").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            XCTAssertNil(table[target], "two rows for \(target)")
            table[target] = Set(dependencies)
        }
        return table
    }
}

/// The targets of a Package.swift read as text: enough of the manifest's syntax for its own
/// `.target`, `.executableTarget` and `.systemLibrary` entries.
private enum PackageManifest {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// Every target that is not a test target or a test helper (a path under `Tests/`), with the
    /// targets and packages it depends on (a product stands for its package).
    static func targets(in manifest: String) throws -> [String: Set<String>] {
        var targets: [String: Set<String>] = [:]
        for kind in [".target(", ".executableTarget(", ".systemLibrary("] {
            var searchStart = manifest.startIndex
            while let opening = manifest.range(of: kind, range: searchStart..<manifest.endIndex) {
                let call = try balanced(manifest, from: opening.upperBound)
                searchStart = call.upperBound
                let arguments = String(manifest[call])
                guard !arguments.contains("path: \"Tests/") else { continue }
                let name = try firstQuoted(after: "name:", in: arguments)
                targets[name] = try dependencies(in: arguments)
            }
        }
        return targets
    }

    private static func dependencies(in arguments: String) throws -> Set<String> {
        guard let label = arguments.range(of: "dependencies: [") else { return [] }
        var list = String(arguments[try balanced(arguments, from: label.upperBound, closing: "]")])
        var found: Set<String> = []
        while let product = list.range(of: ".product(") {
            let call = try balanced(list, from: product.upperBound)
            found.insert(try firstQuoted(after: "package:", in: String(list[call])))
            list.removeSubrange(product.lowerBound..<list.index(after: call.upperBound))
        }
        for piece in list.components(separatedBy: "\"").enumerated() where piece.offset % 2 == 1 {
            found.insert(piece.element)
        }
        return found
    }

    /// The text from `start` up to the bracket that closes the one just before it.
    private static func balanced(_ text: String, from start: String.Index, closing: Character = ")") throws -> Range<String.Index> {
        var depth = 0
        var index = start
        var inString = false
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == "(" || character == "[" { depth += 1 }
                if character == ")" || character == "]" {
                    if depth == 0 {
                        guard character == closing else { break }
                        return start..<index
                    }
                    depth -= 1
                }
            }
            index = text.index(after: index)
        }
        throw Unreadable(description: "no closing \(closing) after offset \(text.distance(from: text.startIndex, to: start))")
    }

    private static func firstQuoted(after label: String, in text: String) throws -> String {
        guard let labelRange = text.range(of: label) else { throw Unreadable(description: "no \(label) in \(text)") }
        let parts = text[labelRange.upperBound...].components(separatedBy: "\"")
        guard parts.count >= 3 else { throw Unreadable(description: "no string after \(label) in \(text)") }
        return parts[1]
    }
}
