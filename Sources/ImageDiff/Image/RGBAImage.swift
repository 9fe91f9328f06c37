/// A decoded image: 8-bit RGBA samples with straight (not premultiplied) alpha, row-major,
/// top-left first.
///
/// Images decoded from 16-bit sources keep their original samples in ``samples16`` so that
/// ImageMagick-compatible counts and outputs can be exact; ``pixels`` then holds
/// `floor(v16 / 257)`, the reduction ImageMagick's PNG writer uses. The two never disagree:
/// ``samples16`` is set only with the image, and any change to ``pixels`` (or to a pixel)
/// makes the image an 8-bit one, so an edit is never lost behind stale 16-bit samples.
public struct RGBAImage: Sendable, Equatable {
    /// Pixels across; 0 for an empty image.
    public let width: Int
    /// Pixels down; 0 for an empty image.
    public let height: Int
    /// `width * height * 4` samples: R, G, B, A. Changing them drops ``samples16``.
    ///
    /// - Precondition: a change keeps `width * height * 4` samples; one that does not stops
    ///   the program, where the comparison would read past them.
    public var pixels: [UInt8] {
        @inlinable get { eightBitSamples }
        @inlinable set {
            precondition(newValue.count == eightBitSamples.count, "pixels must keep \(width)x\(height)x4 samples, not \(newValue.count)")
            eightBitSamples = newValue
            sixteenBitSamples = nil
        }
        @inlinable _modify {
            sixteenBitSamples = nil
            let count = eightBitSamples.count
            defer { precondition(eightBitSamples.count == count, "pixels must keep \(width)x\(height)x4 samples, not \(eightBitSamples.count)") }
            yield &eightBitSamples
        }
    }
    @usableFromInline var eightBitSamples: [UInt8]
    /// Whether the source had an alpha channel or a tRNS chunk (ImageMagick's "matte").
    /// Images without one decode with A = 255 everywhere.
    public var hasAlpha: Bool
    /// The original 16-bit samples (`width * height * 4`) when the source was 16-bit; `nil` for
    /// 8-bit images, and once ``pixels`` has been changed.
    @inlinable public var samples16: [UInt16]? { sixteenBitSamples }
    @usableFromInline var sixteenBitSamples: [UInt16]?

    /// Creates an image from 8-bit RGBA samples.
    ///
    /// - Precondition: `pixels.count == width * height * 4`; width and height are not negative.
    public init(width: Int, height: Int, pixels: [UInt8], hasAlpha: Bool = true) {
        precondition(pixels.count == Self.sampleCount(width: width, height: height), "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.eightBitSamples = pixels
        self.hasAlpha = hasAlpha
        self.sixteenBitSamples = nil
    }

    /// Creates an image from 16-bit RGBA samples; ``pixels`` is derived as `floor(v / 257)`.
    public init(width: Int, height: Int, samples16: [UInt16], hasAlpha: Bool) {
        precondition(samples16.count == Self.sampleCount(width: width, height: height), "sample buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.eightBitSamples = samples16.map { UInt8($0 / 257) }
        self.hasAlpha = hasAlpha
        self.sixteenBitSamples = samples16
    }

    /// An image of one colour.
    ///
    /// - Precondition: width and height are not negative, and the image fits in memory.
    public init(width: Int, height: Int, filledWith color: RGBA, hasAlpha: Bool = true) {
        var pixels = [UInt8](repeating: 0, count: Self.sampleCount(width: width, height: height))
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = color.r
            pixels[index + 1] = color.g
            pixels[index + 2] = color.b
            pixels[index + 3] = color.a
        }
        self.init(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }

    /// `width * height * 4`, the samples of an image of that size.
    ///
    /// - Precondition: width and height are not negative, and the count fits in an `Int`.
    static func sampleCount(width: Int, height: Int) -> Int {
        precondition(width >= 0 && height >= 0, "negative image size \(width)x\(height)")
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (samples, samplesOverflow) = pixels.multipliedReportingOverflow(by: 4)
        precondition(!overflow && !samplesOverflow, "image size \(width)x\(height) is too large")
        return samples
    }

    /// Number of pixels.
    public var pixelCount: Int { width * height }

    /// Whether the samples came from a 16-bit source.
    public var is16Bit: Bool { samples16 != nil }

    /// The pixel at (x, y).
    ///
    /// - Precondition: (x, y) lies within the image; a column past the width stops the program
    ///   rather than read the next row.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
            let index = (y * width + x) * 4
            return RGBA(pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
            let index = (y * width + x) * 4
            pixels[index] = newValue.r
            pixels[index + 1] = newValue.g
            pixels[index + 2] = newValue.b
            pixels[index + 3] = newValue.a
        }
    }

    /// The sample of channel `channel` (0…3) at pixel `index` on ImageMagick's Q16 scale:
    /// 16-bit sources as they are, 8-bit ones times 257.
    @inline(__always)
    func quantum(_ pixelIndex: Int, _ channel: Int) -> Int {
        if let samples16 { return Int(samples16[pixelIndex * 4 + channel]) }
        return Int(pixels[pixelIndex * 4 + channel]) * 257
    }
}

/// One 8-bit straight-alpha colour.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…255.
    public var r: UInt8
    /// Green, 0…255.
    public var g: UInt8
    /// Blue, 0…255.
    public var b: UInt8
    /// Alpha, 0 (transparent) … 255 (opaque); the colour is not premultiplied by it.
    public var a: UInt8

    /// A colour of these samples; opaque unless `a` is given.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
}

/// A rectangle of pixels, inclusive of both corners, as the CLI's `x1:y1-x2:y2` spells it.
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The leftmost column inside the rectangle.
    public var minX: Int
    /// The top row inside the rectangle.
    public var minY: Int
    /// The rightmost column inside the rectangle.
    public var maxX: Int
    /// The bottom row inside the rectangle.
    public var maxY: Int

    /// The rectangle from (`minX`, `minY`) to (`maxX`, `maxY`), both corners inside; unchecked:
    /// a rectangle whose maximum is below its minimum holds no pixel.
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Columns across, both edges counted.
    public var width: Int { maxX - minX + 1 }
    /// Rows down, both edges counted.
    public var height: Int { maxY - minY + 1 }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        PixelRect(
            minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
            maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    public var description: String { "\(minX):\(minY)-\(maxX):\(maxY)" }
}

extension Optional where Wrapped == PixelRect {
    /// Widens the rectangle to take `rect` in; with no rectangle yet, it becomes `rect`.
    @inline(__always)
    mutating func formUnion(_ rect: PixelRect) { self = map { $0.union(rect) } ?? rect }
}
