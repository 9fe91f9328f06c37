#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex for state that worker threads share: a pthread mutex, which ThreadSanitizer
/// understands, in memory of its own so that it never moves.
final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A ``Lock`` with a condition variable, for a thread that waits until others change what the
/// lock guards.
final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    func lock() { mutex.lock() }
    func unlock() { mutex.unlock() }

    /// Waits for a ``broadcast()``; the caller holds the lock.
    func wait() { pthread_cond_wait(condition, mutex.mutex) }

    func broadcast() { pthread_cond_broadcast(condition) }
}
