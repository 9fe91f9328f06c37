import ArgumentParser
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
import ImageDiff
import ImagePipeline
import SnapshotFiles

/// `imgdiff review [DIR]`: the failed snapshots under a folder, one by one: accept, reject or
/// skip each, as `cargo insta review` does.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Walk through failed snapshots and accept (replace the reference), reject or skip each.",
        discussion: """
            It finds, under DIR (default: where the snapshot strategies write their artifacts,
            $SNAPSHOT_ARTIFACTS, else the temporary directory, where it reads only their entries):
              - failed swift-snapshot-testing snapshots: the BASE.imgdiff.json entries the
                imgdiff strategies write beside their artifacts;
              - `imgdiff batch` reports (report.json): changed and new pairs. Run it from
                the folder batch ran in: the report names files as batch was given them.

            Each failure is listed with the reference accepting it would replace
            ("; replaces PATH"). A reference is replaced only inside the folder review
            runs in. Entries downloaded from CI name references by the CI machine's paths:
            run review from your checkout, and it finds each at the same place there.

            On a terminal it shows each failure (the numbers and the review image to open)
            and asks: [a]ccept [r]eject [s]kip [A]ccept all [q]uit. Accepting replaces the
            reference atomically (written beside it, synced, renamed into place) with the
            new image; rejecting forgets a snapshot failure (its entry is removed; the
            reference stays), while a rejected batch pair stays in its report, and so
            remains, until batch runs again. --list and --json print the failures without asking;
            --accept-all accepts every one.

            Examples:
              imgdiff review                      # $SNAPSHOT_ARTIFACTS, or the temporary directory
              imgdiff review --list
              imgdiff review imgdiff-report --json
              imgdiff review imgdiff-report --accept-all

            Exit status: 0 nothing left to review; 1 failures remain (listed, or skipped);
            2 error.
            """
    )

    @Argument(help: ArgumentHelp("Where to look for failures (searched recursively).", valueName: "DIR"))
    var directory: String?

    @Flag(help: "List the failures, one per line, without asking.")
    var list = false

    @Flag(help: "Print the failures as JSON, without asking.")
    var json = false

    @Flag(help: "Accept every failure: replace each reference with its new image.")
    var acceptAll = false

    @Flag(help: "Ask even when stdin is not a terminal (answers read line by line).")
    var interactive = false

    func validate() throws {
        if [list, json, acceptAll, interactive].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --list, --json, --accept-all and --interactive")
        }
    }

    /// Where review looks when no DIR is given: where the snapshot adapter writes its artifacts,
    /// `$SNAPSHOT_ARTIFACTS` (an empty value counts as unset), else the temporary directory,
    /// where only imgdiff's own entries, in the adapter's `<TestFile>/` folders, are read.
    static func defaultSearch(environment: [String: String]) -> PendingReview.Search {
        if let artifacts = environment["SNAPSHOT_ARTIFACTS"], !artifacts.isEmpty {
            return PendingReview.Search(root: artifacts, shown: "\(artifacts), $SNAPSHOT_ARTIFACTS")
        }
        let temporary = FileManager.default.temporaryDirectory.path
        return PendingReview.Search(
            root: temporary, entriesOnly: true, maxDepth: 2,
            shown: "\(temporary), the temporary directory, for snapshot entries only, as SNAPSHOT_ARTIFACTS is unset; give a DIR for a batch report")
    }

    /// DIR, or the default search.
    var search: PendingReview.Search {
        directory.map { PendingReview.Search(root: $0) } ?? Self.defaultSearch(environment: ProcessInfo.processInfo.environment)
    }

    func run() throws {
        var failures: [PendingReview]
        let unreadable: [CommandLineError]
        let search = self.search
        do {
            (failures, unreadable) = try PendingReview.find(search)
        } catch {
            Console.error(error.description)
            throw ExitCode(2)
        }
        if search.entriesOnly {
            let ours = failures.filter { $0.reference.map { SnapshotFolder.isSameOrInside($0, ".") } ?? true }
            if ours.count < failures.count {
                Console.note("left out \(failures.count - ours.count) failure(s) in \(search.root) whose references lie outside the current folder (other projects')")
            }
            failures = ours
        }
        // A file that cannot be read is told, and the rest reviewed; the run ends with 2.
        for problem in unreadable { Console.warning(problem.description) }
        let status = run(failures)
        throw ExitCode(unreadable.isEmpty ? status : 2)
    }

    /// Lists, accepts or asks about the failures found; the exit status.
    func run(_ failures: [PendingReview]) -> Int32 {
        if json {
            let data = (try? JSONOutput.encode(failures)) ?? Array("[]".utf8)
            print(String(decoding: data, as: UTF8.self))
            return failures.isEmpty ? 0 : 1
        }
        if failures.isEmpty {
            Console.line("Nothing to review (searched \(search.shown))")
            return 0
        }
        let asks = interactive || (!list && !acceptAll && isatty(0) != 0 && isatty(1) != 0)
        if acceptAll {
            return accept(failures)
        }
        if !asks {
            for (index, failure) in failures.enumerated() {
                Console.line("\(failure.line(index + 1, of: failures.count)); \(failure.target)")
            }
            return 1
        }
        return ask(failures)
    }

    /// Accepts every failure; 2 if any could not be.
    func accept(_ failures: [PendingReview]) -> Int32 {
        var status: Int32 = 0
        var swept: Set<String> = []
        for failure in failures {
            do {
                try failure.accept(sweeping: &swept)
                Console.line("accepted: \(failure.reference ?? failure.name)")
            } catch {
                Console.error(error.description)
                status = 2
            }
        }
        return status
    }

    /// The keyboard loop: one failure at a time. A failure that cannot be accepted is told, and
    /// the rest still asked about, as ``accept(_:)`` goes on; the loop then ends with 2.
    func ask(_ failures: [PendingReview]) -> Int32 {
        var remaining = 0
        var failed = false
        var swept: Set<String> = []
        var acceptingAll = false
        for (index, failure) in failures.enumerated() {
            Console.line("")
            Console.line(failure.line(index + 1, of: failures.count))
            if let review = failure.review { Console.line("  review image: \(review)") }
            Console.line("  \(failure.target)")
            var answer = acceptingAll ? "a" : ""
            while !["a", "r", "s", "A", "q"].contains(answer) {
                print("[a]ccept [r]eject [s]kip [A]ccept all [q]uit: ", terminator: "")
                fflush(nil)
                guard let line = readLine() else {
                    answer = "q"
                    break
                }
                answer = line.trimmingSpaces
            }
            if answer == "A" {
                acceptingAll = true
                answer = "a"
            }
            switch answer {
            case "a":
                do {
                    try failure.accept(sweeping: &swept)
                    Console.line("accepted: \(failure.reference ?? failure.name)")
                } catch {
                    Console.error(error.description)
                    failed = true
                }
            case "r":
                if failure.reject() {
                    Console.line("rejected: \(failure.name)")
                } else {
                    Console.line("rejected: \(failure.name); it stays in its batch report until batch runs again")
                    remaining += 1
                }
            case "q":
                return failed ? 2 : 1
            default:
                remaining += 1
            }
        }
        return failed ? 2 : remaining == 0 ? 0 : 1
    }
}

