#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines for the terminal. File names can hold any byte but `/` and NUL, so every line that
/// may carry one goes through here: control characters (an escape sequence, a carriage return,
/// a newline) and bidirectional overrides are shown as escapes, never sent raw.
enum Console {
    /// Writes `text` and a newline to stdout.
    static func line(_ text: String) {
        InterruptCleanup.holdIfEnding()
        print(TerminalText.escaped(text))
    }

    /// Writes "imgdiff: error: MESSAGE" to stderr.
    static func error(_ message: String) {
        InterruptCleanup.holdIfEnding()
        StandardError.write("imgdiff: error: \(TerminalText.escaped(message))\n")
    }

    /// Writes "imgdiff: MESSAGE" to stderr: what the run does that the command line does not say.
    static func note(_ message: String) {
        InterruptCleanup.holdIfEnding()
        StandardError.write("imgdiff: \(TerminalText.escaped(message))\n")
    }

    /// Writes "imgdiff: warning: MESSAGE" to stderr.
    static func warning(_ message: String) {
        InterruptCleanup.holdIfEnding()
        StandardError.write("imgdiff: warning: \(TerminalText.escaped(message))\n")
    }
}

/// Text made safe to show on a terminal, one line per line.
enum TerminalText {
    /// `text` with C0 and C1 control characters, DEL and the bidirectional controls written as
    /// escapes: `\t`, `\n`, `\r`, `\e`, otherwise `\u{XX}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\u{1B}": result += "\\e"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// A name of raw bytes as text: valid UTF-8 as itself (escaped as above), every other byte
    /// as `\xFF`.
    static func escaped(bytes: [UInt8]) -> String {
        var result = ""
        var index = 0
        while index < bytes.count {
            let length = (1...min(4, bytes.count - index)).first {
                String(validating: bytes[index..<(index + $0)], as: UTF8.self) != nil
            }
            if let length {
                result += escaped(String(decoding: bytes[index..<(index + length)], as: UTF8.self))
                index += length
            } else {
                result += "\\x" + String(bytes[index], radix: 16, uppercase: true)
                index += 1
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

/// The process's stderr, written unbuffered: messages appear in order with the child
/// processes' and survive an exit right after.
enum StandardError {
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(2, start + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

extension StringProtocol {
    /// The text without white space at either end.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// The text without white space at its end.
    var trimmingTrailingSpaces: String {
        guard let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[...last])
    }

    /// The text cut or padded with spaces to `length` characters.
    func paddedOrCut(to length: Int) -> String {
        String(prefix(length)) + String(repeating: " ", count: Swift.max(0, length - count))
    }
}
