/// Which pixels of a comparison differ, over `max(width) × max(height)`.
public struct DifferenceMask: Sendable, Equatable {
    /// Pixels across: the wider image's width.
    public let width: Int
    /// Pixels down: the taller image's height.
    public let height: Int
    private var bits: [UInt8]

    /// A mask of `width × height` pixels, none marked.
    ///
    /// - Precondition: width and height are not negative, and the mask fits in memory.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bits = [UInt8](repeating: 0, count: RGBAImage.sampleCount(width: width, height: height) / 4)
    }

    /// A mask of `bits`, one byte a pixel, row-major, non-zero where the pixel differs.
    package init(width: Int, height: Int, bits: [UInt8]) {
        precondition(bits.count == width * height, "mask bytes do not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.bits = bits
    }

    /// Whether the pixel at (x, y) differs.
    ///
    /// - Precondition: (x, y) lies within the mask.
    @inline(__always)
    public func contains(x: Int, y: Int) -> Bool {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the \(width)x\(height) mask")
        return bits[y * width + x] != 0
    }

    @inline(__always)
    mutating func set(x: Int, y: Int) { bits[y * width + x] = 1 }

    @inline(__always)
    mutating func clear(x: Int, y: Int) { bits[y * width + x] = 0 }

    /// Calls `body` with the mask's bytes: one a pixel, row-major, 1 where the pixel differs.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try bits.withUnsafeBufferPointer { buffer throws(E) in try body(buffer) }
    }

    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutablePointer<UInt8>?) -> R) -> R {
        bits.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }

    /// Calls `body` with the column of each marked byte of one row of mask bytes (`row`,
    /// `width` long), in order, passing over unmarked bytes 32 or 8 at a time (a mask is mostly
    /// unmarked) and going from one marked byte straight to the next within eight.
    @inline(__always)
    static func forEachMarked(inRow row: UnsafePointer<UInt8>, width: Int, _ body: (_ x: Int) -> Void) {
        let bytes = UnsafeRawPointer(row)
        var x = 0
        while x + 8 <= width {
            if x + 32 <= width {
                let words = bytes.loadUnaligned(fromByteOffset: x, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: x + 8, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: x + 16, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: x + 24, as: UInt64.self)
                if words == 0 {
                    x += 32
                    continue
                }
            }
            // The byte at the lowest address is the word's least significant once read as
            // little-endian, so the trailing zero bits count the unmarked bytes before the next.
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: x, as: UInt64.self))
            guard word != 0 else {
                x += 8
                continue
            }
            x += word.trailingZeroBitCount / 8
            body(x)
            x += 1
        }
        while x < width {
            if row[x] != 0 { body(x) }
            x += 1
        }
    }

    /// The first and the last marked column of one row of mask bytes, or nil when the row has
    /// none.
    static func markedSpan(inRow row: UnsafePointer<UInt8>, width: Int) -> ClosedRange<Int>? {
        var first = 0
        while first + 8 <= width, UnsafeRawPointer(row + first).loadUnaligned(as: UInt64.self) == 0 { first += 8 }
        while first < width, row[first] == 0 { first += 1 }
        guard first < width else { return nil }
        var last = width - 1
        while last - 8 >= first, UnsafeRawPointer(row + last - 7).loadUnaligned(as: UInt64.self) == 0 { last -= 8 }
        while row[last] == 0 { last -= 1 }
        return first...last
    }

    /// The pixels marked 1, without those a comparison marked 2 (anti-aliased, see
    /// ``ComparisonOptions/marksAntialiasedPixels``).
    var counted: DifferenceMask {
        var only = self
        only.keepCounted()
        return only
    }

    /// Unmarks the pixels a comparison marked 2, in place when the mask is not shared.
    mutating func keepCounted() {
        bits.withUnsafeMutableBufferPointer { bits in
            // Without a branch, so that the compiler compares and clears many bytes a step.
            for index in bits.indices {
                let byte = bits[index]
                bits[index] = byte == 2 ? 0 : byte
            }
        }
    }

    /// A mask of the pixels in `set` (indices, row-major).
    init(width: Int, height: Int, marking set: PixelSet) {
        self.init(width: width, height: height)
        bits.withUnsafeMutableBufferPointer { bits in set.forEach { bits[$0] = 1 } }
    }

    /// Number of differing pixels.
    public var count: Int {
        bits.withUnsafeBufferPointer { bits in
            var total = 0
            for byte in bits { total &+= Int(byte) }
            return total
        }
    }

    /// The mask as an image: differing pixels in `color`, everything else fully transparent.
    public func render(color: RGBA = RGBA(255, 0, 0, 255)) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) where bits[index] != 0 {
            pixels[index * 4] = color.r
            pixels[index * 4 + 1] = color.g
            pixels[index * 4 + 2] = color.b
            pixels[index * 4 + 3] = color.a
        }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: true)
    }
}

/// A set of pixel indices, one bit a pixel: a mask to mark and count where the bytes of a
/// ``DifferenceMask`` are not wanted.
struct PixelSet {
    private var words: [UInt64]

    /// An empty set of indices below `count`.
    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    mutating func insert(_ index: Int) {
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// `body` for each index in the set, in ascending order.
    func forEach(_ body: (Int) -> Void) {
        for (position, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                body(position << 6 | rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
    }
}
