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

    /// The entry's file-name suffix.
    public static let suffix = ".imgdiff.json"

    public init(test: String, reference: String?, failure: String, review: String?, summary: String) {
        self.test = test
        self.reference = reference
        self.failure = failure
        self.review = review
        self.summary = summary
    }

    /// The file's bytes: pretty-printed JSON with sorted keys and a final newline.
    public func encoded() -> [UInt8] { JSONOutput.fileBytes(self) }

    /// The entry in `bytes`, or `nil` when they are not one.
    public init?(bytes: [UInt8]) {
        guard let entry = try? JSONDecoder().decode(ReviewEntry.self, from: Data(bytes)) else { return nil }
        self = entry
    }
}