/// One failure to review: a failed snapshot or a batch pair.
struct PendingReview: Encodable {
    enum Source: String, Encodable {
        case snapshot
        case batch
    }

    var source: Source
    var name: String
    /// The reference to replace (nil: unknown, cannot be accepted).
    var reference: String?
    /// The image that replaces it.
    var new: String
    var review: String?
    var summary: String
    /// The entry file that listed a snapshot failure, removed once it is decided.
    var entry: String?
    /// For a batch pair: its reference folder and its path there, so that accepting writes
    /// only inside that folder's own folders, as `batch --approve` does.
    var referenceFolder: (root: String, path: String)?
    /// Why the failure cannot be accepted here, when it cannot.
    var refusal: String?
    /// Whether ``refusal`` begins with the file it is about, as a check's error does; otherwise
    /// accepting names the failure before it.
    var refusalNamesItsFile = false
    /// For a snapshot failure: the reference as the test read it (``ReviewEntry/recordedReference``).
    var recordedReference: String?
    /// For a snapshot failure: the digest of the failure file as the test wrote it
    /// (``ReviewEntry/failureDigest``).
    var failureDigest: String?
    /// For a batch pair: the report's copies of the images batch compared, which a person
    /// reviewed.
    var comparedCopies: ComparedCopies?

