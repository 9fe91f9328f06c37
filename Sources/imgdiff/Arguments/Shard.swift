import ArgumentParser

/// `--shard i/n`: part `i` of `n` of a suite, for CI runners that split one job (a GitHub
/// Actions matrix, GitLab `parallel:`, Buildkite parallelism), in the manner of Playwright.
///
/// A pair belongs to the part its relative path hashes to (FNV-1a over the path's bytes), so
/// the parts balance and a pair stays in its part as other files come and go.
struct Shard: Codable, Sendable, Equatable, ExpressibleByArgument {
    /// 1 to ``count``.
    let index: Int
    let count: Int

    /// The most parts a suite may be split into.
    static let maximumCount = 1000

    init?(argument: String) {
        guard let shard = try? Self.parse(argument) else { return nil }
        self = shard
    }

    /// `I/N`, or an error that says which rule it breaks.
    static func parse(_ argument: String) throws(ValidationError) -> Shard {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ValidationError("give I/N, two whole numbers: part I of N")
        }
        guard (1...Self.maximumCount).contains(count) else { throw ValidationError("N must be 1...\(Self.maximumCount)") }
        guard (1...count).contains(index) else { throw ValidationError("I must be 1...\(count)") }
        return Shard(index: index, count: count)
    }

    private init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// A shard read from a report, which is input: held to the ranges `--shard` takes.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let index = try container.decode(Int.self, forKey: .index), count = try container.decode(Int.self, forKey: .count)
        guard let shard = Shard(argument: "\(index)/\(count)") else {
            throw DecodingError.dataCorruptedError(
                forKey: .count, in: container, debugDescription: "shard \(index)/\(count) is not 1...N/N with N 1...\(Self.maximumCount)")
        }
        self = shard
    }

    var defaultValueDescription: String { "\(index)/\(count)" }

    /// Whether the pair at `path` (relative to the folders) is this part's.
    func contains(_ path: String) -> Bool {
        Self.part(of: path, count: count) == index
    }

    /// The part, 1 to `count`, that the pair at `path` belongs to.
    static func part(of path: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(count)) + 1
    }
}

/// The CI run a batch runs in, from the variables CI services set alike on every job of one
/// run (its parallel jobs, and its jobs run again): `GITHUB_RUN_ID=…` and the like. Recorded in
/// each report, so that `merge-reports` refuses a part left from another run.
enum CIRun {
    /// The variables read, first found first.
    /// (CircleCI is left out: a workflow run again from its failed jobs gets a new workflow id,
    /// while the parts of the jobs that passed stay in its workspace.)
    static let variables = ["GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILDKITE_BUILD_ID", "BUILD_BUILDID"]

    /// `NAME=value` of the first variable set (not empty) in `environment`; nil outside CI.
    static func current(environment: [String: String]) -> String? {
        for name in variables {
            if let value = environment[name], !value.isEmpty { return "\(name)=\(value)" }
        }
        return nil
    }
}
