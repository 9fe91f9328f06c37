#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// What `batch` and `merge-reports` do with a finished report: write it, print it, approve it.
extension BatchReport {
    /// Writes `report.json`, `junit.xml`, `summary.md` and `index.html` into `folder`, a staging
    /// folder that has none of them yet.
    func write(into folder: String) throws(CommandLineError) {
        do {
            try ImageFile.create(Array(try json()), at: PathText.join(folder, "report.json"))
            try ImageFile.create(Array(JUnitReport.render(self).utf8), at: PathText.join(folder, "junit.xml"))
            try ImageFile.create(Array(MarkdownSummary.render(self).utf8), at: PathText.join(folder, "summary.md"))
            try ImageFile.create(Array(try HTMLReport.render(self).utf8), at: PathText.join(folder, "index.html"))
        } catch let error as ImageFileError {
            throw CommandLineError(error.description)
        } catch {
            throw CommandLineError("\(folder): cannot encode the report (\(error))")
        }
    }

    /// One line per pair that needs a person, errors also on stderr, then the counts.
    func printSummary(reportFolder: String) {
        for pair in pairs where pair.status != .passed {
            let label = pair.status.rawValue.paddedOrCut(to: 8)
            var line = "\(label) \(pair.path)"
            if let metrics = pair.metrics { line += "  " + metrics.summary }
            Console.line(line)
            if let error = pair.error { Console.error(error) }
        }
        let s = summary
        Console.line("\(Wording.count(s.pairs, "pair")): \(s.changed) changed, \(s.passed) passed, \(s.new) new, \(s.deleted) deleted, \(Wording.count(s.errors, "error")); report: \(PathText.join(reportFolder, "index.html"))")
    }

    /// Copies the new images of changed and new pairs over the references, each synced to disk
    /// before the next, while each is the image the report compared (``ComparedCopies``). Only
    /// REF_DIR's own folders are written: a symbolic link inside it, to a folder or in place of a
    /// reference, is refused rather than written through.
    ///
    /// - Returns: 2 on any error (the report's or a copy's), else 1 if deleted pairs remain,
    ///   else 0.
    func approve(reportFolder: String) -> Int32 {
        var failed = summary.errors > 0
        for pair in pairs where pair.status == .changed || pair.status == .new {
            let source = PathText.join(newDirectory, pair.path)
            let destination = PathText.join(referenceDirectory, pair.path)
            do {
                let bytes = try ImageFile.read(source)
                let copies = ComparedCopies(
                    new: pair.outputs.new, reference: pair.outputs.reference, isNewPair: pair.status == .new,
                    inReportFolder: reportFolder)
                if let problem = ComparedCopies.problem(copies, reference: destination, new: source, newBytes: bytes) {
                    throw CommandLineError(problem)
                }
                try SnapshotFolder.createFolders(for: pair.path, under: referenceDirectory)
                try ImageFile.write(bytes, to: destination, durable: true)
                Console.line("approved: \(pair.status == .new ? "added" : "updated") \(destination)")
            } catch let error as ImageFileError {
                Console.error(error.description)
                failed = true
            } catch let error as CommandLineError {
                Console.error(error.description)
                failed = true
            } catch {
                Console.error("\(destination): \(error)")
                failed = true
            }
        }
        for path in deleted {
            Console.line("not approved: \(path) is deleted; remove \(PathText.join(referenceDirectory, path)) yourself if that is intended")
        }
        if failed { return 2 }
        return deleted.isEmpty ? 0 : 1
    }
}

/// The report's copies of a changed or new pair's images, under its `pairs/` folder: the images
/// batch compared, which the review page showed. Approving or accepting the pair writes the new
/// image over the reference only while both are still those bytes.
struct ComparedCopies {
    /// The copy of the new image.
    let new: String
    /// The copy of the reference; nil for a new pair, which had none.
    let reference: String?

    /// The copies a report in `folder` names as a pair's `outputs`, or nil when it names none
    /// inside its `pairs/` folder: a report batch wrote holds both of a changed pair and the
    /// new image of a new one.
    init?(new: String?, reference: String?, isNewPair: Bool, inReportFolder folder: String) {
        func copy(_ output: String?) -> String? {
            guard let output, SnapshotFolder.isPlainRelativePath(output), output.unicodeScalars.starts(with: "pairs/".unicodeScalars)
            else { return nil }
            return PathText.join(folder, output)
        }
        guard let newCopy = copy(new) else { return nil }
        if isNewPair {
            (self.new, self.reference) = (newCopy, nil)
            return
        }
        guard let referenceCopy = copy(reference) else { return nil }
        (self.new, self.reference) = (newCopy, referenceCopy)
    }

    /// Why the new image `new` cannot replace `reference` as the report shows the pair, or nil
    /// when it can: `new` must still hold the bytes batch compared, and `reference` too (or
    /// still be missing, for a new pair), unless it holds those new bytes already (accepted
    /// from another report of the same pair). Otherwise the write would put an image no one
    /// reviewed over the reference, or replace one recorded since, as a report read in another
    /// folder than the one batch ran in would.
    static func problem(_ copies: ComparedCopies?, reference: String, new: String, newBytes: [UInt8]? = nil) -> String? {
        guard let copies else { return "the report holds no copy of the images batch compared; run batch again" }
        do throws(CommandLineError) {
            let compared = try readCopy(copies.new, of: "the new image")
            let current: [UInt8]
            if let newBytes {
                current = newBytes
            } else {
                current = try read(new, missing: "no such new image here; review from the folder batch ran in")
            }
            guard current == compared else { return "\(new): changed since the report (batch compared other bytes); run batch again" }
            guard let comparedReference = copies.reference else {
                var status = stat()
                guard lstat(reference, &status) == 0 else { return nil }
                return (try? ImageFile.read(reference, maxBytes: .max)) == compared
                    ? nil : "\(reference): exists now, but batch found no reference; run batch again"
            }
            let reviewed = try readCopy(comparedReference, of: "the reference")
            let existing = try read(reference, missing: "no such reference here; review from the folder batch ran in")
            if existing == reviewed || existing == compared { return nil }
            return "\(reference): changed since the report (recorded again, or accepted); run batch again"
        } catch {
            return error.description
        }
    }

    /// The bytes of a copy batch wrote: a regular file, not a link (to the live image, which
    /// would always agree with itself).
    private static func readCopy(_ path: String, of image: String) throws(CommandLineError) -> [UInt8] {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw CommandLineError("\(path): the report's copy of \(image) is missing; run batch again") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CommandLineError("\(path): the report's copy of \(image) is not a file batch wrote; run batch again")
        }
        return try read(path, missing: "the report's copy of \(image) is missing; run batch again")
    }

    /// The file's bytes; `missing` when there is no such file, else the reason it cannot be read.
    private static func read(_ path: String, missing: String) throws(CommandLineError) -> [UInt8] {
        do throws(ImageFileError) {
            return try ImageFile.read(path, maxBytes: .max)
        } catch {
            if case .noSuchFile = error.error { throw CommandLineError("\(path): \(missing)") }
            throw CommandLineError(error.description)
        }
    }
}
