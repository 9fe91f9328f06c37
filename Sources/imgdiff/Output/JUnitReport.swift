import ImageCodecs
import ImageDiff

/// `junit.xml`: one test case per pair, in the Ant/Jenkins JUnit format CI systems read.
///
/// Changed, new and deleted pairs are `<failure>`s (type `changed`, `new`, `deleted`); pairs
/// that could not be compared are `<error>`s. The class name is `imgdiff.` plus the pair's
/// folder, dots for slashes, so that CI groups snapshots by folder.
enum JUnitReport {
    static func render(_ report: BatchReport, suiteName: String = "imgdiff batch") -> String {
        let failures = report.summary.changed + report.summary.new + report.summary.deleted
        let totalSeconds = report.pairs.reduce(0) { $0 + $1.seconds }
        let counts = "tests=\"\(report.summary.pairs)\" failures=\"\(failures)\" errors=\"\(report.summary.errors)\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escape(suiteName))\" \(counts) time=\"\(seconds(totalSeconds))\">\n"
        xml += "  <testsuite name=\"\(escape(suiteName))\" \(counts) skipped=\"0\" time=\"\(seconds(totalSeconds))\">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"referenceDirectory\" value=\"\(escape(report.referenceDirectory))\"/>\n"
        xml += "      <property name=\"newDirectory\" value=\"\(escape(report.newDirectory))\"/>\n"
        xml += "    </properties>\n"
        for pair in report.pairs {
            let opening = "    <testcase classname=\"\(escape(className(pair.path)))\" name=\"\(escape(pair.path))\" time=\"\(seconds(pair.seconds))\""
            guard let (element, message, details) = outcome(pair) else {
                xml += opening + "/>\n"
                continue
            }
            xml += opening + ">\n"
            xml += "      <\(element) type=\"\(pair.status.rawValue)\" message=\"\(escape(message))\">\(escape(details, keepingNewlines: true))</\(element)>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// The failure or error element's name, message and text; `nil` for a passed pair.
    static func outcome(_ pair: PairRecord) -> (String, String, String)? {
        switch pair.status {
        case .passed:
            return nil
        case .changed:
            let summary = pair.metrics?.summary ?? "the images differ"
            var details = "reference: \(pair.referenceFile ?? "")\nnew: \(pair.newFile ?? "")\n\(summary)"
            if let message = pair.snapshot?.message { details += "\n" + message }
            if let blend = pair.outputs.blend { details += "\nblend: \(blend)" }
            return ("failure", summary, details)
        case .new:
            return ("failure", "new snapshot: no reference in the reference folder", "new: \(pair.newFile ?? "")")
        case .deleted:
            return ("failure", "deleted snapshot: the reference has no new image", "reference: \(pair.referenceFile ?? "")")
        case .error:
            let message = pair.error ?? "cannot compare"
            return ("error", message, message)
        }
    }

    static func className(_ path: String) -> String {
        let folders = PathText.components(of: path).dropLast()
        return (["imgdiff"] + folders.map { $0.replacing(".", with: "_") }).joined(separator: ".")
    }

    static func seconds(_ value: Double) -> String { PrintfFormat.fixed(value, decimals: 3) }

    /// Escapes text for attributes and content. Characters XML 1.0 cannot hold (control
    /// characters in a file name) are written as `\u{1B}`, and a backslash as `\\`, so that two
    /// names stay two: `x<ESC>.png` and a file named `x\u{1B}.png` alike.
    static func escape(_ text: String, keepingNewlines: Bool = false) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += keepingNewlines ? "\n" : "&#10;"
            case "\t", "\r": escaped += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                    continue
                }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
