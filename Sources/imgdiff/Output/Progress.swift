import ImageDiff
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `done/total, rate, ETA` line on stderr, redrawn in place; silent unless stderr is a
/// terminal, so logs and pipes get none of it.
struct ProgressLine {
    let total: Int
    let noun: String
    let enabled: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?

    init(total: Int, noun: String, enabled: Bool = isatty(STDERR_FILENO) != 0) {
        self.total = total
        self.noun = noun
        self.enabled = enabled
        start = clock.now
    }

    /// Redraws at most ten times a second, and always for the last item.
    mutating func update(done: Int) {
        guard enabled else { return }
        let now = clock.now
        if done < total, let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        StandardError.write("\r\u{1B}[K" + Self.text(done: done, total: total, noun: noun, elapsed: now - start))
    }

    /// Erases the line.
    func finish() {
        guard enabled, lastDraw != nil else { return }
        StandardError.write("\r\u{1B}[K")
    }

    /// `120/10000 pairs, 48.2/s, ETA 3:25`.
    static func text(done: Int, total: Int, noun: String, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var text = "\(done)/\(total) \(noun)"
        guard seconds > 0, done > 0 else { return text }
        let rate = Double(done) / seconds
        text += ", " + PrintfFormat.fixed(rate, decimals: 1) + "/s"
        if done < total {
            text += ", ETA " + clockTime(Double(total - done) / rate)
        }
        return text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func clockTime(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))"
            : "\(minutes):\(twoDigits(rest))"
    }
}

/// Runs `body` over `items` with at most `jobs` in flight, reporting progress, and returns the
/// results in the order of `items`.
func mapConcurrently<Item: Sendable, Output: Sendable>(
    _ items: [Item], jobs: Int, progress: inout ProgressLine,
    _ body: @escaping @Sendable (Item) -> Output
) async -> [Output] {
    var results = [Output?](repeating: nil, count: items.count)
    await withTaskGroup(of: (Int, Output).self) { group in
        var next = 0
        func startNext() {
            guard next < items.count else { return }
            let index = next, item = items[index]
            group.addTask { (index, body(item)) }
            next += 1
        }
        for _ in 0..<min(max(1, jobs), items.count) { startNext() }
        var done = 0
        for await (index, output) in group {
            results[index] = output
            done += 1
            progress.update(done: done)
            startNext()
        }
    }
    progress.finish()
    return results.compactMap { $0 }
}

/// The default `--jobs`: one per core.
var defaultJobCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
