#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs

/// How the process's allocator treats freed image buffers.
enum MemoryReuse {
    /// Keeps freed buffers of up to 32 MiB in the heap for the next pair, instead of handing
    /// them back to the kernel and faulting them in again: glibc maps every buffer above its
    /// adaptive threshold afresh and trims the heap after each free, which cost a fifth of a
    /// batch's CPU time in page faults. Larger buffers still come and go with their pair.
    static func keepFreedImageBuffers() {
        #if os(Linux) && canImport(Glibc)
        _ = glibcMallopt(mmapThreshold, 32 << 20)
        _ = glibcMallopt(trimThreshold, Int32.max)
        #endif
    }

    /// For a process that compares one pair: backs the heap's next ``hugePageReserve`` bytes
    /// with 2-MiB pages, and has every thread allocate from that one heap. One pair's masks,
    /// pixel lists and band buffers (a few dozen MiB at 8 MP) are each written once, and on
    /// 4-KiB pages their faults cost as much as the writing several times over. Image buffers
    /// larger than 32 MiB are mapped apart, and the decoder asks for 2-MiB pages there itself.
    /// A batch reuses its freed buffers from pair to pair, so it faults little either way, and
    /// its two workers on one 2-MiB-backed heap took longer: it keeps the defaults. The price
    /// is peak RSS, which grows in 2-MiB steps: 1-2 MiB more when counting, 4-8 MiB more for a
    /// blend. Leaving the heap's first 8 MiB on 4-KiB pages saved the small pairs' 3 MiB but put
    /// YIQ's streamed bands back on them, and its gain with.
    static func backHeapWithHugePages() {
        #if os(Linux) && canImport(Glibc)
        let hugePage = UInt(2 << 20)
        _ = glibcMallopt(topPad, hugePageReserve)
        // A block too large for the heap's free space makes it grow (by the top pad too); its
        // address is where the growth starts, and reading it keeps the allocation in the build.
        let block = malloc(1 << 20)
        _ = glibcMallopt(topPad, defaultTopPad)
        guard let block else { return }
        let start = UInt(bitPattern: block), end = UInt(bitPattern: sbrk(0))
        free(block)
        // A block from elsewhere (a sanitizer's allocator, or a mapping) lies outside the heap.
        guard end > start, end - start <= UInt(hugePageReserve) + hugePage else { return }
        guard let span = UnsafeMutableRawPointer(bitPattern: start), HugePages.advise(span, count: Int(end - start)) else { return }
        // Thread arenas are mapped apart from the heap, outside the advised span.
        _ = glibcMallopt(arenaMax, 1)
        #endif
    }

    #if os(Linux) && canImport(Glibc)
    /// How much the heap grows for 2-MiB pages: address space only, each page faulting in when
    /// first written.
    static let hugePageReserve: Int32 = 256 << 20

    // <malloc.h>, which the Glibc module does not import.
    private static let trimThreshold: Int32 = -1
    private static let topPad: Int32 = -2
    private static let mmapThreshold: Int32 = -3
    private static let arenaMax: Int32 = -8
    private static let defaultTopPad: Int32 = 128 << 10
    #endif
}

#if os(Linux) && canImport(Glibc)
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
