import ArgumentParser

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
        subcommands: [CompareCommand.self],
        defaultSubcommand: CompareCommand.self
    )
}