    private enum CodingKeys: String, CodingKey { case source, name, reference, new, review, summary, entry, refusal }

    /// The failure on one line; its target follows after a semicolon, so a summary's closing
    /// full stop is left off.
    func line(_ index: Int, of count: Int) -> String {
        "[\(index)/\(count)] \(source.rawValue) \(name): \(summary.hasSuffix(".") ? String(summary.dropLast()) : summary)"
    }

    /// What accepting would do: the file it replaces, or why it cannot be accepted.
    var target: String {
        if let refusal { return "not accepted here: \(refusal)" }
        guard let reference else { return "not accepted here: the reference is unknown" }
        return "replaces \(reference)"
    }

    /// Replaces the reference with the new image, atomically and durably. The temporary files
    /// that killed imgdiff runs left in the reference's folder (``ImageFile/isAbandonedTemporaryName(_:)``)
    /// are removed first, once per folder in `swept`, as batch removes those in its folders.
    func accept(sweeping swept: inout Set<String>) throws(CommandLineError) {
        if let refusal { throw CommandLineError(refusalNamesItsFile ? refusal : "\(name): \(refusal)") }
        guard let reference else {
            throw CommandLineError("\(name): the reference is unknown (it was not found among the test's snapshots); copy \(new) by hand")
        }
        do {
            let bytes = try ImageFile.read(new)
            try checkFailureDigest(bytes)
            _ = try ImageDecoder.decode(bytes, name: new)
            try Self.checkInsideCurrentFolder(referenceFolder?.root ?? reference)
            if referenceFolder == nil, isAlreadyAccepted(reference, bytes) {
                // Accepted by another run (a second review at once, or one whose entry could
                // not be removed): done, not a reference changed since the failure.
                if let entry { try? FileManager.default.removeItem(atPath: entry) }
                return
            }
            if let referenceFolder {
                if let problem = ComparedCopies.problem(comparedCopies, reference: reference, new: new, newBytes: bytes) {
                    throw CommandLineError(problem)
                }
                try SnapshotFolder.createFolders(for: referenceFolder.path, under: referenceFolder.root)
            } else {
                try checkSnapshotReference(reference)
            }
            let folder = PathText.parent(of: reference)
            if swept.insert(folder).inserted { Self.removeAbandonedTemporaryFiles(in: folder) }
            try ImageFile.write(bytes, to: reference, durable: true)
        } catch let error as ImageFileError {
            throw CommandLineError(error.description)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError("\(reference): \(SystemError.reason(error))")
        }
        if let entry { try? FileManager.default.removeItem(atPath: entry) }
    }

    /// Removes the files in `folder` that are imgdiff's temporary files of a run no longer
    /// running (a `kill -9` during an accept): nothing else would.
    static func removeAbandonedTemporaryFiles(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where ImageFile.isAbandonedTemporaryName(name.utf8) {
            _ = unlink(PathText.join(folder, name))
        }
    }

    /// Whether the snapshot's reference already holds `failureBytes`, the bytes accepting writes.
    func isAlreadyAccepted(_ reference: String, _ failureBytes: [UInt8]) -> Bool {
        var status = stat()
        guard lstat(reference, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) == failureBytes.count else {
            return false
        }
        return (try? ImageFile.read(reference)) == failureBytes
    }

    /// Refuses a failure file that no longer holds the bytes the test wrote (``failureDigest``):
    /// replaced or edited since, it is not what the test produced, nor what a person reviewed.
    func checkFailureDigest(_ bytes: [UInt8]) throws(CommandLineError) {
        guard let failureDigest, ReviewEntry.digest(of: bytes) != failureDigest else { return }
        throw CommandLineError("\(new): changed since the test wrote it; run the test again")
    }

    /// Refuses a reference (or a batch's reference folder) outside the folder review runs in:
    /// entries and reports are input (CI artefacts downloaded to review), and name the files
    /// they replace; those of the project review runs in lie inside it.
    static func checkInsideCurrentFolder(_ path: String) throws(CommandLineError) {
        guard SnapshotFolder.isSameOrInside(path, ".") else {
            throw CommandLineError(
                "\(path): lies outside the current folder; run imgdiff review from the project whose references it replaces")
        }
    }

