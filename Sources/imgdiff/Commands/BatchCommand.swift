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

/// `imgdiff batch REF_DIR NEW_DIR`: every pair of two snapshot folders, with a review report.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Compare two folders of snapshots and write a review report (HTML, JSON, JUnit, Markdown).",
        discussion: """
            Files are paired by their path relative to each folder, recursively:
            REF_DIR/a/b.png with NEW_DIR/a/b.png. Image files only (png, jpg,
            jpeg, gif, bmp, tif, tiff, webp, ppm, pgm, pnm); hidden files and
            folders are skipped. Each pair is one of:
              changed   in both folders, different under the comparison options
              passed    in both folders, and matching
              new       only in NEW_DIR
              deleted   only in REF_DIR
              error     a file could not be read or decoded (the batch goes on)
            Every comparison option of `imgdiff compare` applies to every pair. With
            none of them, the settings file REF_DIR/imgdiff.json (as `imgdiff tune
            --write-config` writes it) judges the pairs when it is there; --config
            FILE names another; an option on the command line sets them instead,
            and says so.

            Examples:
              imgdiff batch Snapshots/ref Snapshots/ci --out report
              imgdiff batch ref new --metric ciede2000 --threshold 2.3
              imgdiff batch ref new --precision 0.999 --perceptual-precision 0.98
              imgdiff batch ref new --approve     accept the changed and new images

            Writes, under --out (default ./imgdiff-report):
              index.html   the review page: failures first; filters; side by side,
                           blend, mask, slider and onion skin; the numbers and the
                           bounding box. index.html#filter=failed (or new,
                           deleted, passed) opens it filtered.
              report.json  arrays changed, passed, new, deleted, errors (relative
                           paths) and pairs: per pair the status, metrics,
                           verdict and output paths
              junit.xml    one test case per pair; changed, new and deleted
                           pairs are failures, unreadable ones errors
              summary.md   the counts and a table of the pairs to review, in
                           Markdown: cat it >> "$GITHUB_STEP_SUMMARY"
              pairs/PATH/  for a changed pair blend.png, mask.png and copies of
                           both images; for a new or deleted pair a copy of its
                           image (passed pairs link to the input files)
            --out may not overlap REF_DIR or NEW_DIR. On a terminal, stderr shows
            a progress line: done/total, rate, ETA.

            --shard I/N compares part I of N (pairs assigned by a hash of their
            path, so parts balance and stay stable as files come and go) and
            writes that part's report; `imgdiff merge-reports` joins the parts'
            reports into the one an unsharded run writes.

            --approve, once the report is written, copies NEW_DIR/PATH over
            REF_DIR/PATH for every changed and new pair and prints each file it
            wrote. Deleted pairs are listed, never removed.

            Exit status: 2 if any pair errored (each error is also one line on
            stderr), else 1 if any pair changed, is new or was deleted, else 0.
            With --approve: 2 on any error, 1 if deleted pairs remain, else 0.
            """
    )

    @Argument(help: ArgumentHelp("The folder of reference snapshots.", valueName: "REF_DIR"))
    var referenceDirectory: String

    @Argument(help: ArgumentHelp("The folder of new snapshots.", valueName: "NEW_DIR"))
    var newDirectory: String

    @Option(name: .customLong("out"), help: ArgumentHelp("The report folder.", valueName: "DIR"))
    var outputDirectory = "imgdiff-report"

    @Flag(help: "Copy the new image over the reference for each changed and new pair.")
    var approve = false

    @Option(parsing: .unconditional, help: "Pairs compared at once (default: one per core).")
    var jobs: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Compare only part I of N of the pairs (N up to \(Shard.maximumCount)), for CI runners that split a job; merge the parts' reports with `imgdiff merge-reports`.",
        valueName: "I/N"), transform: Shard.parse)
    var shard: Shard?

    @OptionGroup var comparison: ComparisonArguments

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if outputDirectory.isEmpty { throw ValidationError("--out is empty; name the report folder") }
    }

    func run() async throws {
        do {
            throw ExitCode(try await batch())
        } catch let error as CommandLineError {
            Console.error(error.description)
            throw ExitCode(2)
        }
    }

    func batch() async throws(CommandLineError) -> Int32 {
        try checkFolders()
        let pairing = try FolderPairing(reference: referenceDirectory, new: newDirectory, report: outputDirectory)
        if pairing.isEmpty {
            throw CommandLineError("no images in \(referenceDirectory) or \(newDirectory); nothing to compare")
        }
        let folder = try ReportFolder(
            outputDirectory, inputs: [referenceDirectory, newDirectory] + [comparison.config, comparison.ignoreMask].compactMap { $0 })
        let report: BatchReport
        do {
            report = try await makeReport(pairing, in: folder)
            try folder.commit()
        } catch {
            folder.discard()
            throw error
        }
        report.printSummary(reportFolder: outputDirectory)
        guard approve else { return report.exitCode }
        return report.approve(reportFolder: outputDirectory)
    }

    /// The setting from `--config`, else the reference folder's ``ComparisonSettings/defaultFileName``
    /// when no option sets how pixels are judged.
    func settings() throws(CommandLineError) -> ComparisonSettings? {
        let besideReferences = settingsFileBesideReferences
        var status = stat()
        let hasFileBesideReferences = lstat(besideReferences, &status) == 0
        if let settings = try comparison.settings(), let config = comparison.config {
            if hasFileBesideReferences, !SnapshotFolder.isSameOrInside(config, besideReferences) {
                Console.warning("\(besideReferences) is not used: --config \(config) was given")
            }
            return settings
        }
        guard hasFileBesideReferences else { return nil }
        if let given = comparison.judgingOptionsGiven.first {
            Console.warning("\(besideReferences) is not used: \(given) was given")
            return nil
        }
        do {
            return try ComparisonSettings.load(contentsOf: besideReferences)
        } catch {
            throw CommandLineError(error.description)
        }
    }

    /// The reference folder's ``ComparisonSettings/defaultFileName``.
    var settingsFileBesideReferences: String { PathText.join(referenceDirectory, ComparisonSettings.defaultFileName) }

    /// Compares every pair and writes the report into the staging folder.
    func makeReport(_ pairing: FolderPairing, in folder: ReportFolder) async throws(CommandLineError) -> BatchReport {
        let jobCount = jobs ?? defaultJobCount
        let settings = try settings()
        // One pair a core: each pair then runs on its worker's thread alone.
        let request = try comparison.request(
            outputs: [.blend, .mask], policy: .whenDifferent, parallelism: jobCount > 1 ? .callingThread : .allCores,
            settings: settings, settingsFile: comparison.config ?? settingsFileBesideReferences)
        if let settings, comparison.config == nil {
            Console.note("judging pairs by \(settingsFileBesideReferences): \(settings.cliArguments.joined(separator: " "))")
        }
        let job = PairJob(
            referenceDirectory: referenceDirectory, newDirectory: newDirectory, outputDirectory: outputDirectory,
            stagingDirectory: folder.staging, request: request, memory: MemoryBudget(total: request.limits.maxMemory),
            filesBesideFolders: pairing.filesBesideFolders)
        let items = (pairing.common.map(PairJob.Item.both) + pairing.onlyInNew.map(PairJob.Item.onlyNew)
            + pairing.onlyInReference.map(PairJob.Item.onlyReference)).filter { shard?.contains($0.path) ?? true }
        var progress = ProgressLine(total: items.count, noun: "pairs")
        let records = await mapConcurrently(items, jobs: jobCount, progress: &progress) { job.process($0) }

        let report = BatchReport(
            referenceDirectory: referenceDirectory, newDirectory: newDirectory,
            command: Array(CommandLine.arguments.dropFirst()), shard: shard, settings: settings?.cliArguments ?? [],
            ignoreMask: try ignoreMaskDigest(),
            run: CIRun.current(environment: ProcessInfo.processInfo.environment), records: records)
        try report.write(into: folder.staging)
        return report
    }

    /// ``BatchReport/ignoreMask``: the digest of the `--ignore-mask` file's bytes.
    func ignoreMaskDigest() throws(CommandLineError) -> String? {
        guard let path = comparison.ignoreMask else { return nil }
        do {
            return ReviewEntry.digest(of: try ImageFile.read(path))
        } catch {
            throw CommandLineError(error.description)
        }
    }

    /// Refuses folders that would give a green run for nothing, or nest the outputs: the same
    /// folder twice, one input inside the other, or a report folder overlapping either.
    func checkFolders() throws(CommandLineError) {
        try SnapshotFolder.requireDirectory(referenceDirectory)
        try SnapshotFolder.requireDirectory(newDirectory)
        if SnapshotFolder.isSameOrInside(referenceDirectory, newDirectory) && SnapshotFolder.isSameOrInside(newDirectory, referenceDirectory) {
            throw CommandLineError("\(referenceDirectory) and \(newDirectory) are the same folder; compare the references with another folder")
        }
        for (inner, outer) in [(referenceDirectory, newDirectory), (newDirectory, referenceDirectory)]
        where SnapshotFolder.isSameOrInside(inner, outer) {
            throw CommandLineError("\(inner) lies inside \(outer), so its images would be listed twice; give two separate folders")
        }
        for input in [referenceDirectory, newDirectory] {
            if SnapshotFolder.overlap(outputDirectory, input) {
                throw CommandLineError("\(outputDirectory): the report folder may not overlap the input folder \(input); choose another --out")
            }
        }
    }
}

