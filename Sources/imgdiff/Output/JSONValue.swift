#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SnapshotFiles

/// Any JSON value, decoded and encoded again unchanged: the form in which a report keeps what
/// it only passes on (a pair's metrics), so that a report read back and written out again
/// (`merge-reports`) has the same bytes.
enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// `value` as JSON, through the same encoder and decoder a report uses.
    init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(try JSONOutput.encode(value, pretty: false)))
    }
}

/// What is wrong with JSON that does not decode, as error lines tell it.
enum JSONProblem {
    /// What is wrong with JSON that does not decode, in a few words: not Swift's description,
    /// which runs over several lines of coding paths.
    static func described(_ error: any Error) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "no \(field(context.codingPath + [key]))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\(field(context.codingPath)) is of the wrong type"
        case .dataCorrupted(let context)? where !context.codingPath.isEmpty:
            return "\(field(context.codingPath)) is not valid: \(context.debugDescription)"
        default:
            return "not valid JSON"
        }
    }
}
