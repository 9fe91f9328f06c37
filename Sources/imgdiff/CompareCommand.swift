import ArgumentParser
import Foundation
import ImageCodecs
import ImageDiff

/// `imgdiff compare REF FAIL`: one pair, one line (or JSON), optional output images.
struct CompareCommand: AsyncParsableCommand {
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

    @OptionGroup var comparison: ComparisonArguments

    @Flag(help: "Print the whole result as JSON.")
    var json = false

    func run() async throws {
        do {
            let exitCode = try await compare()
            throw ExitCode(exitCode)
        } catch let error as CommandLineError {
            FileHandle.standardError.write(Data("imgdiff: error: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }

    func compare() async throws(CommandLineError) -> Int32 {
        let outputs = [output, diffOutput, maskOutput].compactMap { $0 }
        try OutputPaths.check(outputs, inputs: [reference, actual] + [comparison.ignoreMask].compactMap { $0 })

        let options = try comparison.options(collectsMask: maskOutput != nil)
        let (referenceBytes, actualBytes) = try readPair(reference, actual)
        let result: DiffResult
        let snapshot: SnapshotVerdict?
        if output == nil, diffOutput == nil, let size = try identicalImageSize(referenceBytes, actualBytes, name: reference) {
            result = DiffResult(identicalImagesOf: size, options: options)
            snapshot = comparison.snapshotPrecision.map { _ in .passed }
            if let maskOutput, let mask = result.mask { try write(mask.render(), to: maskOutput) }
        } else {
            let (referenceImage, actualImage) = try await decodePair(
                (referenceBytes, reference), (actualBytes, actual))
            result = ImageDiff.compare(referenceImage, actualImage, options: options)
            snapshot = comparison.snapshotPrecision.map { $0.verdict(reference: referenceImage, actual: actualImage) }
            try writeOutputs(referenceImage, actualImage, result)
        }
        let report = Report(
            reference: reference, actual: actual, result: result,
            snapshot: snapshot, outputs: Report.Outputs(blend: output, diff: diffOutput, mask: maskOutput))
        print(json ? report.json() : report.line())
        return report.match ? 0 : 1
    }

    func writeOutputs(_ reference: RGBAImage, _ actual: RGBAImage, _ result: DiffResult) throws(CommandLineError) {
        if let output {
            try write(ImageMagickBlend.render(reference: reference, failure: actual, rounding: comparison.rounding), to: output)
        }
        if let diffOutput {
            let diff = ImageMagickCompare.differenceImage(
                reference, actual, fuzz: comparison.fuzz.distance, rounding: comparison.rounding)
            try write(diff, to: diffOutput)
        }
        if let maskOutput, let mask = result.mask {
            try write(mask.render(), to: maskOutput)
        }
    }

    func write(_ image: RGBAImage, to path: String) throws(CommandLineError) {
        do {
            try ImageFile.writePNG(image, to: path)
        } catch {
            throw CommandLineError(error.description)
        }
    }
}

/// Byte-identical PNG files are identical images: their structure is checked, their pixels
/// need not be decoded. Returns nil when the files differ or are not PNGs.
func identicalImageSize(_ first: [UInt8], _ second: [UInt8], name: String) throws(CommandLineError) -> ImageSize? {
    guard first.count == second.count, !first.isEmpty else { return nil }
    let equal = first.withUnsafeBytes { a in
        second.withUnsafeBytes { b in
            guard let a = a.baseAddress, let b = b.baseAddress else { return false }
            return memcmp(a, b, first.count) == 0
        }
    }
    guard equal else { return nil }
    do {
        return try ImageDecoder.structurallyValidPNGSize(first, name: name)
    } catch {
        throw CommandLineError(error.description)
    }
}

/// Reads both inputs' bytes.
func readPair(_ first: String, _ second: String) throws(CommandLineError) -> ([UInt8], [UInt8]) {
    do {
        return (try ImageFile.read(first), try ImageFile.read(second))
    } catch {
        throw CommandLineError(error.description)
    }
}

/// Decodes two files' bytes at once, one per core.
func decodePair(
    _ first: (bytes: [UInt8], name: String), _ second: (bytes: [UInt8], name: String)
) async throws(CommandLineError) -> (RGBAImage, RGBAImage) {
    async let a = Result { () throws(ImageFileError) in try ImageDecoder.decode(first.bytes, name: first.name) }
    async let b = Result { () throws(ImageFileError) in try ImageDecoder.decode(second.bytes, name: second.name) }
    let (resultA, resultB) = await (a, b)
    do {
        return (try resultA.get(), try resultB.get())
    } catch {
        throw CommandLineError(error.description)
    }
}

/// Decodes both inputs at once, one per core.
func decodePair(_ first: String, _ second: String) async throws(CommandLineError) -> (RGBAImage, RGBAImage) {
    async let a = Result { () throws(ImageFileError) in try ImageDecoder.decode(contentsOf: first) }
    async let b = Result { () throws(ImageFileError) in try ImageDecoder.decode(contentsOf: second) }
    let (resultA, resultB) = await (a, b)
    do {
        return (try resultA.get(), try resultB.get())
    } catch {
        throw CommandLineError(error.description)
    }
}

func decode(_ path: String) throws(CommandLineError) -> RGBAImage {
    do {
        return try ImageDecoder.decode(contentsOf: path)
    } catch {
        throw CommandLineError(error.description)
    }
}

/// An error for the one line on stderr.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
