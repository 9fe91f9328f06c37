import ImageDiff
import SnapshotFiles
import XCTest

/// A settings file is read by the letter of JSON: what another reader (jq, Python) would read
/// otherwise is refused, never taken one way silently.
final class SettingsParsingTests: XCTestCase {
    private func parse(_ text: String) -> Result<ComparisonSettings, SettingsError> {
        Result { () throws(SettingsError) in try ComparisonSettings(bytes: Array(text.utf8)) }
    }

    private func assertRefused(_ text: String, _ problem: String, file: StaticString = #filePath, line: UInt = #line) {
        switch parse(text) {
        case .success(let settings): XCTFail("\(text) was read as \(settings)", file: file, line: line)
        case .failure(let error): XCTAssertTrue(error.problem.contains(problem), "\(text): \(error.problem)", file: file, line: line)
        }
    }

    func testStrictJSONIsRead() throws {
        let settings = try parse(
            #"{ "metr\u0069c" : "channel", "threshold": 3.5e0, "explanation": ["caf\u00e9 \ud83d\ude00", "a\/b", "", "\"\\\b\f\n\r\t"], "maxDiffPixels": 0 }"#
        ).get()
        XCTAssertEqual(settings.metric, "channel")
        XCTAssertEqual(settings.threshold, 3.5)
        XCTAssertEqual(settings.explanation, ["café 😀", "a/b", "", "\"\\\u{08}\u{0C}\n\r\t"])
        XCTAssertEqual(try parse("\u{FEFF}{\"metric\":\"yiq\"}\n").get().metric, "yiq", "a byte-order mark is passed over")
        XCTAssertEqual(try parse("{\"metric\":\"exact\",\"maxDiffPixels\":-0}").get().maxDiffPixels, 0)
    }

    func testKeysWrittenTwiceAreRefused() {
        assertRefused(#"{"metric":"exact","metric":"channel","threshold":255}"#, #"the key "metric" appears twice (at byte 18)"#)
        assertRefused(#"{"metric":"yiq","threshold":0.05,"threshold":0.9}"#, #"the key "threshold" appears twice"#)
        assertRefused(#"{"metric":"yiq","metr\u0069c":"exact"}"#, #"the key "metric" appears twice"#)
        assertRefused(#"{"metric":"yiq","caf\u00e9":1,"cafe\u0301":2}"#, #"unknown key "#)
    }

    func testWhatJSONDoesNotAllowIsRefused() {
        for (text, problem) in [
            (#"{"metric":"exact",}"#, "invalid JSON: expected '\"' (at byte 18)"),
            (#"{"metric":"yiq","explanation":["a",]}"#, "invalid JSON: expected a value"),
            (#"{"metric":"yiq"} {}"#, "invalid JSON: text after the object"),
            (#"{"metric":"yiq","threshold":01}"#, "invalid JSON: expected ',' or '}' (at byte 29)"),
            (#"{"metric":"yiq","threshold":.1}"#, "invalid JSON: expected a value"),
            (#"{"metric":"yiq","threshold":1.}"#, "invalid JSON: expected a digit"),
            (#"{"metric":"yiq","threshold":NaN}"#, "invalid JSON: expected a value"),
            (#"{"metric":'yiq'}"#, "invalid JSON: expected a value"),
            (#"{"metric":"yiq" // a comment"#, "invalid JSON: expected ',' or '}'"),
            ("{\"metric\":\"a\tb\"}", "invalid JSON: a control character in a string"),
            (#"{"metric":"\ud83d"}"#, "invalid JSON: a lone surrogate"),
            (#"{"metric":"\x41"}"#, "invalid JSON: an unknown escape"),
            (#"{"metric":"\u00g1"}"#, #"invalid JSON: an invalid \u escape"#),
            (#"{"metric":"yiq""#, "invalid JSON: expected ',' or '}'"),
            (#"{"metric":"yiq"#, "invalid JSON: unterminated string"),
            (#"{"metric":"yiq","explanation":"# + String(repeating: "[", count: 100), "invalid JSON: nested too deeply"),
            ("[1, 2]", "not a JSON object"),
            ("", "not a JSON object"),
        ] {
            assertRefused(text, problem)
        }
        XCTAssertThrowsError(try ComparisonSettings(bytes: Array(#"{"metric":""#.utf8) + [0xFF] + Array(#""}"#.utf8))) { error in
            XCTAssertTrue((error as? SettingsError)?.problem.contains("invalid JSON: not UTF-8 text") == true, "\(error)")
        }
    }

    /// Values Foundation cannot hold in the key's type are named with their key.
    func testValuesOutOfTheirTypeNameTheKey() {
        assertRefused(#"{"metric":"yiq","maxDiffPixels":1.5}"#, "maxDiffPixels: 1.5 is not a value it takes")
        assertRefused(#"{"metric":"yiq","maxDiffPixels":1e30}"#, "maxDiffPixels: 1e30 is not a value it takes")
        assertRefused(#"{"metric":"yiq","precision":1e-50}"#, "precision: 1e-50 is not a value it takes")
        assertRefused(#"{"metric":"cie94","threshold":1e400}"#, "threshold: 1e400 is not a value it takes")
        assertRefused(#"{"metric":"exact","threshold":2}"#, "exact takes no threshold")
    }

    /// A decoder reads null as a key left out: a null would set the default silently.
    func testNullIsRefused() {
        assertRefused(#"{"metric":"cie94","threshold": null }"#, "threshold: null is not a value it takes; leave the key out")
        assertRefused(#"{"metric":"structural","minimumClusterPixels":null}"#, "minimumClusterPixels: null is not a value it takes")
        assertRefused(#"{"metric":null}"#, "metric: null is not a value it takes")
    }

    /// For `ae` the threshold is ImageMagick's fuzz, which the CLI takes as `--fuzz`.
    func testAnAEThresholdIsGivenToTheCLIAsFuzz() throws {
        let settings = try parse(#"{"metric":"ae","threshold":3277}"#).get()
        XCTAssertEqual(settings.cliArguments, ["--metric", "ae", "--fuzz", "3277"])
        XCTAssertEqual(try settings.comparisonMetric(), .imageMagickAE(fuzz: 3277))
    }
}
