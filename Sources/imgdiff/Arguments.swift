import ArgumentParser
import Foundation
import ImageDiff

/// `--metric NAME`, at the metric's default threshold until `--threshold` sets it.
extension ComparisonMetric: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

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
            let corners = part.split(separator: "-")
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

/// Refuses outputs that would overwrite an input or each other.
enum OutputPaths {
    static func check(_ outputs: [String], inputs: [String]) throws(CommandLineError) {
        let inputIdentities = inputs.map { FileIdentity($0) }
        var seen: [FileIdentity] = []
        for output in outputs {
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
}

/// A path's identity: device and inode when the file exists, else its resolved absolute path.
struct FileIdentity: Equatable {
    let key: String

    init(_ path: String) {
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        if let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let device = attributes[.systemNumber], let inode = attributes[.systemFileNumber]
        {
            key = "\(device):\(inode)"
        } else {
            key = url.path
        }
    }
}