    /// Refuses to replace a snapshot's reference unless it is the file the test failed
    /// against: the reference must be an existing file, not a link, and still hold the pixels
    /// the test read: those of ``recordedReference``, which lies beside the entry (an empty
    /// reference, recorded from a snapshot that could not be made, is shown only by an empty
    /// recorded reference).
    func checkSnapshotReference(_ reference: String) throws(CommandLineError) {
        var status = stat()
        guard lstat(reference, &status) == 0 else {
            throw CommandLineError("\(reference): no such reference here; review where the tests ran, or run them again")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CommandLineError("\(reference): not a regular file; a snapshot's reference is replaced only as a file")
        }
        guard let recordedReference, let entry else {
            throw CommandLineError(
                "\(name): its entry does not show the reference the test failed against beside it: it names none (an entry of an earlier imgdiff, or not the strategies'); run the test again")
        }
        guard SnapshotFolder.resolved(PathText.parent(of: recordedReference)) == SnapshotFolder.resolved(PathText.parent(of: entry)) else {
            throw CommandLineError(
                "\(name): its entry does not show the reference the test failed against beside it: no \(PathText.lastComponent(recordedReference)) in \(PathText.parent(of: entry)); keep an entry with the artifacts of its failure, or run the test again")
        }
        if status.st_size == 0 {
            // An empty reference needs its evidence as much as any: only a recorded reference
            // that is empty too shows it. The strategies write no entry for one (they fail the
            // test with "the stored reference is empty or not an image", to delete and record
            // again), so in practice an empty reference is left as it is.
            var recordedStatus = stat()
            guard lstat(recordedReference, &recordedStatus) == 0, recordedStatus.st_mode & S_IFMT == S_IFREG, recordedStatus.st_size == 0 else {
                throw CommandLineError("\(reference): changed since this failure (recorded again, or accepted); run the test again")
            }
            return
        }
        let recorded: RGBAImage
        do throws(ImageFileError) {
            recorded = try ImageDecoder.decode(contentsOf: recordedReference)
        } catch {
            throw CommandLineError("\(error.description); it shows the reference the test failed against, so \(reference) is left as it is")
        }
        let current: RGBAImage
        do throws(ImageFileError) {
            current = try ImageDecoder.decode(contentsOf: reference)
        } catch {
            throw CommandLineError("\(error.description); so it is not shown to be the reference the test failed against, and is left as it is")
        }
        guard current.width == recorded.width, current.height == recorded.height, Self.sameSamples(current, recorded) else {
            throw CommandLineError("\(reference): changed since this failure (recorded again, or accepted); run the test again")
        }
    }

    /// Whether two images of one size hold the same samples: their 16-bit samples when either
    /// has them (an 8-bit sample v widened as v × 257), so that a 16-bit reference changed only
    /// in its low bytes is told apart; else their 8-bit ones.
    static func sameSamples(_ first: RGBAImage, _ second: RGBAImage) -> Bool {
        guard first.samples16 != nil || second.samples16 != nil else { return first.pixels == second.pixels }
        func wide(_ image: RGBAImage) -> [UInt16] { image.samples16 ?? image.pixels.map { UInt16($0) &* 257 } }
        return wide(first) == wide(second)
    }

    /// Forgets a snapshot failure, and says whether it did: a batch pair stays in its report
    /// until batch runs again.
    func reject() -> Bool {
        guard let entry else { return false }
        try? FileManager.default.removeItem(atPath: entry)
        return true
    }

    /// Where to look for failures.
    struct Search {
        /// The folder searched.
        var root: String
        /// Whether only this project's snapshot entries are read, not batch reports: in the
        /// temporary directory, shared by every project, a report.json is likely another tool's,
        /// and an entry whose reference lies outside the current folder another project's.
        var entriesOnly = false
        /// How deep below `root` files are read (1: its own files); nil: all the way down.
        var maxDepth: Int? = nil
        /// The search, as "Nothing to review (searched …)" tells it.
        var shown: String

        init(root: String, entriesOnly: Bool = false, maxDepth: Int? = nil, shown: String? = nil) {
            self.root = root
            self.entriesOnly = entriesOnly
            self.maxDepth = maxDepth
            self.shown = shown ?? root
        }
    }

