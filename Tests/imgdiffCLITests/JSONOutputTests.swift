import Foundation
import ImageCodecs
import ImageDiff
import SnapshotFiles
import TestSupport
import XCTest

/// `JSONOutput` writes every document imgdiff prints or saves. It must write what Foundation's
/// `JSONEncoder` writes with the settings imgdiff used before it had an encoder of its own
/// (sorted keys, unescaped slashes when pretty, non-finite numbers as strings), byte for byte.
final class JSONOutputTests: XCTestCase {
    private func foundation(_ value: some Encodable, pretty: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return Array(try encoder.encode(value))
    }

    private func assertSameAsFoundation(_ value: some Encodable, file: StaticString = #filePath, line: UInt = #line) throws {
        for pretty in [true, false] {
            let ours = try JSONOutput.encode(value, pretty: pretty)
            let theirs = try foundation(value, pretty: pretty)
            XCTAssertEqual(
                String(decoding: ours, as: UTF8.self), String(decoding: theirs, as: UTF8.self),
                "pretty: \(pretty)", file: file, line: line)
        }
    }

    private struct Scalars: Encodable {
        var integers: [Int] = [0, -1, .max, .min]
        var sized = (Int8.min, Int16.max, Int32.min, Int64.max, UInt8.max, UInt16.max, UInt32.max, UInt64.max, UInt.max)
        var doubles: [Double] = [
            0, -0.0, 1, 100, 0.1, 0.30000000000000004, 1e-7, 5e-324, 1e16, 1.2345678901234568e17, -2.5, 62.17575139354881,
            .greatestFiniteMagnitude, .infinity, -.infinity, .nan,
        ]
        var floats: [Float] = [0.1, 1, 3.4e38, 1e-45, .infinity]
        var flags = [true, false]
        var strings = ["", "a/b", "quote\" backslash\\", "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}\u{7f}", "é ΔE94 😀", "../x/y.png"]

        enum CodingKeys: String, CodingKey { case integers, sized, doubles, floats, flags, strings }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(integers, forKey: .integers)
            var sized = container.nestedUnkeyedContainer(forKey: .sized)
            try sized.encode(self.sized.0)
            try sized.encode(self.sized.1)
            try sized.encode(self.sized.2)
            try sized.encode(self.sized.3)
            try sized.encode(self.sized.4)
            try sized.encode(self.sized.5)
            try sized.encode(self.sized.6)
            try sized.encode(self.sized.7)
            try sized.encode(self.sized.8)
            try container.encode(doubles, forKey: .doubles)
            try container.encode(floats, forKey: .floats)
            try container.encode(flags, forKey: .flags)
            try container.encode(strings, forKey: .strings)
        }
    }

    /// Containers of every kind, empty and nested, keys that sort by their bytes, a key
    /// encoded twice, nil written and nil left out, and a superclass's encoder.
    private struct Shapes: Encodable {
        struct Inner: Encodable {
            var a: Double?
            var b: Int?
            var c = "x"
        }

        enum CodingKeys: String, CodingKey {
            case empty, emptyList, nested, optional, explicitNil, keys, twice, parent, list, single
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode([String: Int](), forKey: .empty)
            try container.encode([[Int]](), forKey: .emptyList)
            try container.encode(["k": [[Int]()], "j": [[1, 2], []]], forKey: .nested)
            try container.encodeIfPresent(nil as Int?, forKey: .optional)
            try container.encodeNil(forKey: .explicitNil)
            try container.encode(["b": 1, "B": 2, "a1": 3, "a10": 4, "a2": 5, "_": 6, "é": 7, "z": 8, "": 9], forKey: .keys)
            try container.encode(1, forKey: .twice)
            try container.encode("second", forKey: .twice)
            var parent = container.superEncoder(forKey: .parent).container(keyedBy: CodingKeys.self)
            try parent.encode(Inner(a: 0.5, b: nil), forKey: .single)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Inner(a: nil, b: 3, c: ""))
            try list.encodeNil()
            var deeper = list.nestedContainer(keyedBy: CodingKeys.self)
            try deeper.encode([Inner](), forKey: .emptyList)
            var element = list.superEncoder().singleValueContainer()
            try element.encode(7)
            var single = container.superEncoder().singleValueContainer()
            try single.encode([1.5, 2])
        }
    }

    func testScalarsAreWrittenAsFoundationWritesThem() throws {
        try assertSameAsFoundation(Scalars())
    }

    func testContainersAreWrittenAsFoundationWritesThem() throws {
        try assertSameAsFoundation(Shapes())
    }

    func testTopLevelValuesAreWrittenAsFoundationWritesThem() throws {
        try assertSameAsFoundation("top/level")
        try assertSameAsFoundation(42)
        try assertSameAsFoundation([Int]())
        try assertSameAsFoundation([String: [Double]]())
        try assertSameAsFoundation(Optional<Int>.none)
        try assertSameAsFoundation(Double.infinity)
    }

    /// A structural result of a real pair: clusters, boxes, ΔE and the summary.
    func testAStructuralResultIsWrittenAsFoundationWritesIt() throws {
        let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/render-blind14/noise")
        let name = "joblog--hinting-full.png"
        let reference = try ImageDecoder.decode(contentsOf: fixtures.appendingPathComponent("ref").appendingPathComponent(name).path)
        let actual = try ImageDecoder.decode(contentsOf: fixtures.appendingPathComponent("new").appendingPathComponent(name).path)
        var options = ComparisonOptions()
        options.metric = .structural(StructuralRule())
        let result = ImageDiff.compare(reference, actual, options: options)
        XCTAssertFalse(result.clusters?.isEmpty ?? true, "the pair should leave clusters to list")
        try assertSameAsFoundation(result)
    }

    /// A settings file as `imgdiff tune --write-config` writes it, with its final newline.
    func testAFileEndsWithANewline() throws {
        let bytes = JSONOutput.fileBytes(["metric": "structural"])
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "{\n  \"metric\" : \"structural\"\n}\n")
    }
}
