import ImageDiff

/// How close the noise pairs came to failing a structural setting: among the clusters they
/// leave that do not fail, the one nearest the size from which it would (its pixels over that
/// size), among clusters of strong contrast and among the rest.
///
/// A setting under which no noise pair differs can still sit a pixel from failing one: a
/// 7-pixel cluster of strong contrast where 8 fail. The pixel counts the search ranks by do
/// not show that; this does.
public struct NoiseHeadroom: Sendable, Equatable, Encodable {
    /// The passing cluster of one kind nearest to failing, and the noise pair that holds it.
    public struct Closest: Sendable, Equatable, Encodable {
        /// The noise pair's name, as the caller gave it.
        public var pair: String
        /// The cluster's size, in pixels.
        public var pixels: Int
        /// The cluster's largest CIE94 ΔE.
        public var maxDeltaE: Double
        /// Whether the pair's clusters were taken for scattered noise, so that the size from
        /// which a strong cluster fails did not apply to it.
        public var amongScatteredNoise: Bool
        /// The size from which a cluster like this one fails.
        public var failsFromPixels: Int
    }

    /// The rule the clusters were judged under (not encoded).
    public var rule: StructuralRule
    /// The passing cluster of strong contrast (``StructuralRule/strongDeltaE`` or more) nearest
    /// to failing.
    public var strong: Closest?
    /// The passing cluster below strong contrast nearest to failing.
    public var weak: Closest?

    enum CodingKeys: String, CodingKey { case strong, weak }

    /// - Parameter noise: each noise pair's clusters under `rule`, as the structural mode lists
    ///   them (``DiffResult/clusters``).
    public init(rule: StructuralRule, noise: [(name: String, clusters: [DifferenceCluster])]) {
        self.rule = rule
        for (name, clusters) in noise {
            let strongCount = clusters.count { $0.maxDeltaE >= rule.strongDeltaE }
            let scattered = rule.explainsScatteredNoise && strongCount >= StructuralRule.scatteredNoiseClusters
            for cluster in clusters where !cluster.fails {
                let isStrong = cluster.maxDeltaE >= rule.strongDeltaE
                let limit = isStrong && !scattered ? rule.minimumStrongClusterPixels : rule.minimumClusterPixels
                let closest = Closest(
                    pair: name, pixels: cluster.pixels, maxDeltaE: cluster.maxDeltaE, amongScatteredNoise: scattered,
                    failsFromPixels: limit)
                if isStrong { strong = Self.nearer(closest, strong) } else { weak = Self.nearer(closest, weak) }
            }
        }
    }

    /// The headroom over the noise pairs of all `parts`, each measured under the same rule:
    /// the nearest cluster of each kind among theirs. Nil without parts.
    public init?(merging parts: [NoiseHeadroom]) {
        guard let first = parts.first else { return nil }
        self = first
        for part in parts.dropFirst() {
            strong = part.strong.map { Self.nearer($0, strong) } ?? strong
            weak = part.weak.map { Self.nearer($0, weak) } ?? weak
        }
    }

    /// `candidate` if it is nearer to failing than `current` (a larger share of its failing
    /// size), else `current`; on a tie the one seen first.
    private static func nearer(_ candidate: Closest, _ current: Closest?) -> Closest {
        guard let current,
              Double(candidate.pixels) * Double(current.failsFromPixels) <= Double(current.pixels) * Double(candidate.failsFromPixels)
        else {
            return candidate
        }
        return current
    }

    /// How near the noise came to failing: the larger share, of the two clusters, of the size
    /// from which it would fail (0 without a passing cluster).
    public var nearness: Double {
        [strong, weak].compactMap { $0 }.map { Double($0.pixels) / Double($0.failsFromPixels) }.max() ?? 0
    }

    /// One line for the explanation.
    public var explanation: String {
        let strongLimit = PrintfFormat.fixed(rule.strongDeltaE, decimals: 0)
        var parts: [String] = []
        if let strong {
            let limit = strong.amongScatteredNoise
                ? "on a page of scattered noise, where only \(strong.failsFromPixels) px fail"
                : "where one of \(strong.failsFromPixels) px fails"
            parts.append(
                "the passing cluster of ΔE \(strongLimit)+ nearest to failing has \(strong.pixels) px"
                    + " (\(strong.pair), ΔE \(PrintfFormat.fixed(strong.maxDeltaE, decimals: 1))), \(limit)")
        } else {
            parts.append("no noise pair leaves a cluster of ΔE \(strongLimit)+")
        }
        if let weak {
            parts.append(
                "the fainter passing cluster nearest to failing has \(weak.pixels) px (\(weak.pair)), where one of \(weak.failsFromPixels) px fails")
        } else {
            parts.append("none leaves a fainter one")
        }
        return "Noise headroom: " + parts.joined(separator: "; ") + "."
    }
}