/// Everything a worker needs to handle one pair; shared by the concurrent workers.
struct PairJob: Sendable {
    enum Item: Sendable {
        case both(String)
        case onlyNew(String)
        case onlyReference(String)

        var path: String {
            switch self {
            case .both(let path), .onlyNew(let path), .onlyReference(let path): path
            }
        }
    }

    let referenceDirectory: String
    let newDirectory: String
    /// The report folder as given: passed pairs link to their inputs relative to it.
    let outputDirectory: String
    /// Where this run writes the report (see ``ReportFolder``).
    let stagingDirectory: String
    let request: ComparisonRequest
    /// Shared by the workers: `--max-memory` for the whole batch.
    let memory: MemoryBudget
    /// Paths that are a file in one folder and a folder in the other
    /// (``FolderPairing/filesBesideFolders``): errors, whose files the report cannot hold.
    var filesBesideFolders: Set<String> = []
    /// Shared by the workers: how the pairs compared so far went.
    let tally = DifferenceTally()

    func process(_ item: Item) -> PairRecord {
        let clock = ContinuousClock()
        let start = clock.now
        var record: PairRecord
        switch item {
        case .onlyNew(let path) where filesBesideFolders.contains(path), .onlyReference(let path) where filesBesideFolders.contains(path):
            record = fileBesideFolder(item)
        case .both(let path): record = compare(path)
        case .onlyNew(let path): record = single(path, status: .new)
        case .onlyReference(let path): record = single(path, status: .deleted)
        }
        let elapsed = (clock.now - start).components
        record.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return record
    }

