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

/// The report folder of a batch, built aside and swapped in whole.
///
/// Every file of a report is written into a staging folder beside `--out`
/// (`.imgdiff-tmp-PID_START-RANDOM`). Only once the whole report is written does the staging folder
/// take `--out`'s place, in one exchange of the two names. A run that fails, runs out of disk,
/// is interrupted or is killed leaves the previous report as it was: never a new `report.json`
/// beside an old `index.html`. Two runs on one `--out` each build their own and the later swap
/// wins. An interrupted run removes its staging folder as it ends (``InterruptCleanup``); one
/// left by a killed run, whose lock no process holds, is removed by the next run on the same
/// `--out`.
struct ReportFolder {
    /// The report's place, as given.
    let destination: String
    /// `destination` as an absolute path without `.` or `..` (links are not resolved): the
    /// path the files are moved to.
    let place: String
    /// Where this run writes it.
    let staging: String

    /// Checks `destination` and creates the staging folder beside it.
    ///
    /// `destination` may be missing, empty or hold an earlier report (`index.html`,
    /// `report.json`, `junit.xml`, `summary.md`, `pairs/`, with a report.json that reads as a batch's); a
    /// folder holding anything else is refused, since the swap replaces it whole.
    /// `inputs`, the files and folders the run reads, are never taken for a staging folder a
    /// killed run left, whatever their names.
    init(_ destination: String, inputs: [String]) throws(CommandLineError) {
        self.destination = destination
        place = SnapshotFolder.spelledAbsolute(destination)
        try Self.requireReplaceable(place, as: destination)
        staging = try Self.makeStagingFolder(beside: place, for: destination, naming: "the report folder", inputs: inputs)
    }

