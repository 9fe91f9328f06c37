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
        let limits = comparison.limits.decodingLimits
        let (referenceBytes, actualBytes) = try readPair(reference, actual, limits: limits)
        let result: DiffResult
        let snapshot: SnapshotVerdict?
        if output == nil, diffOutput == nil, let size = try identicalImageSize(referenceBytes, actualBytes, name: reference, limits: limits) {
            result = DiffResult(identicalImagesOf: size, options: options)
            snapshot = comparison.snapshotPrecision.map { _ in .passed }
            if let maskOutput, let mask = result.mask { try write(mask, to: maskOutput) }
        } else if outputs == [output].compactMap({ $0 }), comparison.snapshotPrecision == nil,
            let streamed = try streamedComparison(
                (referenceBytes, reference), (actualBytes, actual), options: options, limits: limits,
                overlayRounding: output.map { _ in comparison.rounding })
        {
            result = streamed.result
            snapshot = nil
            if let output, let overlay = streamed.overlay { try write(overlay, to: output) }
        } else {
            let (referenceImage, actualImage) = try await decodePair(
                (referenceBytes, reference), (actualBytes, actual), limits: limits)
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

    /// Writes all outputs or none: each is staged beside its destination and renamed into
    /// place only once every one is written.
    func writeOutputs(_ reference: RGBAImage, _ actual: RGBAImage, _ result: DiffResult) throws(CommandLineError) {
        let files = StagedFiles()
        do {
            let rounding = comparison.rounding
            if let output {
                try files.add(to: output) { () throws(ImageCodecError) in
                    if reference.is16Bit || actual.is16Bit {
                        return try PNGEncoder.encode(ImageMagickBlend.render(reference: reference, failure: actual, rounding: rounding))
                    }
                    return try PNGEncoder.encode(ImageMagickBlend.Renderer(reference: reference, failure: actual, rounding: rounding))
                }
            }
            if let diffOutput {
                let fuzz = comparison.fuzz.distance
                try files.add(to: diffOutput) { () throws(ImageCodecError) in
                    if reference.is16Bit || reference.pixelCount == 0 || actual.pixelCount == 0 {
                        return try PNGEncoder.encode(ImageMagickCompare.differenceImage(reference, actual, fuzz: fuzz, rounding: rounding))
                    }
                    return try PNGEncoder.encode(
                        ImageMagickCompare.DifferenceRenderer(reference: reference, failure: actual, fuzz: fuzz, rounding: rounding))
                }
            }
            if let maskOutput, let mask = result.mask {
                try files.add(to: maskOutput) { () throws(ImageCodecError) in try PNGEncoder.encode(mask: mask) }
            }
            try files.commit()
        } catch {
            throw CommandLineError(error.description)
        }
    }

    /// Writes an encoded file whole or not at all.
    func write(_ file: [UInt8], to path: String) throws(CommandLineError) {
        do {
            try ImageFile.write(file, to: path)
        } catch {
            throw CommandLineError(error.description)
        }
    }

    func write(_ mask: DifferenceMask, to path: String) throws(CommandLineError) {
        do {
            try ImageFile.writePNG(mask: mask, to: path)
        } catch {
            throw CommandLineError(error.description)
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
func identicalImageSize(
    _ first: [UInt8], _ second: [UInt8], name: String, limits: DecodingLimits = .default
) throws(CommandLineError) -> ImageSize? {
    guard first.count == second.count, !first.isEmpty else { return nil }
    let equal = first.withUnsafeBytes { a in
        second.withUnsafeBytes { b in
            guard let a = a.baseAddress, let b = b.baseAddress else { return false }
            return memcmp(a, b, first.count) == 0
        }
    }
    guard equal else { return nil }
    do {
        return try ImageDecoder.structurallyValidPNGSize(first, name: name, limits: limits)
    } catch {
        throw CommandLineError(error.description)
    }
}

/// The comparison of two PNGs decoded band by band, never held whole, with the blend overlay
/// when `overlayRounding` is set; nil when the streamed path does not apply to these files or
/// options.
func streamedComparison(
    _ first: (bytes: [UInt8], name: String), _ second: (bytes: [UInt8], name: String),
    options: ComparisonOptions, limits: DecodingLimits, overlayRounding: ImageMagickRounding? = nil
) throws(CommandLineError) -> (result: DiffResult, overlay: [UInt8]?)? {
    do {
        guard let overlayRounding else {
            return try StreamedPNGComparison.compare(first, second, options: options, limits: limits).map { ($0, nil) }
        }
        return try StreamedPNGComparison.compare(first, second, options: options, limits: limits, overlayRounding: overlayRounding)
            .map { ($0.result, $0.overlay) }
    } catch {
        throw CommandLineError(error.description)
    }
}

/// Reads both inputs' bytes.
func readPair(
    _ first: String, _ second: String, limits: DecodingLimits = .default
) throws(CommandLineError) -> ([UInt8], [UInt8]) {
    do {
        return (try ImageFile.read(first, maxBytes: limits.maxFileSize), try ImageFile.read(second, maxBytes: limits.maxFileSize))
    } catch {
        throw CommandLineError(error.description)
    }
}

/// Decodes two files' bytes at once, one per core.
func decodePair(
    _ first: (bytes: [UInt8], name: String), _ second: (bytes: [UInt8], name: String), limits: DecodingLimits = .default
) async throws(CommandLineError) -> (RGBAImage, RGBAImage) {
    async let a = Result { () throws(ImageFileError) in try ImageDecoder.decode(first.bytes, name: first.name, limits: limits) }
    async let b = Result { () throws(ImageFileError) in try ImageDecoder.decode(second.bytes, name: second.name, limits: limits) }
    let (resultA, resultB) = await (a, b)
    do {
        return (try resultA.get(), try resultB.get())
    } catch {
        throw CommandLineError(error.description)
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
