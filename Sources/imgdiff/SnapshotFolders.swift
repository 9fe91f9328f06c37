import Foundation

/// Two folders of snapshots, paired by relative path.
struct FolderPairing: Sendable {
    /// Relative paths present in both folders, sorted.
    let common: [String]
    /// Relative paths only in the reference folder, sorted.
    let onlyInReference: [String]
    /// Relative paths only in the new folder, sorted.
    let onlyInNew: [String]

    init(reference: String, new: String) throws(CommandLineError) {
        let referenceFiles = Set(try SnapshotFolder.imageFiles(under: reference))
        let newFiles = Set(try SnapshotFolder.imageFiles(under: new))
        common = referenceFiles.intersection(newFiles).sorted()
        onlyInReference = referenceFiles.subtracting(newFiles).sorted()
        onlyInNew = newFiles.subtracting(referenceFiles).sorted()
    }
}

/// Listing the images of a snapshot folder.
enum SnapshotFolder {
    /// File name extensions taken for images (compared case-insensitively).
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "webp", "ppm", "pgm", "pnm",
    ]

    /// Relative paths of the image files under `directory`, recursively, sorted. Hidden files
    /// and folders (".name") are skipped; symbolic links are followed for files only.
    static func imageFiles(under directory: String) throws(CommandLineError) -> [String] {
        try requireDirectory(directory)
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { throw CommandLineError("\(directory): cannot list the folder") }
        let prefix = root.standardizedFileURL.path.count + 1
        var files: [String] = []
        for case let url as URL in enumerator {
            guard imageExtensions.contains(url.pathExtension.lowercased()),
                (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
            else { continue }
            let path = url.standardizedFileURL.path
            guard path.count > prefix else { continue }
            files.append(String(path.dropFirst(prefix)))
        }
        return files.sorted()
    }

    static func requireDirectory(_ path: String) throws(CommandLineError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandLineError("\(path): no such directory")
        }
        guard isDirectory.boolValue else { throw CommandLineError("\(path): not a directory") }
    }

    /// `base/relative`, without doubling a trailing slash.
    static func join(_ base: String, _ relative: String) -> String {
        base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// Whether `inner` is `outer` or lies inside it (after resolving both).
    static func isSameOrInside(_ inner: String, _ outer: String) -> Bool {
        let innerPath = resolved(inner), outerPath = resolved(outer)
        return innerPath == outerPath || innerPath.hasPrefix(outerPath.hasSuffix("/") ? outerPath : outerPath + "/")
    }

    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The path of `target` relative to the folder `base`, both resolved, with `../` as needed.
    static func relativePath(of target: String, from base: String) -> String {
        let targetParts = resolved(target).split(separator: "/")
        let baseParts = resolved(base).split(separator: "/")
        var shared = 0
        while shared < min(targetParts.count, baseParts.count), targetParts[shared] == baseParts[shared] {
            shared += 1
        }
        let up = Array(repeating: "..", count: baseParts.count - shared)
        return (up + targetParts[shared...].map(String.init)).joined(separator: "/")
    }
}