    /// The names in the folder `place`; `destination` names it in errors.
    static func entries(of place: String, for destination: String) throws(CommandLineError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: place)
        } catch {
            throw CommandLineError("\(destination): cannot read the folder (\(SystemError.reason(error)))")
        }
    }

    /// Creates a staging folder beside `place` (and `place`'s parent folders if missing), after
    /// removing those that runs no longer alive left there; errors name `destination` and call
    /// it `naming` ("the report folder"). A folder holding one of `inputs`, or inside one, is
    /// never removed.
    static func makeStagingFolder(
        beside place: String, for destination: String, naming: String, inputs: [String]
    ) throws(CommandLineError) -> String {
        let parentFolder = PathText.parent(of: place)
        do {
            try FileManager.default.createDirectory(atPath: parentFolder, withIntermediateDirectories: true)
        } catch {
            throw CommandLineError("\(parentFolder): cannot create the folder (\(SystemError.reason(error)))")
        }
        removeAbandonedStagingFolders(in: parentFolder, sparing: inputs)
        let staging = PathText.join(parentFolder, ImageFile.temporaryName())
        guard mkdir(staging, 0o777) == 0 else {
            throw CommandLineError("\(destination): cannot create \(naming) (\(ImageFile.systemMessage(errno)))")
        }
        holdLock(on: staging)
        InterruptCleanup.register(staging)
        return staging
    }

    /// The names an imgdiff report folder holds.
    static let reportEntries: Set<String> = ["index.html", "report.json", "junit.xml", "summary.md", "pairs"]

    private static func requireReplaceable(_ place: String, as destination: String) throws(CommandLineError) {
        var status = stat()
        guard lstat(place, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw CommandLineError("\(destination): is a symbolic link; give the report folder's real path")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CommandLineError("\(destination): not a folder; choose another --out")
        }
        let entries = try Self.entries(of: place, for: destination)
        if let foreign = entries.sorted().first(where: { !reportEntries.contains($0) }) {
            throw CommandLineError(
                "\(destination): holds \(foreign), which is not part of an imgdiff report, and the new report replaces the folder whole; choose another --out")
        }
        // A file of a report's name (a page of one's own called index.html) is one only beside
        // the report.json of a batch.
        guard let first = entries.sorted().first else { return }
        guard let report = try? BatchReport.read(inFolder: place) else {
            throw CommandLineError(
                "\(destination): holds \(first) but no imgdiff report.json, so it is not an imgdiff report, and the new report replaces the folder whole; choose another --out")
        }
        if entries.contains("pairs"), let stray = unlistedFile(inPairsOf: place, listedBy: report) {
            throw CommandLineError(
                "\(destination): holds \(stray), which its report.json does not list, and the new report replaces the folder whole; choose another --out")
        }
    }

    /// The first file (in name order) under `place`'s pairs/ folder that none of `report`'s
    /// pairs names among its outputs: something put there by hand, which the swap would remove.
    private static func unlistedFile(inPairsOf place: String, listedBy report: BatchReport) -> String? {
        var listed: Set<String> = []
        for pair in report.pairs { listed.formUnion(pair.outputs.files) }
        /// The first unlisted file in the folder `relative` (a path inside `place`), depth first.
        func firstUnlisted(in relative: String) -> String? {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: PathText.join(place, relative)) else { return nil }
            for name in names.sorted() {
                let path = relative + "/" + name
                var status = stat()
                guard lstat(PathText.join(place, path), &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    if let found = firstUnlisted(in: path) { return found }
                } else if !listed.contains(path) {
                    return path
                }
            }
            return nil
        }
        return firstUnlisted(in: "pairs")
    }

    /// Takes a lock on the folder `path` for the rest of the process: the kernel drops it when
    /// the process ends, however it ends, so a staging folder whose lock is free belongs to no
    /// running process, wherever that process ran (another container on a shared mount, where
    /// process IDs say nothing).
    private static func holdLock(on path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 { close(descriptor) }
    }

    /// Staging folders no running process holds: those whose lock is free (``holdLock(on:)``),
    /// or, where the file system keeps no locks, whose writer is gone by its process ID. A free
    /// lock on a folder whose writer runs here (its process ID and start time) is a run between
    /// making its folder and locking it, and is left alone.
    private static func removeAbandonedStagingFolders(in parent: String, sparing inputs: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.utf8.starts(with: ImageFile.temporaryPrefix.utf8) {
            let path = PathText.join(parent, name)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
                !inputs.contains(where: { SnapshotFolder.overlap($0, path) })
            else { continue }
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                guard !ImageFile.isRunningTemporaryOwner(name.utf8) else { continue }
                try? FileManager.default.removeItem(atPath: path)
            } else if errno != EWOULDBLOCK, ImageFile.isAbandonedTemporaryName(name.utf8) {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Puts the finished report in place of `destination`, and removes the one it replaced.
    func commit() throws(CommandLineError) {
        defer { InterruptCleanup.unregister(staging) }
        if rename(staging, place) == 0 { return }
        guard errno == EEXIST || errno == ENOTEMPTY else { return try failed(errno) }
        if renameExchange(staging, place) != 0 {
            // A file system without RENAME_EXCHANGE: move the old report aside first.
            let aside = staging + "-old"
            guard rename(place, aside) == 0 else { return try failed(errno) }
            guard rename(staging, place) == 0 else {
                let code = errno
                _ = rename(aside, place)
                return try failed(code)
            }
            try? FileManager.default.removeItem(atPath: aside)
            return
        }
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// Removes the staging folder; the previous report stays.
    func discard() {
        try? FileManager.default.removeItem(atPath: staging)
        InterruptCleanup.unregister(staging)
    }

    private func failed(_ code: Int32) throws(CommandLineError) {
        discard()
        throw CommandLineError("\(destination): cannot put the report in place (\(ImageFile.systemMessage(code)))")
    }

}

/// Swaps two paths atomically (Linux `renameat2` with `RENAME_EXCHANGE`); -1 where unsupported.
private func renameExchange(_ first: String, _ second: String) -> Int32 {
    #if os(Linux)
    return linuxRenameat2(atCurrentDirectory, first, atCurrentDirectory, second, renameExchangeFlag)
    #else
    errno = ENOTSUP
    return -1
    #endif
}

#if os(Linux)
// <stdio.h> declares renameat2 only under _GNU_SOURCE, which the Glibc module does not set.
private let atCurrentDirectory: Int32 = -100
private let renameExchangeFlag: UInt32 = 2
@_silgen_name("renameat2")
private func linuxRenameat2(
    _ oldFolder: Int32, _ oldPath: UnsafePointer<CChar>, _ newFolder: Int32, _ newPath: UnsafePointer<CChar>,
    _ flags: UInt32) -> Int32
#endif

/// The text of a file-system error from FoundationEssentials, as imgdiff words system errors:
/// the C library's message for the POSIX error beneath it.
enum SystemError {
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return ImageFile.systemMessage(posix.code.rawValue) }
        if let posix = (error as? CocoaError)?.underlying as? POSIXError { return ImageFile.systemMessage(posix.code.rawValue) }
        return "\(error)"
    }
}
