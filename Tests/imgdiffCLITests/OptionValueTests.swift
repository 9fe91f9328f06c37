import TestSupport
import XCTest

/// Any option value, however large, small or odd, ends in a verdict or one error line with
/// exit 2: never a crash.
final class OptionValueTests: XCTestCase {
    func fixture(_ path: String) -> String { SharedData.packageRoot.appendingPathComponent("Fixtures/" + path).path }
    var reference: String { fixture("login/ref.png") }
    var actual: String { fixture("login/fail.png") }

    func testHugeThresholdsAndFuzzJudgeInsteadOfCrashing() throws {
        let diff = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-options-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: diff) }
        for arguments in [
            ["--metric", "channel", "--threshold", "1e19"], ["--metric", "cie94", "--threshold", "1e19"],
            ["--metric", "ciede2000", "--threshold", "1e300"], ["--metric", "structural", "--threshold", "1e300"],
            ["--metric", "ae", "--fuzz", "1e9%"], ["--metric", "ae", "--fuzz", "1e300"], ["--metric", "ae", "--diff", diff, "--fuzz", "1e9%"],
        ] {
            let run = try imgdiff([reference, actual] + arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): nothing differs past every scale's end; \(run.stderr)")
        }
    }

    /// Metric names in any case, as `compare -metric` and its `-list metric` spell them.
    func testMetricNamesAreTakenInAnyCase() throws {
        for name in ["MAE", "Fuzz", "PSNR", "Structural", "SSIM-CIE94"] {
            let upper = try imgdiff([reference, actual, "--metric", name, "--json"])
            let lower = try imgdiff([reference, actual, "--metric", name.lowercased(), "--json"])
            XCTAssertEqual(upper.status, 1, "\(name): \(upper.stderr)")
            XCTAssertEqual(upper.stdout, lower.stdout, name)
        }
    }

    func testNegativeAndNonNumericValuesAreNamed() throws {
        for (arguments, message) in [
            (["--threshold", "-1"], "--threshold must be a number >= 0"),
            (["--threshold", "nan"], "--threshold must be a number >= 0"),
            (["--fuzz", "-5%"], "--fuzz"),
            (["--threshold", "1.5"], "--threshold for yiq is between 0 and 1"),
            // ImageMagick's counts and figures take every pixel, and the figures no allowance.
            (["--metric", "ae", "--ignore", "0:0-5:5"], "ae counts pixels as ImageMagick's compare does, over the whole image: --ignore and --ignore-mask do not apply to it"),
            (["--metric", "mse", "--antialiasing"], "mse counts pixels as ImageMagick's compare does, which finds no anti-aliasing"),
            (["--metric", "psnr", "--max-diff-ratio", "1"], "psnr judges a pair by its figure against the threshold, not by a count of pixels"),
            // The structural mode and ssim-cie94 tell anti-aliasing apart themselves: the option changed nothing.
            (["--metric", "structural", "--antialiasing", "--count-antialiased"], "structural tells anti-aliasing from change itself"),
            (["--metric", "ssim-cie94", "--antialiasing"], "ssim-cie94 tells anti-aliasing from change by its own structure test"),
            // Without `ae` or --diff, a fuzz would change nothing.
            (["--fuzz", "5%"], "--fuzz is the tolerance of --metric ae and of --diff's image; judged by yiq with no --diff"),
            (["--metric", "cie94", "--fuzz", "5%", "--json"], "judged by cie94 with no --diff, it would change nothing"),
            (["batch", fixture("batch/ref"), fixture("batch/new"), "--fuzz", "50%", "--out", FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-options-\(UUID().uuidString)").path],
             "judged by yiq with no --diff"),
            (["--metric", "yiq", "--threshold", "1e19"], "between 0 and 1"),
            // A value after a space, not only after `=`: "-1" is the value, not an option.
            (["--precision", "-1"], "--precision must be between 0 and 1"),
            (["--perceptual-precision", "-1"], "--perceptual-precision must be between 0 and 1"),
            (["--max-diff-ratio", "-1"], "--max-diff-ratio must be between 0 and 1"),
            (["--max-diff-pixels", "-5"], "--max-diff-pixels must be >= 0"),
            (["--metric", "structural", "--shift-radius", "-1"], "--shift-radius must be between 0 and"),
            (["--metric", "structural", "--min-cluster", "-1"], "--min-cluster must be at least 1"),
            (["--max-width", "-5"], "The value '-5' is invalid for '--max-width"),
            (["-o", ""], "an output path is empty"),
            (["-o", "-"], "-: imgdiff writes its images to files, not to standard output"),
            (["--mask", "mask.svg"], "mask.svg: imgdiff writes PNG images, not .svg; name the output .png"),
            (["--review", "review.ppm"], "imgdiff writes PNG images, not .ppm"),
            (["--config", ""], "--config is empty; name the settings file"),
            (["--metric", "exact", "--threshold", "3"], "--metric exact takes no --threshold"),
            (["--metric", "ae", "--threshold", "3277"], "--metric ae takes its tolerance as --fuzz"),
            (["batch", fixture("batch/ref"), fixture("batch/new"), "--shard", "-1/2"], "The value '-1/2' is invalid for '--shard"),
            (["batch", fixture("batch/ref"), fixture("batch/new"), "--jobs", "-1"], "--jobs must be at least 1"),
            (["batch", fixture("batch/ref"), fixture("batch/new"), "--out", ""], "--out is empty"),
            (["tune", fixture("tune/noise"), "--canary-pairs", "-1"], "--canary-pairs must be >= 0"),
            (["tune", fixture("tune/noise"), "--write-config", ""], "--write-config is empty"),
        ] {
            let run = try imgdiff((arguments.first.map { ["batch", "tune"].contains($0) } == true ? [] : [reference, actual]) + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
        }
    }

    func testTuneRefusesASafetyMarginPastEveryScale() throws {
        for margin in ["1e18", "1001%", "-1"] {
            let run = try imgdiff("tune", fixture("batch/ref"), "--safety-margin=\(margin)")
            XCTAssertEqual(run.status, 2, margin)
            XCTAssertTrue(run.stderr.contains("--safety-margin"), "\(margin): \(run.stderr)")
        }
    }
}
