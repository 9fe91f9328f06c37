#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one JSON encoder of every document imgdiff writes: sorted keys, unescaped slashes, and
/// infinities (a PSNR of identical images, its default threshold) written as the strings
/// `"inf"` and `"-inf"`, which JSON has no number for.
public enum JSONOutput {
    /// A fresh encoder: pretty-printed unless `pretty` is false.
    public static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// `value` as a file's bytes: pretty-printed JSON with a final newline.
    public static func fileBytes(_ value: some Encodable) -> [UInt8] {
        // Every document imgdiff writes holds numbers, strings, arrays and objects only, and the
        // encoder writes non-finite numbers as strings: encoding cannot fail.
        Array((try? encoder().encode(value)) ?? Data()) + [0x0A]
    }
}
