/// The one JSON encoder of every document imgdiff writes: sorted keys (by their UTF-8 bytes),
/// slashes unescaped when pretty-printed, and infinities (a PSNR of identical images, its
/// default threshold) written as the strings `"inf"` and `"-inf"`, which JSON has no number for.
///
/// It writes what Foundation's `JSONEncoder` writes with `.sortedKeys` (and `.prettyPrinted`
/// and `.withoutEscapingSlashes` when pretty) and non-finite numbers converted to strings, byte
/// for byte (a test holds the two equal), with fewer allocations and no dynamic casts of each
/// value: a structural comparison of a 4K page lists a thousand clusters or more.
public enum JSONOutput {
    /// `value` as JSON: pretty-printed unless `pretty` is false.
    ///
    /// - Throws: only what `value`'s own `encode(to:)` throws; every document imgdiff writes
    ///   holds numbers, strings, arrays and objects only, and throws nothing.
    public static func encode(_ value: some Encodable, pretty: Bool = true) throws -> [UInt8] {
        let root = try JSONTree.node(of: value, codingPath: [])
        var writer = JSONTextWriter(pretty: pretty)
        writer.write(root)
        return writer.bytes
    }

    /// `value` as a file's bytes: pretty-printed JSON with a final newline.
    public static func fileBytes(_ value: some Encodable) -> [UInt8] {
        ((try? encode(value)) ?? []) + [0x0A]
    }
}

