/// Whether two buffers hold the same bytes: the test behind every "identical" shortcut (the
/// same file twice, the same pixels twice).
///
/// It compares 64 bytes a step and looks at the result every 8 KiB, so it stops soon after the
/// first difference. The stdlib's `==` on `[UInt8]` is its plain reference; on a 1.4 MB buffer
/// that compares a byte a step, about ten times slower.
public enum ByteComparison {
    /// Whether `a` and `b` have the same length and bytes.
    public static func areEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { first in b.withUnsafeBytes { second in areEqual(first, second) } }
    }

    /// Whether `a` and `b` have the same length and bytes.
    public static func areEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let first = a.baseAddress, let second = b.baseAddress else { return true }
        return areEqual(first, second, count: a.count)
    }

    /// Whether `count` bytes at `a` and at `b` are equal: a row of pixels, or a run of them.
    /// Under 64 bytes it goes 32, then 8, then 1 byte a step.
    @inline(__always)
    package static func areEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        typealias Step = SIMD8<UInt64>
        let stepBytes = MemoryLayout<Step>.size, stepsPerBlock = 128
        var offset = 0
        while count - offset >= stepBytes {
            let steps = min((count - offset) / stepBytes, stepsPerBlock)
            var differences = Step()
            for step in 0..<steps {
                let at = offset + step * stepBytes
                differences |= a.loadUnaligned(fromByteOffset: at, as: Step.self) ^ b.loadUnaligned(fromByteOffset: at, as: Step.self)
            }
            if differences != Step() { return false }
            offset += steps * stepBytes
        }
        if count - offset >= 32 {
            let differences = a.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt64>.self)
                ^ b.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt64>.self)
            if differences != SIMD4() { return false }
            offset += 32
        }
        while count - offset >= 8 {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset += 1
        }
        return true
    }
}
