import CImageCodecs

/// Transparent huge pages behind large buffers that are about to be written once.
package enum HugePages {
    /// Asks Linux to back the whole 2-MiB pages within `count` bytes at `start` with huge
    /// pages: a fresh buffer of many 4-KiB pages faults in far slower than it is filled. A hint;
    /// returns whether some span was advised and the kernel took it (never, off Linux).
    @discardableResult
    package static func advise(_ start: UnsafeMutableRawPointer, count: Int) -> Bool {
        count > 0 && cic_advise_huge_pages(start, count) != 0
    }
}
