import Foundation
import TestSupport
import XCTest

/// Every value option of every command, given hostile values: each run ends with status 0, 1 or
/// 2 and, on 2, one line on stderr; none dies by a signal.
final class ArgumentFuzzTests: ReliabilityTestCase {
    static let values = [
        "", "-1", "1e19", "-1e19", "nan", "inf", "99999999999999999999999", "abc", "1e308%", "9223372036854775807", "-",
        "\u{301}",
    ]

    /// Under scripts/sanitize (IMGDIFF_SANITIZER set), where each sanitized process takes
    /// several times as long, every option meets one value of each kind instead of all twelve:
    /// empty, negative, not a number, too large for any integer, a lone combining mark. The plain
    /// suite gives it all of them.
    static var valuesToTry: [String] {
        ProcessInfo.processInfo.environment["IMGDIFF_SANITIZER"] == nil ? values : ["", "-1", "nan", "99999999999999999999999", "\u{301}"]
    }

    /// The `--name <value>` options `imgdiff COMMAND --help` lists.
    func valueOptions(_ command: String) throws -> [String] {
        let help = try imgdiff(command, "--help").stdout
        let regex = try NSRegularExpression(pattern: #"^\s+(?:-[a-z], )?(--[a-z-]+) <"#, options: [.anchorsMatchLines])
        return regex.matches(in: help, range: NSRange(help.startIndex..., in: help)).compactMap {
            Range($0.range(at: 1), in: help).map { String(help[$0]) }
        }
    }

    func testNoOptionValueCrashes() throws {
        try makeSuite()
        try place("noise/ref/a.png", same)
        try place("noise/new/a.png", same)
        let commands: [(name: String, arguments: [String], outputs: Set<String>)] = [
            ("compare", [same.path, changed.path], ["--output", "--diff", "--mask", "--ignore-mask"]),
            ("batch", [path("ref"), path("new"), "--out", path("out")], ["--out", "--ignore-mask"]),
            ("tune", [path("noise")], ["--must-fail", "--write-config"]),
        ]
        var runs = 0
        for command in commands {
            let options = try valueOptions(command.name)
            XCTAssertGreaterThan(options.count, 5, command.name)
            for option in options where !command.outputs.contains(option) {
                for value in Self.valuesToTry {
                    // In the suite's own folder: a value an option takes as a path (--review) is
                    // written there, not into the package.
                    let run = try runProcess(
                        IMGDiffExecutable.url, [command.name] + command.arguments + [option, value], currentDirectory: work)
                    runs += 1
                    let context = "\(command.name) \(option) '\(value)': \(run.stderr)"
                    XCTAssertTrue([0, 1, 2].contains(run.status), context)
                    if run.status == 2 {
                        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, context)
                        // By bytes: a value starting with a combining mark joins the prefix's last space.
                        XCTAssertTrue(run.stderr.utf8.starts(with: "imgdiff: error: ".utf8), context)
                    }
                }
            }
        }
        XCTAssertGreaterThan(runs, 200 * Self.valuesToTry.count / Self.values.count)
    }
}