    func compare(_ path: String) -> PairRecord {
        let referenceFile = PathText.join(referenceDirectory, path)
        let newFile = PathText.join(newDirectory, path)
        func failure(_ message: String) -> PairRecord {
            PairRecord(path: path, status: .error, referenceFile: referenceFile, newFile: newFile, error: message)
        }
        let reference: EncodedImage, actual: EncodedImage, outcome: PairOutcome
        do throws(ImageFileError) {
            reference = try EncodedImage(contentsOf: referenceFile, limits: request.limits)
            actual = try EncodedImage(contentsOf: newFile, limits: request.limits)
            let estimate = Pipeline.wholeImageMemory(reference, actual) ?? 0
            var request = request
            request.expectedDifferingShare = tally.differingShare
            outcome = try memory.withReservation(estimate) { () throws(ImageFileError) in
                try Pipeline.compare(reference, actual, request: request)
            }
        } catch {
            return failure(error.description)
        }
        if outcome.route != .identicalBytes { tally.record(differs: !outcome.match) }
        var record = PairRecord(
            path: path, status: outcome.match ? .passed : .changed, referenceFile: referenceFile, newFile: newFile,
            metrics: PairMetrics(outcome), snapshot: outcome.snapshot)
        if outcome.match {
            record.outputs.reference = SnapshotFolder.relativePath(of: referenceFile, from: outputDirectory)
            record.outputs.new = SnapshotFolder.relativePath(of: newFile, from: outputDirectory)
            return record
        }
        // A pair whose outputs cannot all be written keeps none: the report lists no file of
        // its folder, and a later run on the report takes any file there for one put by hand.
        func failureWithoutOutputs(_ message: String) -> PairRecord {
            try? FileManager.default.removeItem(atPath: PathText.join(stagingDirectory, pairFolderName(path)))
            return failure(message)
        }
        do {
            let folder = try pairFolder(path)
            record.outputs.reference = try copy(reference, into: folder, as: "reference")
            record.outputs.new = try copy(actual, into: folder, as: "new")
            record.outputs.referencePreview = try preview(of: reference, into: folder, as: "reference")
            record.outputs.newPreview = try preview(of: actual, into: folder, as: "new")
            for (output, name) in [(ReviewOutput.blend, "blend.png"), (.mask, "mask.png")] {
                guard let bytes = outcome.outputs[output] else { continue }
                let relative = folder + "/" + name
                try ImageFile.create(bytes, at: PathText.join(stagingDirectory, relative))
                if output == .blend { record.outputs.blend = relative } else { record.outputs.mask = relative }
            }
        } catch let error as ImageFileError {
            return failureWithoutOutputs(error.description)
        } catch let error as CommandLineError {
            return failureWithoutOutputs(error.description)
        } catch {
            return failureWithoutOutputs("\(path): \(error)")
        }
        return record
    }

