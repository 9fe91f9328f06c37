/// How the process's allocator treats freed image buffers.
enum MemoryReuse {
    /// Keeps freed buffers of up to 32 MiB in the heap for the next pair, instead of handing
    /// them back to the kernel and faulting them in again: glibc maps every buffer above its
    /// adaptive threshold afresh and trims the heap after each free, which cost a fifth of a
    /// batch's CPU time in page faults. Larger buffers still come and go with their pair.
    static func keepFreedImageBuffers() {
        #if os(Linux)
        _ = glibcMallopt(mmapThreshold, 32 << 20)
        _ = glibcMallopt(trimThreshold, Int32.max)
        #endif
    }

    #if os(Linux)
    // <malloc.h>, which the Glibc module does not import.
    private static let trimThreshold: Int32 = -1
    private static let mmapThreshold: Int32 = -3
    #endif
}

#if os(Linux)
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
