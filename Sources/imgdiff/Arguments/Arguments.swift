import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs
import ImageDiff

/// `--metric NAME`, at the metric's default threshold until `--threshold` sets it.
extension ComparisonMetric: ExpressibleByArgument {
    /// Any case, as `compare -metric` takes them (`MAE`, `mae`).
    public init?(argument: String) { self.init(name: argument.lowercased()) }

    public static var allValueStrings: [String] { names }

    public var defaultValueDescription: String { name }
}

extension ImageMagickRounding: ExpressibleByArgument {}

/// `--fuzz 5%` (of QuantumRange + 1, as ImageMagick reads it) or `--fuzz 3277` (Q16 units).
struct Fuzz: ExpressibleByArgument {
    let distance: Double

    var defaultValueDescription: String { distance == 0 ? "0 (exact)" : "\(distance)" }

    init(distance: Double) { self.distance = distance }

    init?(argument: String) {
        if argument.hasSuffix("%") {
            guard let percent = Double(argument.dropLast()), percent >= 0, percent.isFinite else { return nil }
            distance = ImageMagickCompare.fuzz(percent: percent)
        } else {
            guard let units = Double(argument), units >= 0, units.isFinite else { return nil }
            distance = units
        }
    }
}

/// `--ignore x1:y1-x2:y2[,x1:y1-x2:y2...]`.
struct IgnoreRegions: ExpressibleByArgument {
    let rects: [PixelRect]

    init?(argument: String) {
        var rects: [PixelRect] = []
        for part in argument.split(separator: ",") {
            // Empty pieces are kept, so that a minus sign (a negative corner) is refused rather
            // than dropped.
            let corners = part.split(separator: "-", omittingEmptySubsequences: false)
            guard corners.count == 2 else { return nil }
            let first = corners[0].split(separator: ":").compactMap { Int($0) }
            let second = corners[1].split(separator: ":").compactMap { Int($0) }
            guard first.count == 2, second.count == 2 else { return nil }
            rects.append(PixelRect(
                minX: min(first[0], second[0]), minY: min(first[1], second[1]),
                maxX: max(first[0], second[0]), maxY: max(first[1], second[1])))
        }
        guard !rects.isEmpty else { return nil }
        self.rects = rects
    }
}

/// Refuses outputs that would overwrite an input or each other, and outputs named for an image
/// format other than the PNG imgdiff writes.
enum OutputPaths {
    static func check(_ outputs: [String], inputs: [String]) throws(CommandLineError) {
        let inputIdentities = inputs.map { FileIdentity($0) }
        var seen: [FileIdentity] = []
        for output in outputs {
            guard !output.isEmpty else { throw CommandLineError("an output path is empty; name the file to write") }
            if output == "-" {
                throw CommandLineError("-: imgdiff writes its images to files, not to standard output; name the file to write")
            }
            let suffix = PathText.pathExtension(output)
            if otherImageExtensions.contains(suffix.lowercased()) {
                throw CommandLineError("\(output): imgdiff writes PNG images, not .\(suffix); name the output .png")
            }
            let identity = FileIdentity(output)
            if let index = inputIdentities.firstIndex(of: identity) {
                throw CommandLineError("\(output): refusing to overwrite the input \(inputs[index]); choose another output path")
            }
            if seen.contains(identity) {
                throw CommandLineError("\(output): named for two outputs; give each output its own path")
            }
            seen.append(identity)
        }
    }

    /// Extensions by which viewers and browsers take a file for another image format: PNG bytes
    /// under such a name open as a broken image, or not at all. Any other name is written as
    /// given.
    static let otherImageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "gif", "webp", "bmp", "tif", "tiff", "avif", "heic", "heif", "jxl", "ico",
        "ppm", "pgm", "pnm", "pam", "qoi", "svg", "pdf", "eps", "psd", "exr", "tga", "dds",
    ]
}

/// A path's identity: device and inode when the file exists, else its resolved absolute path.
struct FileIdentity: Equatable {
    let key: String

    init(_ path: String) {
        var status = stat()
        key = stat(path, &status) == 0 ? "\(status.st_dev):\(status.st_ino)" : SnapshotFolder.resolved(path)
    }
}

/// Checks on the command line as the system passed it, before swift-argument-parser reads it.
enum RawArguments {
    /// The arguments after the program name, as bytes.
    static var current: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        }
    }

    /// Refuses what the parser would misread:
    /// - an argument that is not UTF-8, which would reach the program with U+FFFD in place of
    ///   its bytes (and a path would name another file);
    /// - before `--`, a file name starting with `-`, which would parse as a cluster of short
    ///   flags (`-shot.png` holds `-h` and printed the help, exit 0).
    static func check(_ arguments: [[UInt8]]) throws(CommandLineError) {
        var optionsEnded = false
        for bytes in arguments {
            guard let argument = String(validating: bytes, as: UTF8.self) else {
                throw CommandLineError(
                    "\(TerminalText.escaped(bytes: bytes)): the argument is not valid UTF-8; imgdiff takes UTF-8 paths only")
            }
            if optionsEnded { continue }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if looksLikeFileName(argument) {
                throw CommandLineError(
                    "\(argument): a file name that starts with '-' reads as options; write ./\(argument), or put -- before the file names")
            }
        }
    }

    /// `-x.png`, `-dir/x.png`: one dash, then a name with a known image extension or a `/`;
    /// not a negative value (`-1/2`, `-0.5`, `-1:0-5:5`: the option it follows refuses it).
    static func looksLikeFileName(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { return false }
        if argument.dropFirst().first?.isWholeNumber == true, argument.dropFirst().allSatisfy({ "0123456789./:%e+-".contains($0) }) {
            return false
        }
        if argument.unicodeScalars.contains("/") { return true }
        return SnapshotFolder.imageExtensions.contains(PathText.pathExtension(argument).lowercased())
    }
}
