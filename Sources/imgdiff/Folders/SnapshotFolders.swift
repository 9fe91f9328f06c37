#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// Two folders of snapshots, paired by relative path.
///
/// Paths pair by their exact bytes: `résumé.png` composed (NFC) and decomposed (NFD) are two
/// files on Linux, so they are two pairs here, never one.
struct FolderPairing: Sendable {
    /// Relative paths present in both folders, in byte order.
    let common: [String]
    /// Relative paths only in the reference folder, in byte order.
    let onlyInReference: [String]
    /// Relative paths only in the new folder, in byte order.
    let onlyInNew: [String]

    /// Pairs the images of the two folders. A folder that a link inside either leads to must be
    /// neither the other one nor `report` (the folder a report is written to), nor hold them:
    /// its images would be listed twice, or the report's read back as snapshots.
    init(reference: String, new: String, report: String? = nil) throws(CommandLineError) {
        let reportFolder = report.map {
            [SnapshotFolder.Avoided(path: $0, meaning: "the report folder \($0), so the report's images would be read as snapshots", refusesFiles: true)]
        } ?? []
        func other(_ folder: String) -> SnapshotFolder.Avoided {
            SnapshotFolder.Avoided(path: folder, meaning: "\(folder), the other snapshot folder, so its images would be listed twice", refusesFiles: false)
        }
        let referenceFiles = try SnapshotFolder.imageFiles(under: reference, avoiding: [other(new)] + reportFolder)
        let newFiles = try SnapshotFolder.imageFiles(under: new, avoiding: [other(reference)] + reportFolder)
        let referenceKeys = Set(referenceFiles.map { Array($0.utf8) })
        let newKeys = Set(newFiles.map { Array($0.utf8) })
        common = referenceFiles.filter { newKeys.contains(Array($0.utf8)) }
        onlyInReference = referenceFiles.filter { !newKeys.contains(Array($0.utf8)) }
        onlyInNew = newFiles.filter { !referenceKeys.contains(Array($0.utf8)) }
    }

    var isEmpty: Bool { common.isEmpty && onlyInReference.isEmpty && onlyInNew.isEmpty }

    /// The paths that are an image file in one folder and a folder of images in the other
    /// (`a.png` beside `a.png/b.png`): a report, which gives each pair the folder
    /// `pairs/PATH/`, cannot hold both.
    var filesBesideFolders: Set<String> {
        let all = common + onlyInReference + onlyInNew
        let keys = Set(all.map { Array($0.utf8) })
        var clashes = Set<String>()
        for path in all {
            let bytes = Array(path.utf8)
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") {
                let folder = Array(bytes[..<index])
                if keys.contains(folder), let name = String(validating: folder, as: UTF8.self) { clashes.insert(name) }
            }
        }
        return clashes
    }
}

extension String {
    /// Whether `self` sorts before `other` by UTF-8 bytes: a total order that, unlike `<`,
    /// tells canonically equivalent spellings apart.
    func precedesBytewise(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}

/// Listing the images of a snapshot folder.
enum SnapshotFolder {
    /// File name extensions taken for images (compared case-insensitively).
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "webp", "ppm", "pgm", "pnm",
    ]

