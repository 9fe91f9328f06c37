#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a crash runs. The Swift runtime installs a crash handler that starts a helper program,
/// `swift-backtrace`; linked statically, as imgdiff is packaged, the runtime looks for that
/// helper relative to the working directory, so a crash of imgdiff in a snapshot folder or a
/// pull request's checkout would run a `swift-backtrace` placed there. imgdiff puts the
/// system's default action back on the crash signals: a crash ends with the runtime's message
/// (for a trap) and the signal, and runs nothing.
enum CrashSignals {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Restores the default actions, unless `SWIFT_BACKTRACE` is set: whoever sets it asks for
    /// the runtime's handler, and says where its helper is.
    static func restoreDefaultActions() {
        guard getenv("SWIFT_BACKTRACE") == nil else { return }
        for number in signals { signal(number, SIG_DFL) }
    }
}