    /// Every failure the search finds, sorted by name, and a problem for each entry or batch
    /// report of imgdiff's that cannot be read (in the order found). A folder that cannot be
    /// searched, or a report naming a pair path that leaves the snapshot folders, is an error.
    static func find(_ search: Search) throws(CommandLineError) -> (failures: [PendingReview], unreadable: [CommandLineError]) {
        let root = search.root
        try SnapshotFolder.requireDirectory(root)
        guard let relativePaths = subpaths(of: root, maxDepth: search.maxDepth) else {
            throw CommandLineError("\(root): cannot list the folder")
        }
        var found: [PendingReview] = []
        var unreadable: [CommandLineError] = []
        for relative in relativePaths.sorted() {
            let path = PathText.join(root, relative)
            if relative.hasSuffix(ReviewEntry.suffix) {
                do throws(CommandLineError) {
                    found += try snapshotFailure(path)
                } catch {
                    unreadable.append(error)
                }
            } else if !search.entriesOnly, PathText.lastComponent(relative) == "report.json" {
                let report: BatchEntry?
                do throws(CommandLineError) {
                    report = try batchReport(path)
                } catch {
                    unreadable.append(error)
                    continue
                }
                // A pair path that leaves the snapshot folders stops the review: the report is
                // not imgdiff's as written, and says what to replace.
                if let report { found += try batchFailures(report, of: path) }
            }
        }
        return (found.sorted { ($0.source.rawValue, $0.name) < ($1.source.rawValue, $1.name) }, unreadable)
    }

