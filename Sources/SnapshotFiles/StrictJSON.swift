/// JSON read by the letter of RFC 8259, for the files people edit by hand: Foundation's decoder
/// takes a trailing comma, and keeps one value of a key written twice, where another reader
/// (jq, Python) keeps the other. A file two tools read apart is refused instead.
enum StrictJSON {
    /// Why a text is not strict JSON: the problem, and the byte offset where it was seen.
    struct Problem: Error, Equatable, CustomStringConvertible {
        var message: String
        var offset: Int

        var description: String { "\(message) (at byte \(offset))" }
    }

    /// The members of the object `bytes` holds, in their order: each key decoded, beside its
    /// value's text as written. A UTF-8 byte-order mark before the object is passed over.
    ///
    /// - Throws: ``Problem`` when `bytes` is not one JSON object, or when an object anywhere in
    ///   it names a key twice.
    static func objectMembers(_ bytes: [UInt8]) throws(Problem) -> [(key: String, value: ArraySlice<UInt8>)] {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        reader.skipWhitespace()
        guard reader.peek == UInt8(ascii: "{") else { throw reader.problem("not a JSON object") }
        let members = try reader.object()
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.problem("invalid JSON: text after the object") }
        return members
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        /// Objects nested deeper than this are refused rather than read by recursion.
        static let maxDepth = 64
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        func problem(_ message: String) -> Problem { Problem(message: message, offset: offset) }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Problem) {
            guard peek == byte else { throw problem("invalid JSON: expected '\(Character(Unicode.Scalar(byte)))'") }
            offset += 1
        }

        /// An object, the reader at its `{`; its keys in order, each with its value's text.
        mutating func object() throws(Problem) -> [(key: String, value: ArraySlice<UInt8>)] {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw problem("invalid JSON: nested too deeply") }
            try expect(UInt8(ascii: "{"))
            var members: [(key: String, value: ArraySlice<UInt8>)] = []
            // Keys compared scalar by scalar: JSON tells "é" and "e\u{301}" apart.
            var seen: Set<[Unicode.Scalar]> = []
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                offset += 1
                return members
            }
            while true {
                skipWhitespace()
                let keyOffset = offset
                let key = try string()
                guard seen.insert(Array(key.unicodeScalars)).inserted else {
                    throw Problem(message: "the key \"\(key)\" appears twice", offset: keyOffset)
                }
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let valueStart = offset
                try value()
                members.append((key, bytes[valueStart..<offset]))
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    offset += 1
                    return members
                }
                guard peek == UInt8(ascii: ",") else { throw problem("invalid JSON: expected ',' or '}'") }
                offset += 1
            }
        }

        mutating func array() throws(Problem) {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw problem("invalid JSON: nested too deeply") }
            try expect(UInt8(ascii: "["))
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                offset += 1
                return
            }
            while true {
                try value()
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    offset += 1
                    return
                }
                guard peek == UInt8(ascii: ",") else { throw problem("invalid JSON: expected ',' or ']'") }
                offset += 1
            }
        }

        mutating func value() throws(Problem) {
            skipWhitespace()
            switch peek {
            case UInt8(ascii: "{")?: _ = try object()
            case UInt8(ascii: "[")?: try array()
            case UInt8(ascii: "\"")?: _ = try string()
            case UInt8(ascii: "t")?: try literal("true")
            case UInt8(ascii: "f")?: try literal("false")
            case UInt8(ascii: "n")?: try literal("null")
            case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): try number()
            default: throw problem("invalid JSON: expected a value")
            }
        }

        mutating func literal(_ word: String) throws(Problem) {
            let expected = Array(word.utf8)
            guard bytes[offset...].starts(with: expected) else { throw problem("invalid JSON: expected a value") }
            offset += expected.count
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() throws(Problem) {
            if peek == UInt8(ascii: "-") { offset += 1 }
            if peek == UInt8(ascii: "0") {
                offset += 1
            } else {
                try digits()
            }
            if peek == UInt8(ascii: ".") {
                offset += 1
                try digits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                offset += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
                try digits()
            }
        }

        mutating func digits() throws(Problem) {
            let start = offset
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
            guard offset > start else { throw problem("invalid JSON: expected a digit") }
        }

        /// A string, the reader at its opening quote; its text with the escapes decoded.
        mutating func string() throws(Problem) -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() throws(Problem) {
                guard !raw.isEmpty else { return }
                guard let text = String(validating: raw, as: UTF8.self) else { throw problem("invalid JSON: not UTF-8 text") }
                scalars.append(contentsOf: text.unicodeScalars)
                raw.removeAll()
            }
            while true {
                guard let byte = peek else { throw problem("invalid JSON: unterminated string") }
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    scalars.append(try escape())
                case 0..<0x20:
                    throw problem("invalid JSON: a control character in a string")
                default:
                    raw.append(byte)
                }
            }
        }

        mutating func escape() throws(Problem) -> Unicode.Scalar {
            guard let byte = peek else { throw problem("invalid JSON: unterminated string") }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let unit = try hexUnit()
                if UTF16.isLeadSurrogate(unit) {
                    guard bytes[offset...].starts(with: Array("\\u".utf8)) else { throw problem("invalid JSON: a lone surrogate") }
                    offset += 2
                    let trail = try hexUnit()
                    guard UTF16.isTrailSurrogate(trail),
                        let scalar = Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00))
                    else { throw problem("invalid JSON: a lone surrogate") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(unit) else { throw problem("invalid JSON: a lone surrogate") }
                return scalar
            default:
                throw problem("invalid JSON: an unknown escape")
            }
        }

        mutating func hexUnit() throws(Problem) -> UInt16 {
            guard offset + 4 <= bytes.count,
                let unit = UInt16(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16),
                bytes[offset..<offset + 4].allSatisfy({ UInt8(ascii: "+") != $0 && UInt8(ascii: "-") != $0 })
            else { throw problem("invalid JSON: an invalid \\u escape") }
            offset += 4
            return unit
        }
    }
}
