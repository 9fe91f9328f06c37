#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A failed snapshot waiting for review: the file the snapshot strategies write beside their
/// artifacts as `BASE.imgdiff.json`, which `imgdiff review` reads to replace the reference
/// with the failure.
public struct ReviewEntry: Codable, Sendable, Equatable {
    /// The test function.
    public var test: String
    /// The reference file; `nil` when it was not found among the test's snapshots.
    public var reference: String?
    /// The new image that replaces it when accepted.
    public var failure: String
    /// The review image to look at.
    public var review: String?
    /// imgdiff's one-line summary.
    public var summary: String
    /// The reference as the test read it, saved beside the failure: `imgdiff review` accepts
    /// only while the reference still holds these pixels (not once it was recorded again).
    public var recordedReference: String?
    /// Every reference of the test that holds the same pixels as `reference`, when there are
    /// several (twins, `named: "a"` and `"b"`): which of them failed is read from
    /// swift-snapshot-testing's own failure file when the entry is reviewed.
    public var twins: [String]?
    /// ``digest(of:)`` of the failure file's bytes as the test wrote them: `imgdiff review`
    /// accepts only while the file still holds them. Nil in entries of an earlier imgdiff.
    public var failureDigest: String?

    /// The entry's file-name suffix.
    public static let suffix = ".imgdiff.json"

    /// An entry with the given fields; `imgdiff review` opens its paths as written, relative ones
    /// from its own working directory, except that the artifacts (``failure``, ``review``,
    /// ``recordedReference``), which the strategies write beside the entry, are taken from
    /// beside it when it lies elsewhere than they say (its folder moved, or downloaded from CI).
    public init(
        test: String, reference: String?, failure: String, review: String?, summary: String, recordedReference: String? = nil,
        twins: [String]? = nil, failureDigest: String? = nil
    ) {
        self.test = test
        self.reference = reference
        self.failure = failure
        self.review = review
        self.summary = summary
        self.recordedReference = recordedReference
        self.twins = twins
        self.failureDigest = failureDigest
    }

    /// A fingerprint of a file's bytes, to tell whether it changed: FNV-1a, 64 bits, in hex.
    /// Not a cryptographic hash: it catches a file replaced or edited, not one forged to match.
    public static func digest(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The file's bytes: pretty-printed JSON with sorted keys and a final newline.
    public func encoded() -> [UInt8] { JSONOutput.fileBytes(self) }

    /// The entry in `bytes`, or `nil` when they are not one.
    public init?(bytes: [UInt8]) {
        guard let entry = try? JSONDecoder().decode(ReviewEntry.self, from: Data(bytes)) else { return nil }
        self = entry
    }
}