    /// Every path under `root`, relative to it, at most `maxDepth` components deep; symbolic
    /// links are listed, not followed, and folders that cannot be read are passed over. Nil when
    /// `root` itself cannot be read.
    static func subpaths(of root: String, maxDepth: Int? = nil) -> [String]? {
        guard let top = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
        var found: [String] = []
        var pending = top
        while let relative = pending.popLast() {
            found.append(relative)
            if let maxDepth, relative.split(separator: "/").count >= maxDepth { continue }
            var status = stat()
            guard lstat(PathText.join(root, relative), &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
                let names = try? FileManager.default.contentsOfDirectory(atPath: PathText.join(root, relative))
            else { continue }
            pending += names.map { relative + "/" + $0 }
        }
        return found
    }

    /// The failure an entry file lists; an entry that cannot be read is a problem to report
    /// (review goes on with the rest, and ends with 2), as its name is imgdiff's.
    static func snapshotFailure(_ path: String) throws(CommandLineError) -> [PendingReview] {
        guard let data = FileManager.default.contents(atPath: path), var entry = ReviewEntry(bytes: [UInt8](data)) else {
            throw CommandLineError("\(path): not a readable imgdiff review entry; delete it, or run the test again")
        }
        entry.failure = besideEntry(entry.failure, entry: path)
        entry.review = entry.review.map { besideEntry($0, entry: path) }
        entry.recordedReference = entry.recordedReference.map { besideEntry($0, entry: path) }
        if let reference = entry.reference, let local = checkedOutHere(reference) {
            entry.reference = local.path
            entry.twins = entry.twins?.map { twin in twin.hasPrefix(local.recordedRoot) ? String(twin.dropFirst(local.recordedRoot.count)) : twin }
        }
        let name = String(PathText.lastComponent(path).dropLast(ReviewEntry.suffix.count))
        var failure = PendingReview(
            source: .snapshot, name: name, reference: entry.reference, new: entry.failure, review: entry.review,
            summary: entry.summary, entry: path)
        failure.recordedReference = entry.recordedReference
        failure.failureDigest = entry.failureDigest
        if let twins = entry.twins, twins.count > 1 {
            switch failedTwin(of: entry, among: twins, besides: path) {
            case .some(let twin): failure.reference = twin
            case .none:
                failure.refusal =
                    "its reference has \(twins.count - 1) twin(s) with the same pixels (\(twins.map(PathText.lastComponent).joined(separator: ", "))), and swift-snapshot-testing's failure file beside the entry does not tell which one failed; record the test again"
            }
        }
        // Listed as accepting would find it: a reference recorded again since the failure
        // (`record: .failed`, or accepted) is not offered.
        if failure.refusal == nil, let reference = failure.reference {
            let failureBytes = try? ImageFile.read(failure.new)
            // Accepted already (its entry left behind): nothing to review.
            if let failureBytes, failure.isAlreadyAccepted(reference, failureBytes) { return [] }
            do throws(CommandLineError) {
                try checkInsideCurrentFolder(reference)
                try failure.checkSnapshotReference(reference)
                if let failureBytes { try failure.checkFailureDigest(failureBytes) }
            } catch {
                failure.refusal = error.description
                failure.refusalNamesItsFile = true
            }
        }
        return [failure]
    }

    /// One of an entry's artifacts (the failure, the review image, the reference the test read),
    /// which the strategies write beside the entry and name by absolute path: the file of that
    /// name beside the entry, when the entry lies elsewhere than it says (its folder moved, or
    /// downloaded from CI) and the file is there; otherwise the path as the entry gives it.
    static func besideEntry(_ artifact: String, entry: String) -> String {
        let folder = PathText.parent(of: entry)
        if SnapshotFolder.resolved(PathText.parent(of: artifact)) == SnapshotFolder.resolved(folder) { return artifact }
        let name = PathText.lastComponent(artifact)
        guard !name.isEmpty, name != ".", name != ".." else { return artifact }
        let beside = PathText.join(folder, name)
        var status = stat()
        return lstat(beside, &status) == 0 ? beside : artifact
    }

    /// Where a reference the tests wrote on another machine (an entry downloaded from CI, its
    /// absolute path that machine's checkout) lies in this checkout: the longest tail of its
    /// path, at least its folder and name, that exists under the current folder (a link or a
    /// folder there is then refused as any reference would be). Nil when the
    /// path exists as written, lies inside the current folder, or has no such tail here.
    /// `recordedRoot` is the head dropped, to drop from the entry's other paths (its twins) too.
    /// The reference's pixels are still checked against the ones the test read before it is
    /// replaced.
    static func checkedOutHere(_ reference: String) -> (path: String, recordedRoot: String)? {
        var status = stat()
        guard PathText.isAbsolute(reference), lstat(reference, &status) != 0, !SnapshotFolder.isSameOrInside(reference, ".") else { return nil }
        let components = PathText.components(of: reference).filter { !$0.isEmpty }
        guard components.count >= 2, !components.contains("..") else { return nil }
        for dropped in 0...(components.count - 2) {
            let tail = components[dropped...].joined(separator: "/")
            guard lstat(tail, &status) == 0 else { continue }
            let recordedRoot = "/" + components[..<dropped].joined(separator: "/") + (dropped == 0 ? "" : "/")
            return (tail, recordedRoot)
        }
        return nil
    }

    /// Which of identical references failed: the one whose name swift-snapshot-testing gave the
    /// failure file it wrote beside the entry (the reference's file name, holding the failure's
    /// bytes), in the same run: swift-snapshot-testing writes it just after the entry's failure
    /// artifact, and never removes one, so a file older than the artifact is an earlier run's.
    /// The entry's own reference wins when its file says so; otherwise the one twin whose file
    /// does; nil when none or several do.
    static func failedTwin(of entry: ReviewEntry, among twins: [String], besides entryPath: String) -> String? {
        guard let failure = try? ImageFile.read(entry.failure), let written = modificationTime(entry.failure) else { return nil }
        let folder = PathText.parent(of: entryPath)
        let failed = twins.filter { twin in
            let file = PathText.join(folder, PathText.lastComponent(twin))
            guard let time = modificationTime(file), time >= written - 1 else { return false }
            return (try? ImageFile.read(file)) == failure
        }
        if let reference = entry.reference, failed.contains(reference) { return reference }
        return failed.count == 1 ? failed[0] : nil
    }

    /// When the file at `path` was last written, in seconds.
    static func modificationTime(_ path: String) -> Double? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        return Double(status.st_mtimespec.tv_sec) + Double(status.st_mtimespec.tv_nsec) / 1e9
        #else
        return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        #endif
    }

    struct BatchEntry: Decodable {
        struct Pair: Decodable {
            var path: String
            var status: String
            var referenceFile: String?
            var newFile: String?
            var metrics: Metrics?
            var outputs: Outputs?
        }

        struct Outputs: Decodable {
            var reference: String?
            var new: String?
            var blend: String?
            var newPreview: String?