    /// Relative paths of the image files under `directory`, recursively, in byte order.
    ///
    /// The folder may be given through a symbolic link, with a trailing `/` or `/.`. Hidden
    /// files and folders (".name") are skipped, except that imgdiff's own temporary files left
    /// by a killed run are removed. Symbolic links are followed, to files and to folders (a
    /// link back to a folder being listed is not followed again). Nothing else is skipped: an
    /// image-named entry that is not a readable regular file is listed, so that reading it
    /// reports the problem, and a folder that cannot be read, or a name that is not UTF-8,
    /// stops the listing with an error naming it. A link that leads nowhere is skipped with a
    /// warning (a folder that was not checked out, most often). A link that leads to one of
    /// the `avoiding` folders (which exist), or to a folder inside one (or a file, where it
    /// refuses files), stops the listing with an error that says what it leads to.
    static func imageFiles(under directory: String, avoiding: [Avoided] = []) throws(CommandLineError) -> [String] {
        try requireDirectory(directory)
        var avoided = AvoidedFolders()
        for folder in avoiding {
            var status = stat()
            if stat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                avoided.byIdentity[FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))] = folder.meaning
                avoided.byPath.append(Avoided(path: resolved(folder.path), meaning: folder.meaning, refusesFiles: folder.refusesFiles))
            }
        }
        var files: [String] = []
        try walk(folder: directory, relative: "", ancestors: [], avoided: avoided, into: &files)
        return files.sorted { $0.precedesBytewise($1) }
    }

    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// A folder a listing may not reach through a link: what reaching it would mean, and whether
    /// a link to a single file inside it is refused too (the report's, whose images would be
    /// read as snapshots; a file of the other snapshot folder is only that image compared).
    struct Avoided {
        let path: String
        let meaning: String
        let refusesFiles: Bool
    }

    /// The folders a listing may not reach, with what reaching them would mean: by identity
    /// (the folder itself, however reached) and by resolved path (what lies inside it, through
    /// a link).
    private struct AvoidedFolders {
        var byIdentity: [FolderIdentity: String] = [:]
        var byPath: [Avoided] = []

        /// Where the link at `path` (to a folder, or a file) leads, "to" an avoided folder that
        /// refuses it or "into" one, and what that would mean; nil when it leads elsewhere.
        func refusal(ofLink path: String, isFolder: Bool) -> (leads: String, meaning: String)? {
            let candidates = byPath.filter { isFolder || $0.refusesFiles }
            guard !candidates.isEmpty else { return nil }
            let target = SnapshotFolder.resolved(path)
            guard let folder = candidates.first(where: { SnapshotFolder.isSameOrInside(resolvedPath: target, resolvedFolder: $0.path) })
            else { return nil }
            return (target.utf8.elementsEqual(folder.path.utf8) ? "to" : "into", folder.meaning)
        }
    }

    private static func walk(
        folder: String, relative: String, ancestors: Set<FolderIdentity>, avoided: AvoidedFolders,
        into files: inout [String]
    ) throws(CommandLineError) {
        guard let stream = opendir(folder) else {
            throw CommandLineError("\(folder): cannot read the folder (\(ImageFile.systemMessage(errno)))")
        }
        defer { closedir(stream) }
        var folderStatus = stat()
        guard fstat(dirfd(stream), &folderStatus) == 0 else {
            throw CommandLineError("\(folder): cannot read the folder (\(ImageFile.systemMessage(errno)))")
        }
        let ancestors = ancestors.union([FolderIdentity(device: UInt64(folderStatus.st_dev), inode: UInt64(folderStatus.st_ino))])
        var subfolders: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw CommandLineError("\(folder): cannot read the folder (\(ImageFile.systemMessage(errno)))") }
                break
            }
            let nameBytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard let first = nameBytes.first else { continue }
            if first == UInt8(ascii: ".") {
                if ImageFile.isAbandonedTemporaryName(nameBytes) {
                    _ = withCString(nameBytes) { unlinkat(dirfd(stream), $0, 0) }
                }
                continue
            }
            var status = stat()
            let statResult = withCString(nameBytes) { fstatat(dirfd(stream), $0, &status, 0) }
            let isFolder = statResult == 0 && status.st_mode & S_IFMT == S_IFDIR
            var linkStatus = stat()
            let leadsNowhere = statResult != 0 && withCString(nameBytes) { fstatat(dirfd(stream), $0, &linkStatus, AT_SYMLINK_NOFOLLOW) } == 0
                && linkStatus.st_mode & S_IFMT == S_IFLNK
            guard isFolder || leadsNowhere || hasImageExtension(nameBytes) else { continue }
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                let shown = TerminalText.escaped(bytes: nameBytes)
                throw CommandLineError(
                    "\(PathText.join(folder, shown)): the name is not valid UTF-8, and imgdiff cannot report it; rename it")
            }
            if statResult == 0, isLink(entry.pointee.d_type, nameBytes, in: stream),
                let refusal = avoided.refusal(ofLink: PathText.join(folder, name), isFolder: isFolder)
            {
                throw CommandLineError(
                    "\(PathText.join(folder, name)): leads \(refusal.leads) \(refusal.meaning); remove the link or give other folders")
            }
            if leadsNowhere, !hasImageExtension(nameBytes) {
                Console.warning("\(PathText.join(folder, name)): a link that leads nowhere; skipped")
            } else if isFolder {
                let identity = FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
                if let meaning = avoided.byIdentity[identity] {
                    throw CommandLineError(
                        "\(PathText.join(folder, name)): leads to \(meaning); remove the link or give other folders")
                }
                if !ancestors.contains(identity) { subfolders.append(name) }
            } else {
                files.append(relative + name)
            }
        }
        for subfolder in subfolders {
            try walk(
                folder: PathText.join(folder, subfolder), relative: relative + subfolder + "/", ancestors: ancestors,
                avoided: avoided, into: &files)
        }
    }

    /// Whether the entry `name` of the folder `stream` lists is a symbolic link, by the entry's
    /// type, or by `lstat` where the file system does not give it.
    private static func isLink(_ type: UInt8, _ name: [UInt8], in stream: OpaquePointer) -> Bool {
        if type != UInt8(DT_UNKNOWN) { return type == UInt8(DT_LNK) }
        var status = stat()
        return withCString(name) { fstatat(dirfd(stream), $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
            && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Calls `body` with `bytes` as a NUL-terminated C string; -1 if there is none to give.
    private static func withCString(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Int32) -> Int32 {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map(body) ?? -1
        }
    }

    /// Whether a file called `name` is listed as an image (``imageExtensions``).
    static func hasImageExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let ext = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        return imageExtensions.contains(ext)
    }

    static func requireDirectory(_ path: String) throws(CommandLineError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            throw CommandLineError("\(path): " + (code == ENOENT ? "no such directory" : ImageFile.systemMessage(code)))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw CommandLineError("\(path): not a directory") }
    }

    /// Whether `path` names a file inside a folder, as a pair's path does: relative, with no
    /// empty, `.` or `..` component (split Unicode scalar by scalar, as the system splits it).
    static func isPlainRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.unicodeScalars.starts(with: "/".unicodeScalars)
            && path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { component in
                !component.isEmpty && !component.elementsEqual(".".unicodeScalars) && !component.elementsEqual("..".unicodeScalars)
            }
    }

    /// Refuses the report at `report` (a batch's report.json, read as input) if one of its pair
    /// `paths` could leave the folders it is joined to (``isPlainRelativePath(_:)``), before
    /// anything is copied or approved by it.
    static func checkPairPaths(_ paths: some Sequence<String>, of report: String) throws(CommandLineError) {
        if let path = paths.first(where: { !isPlainRelativePath($0) }) {
            throw CommandLineError("\(report): names the pair \(path), which leaves the snapshot folders; a report imgdiff wrote names no such path")
        }
    }

    /// Creates the folders between `root` and the file `relative` (``createFolder(_:under:)``).
    /// A path that could leave `root` (``isPlainRelativePath(_:)``) is refused.
    static func createFolders(for relative: String, under root: String) throws(CommandLineError) {
        guard isPlainRelativePath(relative) else {
            throw CommandLineError("\(PathText.join(root, relative)): leaves \(root); imgdiff writes only inside \(root)'s own folders")
        }
        try createFolders(PathText.components(of: relative).dropLast(), under: root)
    }

    /// Creates the folder `relative` under `root` and any of its parents that are missing, one
    /// at a time. A component that is a symbolic link or a file is refused: a write under `root`
    /// stays inside it.
    static func createFolder(_ relative: String, under root: String) throws(CommandLineError) {
        try createFolders(PathText.components(of: relative), under: root)
    }

    /// Creates `root/names[0]/names[1]/…` (``createFolder(_:under:)``).
    private static func createFolders(_ names: some Sequence<String>, under root: String) throws(CommandLineError) {
        var folder = root
        for component in names {
            folder = PathText.join(folder, component)
            var status = stat()
            if lstat(folder, &status) == 0 {
                switch status.st_mode & S_IFMT {
                case S_IFDIR: continue
                case S_IFLNK:
                    throw CommandLineError("\(folder): is a symbolic link; imgdiff writes only inside \(root)'s own folders")
                default: throw CommandLineError("\(folder): not a folder")
                }
            }
            if mkdir(folder, 0o777) != 0, errno != EEXIST {
                throw CommandLineError("\(folder): cannot create the folder (\(ImageFile.systemMessage(errno)))")
            }
        }
    }

    /// Whether `path` names a directory, following symbolic links.
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `inner` is `outer` or lies inside it, after resolving both (see ``resolved(_:)``).
    static func isSameOrInside(_ inner: String, _ outer: String) -> Bool {
        isSameOrInside(resolvedPath: resolved(inner), resolvedFolder: resolved(outer))
    }

    /// ``isSameOrInside(_:_:)`` of two paths already resolved.
    static func isSameOrInside(resolvedPath innerPath: String, resolvedFolder outerPath: String) -> Bool {
        let outerFolder = PathText.endsWithSlash(outerPath) ? outerPath : outerPath + "/"
        return innerPath.utf8.elementsEqual(outerPath.utf8) || innerPath.utf8.starts(with: outerFolder.utf8)
    }

    /// Whether one of `first` and `second` is the other or lies inside it (``isSameOrInside(_:_:)``
    /// either way round).
    static func overlap(_ first: String, _ second: String) -> Bool {
        isSameOrInside(first, second) || isSameOrInside(second, first)
    }

    /// The absolute path of `path` with every symbolic link resolved, also when its last
    /// components do not exist yet: the longest existing prefix is resolved by the system, and
    /// the rest appended.
    static func resolved(_ path: String) -> String {
        let absolute = PathText.isAbsolute(path) ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute
        var missing: [String] = []
        while true {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                var result = String(cString: real)
                for component in missing.reversed() {
                    switch component {
                    case "", ".": continue
                    case "..": result = PathText.parent(of: result)
                    default: result = PathText.join(result, component)
                    }
                }
                return result
            }
            let (folder, name) = PathText.splitAfterLastSlash(existing)
            guard !folder.isEmpty, existing != "/" else { return absolute }
            missing.append(name)
            existing = folder == "/" ? "/" : String(String.UnicodeScalarView(folder.unicodeScalars.dropLast()))
        }
    }

    /// The path of `target` relative to the folder `base`, with `../` as needed: a link the
    /// report in `base` holds to an input. A browser resolves such a link against the page's URL
    /// as text, so `base` is taken as spelled (made absolute, `.` and `..` folded, links left as
    /// they are: the folder printed and opened, though it lies behind a symbolic link), and
    /// `target` resolved, so that the spelled path and the link together reach the file.
    static func relativePath(of target: String, from base: String) -> String {
        let targetParts = PathText.components(of: resolved(target))
        let baseParts = PathText.components(of: spelledAbsolute(base))
        var shared = 0
        while shared < min(targetParts.count, baseParts.count), targetParts[shared].utf8.elementsEqual(baseParts[shared].utf8) {
            shared += 1
        }
        let up = Array(repeating: "..", count: baseParts.count - shared)
        return (up + targetParts[shared...]).joined(separator: "/")
    }

    /// `path` made absolute from the current folder, its `.` and `..` folded as a URL's are,
    /// symbolic links left in place: the folder as the user spelled it.
    static func spelledAbsolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