    /// A file in one folder whose path is a folder of images in the other.
    func fileBesideFolder(_ item: Item) -> PairRecord {
        let isNew = if case .onlyNew = item { true } else { false }
        let file = PathText.join(isNew ? newDirectory : referenceDirectory, item.path)
        let folder = PathText.join(isNew ? referenceDirectory : newDirectory, item.path)
        return PairRecord(
            path: item.path, status: .error, referenceFile: isNew ? nil : file, newFile: isNew ? file : nil,
            error: "\(file) is an image but \(folder) is a folder of images; rename one, so that the report can hold both")
    }

    /// A new or deleted pair: a copy of its one image.
    func single(_ path: String, status: PairStatus) -> PairRecord {
        let file = PathText.join(status == .new ? newDirectory : referenceDirectory, path)
        var record = PairRecord(
            path: path, status: status,
            referenceFile: status == .deleted ? file : nil, newFile: status == .new ? file : nil)
        do {
            let image = try EncodedImage(contentsOf: file, limits: request.limits)
            // A new or deleted snapshot is decoded before it is reported (and a new one
            // approved) as one: a file that is no image, or a broken one, is an error, never a
            // reference to be, nor copied into the report (a link to /proc/self/environ named
            // like a reference would publish the runner's environment).
            let name = status == .new ? "new" : "reference"
            let (folder, preview): (String, String?) = try memory.withReservation(decodedMemory(image)) { () throws in
                let decoded = try ImageDecoder.decode(image.bytes, name: image.name, limits: request.limits)
                let folder = try pairFolder(path)
                return (folder, try self.preview(of: image, decoded: decoded, into: folder, as: name))
            }
            let copied = try copy(image, into: folder, as: name)
            if status == .new {
                (record.outputs.new, record.outputs.newPreview) = (copied, preview)
            } else {
                (record.outputs.reference, record.outputs.referencePreview) = (copied, preview)
            }
        } catch let error as ImageFileError {
            return PairRecord(path: path, status: .error, referenceFile: record.referenceFile, newFile: record.newFile, error: error.description)
        } catch let error as CommandLineError {
            return PairRecord(path: path, status: .error, referenceFile: record.referenceFile, newFile: record.newFile, error: error.description)
        } catch {
            return PairRecord(path: path, status: .error, error: "\(file): \(error)")
        }
        return record
    }