            /// The image to look at, inside the report folder `folder`: the blend of a changed
            /// pair, the new image (or its PNG preview) of a new one; nil when the report names
            /// none there.
            func reviewImage(inReportFolder folder: String) -> String? {
                [blend, newPreview, new].lazy.compactMap { $0 }
                    .first { SnapshotFolder.isPlainRelativePath($0) && $0.unicodeScalars.starts(with: "pairs/".unicodeScalars) }
                    .map { PathText.join(folder, $0) }
            }
        }

        struct Metrics: Decodable {
            var summary: String?
        }

        var referenceDirectory: String
        var newDirectory: String
        var command: [String]?
        var pairs: [Pair]
    }

    /// The batch report at `path`; nil for a report.json that is not imgdiff's (no report beside
    /// it, no batch keys). One of imgdiff's that cannot be read is thrown, a problem to report:
    /// review goes on with the rest, and ends with 2.
    static func batchReport(_ path: String) throws(CommandLineError) -> BatchEntry? {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandLineError("\(path): cannot read the batch report")
        }
        do {
            return try JSONDecoder().decode(BatchEntry.self, from: data)
        } catch {
            guard isImgdiffReport(path, data) else { return nil }
            throw CommandLineError("\(path): not a readable imgdiff batch report (\(JSONProblem.described(error))); run batch again")
        }
    }

    /// The changed and new pairs of the batch report read from `path` whose reference does not
    /// yet hold the new image (an accepted pair is not listed again). The pairs of runs that
    /// `merge-reports` joined side by side are listed but not accepted here, as `merge-reports
    /// --approve` refuses them: two new images may claim one reference. A pair path that leaves
    /// the snapshot folders (`..`, an absolute path) is an error, which stops the review.
    static func batchFailures(_ report: BatchEntry, of path: String) throws(CommandLineError) -> [PendingReview] {
        try SnapshotFolder.checkPairPaths(report.pairs.lazy.map(\.path), of: path)
        let sideBySide = report.command?.first == MergeReportsCommand._commandName
        return report.pairs.compactMap { pair in
            guard pair.status == "changed" || pair.status == "new" else { return nil }
            let reference = pair.referenceFile ?? PathText.join(report.referenceDirectory, pair.path)
            let new = pair.newFile ?? PathText.join(report.newDirectory, pair.path)
            if let a = FileManager.default.contents(atPath: reference), let b = FileManager.default.contents(atPath: new), a == b {
                return nil
            }
            var failure = PendingReview(
                source: .batch, name: pair.path, reference: reference, new: new,
                review: pair.outputs?.reviewImage(inReportFolder: PathText.parent(of: path)),
                summary: pair.status == "new" ? "new image" : pair.metrics?.summary ?? "changed", entry: nil)
            failure.comparedCopies = ComparedCopies(
                new: pair.outputs?.new, reference: pair.outputs?.reference, isNewPair: pair.status == "new",
                inReportFolder: PathText.parent(of: path))
            if sideBySide {
                failure.refusal = "from runs joined side by side (\(path)); accept from each run's own report"
            } else if pair.referenceFile.map({ $0 != PathText.join(report.referenceDirectory, pair.path) }) ?? false {
                failure.refusal = "names its reference \(reference) apart from its folder \(report.referenceDirectory); a report batch wrote names none"
            } else if pair.newFile.map({ $0 != PathText.join(report.newDirectory, pair.path) }) ?? false {
                failure.refusal = "names its new image \(new) apart from its folder \(report.newDirectory); a report batch wrote names none"
            } else if let problem = ComparedCopies.problem(failure.comparedCopies, reference: reference, new: new) {
                failure.refusal = problem
                failure.refusalNamesItsFile = true
            } else {
                do throws(CommandLineError) {
                    try checkInsideCurrentFolder(report.referenceDirectory)
                    failure.referenceFolder = (report.referenceDirectory, pair.path)
                } catch {
                    failure.refusal = error.description
                    failure.refusalNamesItsFile = true
                }
            }
            return failure
        }
    }

    /// Whether a report.json that does not decode is one imgdiff wrote, broken: it names a
    /// batch's keys, or lies beside the rest of a report.
    static func isImgdiffReport(_ path: String, _ data: Data) -> Bool {
        let folder = PathText.parent(of: path)
        return String(decoding: data, as: UTF8.self).contains("\"referenceDirectory\"")
            || ["junit.xml", "summary.md", "index.html"].contains { FileManager.default.fileExists(atPath: PathText.join(folder, $0)) }
    }
}
