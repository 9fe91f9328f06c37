import ArgumentParser
import CBuildInfo
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct ImgDiff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgdiff",
        abstract: "Compare images: counts, verdicts, and the ImageMagick review overlay, bit-exact.",
        discussion: """
            With no subcommand, `imgdiff REF FAIL` compares two images (see `imgdiff compare --help`).

            Exit status: 0 the images match within tolerance, 1 they differ, 2 error.
            """,
        version: versionText,
        subcommands: [CompareCommand.self, BatchCommand.self, MergeReportsCommand.self, TuneCommand.self, ReviewCommand.self],
        defaultSubcommand: CompareCommand.self
    )

    /// The release, as packaged.
    static let version = "0.1.0"

    /// `imgdiff --version`: "0.1.0 (commit 1a2b3c4)"; "commit unknown" for a build that was not
    /// told its commit (scripts/package and scripts/imgdiff tell it).
    static let versionText = "\(version) (commit \(String(cString: imgdiff_build_commit())))"

    /// Runs the command; usage errors exit 2 like every other error (as `cmp` and ImageMagick
    /// `compare` do), with one line on stderr.
    static func main() async {
        CrashSignals.restoreDefaultActions()
        MemoryReuse.keepFreedImageBuffers()
        do {
            try RawArguments.check(RawArguments.current)
            var command = try parseCommand(Array(CommandLine.arguments.dropFirst()))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exitProcess(0)
        } catch let error as CommandLineError {
            Console.error(error.description)
            exitProcess(2)
        } catch let code as ExitCode {
            exitProcess(code.rawValue)
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            let message = ImgDiff.message(for: error).split(separator: "\n")
                .map(\.trimmingSpaces).joined(separator: " ")
            Console.error("\(message) (see 'imgdiff --help')")
            exitProcess(2)
        }
    }
}

extension ImgDiff {
    /// The command `arguments` name. Arguments that can only mean `compare` are parsed by
    /// ``CompareCommand`` alone: the root's parse builds the comparison's argument set from its
    /// option wrappers by reflection again, to learn whether the default or the matched
    /// subcommand takes all remaining input, and that was about a tenth of a small pair's run.
    /// Anything else, and anything that parse refuses or reads as another request (help,
    /// version, completion scripts, every usage error), goes to the root, so that its messages
    /// and help are the root's.
    static func parseCommand(_ arguments: [String]) throws -> ParsableCommand {
        // A help request parses too, as the library's own help command: only a comparison is kept.
        if let comparison = comparisonArguments(arguments),
            let command = try? CompareCommand.parseAsRoot(comparison), command is CompareCommand
        {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// `arguments` without a leading `compare`, when no argument names a subcommand or `help`
    /// (a file could be called `batch`; then the root decides).
    static func comparisonArguments(_ arguments: [String]) -> [String]? {
        let comparison = arguments.first == CompareCommand._commandName ? Array(arguments.dropFirst()) : arguments
        let commandNames = Set(configuration.subcommands.map { $0._commandName } + ["help"])
        return comparison.contains(where: commandNames.contains) ? nil : comparison
    }
}

/// Ends the process with `code` once stdout is flushed (`exit` inside a command type is
/// swift-argument-parser's). When stdout could not be written (a full disk), it ends with one
/// line on stderr and 2 instead, so that a CI step reading the JSON is not handed nothing
/// with a verdict.
private func exitProcess(_ code: Int32) -> Never {
    InterruptCleanup.holdIfEnding()
    if fflush(nil) != 0, code != 2 {
        Console.error("standard output: cannot write: \(String(cString: strerror(errno)))")
        exit(2)
    }
    exit(code)
}