    /// The folder of the pair at `path` in the report: `pairs/PATH`, relative to it.
    func pairFolderName(_ path: String) -> String { "pairs/" + path }

    /// `pairs/PATH`, created under the report folder; relative to it.
    func pairFolder(_ path: String) throws(CommandLineError) -> String {
        let folder = pairFolderName(path)
        try SnapshotFolder.createFolder(folder, under: stagingDirectory)
        return folder
    }

    /// Writes a copy of `image` to `folder/NAME.EXT` (the source's extension); returns the
    /// relative path.
    func copy(_ image: EncodedImage, into folder: String, as name: String) throws(ImageFileError) -> String {
        let ext = PathText.pathExtension(image.name).lowercased()
        let relative = folder + "/" + name + (ext.isEmpty ? "" : "." + ext)
        try ImageFile.create(image.bytes, at: PathText.join(stagingDirectory, relative))
        return relative
    }

    /// Writes `folder/NAME-preview.png`, the image as a PNG for the report page, when `image` is
    /// in a format browsers do not show; returns its relative path, or nil for a format they
    /// show. `decoded` is the image when the caller holds it; otherwise it is decoded again.
    func preview(of image: EncodedImage, decoded: RGBAImage? = nil, into folder: String, as name: String) throws(ImageFileError) -> String? {
        guard !ContainerFormat.isShownByBrowsers(image.bytes) else { return nil }
        let relative = folder + "/" + name + "-preview.png"
        let encoded: [UInt8]
        if let decoded {
            encoded = try Self.encodePreview(decoded, as: relative)
        } else {
            encoded = try memory.withReservation(decodedMemory(image)) { () throws(ImageFileError) in
                try Self.encodePreview(try ImageDecoder.decode(image.bytes, name: image.name, limits: request.limits), as: relative)
            }
        }
        try ImageFile.create(encoded, at: PathText.join(stagingDirectory, relative))
        return relative
    }

    /// The bytes `image` takes decoded, as its header declares them (held within `Int`: a
    /// header may declare more than any reservation, which is capped at the budget anyway); 0
    /// where the format's header is not read ahead of decoding.
    func decodedMemory(_ image: EncodedImage) -> Int {
        let declared = ContainerFormat.declaredDecodedSize(image.bytes).map(ContainerFormat.decodedBytes) ?? 0
        return Int(min(declared, Double(Int.max / 2)))
    }

    private static func encodePreview(_ image: RGBAImage, as relative: String) throws(ImageFileError) -> [UInt8] {
        do {
            return try PNGEncoder.encode(image)
        } catch {
            throw ImageFileError(path: relative, error: error)
        }
    }
}

/// The share of a batch's decoded pairs that differed so far, which the pipeline weighs to pick
/// a pair's route (``ComparisonRequest/expectedDifferingShare``); none before the first.
/// Byte-identical pairs, which are never decoded, do not count.
final class DifferenceTally: @unchecked Sendable {
    private let lock = Lock()
    private var compared = 0
    private var differing = 0

    var differingShare: Double {
        lock.withLock { compared == 0 ? 0 : Double(differing) / Double(compared) }
    }

    func record(differs: Bool) {
        lock.withLock {
            compared += 1
            if differs { differing += 1 }
        }
    }
}
