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
import ImageCodecs

/// Removes a run's staging folders when the run is interrupted (Ctrl-C, `kill`, a CI job's
/// timeout), before the process ends by that signal: a report or a canary folder being built
/// beside its destination is never left behind, hidden, for a later run to find.
///
/// The signal handler only writes the signal's number to a pipe; a thread of its own reads it,
/// removes the folders registered at that moment and ends the process as the signal would have.
/// SIGKILL cannot be caught: what a killed run leaves, the next run on the same folder removes
/// (see `ImageFile.isAbandonedTemporaryName`).
enum InterruptCleanup {
    /// The signals that end a run early and can be caught.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private static let lock = Lock()
    // Guarded by `lock`: workers register and unregister while the cleanup thread reads.
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var ending = false
    /// The pipe the handler writes the signal's number to (a plain integer, as a signal
    /// handler may read) and the cleanup thread reads. Set once, before any handler is installed.
    nonisolated(unsafe) private static var signalWriteEnd: Int32 = -1
    nonisolated(unsafe) private static var signalReadEnd: Int32 = -1

    /// Removes `path` (a folder and all it holds) if a signal ends the run before
    /// ``unregister(_:)``; installs the handlers the first time.
    static func register(_ path: String) {
        let first = lock.withLock {
            paths.insert(path)
            defer { installed = true }
            return !installed
        }
        if first { install() }
    }

    /// Parks the calling thread for good once a signal is ending the run: the folders it was
    /// writing are being removed, so what it would print or the status it would exit with (an
    /// error about a vanished file) is not the run's; the cleanup thread ends the process by
    /// the signal.
    static func holdIfEnding() {
        guard lock.withLock({ ending }) else { return }
        while true { pause() }
    }

    /// `path` is committed or discarded: a signal no longer removes it.
    static func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    private static func install() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A burst of signals must never block the handler on a full pipe.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        (signalReadEnd, signalWriteEnd) = (ends[0], ends[1])
        #if canImport(Glibc)
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in InterruptCleanup.cleanUpOnSignal() }, nil) == 0 else { return }
        pthread_detach(thread)
        #else
        var thread: pthread_t?
        guard pthread_create(&thread, nil, { _ in InterruptCleanup.cleanUpOnSignal() }, nil) == 0, let thread else { return }
        pthread_detach(thread)
        #endif
        for number in signals {
            var previous = sigaction()
            // A signal the run was started with ignored (nohup, a background job) stays so.
            guard sigaction(number, nil, &previous) == 0, !isIgnored(previous) else { continue }
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The signal handler: it only hands the signal's number to the cleanup thread, keeping the
    /// interrupted thread's `errno`.
    private static let handler: @convention(c) (Int32) -> Void = { number in
        let saved = errno
        var value = number
        _ = write(InterruptCleanup.signalWriteEnd, &value, MemoryLayout<Int32>.size)
        errno = saved
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        return handler.map { unsafeBitCast($0, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) } ?? false
    }

    /// Removes the folder `path` while the run's workers may still be writing into it: it is
    /// first renamed to a new temporary name beside it, so that no worker creates anything more
    /// in it, then removed (again, should a file opened before the rename still appear).
    private static func remove(_ path: String) {
        let aside = PathText.join(PathText.parent(of: path), ImageFile.temporaryName())
        let target = rename(path, aside) == 0 ? aside : path
        for _ in 0..<10 {
            try? FileManager.default.removeItem(atPath: target)
            var status = stat()
            if lstat(target, &status) != 0 { return }
        }
    }

    /// The cleanup thread: waits for a signal's number, removes the registered folders, and
    /// ends the process by that signal.
    private static func cleanUpOnSignal() -> UnsafeMutableRawPointer? {
        var number: Int32 = 0
        while read(signalReadEnd, &number, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {
            if errno != EINTR { return nil }
        }
        let registered = lock.withLock {
            ending = true
            return paths
        }
        for path in registered { remove(path) }
        signal(number, SIG_DFL)
        // This thread may have been started with the signal blocked, as the thread that
        // started it had it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }
}
