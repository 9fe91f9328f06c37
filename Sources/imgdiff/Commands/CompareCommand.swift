import ArgumentParser
import ImageCodecs
import ImageDiff
import ImagePipeline

/// `imgdiff compare REF FAIL`: one pair, one line (or JSON), optional output images.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a reference image with a new (failing) one.",
        discussion: """
            Examples:
              imgdiff ref.png fail.png -o blend.png          count, and the red-tinted overlay
              imgdiff ref.png fail.png --metric cie94 --threshold 2
              imgdiff ref.png fail.png --precision 0.99 --perceptual-precision 0.98
              imgdiff ref.png fail.png --metric ae --fuzz 5% --diff diff.png
              imgdiff ref.png fail.png --json | jq .differentPixels

            Metrics and their --threshold unit:
              exact       any channel differs (threshold unused)
              channel     the largest per-channel difference exceeds T levels (0-255)
              yiq         pixelmatch 7.2.0 YIQ distance, T in 0...1 (default 0.1)
              cie76, cie94, ciede2000
                          colour difference ΔE exceeds T (default 2.0)
              ae          ImageMagick `compare -metric AE`; use --fuzz, not --threshold
              structural  only what render noise cannot explain: ΔE94 over T (default
                          2.3), anti-aliasing, and blends of the colours within
                          --shift-radius (a 1-px or sub-pixel shift, other hinting),
                          a JPEG round trip, another display profile, LCD text and
                          text set again by other hinting (words moved along three
                          or more lines) are left out; a cluster of 40+ pixels (8+
                          with ΔE 10+, unless 40+ clusters of ΔE 10+ lie all
                          over the page), text or a shape whose colour moved one
                          way, or a glyph changed among text drawn the same, fails;
                          the JSON lists every cluster
              ssim-cie94  Playwright's comparator: ΔE94 over T (default 1), unless
                          the SSIM of the 31x31 window around it says anti-aliasing
              fuzz, mae, mepp, mse, ncc, pae, psnr, rmse
                          ImageMagick's `compare -metric M`, printed as it prints it;
                          the pair passes when the normalized error is at most T
                          (default 0), or PSNR (dB) or NCC at least T (default:
                          only images with no differing pixel)

            Exit status: 0 match within tolerance, 1 different, 2 error.
            """
    )

    @Argument(help: "The reference image (PNG, JPEG, or any format ImageMagick reads).")
    var reference: String

    @Argument(help: "The new image to check against the reference.")
    var actual: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "Write the review overlay: the reference tinted red, dissolved 60% over the new image.",
        valueName: "blend.png"))
    var output: String?

    @Option(name: .customLong("diff"), help: ArgumentHelp(
        "Write ImageMagick `compare`'s difference image (red where different).", valueName: "diff.png"))
    var diffOutput: String?

    @Option(name: .customLong("mask"), help: ArgumentHelp(
        "Write a mask: differing pixels red over transparent.", valueName: "mask.png"))
    var maskOutput: String?

    @Option(name: .customLong("review"), help: ArgumentHelp(
        "Write a review image: reference | new | highlight (every changed pixel, boxes around the counted ones) over the numbers.",
        valueName: "review.png"))
    var reviewOutput: String?

    @OptionGroup var comparison: ComparisonArguments

    @Flag(help: "Print the whole result as JSON.")
    var json = false

    func run() throws {
        do {
            throw ExitCode(try compare())
        } catch let error as CommandLineError {
            Console.error(error.description)
            throw ExitCode(2)
        }
    }

    /// The output files asked for, by kind.
    var outputPaths: [(output: ReviewOutput, path: String)] {
        [(ReviewOutput.blend, output), (.difference, diffOutput), (.mask, maskOutput), (.review, reviewOutput)]
            .compactMap { kind, path in path.map { (kind, $0) } }
    }

    func compare() throws(CommandLineError) -> Int32 {
        MemoryReuse.backHeapWithHugePages()
        let outputs = outputPaths
        try OutputPaths.check(outputs.map(\.path), inputs: [reference, actual] + [comparison.ignoreMask, comparison.config].compactMap { $0 })
        let request = try comparison.request(
            outputs: Set(outputs.map(\.output)), policy: .always, settings: try comparison.settings())
        let outcome: PairOutcome
        do {
            outcome = try Pipeline.compare(contentsOf: reference, actual, request: request)
        } catch {
            throw CommandLineError(error.description)
        }
        let written = try OutputFiles.write(outcome.outputs, to: outputs)
        let report = Report(
            reference: reference, actual: actual, outcome: outcome,
            outputs: Report.Outputs(blend: written[.blend], diff: written[.difference], mask: written[.mask], review: written[.review]))
        if json { print(report.json()) } else { report.lines().forEach(Console.line) }
        return report.match ? 0 : 1
    }
}

/// Writing a pair's review images.
enum OutputFiles {
    /// Writes every rendered output to its path, all or none: each is staged beside its
    /// destination and renamed into place only once every one is written. Returns the paths
    /// written, by kind.
    static func write(
        _ files: [ReviewOutput: [UInt8]], to paths: [(output: ReviewOutput, path: String)]
    ) throws(CommandLineError) -> [ReviewOutput: String] {
        let staged = StagedFiles()
        var written: [ReviewOutput: String] = [:]
        do {
            for (output, path) in paths {
                guard let bytes = files[output] else { continue }
                try staged.add(bytes, to: path)
                written[output] = path
            }
            try staged.commit()
        } catch {
            throw CommandLineError(error.description)
        }
        return written
    }
}

func decode(_ path: String, limits: DecodingLimits = .default) throws(CommandLineError) -> RGBAImage {
    do {
        return try ImageDecoder.decode(contentsOf: path, limits: limits)
    } catch {
        throw CommandLineError(error.description)
    }
}

/// An error for the one line on stderr.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
