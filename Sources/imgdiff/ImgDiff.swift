import ArgumentParser
import Foundation

@main
struct ImgDiff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgdiff",
        abstract: "Compare images: counts, verdicts, and the ImageMagick review overlay, bit-exact.",
        discussion: """
            With no subcommand, `imgdiff REF FAIL` compares two images (see `imgdiff compare --help`).

            Exit status: 0 the images match within tolerance, 1 they differ, 2 error.
            """,
        version: "0.1.0",
        subcommands: [CompareCommand.self, BatchCommand.self, MergeReportsCommand.self, TuneCommand.self],
        defaultSubcommand: CompareCommand.self
    )

    /// Runs the command; usage errors exit 2 like every other error (as `cmp` and ImageMagick
    /// `compare` do), with one line on stderr.
    static func main() async {
        MemoryReuse.keepFreedImageBuffers()
        do {
            try RawArguments.check(RawArguments.current)
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CommandLineError {
            Console.error(error.description)
            Foundation.exit(2)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            let message = ImgDiff.message(for: error).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            Console.error("\(message) (see 'imgdiff --help')")
            Foundation.exit(2)
        }
    }
}
