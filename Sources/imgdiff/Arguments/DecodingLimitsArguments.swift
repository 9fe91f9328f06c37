import ArgumentParser
import ImageCodecs

/// `--max-width`, `--max-height`, `--max-pixels`, `--max-memory`, `--max-file-size`: how large
/// an input may be. Checked from each image's header before anything is allocated.
struct DecodingLimitsArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Refuse images wider than this.", valueName: "pixels"))
    var maxWidth: Quantity = Quantity(DecodingLimits.default.maxWidth)

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Refuse images taller than this.", valueName: "pixels"))
    var maxHeight: Quantity = Quantity(DecodingLimits.default.maxHeight)

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Refuse images of more pixels than this: a number, or with K, M, G (1000s) or Ki, Mi, Gi (1024s).",
        valueName: "count"))
    var maxPixels: Quantity = Quantity(DecodingLimits.default.maxPixels)

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Refuse images whose decoding needs more memory than this, e.g. 4GiB.", valueName: "bytes"))
    var maxMemory: Quantity = Quantity(DecodingLimits.default.maxMemory)

    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse input files larger than this, e.g. 2GiB.", valueName: "bytes"))
    var maxFileSize: Quantity = Quantity(DecodingLimits.default.maxFileSize)

    /// The library's limits.
    var decodingLimits: DecodingLimits {
        DecodingLimits(
            maxWidth: maxWidth.value, maxHeight: maxHeight.value, maxPixels: maxPixels.value,
            maxMemory: maxMemory.value, maxFileSize: maxFileSize.value)
    }
}

/// A positive count with an optional multiplier: `5000`, `40M`, `2GiB`, `100MP`. K, M, G, T
/// multiply by powers of 1000, Ki, Mi, Gi, Ti by powers of 1024; a trailing `B` (bytes) or `P`
/// (pixels) is allowed and ignored.
struct Quantity: ExpressibleByArgument, Equatable {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        var text = Substring(argument)
        if let last = text.last, last == "B" || last == "P" { text.removeLast() }
        var multiplier = 1
        let binary = text.hasSuffix("i")
        if binary { text.removeLast() }
        if let unit = text.last, let power = "KMGT".firstIndex(of: unit.uppercased().first ?? unit) {
            let exponent = "KMGT".distance(from: "KMGT".startIndex, to: power) + 1
            for _ in 0..<exponent { multiplier *= binary ? 1024 : 1000 }
            text.removeLast()
        } else if binary {
            return nil
        }
        guard let number = Int(text), number > 0 else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        self.value = value
    }

    var defaultValueDescription: String {
        for (suffix, unit) in [("Gi", 1 << 30), ("Mi", 1 << 20)] where value % unit == 0 {
            return "\(value / unit)\(suffix)"
        }
        return String(value)
    }
}