/// A JSON value as the encoder collects it: objects and arrays by reference, so that a nested
/// container keeps filling the value its parent holds.
enum JSONTree {
    case null
    case bool(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    case array(ArrayBox)
    case object(ObjectBox)

    final class ArrayBox {
        var items: [JSONTree] = []
    }

    /// Keys in the order encoded; a key encoded again replaces its value when written.
    final class ObjectBox {
        var entries: [(key: String, value: JSONTree)] = []

        init() {
            entries.reserveCapacity(16)
        }
    }

    /// `value` encoded, with a fast path for the scalars that make up most of a document.
    static func node<T: Encodable>(of value: T, codingPath: [any CodingKey]) throws -> JSONTree {
        if T.self == String.self, let value = value as? String { return .string(value) }
        if T.self == Int.self, let value = value as? Int { return .signed(Int64(value)) }
        if T.self == Double.self, let value = value as? Double { return .double(value) }
        let encoder = JSONTreeEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.root ?? .object(ObjectBox())
    }
}

/// An `Encoder` that builds a ``JSONTree``.
final class JSONTreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var root: JSONTree?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONTree.ObjectBox
        if case .object(let existing) = root {
            box = existing
        } else {
            box = JSONTree.ObjectBox()
            root = .object(box)
        }
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONTree.ArrayBox
        if case .array(let existing) = root {
            box = existing
        } else {
            box = JSONTree.ArrayBox()
            root = .array(box)
        }
        return JSONUnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(encoder: self)
    }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONTree.ObjectBox
    let codingPath: [any CodingKey]

    private func put(_ value: JSONTree, _ key: Key) { box.entries.append((key.stringValue, value)) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.signed(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.unsigned(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try JSONTree.node(of: value, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        put(.object(nested), key)
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        put(.array(nested), key)
        return JSONUnkeyedContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    /// An encoder whose value, once encoded, is `key`'s: the value is read when the document
    /// is written, so the encoder's root is kept by a placeholder object until then.
    private func superEncoder(named key: String) -> any Encoder {
        let encoder = JSONSuperEncoder(codingPath: codingPath)
        box.entries.append((key, .null))
        let (box, index) = (box, box.entries.count - 1)
        encoder.onRootChange = { root in box.entries[index].value = root }
        return encoder
    }
}

/// The scalars' overloads of the unkeyed and single-value containers, each value taken as a
/// ``JSONTree`` by `put`.
private protocol JSONScalarSink {
    mutating func put(_ value: JSONTree)
}

extension JSONScalarSink {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.double(value)) }
    mutating func encode(_ value: Float) throws { put(.float(value)) }
    mutating func encode(_ value: Int) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) throws { put(.signed(value)) }
    mutating func encode(_ value: UInt) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { put(.unsigned(value)) }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer, JSONScalarSink {
    let box: JSONTree.ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    func put(_ value: JSONTree) { box.items.append(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try JSONTree.node(of: value, codingPath: codingPath + [JSONIndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTree.ObjectBox()
        let path = codingPath + [JSONIndexKey(count)]
        put(.object(nested))
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONTree.ArrayBox()
        let path = codingPath + [JSONIndexKey(count)]
        put(.array(nested))
        return JSONUnkeyedContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = JSONSuperEncoder(codingPath: codingPath + [JSONIndexKey(count)])
        put(.null)
        let (box, index) = (box, box.items.count - 1)
        encoder.onRootChange = { root in box.items[index] = root }
        return encoder
    }
}

/// The encoder a container hands out for its parent class's value: it reports its root to the
/// container's slot whenever that root is set.
private final class JSONSuperEncoder: Encoder {
    let inner: JSONTreeEncoder
    var onRootChange: (JSONTree) -> Void = { _ in }
    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey]) {
        inner = JSONTreeEncoder(codingPath: codingPath)
    }

    private func report() {
        if let root = inner.root { onRootChange(root) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        defer { report() }
        return inner.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { report() }
        return inner.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(encoder: inner, onSet: { self.report() })
    }
}

private struct JSONSingleValueContainer: SingleValueEncodingContainer, JSONScalarSink {
    let encoder: JSONTreeEncoder
    var onSet: () -> Void = {}
    var codingPath: [any CodingKey] { encoder.codingPath }

    func put(_ value: JSONTree) {
        encoder.root = value
        onSet()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try JSONTree.node(of: value, codingPath: codingPath))
    }
}

private struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// Writes a ``JSONTree`` as text, in the layout of Foundation's pretty printer: two spaces an
/// indent, `"key" : value`, and an empty object or array written open over a blank line.
struct JSONTextWriter {
    let pretty: Bool
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    private var keyOrders = KeyOrders()
    private var spaces: [UInt8] = []

    init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(4096)
    }

    mutating func write(_ node: JSONTree) {
        switch node {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .signed(let value):
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            writeDigits(value.magnitude)
        case .unsigned(let value): writeDigits(value)
        case .double(let value): writeNumber(value.isFinite, value.description, nonFinite: value)
        case .float(let value): writeNumber(value.isFinite, value.description, nonFinite: Double(value))
        case .string(let value): writeString(value)
        case .array(let box): writeArray(box.items)
        case .object(let box): writeObject(box.entries)
        }
    }

    /// `value`'s decimal digits, as `description` spells them, without making a string.
    private mutating func writeDigits(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            repeat {
                count += 1
                buffer[buffer.count - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: buffer[(buffer.count - count)...])
        }
    }

    /// A finite number as Swift prints it, less a trailing `.0`; the others as strings.
    private mutating func writeNumber(_ isFinite: Bool, _ text: String, nonFinite value: Double) {
        guard isFinite else {
            writeString(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
            return
        }
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        if bytes.count - start > 2, bytes[bytes.count - 2] == UInt8(ascii: "."), bytes[bytes.count - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    private mutating func writeArray(_ items: [JSONTree]) {
        bytes.append(UInt8(ascii: "["))
        writeMembers(items.count) { writer, index in writer.write(items[index]) }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ entries: [(key: String, value: JSONTree)]) {
        let order = keyOrders.order(of: entries)
        bytes.append(UInt8(ascii: "{"))
        writeMembers(order.count) { writer, index in
            let entry = entries[order[index]]
            writer.writeString(entry.key)
            writer.append(writer.pretty ? " : " : ":")
            writer.write(entry.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `count` members separated by commas, each on its own line one indent deeper when pretty.
    private mutating func writeMembers(_ count: Int, _ member: (inout JSONTextWriter, Int) -> Void) {
        guard pretty else {
            for index in 0..<count {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                member(&self, index)
            }
            return
        }
        bytes.append(UInt8(ascii: "\n"))
        depth += 1
        for index in 0..<count {
            if index > 0 { append(",\n") }
            indent()
            member(&self, index)
        }
        depth -= 1
        bytes.append(UInt8(ascii: "\n"))
        indent()
    }

    private mutating func indent() {
        while spaces.count < 2 * depth { spaces += spaces.isEmpty ? [0x20, 0x20] : spaces }
        bytes.append(contentsOf: spaces[0..<(2 * depth)])
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// `text` quoted: quotes, backslashes and control characters escaped, and slashes too
    /// unless pretty; everything else as its UTF-8 bytes.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain != true {
            for byte in text.utf8 { writeEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (!pretty && byte == UInt8(ascii: "/"))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case UInt8(ascii: "/") where !pretty: append("\\/")
        case 0x08: append("\\b")
        case 0x09: append("\\t")
        case 0x0A: append("\\n")
        case 0x0C: append("\\f")
        case 0x0D: append("\\r")
        case 0..<0x20:
            let digits = Array("0123456789abcdef".utf8)
            append("\\u00")
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
    }
}

/// The order an object's entries are written in: sorted by key (by their UTF-8 bytes), and of a
/// key encoded twice only the later entry. Objects of one type repeat their keys (a thousand
/// clusters, each with its box), so the last few key lists and their orders are kept.
struct KeyOrders {
    private var recent: [(keys: [String], order: [Int])] = []
    private var next = 0
    private static let kept = 8

    mutating func order(of entries: [(key: String, value: JSONTree)]) -> [Int] {
        for known in recent where known.keys.count == entries.count
            && zip(known.keys, entries).allSatisfy({ $0 == $1.key }) {
            return known.order
        }
        let keys = entries.map(\.key)
        // Stable, so that of a key encoded twice the later entry follows the earlier.
        let sorted = keys.indices.sorted { first, second in
            let (a, b) = (keys[first], keys[second])
            return a == b ? first < second : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        let order = sorted.indices.filter { $0 + 1 == sorted.count || keys[sorted[$0 + 1]] != keys[sorted[$0]] }.map { sorted[$0] }
        if recent.count < Self.kept {
            recent.append((keys, order))
        } else {
            recent[next] = (keys, order)
            next = (next + 1) % Self.kept
        }
        return order
    }
}
