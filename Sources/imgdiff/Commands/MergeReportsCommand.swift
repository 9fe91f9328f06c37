import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ImageCodecs

/// `imgdiff merge-reports DIR... --out DIR`: the reports of a suite's shards, joined into the one
/// report an unsharded run writes.
struct MergeReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Join the reports of `imgdiff batch --shard I/N` runs into one report.",
        discussion: """
            Each DIR is a report folder written by `imgdiff batch` (usually with
            --shard I/N, on one CI runner each). The merged report.json,
            junit.xml, summary.md and index.html are those one unsharded run
            writes, byte for byte but for the per-pair timings; each part's
            pairs/ folders are copied, and links to input files are made
            relative to --out.

            Every part of a sharded suite must be given: a missing or repeated
            part, reports of different folders, or a pair in two reports is an
            error, since the merged report would pass pairs no run compared.

            Reports of whole runs (no --shard), such as one suite rendered on an
            Intel and on an ARM runner, are joined side by side: each pair's path
            is prefixed with its report folder's name (intel/login.png,
            arm/login.png), so one review shows both. Such a report cannot be
            approved (two new images would claim one reference).

            Examples:
              imgdiff merge-reports shard-1 shard-2 shard-3 --out report
              imgdiff merge-reports shard-* --out report --approve
              imgdiff merge-reports intel arm --out review

            --approve copies NEW_DIR/PATH over REF_DIR/PATH for every changed and
            new pair of the merged report, as `batch --approve` does.

            Exit status: as `imgdiff batch`: 2 if a report could not be read or
            merged, or holds an error; else 1 if any pair changed, is new or was
            deleted; else 0.
            """
    )

    @Argument(help: ArgumentHelp("The report folders to merge.", valueName: "DIR"))
    var reports: [String]

    @Option(name: .customLong("out"), help: ArgumentHelp("The merged report folder.", valueName: "DIR"))
    var outputDirectory = "imgdiff-report"

    @Flag(help: "Copy the new image over the reference for each changed and new pair.")
    var approve = false

    func run() async throws {
        do {
            throw ExitCode(try merge())
        } catch let error as CommandLineError {
            Console.error(error.description)
            throw ExitCode(2)
        }
    }

    func merge() throws(CommandLineError) -> Int32 {
        let parts = try reports.map { folder throws(CommandLineError) in (folder, try BatchReport.read(inFolder: folder)) }
        let labels = try runLabels(parts.map(\.1), folders: parts.map(\.0))
        if labels == nil { try checkParts(parts.map(\.1), folders: parts.map(\.0)) }
        if labels != nil, approve {
            throw CommandLineError("--approve: these reports are whole runs joined side by side, where two new images may claim one reference; approve from each run's own report")
        }
        for (folder, _) in parts
        where SnapshotFolder.overlap(outputDirectory, folder) {
            throw CommandLineError("\(outputDirectory): the merged report folder may not overlap \(folder); choose another --out")
        }
        // As batch refuses a report inside its snapshot folders: the next batch would read the
        // merged report's images as snapshots, and --approve copy them into the references.
        for (_, part) in parts {
            for folder in [part.referenceDirectory, part.newDirectory]
            where SnapshotFolder.isDirectory(folder) && SnapshotFolder.overlap(outputDirectory, folder) {
                throw CommandLineError(
                    "\(outputDirectory): the merged report folder may not overlap the snapshot folder \(folder) of the parts; choose another --out")
            }
        }
        let staging = try ReportFolder(
            outputDirectory, inputs: parts.flatMap { folder, part in [folder, part.referenceDirectory, part.newDirectory] })
        let report: BatchReport
        do {
            var records: [PairRecord] = []
            for (index, (folder, part)) in parts.enumerated() {
                let prefix = labels.map { $0[index] + "/" } ?? ""
                for record in part.pairs {
                    records.append(try relocate(record, from: folder, into: staging.staging, prefix: prefix))
                }
            }
            let first = parts[0].1
            func joined(_ folders: [String]) -> String {
                Set(folders.map(Self.spelling)).count == 1 ? folders[0] : folders.joined(separator: ", ")
            }
            report = BatchReport(
                referenceDirectory: joined(parts.map(\.1.referenceDirectory)),
                newDirectory: joined(parts.map(\.1.newDirectory)),
                command: labels == nil ? unshardedCommand(first.command) : Array(CommandLine.arguments.dropFirst()),
                settings: parts.allSatisfy { $0.1.settings == first.settings } ? first.settings : nil,
                ignoreMask: parts.allSatisfy { $0.1.ignoreMask == first.ignoreMask } ? first.ignoreMask : nil,
                run: parts.allSatisfy { $0.1.run == first.run } ? first.run : nil,
                records: records)
            try report.write(into: staging.staging)
            try staging.commit()
        } catch {
            staging.discard()
            throw error
        }
        report.printSummary(reportFolder: outputDirectory)
        return approve ? report.approve(reportFolder: outputDirectory) : report.exitCode
    }

    /// For reports of whole runs (none has a shard) whose pairs share paths: one label per
    /// report, its folder's name, to prefix its pairs with. Nil for the parts of one sharded
    /// run, or for whole runs of disjoint pairs, which merge as they are.
    func runLabels(_ parts: [BatchReport], folders: [String]) throws(CommandLineError) -> [String]? {
        guard parts.count > 1, parts.allSatisfy({ $0.shard == nil }) else { return nil }
        guard repeatedPair(in: parts) != nil else { return nil }
        let labels = folders.map { folder in
            let name = URL(fileURLWithPath: SnapshotFolder.resolved(folder)).lastPathComponent
            return name.isEmpty ? folder : name
        }
        var seen = Set<String>()
        for label in labels where !seen.insert(label).inserted {
            throw CommandLineError("two reports are named \(label): their pairs would be labelled alike; give the report folders distinct names")
        }
        return labels
    }

    /// A folder as a path's components, so that one folder spelled with `./`, `/.` or repeated
    /// or trailing slashes, as runners' scripts may spell it, compares equal.
    static func spelling(_ folder: String) -> [String] {
        (PathText.isAbsolute(folder) ? ["/"] : []) + PathText.components(of: folder).filter { $0 != "." }
    }

    /// One suite, every part once, no pair twice.
    func checkParts(_ parts: [BatchReport], folders: [String]) throws(CommandLineError) {
        guard let first = parts.first else { throw CommandLineError("no report folders given") }
        for (part, folder) in zip(parts, folders)
        where Self.spelling(part.referenceDirectory) != Self.spelling(first.referenceDirectory)
            || Self.spelling(part.newDirectory) != Self.spelling(first.newDirectory)
        {
            throw CommandLineError(
                "\(folder): compares \(part.referenceDirectory) with \(part.newDirectory), but \(folders[0]) compares \(first.referenceDirectory) with \(first.newDirectory); merge the parts of one suite")
        }
        let shards = parts.compactMap(\.shard)
        if !shards.isEmpty {
            func described(_ shard: Shard?) -> String { shard.map { "part \($0.index)/\($0.count)" } ?? "a whole run (no --shard)" }
            for (part, folder) in zip(parts, folders) where part.shard?.count != parts[0].shard?.count {
                throw CommandLineError(
                    "\(folder): \(described(part.shard)), but \(folders[0]) is \(described(parts[0].shard)); merge the parts of one --shard I/N split")
            }
            let count = shards[0].count
            var seen = Set<Int>()
            for (shard, folder) in zip(shards, folders) where !seen.insert(shard.index).inserted {
                throw CommandLineError("\(folder): part \(shard.index)/\(count) is given twice")
            }
            if let missing = (1...count).first(where: { !seen.contains($0) }) {
                throw CommandLineError(
                    "part \(missing)/\(count) is missing: its pairs would be absent from the merged report; give every part")
            }
        }
        if let (index, path) = repeatedPair(in: parts) {
            throw CommandLineError("\(folders[index]): \(path) is also in another report; merge the parts of one run")
        }
        // The parts of one run judge their pairs alike: only the part, the report folder and
        // the runner's core count may differ. Reports that record their settings are held to
        // them below, so `--config` files are compared by what they say, not by their names.
        let recordSettings = parts.allSatisfy { $0.settings != nil }
        let commands = parts.map { unshardedCommand($0.command, dropping: recordSettings ? ["--out", "--jobs", "--config"] : ["--out", "--jobs"]) }
        // The folders compared in their spelling's components, so that `ref/` and `./ref` agree.
        let judging = zip(parts, commands).map { part, command in
            command.map { argument in
                argument == part.referenceDirectory || argument == part.newDirectory ? Self.spelling(argument) : [argument]
            }
        }
        for (index, arguments) in judging.enumerated() where arguments != judging[0] {
            throw CommandLineError(
                "\(folders[index]): ran `\(commands[index].joined(separator: " "))`, but \(folders[0]) ran `\(commands[0].joined(separator: " "))`; run every part with the same options")
        }
        for (part, folder) in zip(parts, folders) where part.ignoreMask != first.ignoreMask {
            throw CommandLineError(
                "\(folder): judged its pairs with another --ignore-mask image than \(folders[0]) (the file's bytes differ); run every part with the same mask")
        }
        for (part, folder) in zip(parts, folders) where part.run != first.run {
            func described(_ run: String?) -> String { run.map { "CI run \($0)" } ?? "no CI run" }
            throw CommandLineError(
                "\(folder): written by \(described(part.run)), but \(folders[0]) by \(described(first.run)); merge the parts of one run (a part left from an earlier run?)")
        }
        func described(_ settings: [String]) -> String { settings.isEmpty ? "no settings file" : "the settings `\(settings.joined(separator: " "))`" }
        for (part, folder) in zip(parts, folders) {
            guard let settings = part.settings, let firstSettings = first.settings, settings != firstSettings else { continue }
            throw CommandLineError(
                "\(folder): judged its pairs by \(described(settings)), but \(folders[0]) by \(described(firstSettings)); run every part with the same settings file")
        }
    }

    /// The first pair whose path (by bytes) an earlier report, or the same one, already holds:
    /// the report's index and the path.
    func repeatedPair(in parts: [BatchReport]) -> (Int, String)? {
        var paths = Set<[UInt8]>()
        for (index, part) in parts.enumerated() {
            for pair in part.pairs where !paths.insert(Array(pair.path.utf8)).inserted { return (index, pair.path) }
        }
        return nil
    }

    /// The record with its outputs moved: files under `pairs/` are copied into the merged
    /// report, links to input files are made relative to it: through the part's own link when
    /// it leads to a file, else as batch was given the file (`referenceFile`, `newFile`) when
    /// that is there from here, as in CI, where the parts were downloaded into another folder
    /// than the one they were written in.
    func relocate(
        _ record: PairRecord, from folder: String, into staging: String, prefix: String
    ) throws(CommandLineError) -> PairRecord {
        var record = record
        record.path = prefix + record.path
        func refused(_ path: String) -> CommandLineError {
            CommandLineError(
                "\(PathText.join(folder, "report.json")): \(record.path) names \(path), which leaves its pairs/ folder; a report imgdiff wrote names no such path")
        }
        /// `linksToInputs`: the output may be a link to an input (a passed pair's images);
        /// a blend or a mask is always a file under pairs/.
        func move(_ path: String?, input: String? = nil, linksToInputs: Bool = true) throws(CommandLineError) -> String? {
            guard let path else { return nil }
            let pairsPrefix = "pairs/".unicodeScalars
            guard path.unicodeScalars.starts(with: pairsPrefix) else {
                guard linksToInputs else { throw refused(path) }
                // The part's link leads from its folder as spelled, as a browser follows it.
                let linked = SnapshotFolder.spelledAbsolute(PathText.join(folder, path))
                if !FileManager.default.fileExists(atPath: linked), let input, FileManager.default.fileExists(atPath: input) {
                    return SnapshotFolder.relativePath(of: input, from: outputDirectory)
                }
                return SnapshotFolder.relativePath(of: linked, from: outputDirectory)
            }
            // A part's report is read as input: a file it names is copied only from inside its
            // own pairs/ folder (no `..`, no symbolic link out of it), and only into the merged one.
            let source = PathText.join(folder, path)
            guard SnapshotFolder.isPlainRelativePath(path), SnapshotFolder.isSameOrInside(source, PathText.join(folder, "pairs")) else {
                throw refused(path)
            }
            let moved = "pairs/" + prefix + String(String.UnicodeScalarView(path.unicodeScalars.dropFirst(pairsPrefix.count)))
            do {
                try SnapshotFolder.createFolders(for: moved, under: staging)
                try ImageFile.create(try ImageFile.read(source), at: PathText.join(staging, moved))
            } catch let error as ImageFileError {
                throw CommandLineError(error.description)
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw CommandLineError("\(source): \(error)")
            }
            return moved
        }
        record.outputs.reference = try move(record.outputs.reference, input: record.referenceFile)
        record.outputs.new = try move(record.outputs.new, input: record.newFile)
        record.outputs.blend = try move(record.outputs.blend, linksToInputs: false)
        record.outputs.mask = try move(record.outputs.mask, linksToInputs: false)
        record.outputs.referencePreview = try move(record.outputs.referencePreview, linksToInputs: false)
        record.outputs.newPreview = try move(record.outputs.newPreview, linksToInputs: false)
        return record
    }

    /// A part's command line as the unsharded run's: without `--shard` and the options in
    /// `others`, each with its value, and with this --out (unless `others` drops it too).
    func unshardedCommand(_ command: [String], dropping others: Set<String> = []) -> [String] {
        let dropped = others.union(["--shard"])
        var result: [String] = []
        var index = command.startIndex
        while index < command.endIndex {
            let argument = command[index]
            if dropped.contains(argument) || argument == "--out" {
                if !dropped.contains(argument) { result += ["--out", outputDirectory] }
                index += 2
                continue
            }
            if !dropped.contains(where: { argument.hasPrefix($0 + "=") }) {
                result.append(argument.hasPrefix("--out=") ? "--out=" + outputDirectory : argument)
            }
            index += 1
        }
        return result
    }
}
