
/// The memory the pairs a batch or a tune measures at once may hold together: `--max-memory`
/// bounds the whole process, not each worker. A worker reserves its pair's estimate before decoding and waits
/// while the others hold too much; a pair is always admitted when nothing else is held, so
/// every pair runs.
final class MemoryBudget: @unchecked Sendable {
    private let condition = Condition()
    private let total: Int
    private var held = 0

    init(total: Int) { self.total = max(total, 1) }

    /// Runs `body` once `bytes` (capped at the total) can be held beside the other pairs.
    func withReservation<T, Failure: Error>(_ bytes: Int, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let amount = min(max(bytes, 0), total)
        condition.lock()
        while held > 0 && held + amount > total { condition.wait() }
        held += amount
        condition.unlock()
        defer {
            condition.lock()
            held -= amount
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
