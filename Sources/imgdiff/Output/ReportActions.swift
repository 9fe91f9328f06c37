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
    /// before the next. Only REF_DIR's own folders are written: a symbolic link inside it, to a
    /// folder or in place of a reference, is refused rather than written through.
    ///
    /// - Returns: 2 on any error (the report's or a copy's), else 1 if deleted pairs remain,
    ///   else 0.
    func approve() -> Int32 {
        var failed = summary.errors > 0
        for pair in pairs where pair.status == .changed || pair.status == .new {
            let source = PathText.join(newDirectory, pair.path)
            let destination = PathText.join(referenceDirectory, pair.path)
            do {
                let bytes = try ImageFile.read(source)
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
