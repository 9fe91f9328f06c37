#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ImageCodecs
import ImageDiff
import ToleranceTuning

/// The folder `tune --write-canaries` fills: each canary beside the reference it was painted on,
/// as a pair that must fail.
enum CanaryFolder {
    /// Checks that `folder` is new or empty and lies apart from the folders tune reads, and
    /// creates it with its ref/ and new/ folders.
    static func prepare(_ folder: String, apartFrom inputs: [String]) throws(CommandLineError) {
        for input in inputs where SnapshotFolder.isSameOrInside(folder, input) || SnapshotFolder.isSameOrInside(input, folder) {
            throw CommandLineError("\(folder): overlaps \(input), which tune reads; choose another --write-canaries folder")
        }
        if SnapshotFolder.isDirectory(folder) {
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                throw CommandLineError("\(folder): cannot read the folder (\(SystemError.reason(error)))")
            }
            if let first = entries.sorted().first {
                throw CommandLineError("\(folder): holds \(first); --write-canaries writes only into a new or empty folder")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandLineError("\(folder): cannot create the folder (\(SystemError.reason(error)))")
        }
        for side in ["ref", "new"] { try SnapshotFolder.createFolder(side, under: folder) }
    }

    /// The name of the canary of `kind` made from the pair at `path`: `path` less its
    /// extension, then `--kind.png`.
    static func name(for path: String, kind: Canaries.Kind) -> String {
        let stem = path.lastIndex(of: ".").map { String(path[..<$0]) } ?? path
        return "\(stem)--\(kind.rawValue).png"
    }

    /// Writes `reference` as `folder`/ref/NAME and `canary` as `folder`/new/NAME (``name(for:kind:)``).
    static func write(
        _ reference: RGBAImage, _ canary: RGBAImage, for path: String, kind: Canaries.Kind, into folder: String
    ) throws(CommandLineError) {
        let file = name(for: path, kind: kind)
        for (side, image) in [("ref", reference), ("new", canary)] {
            let root = PathText.join(folder, side)
            try SnapshotFolder.createFolders(for: file, under: root)
            do {
                try ImageFile.writePNG(image, to: PathText.join(root, file))
            } catch {
                throw CommandLineError(error.description)
            }
        }
    }
}
