import RealModule

/// Playwright's `ssim-cie94` comparator, written from its published algorithm: a pixel counts
/// as different when
/// 1. its colours, blended over white, differ, and by more than `maxDeltaE` in CIE94 (on
///    Playwright's own sRGB → Lab conversion, the expected image's chroma weighting);
/// 2. and either image is one flat colour over the pixel's 3 × 3 neighbourhood (then it cannot
///    be anti-aliasing), or the mean SSIM of R, G and B over the 31 × 31 window around it is
///    below 0.99.
/// Outside the image, windows see a checkerboard of magenta and green (Playwright pads the
/// channels by 15 pixels with it), so that edges are judged as Playwright judges them.
///
/// Window sums are exact integers, kept per column for the 31 rows around the current row and
/// slid down the image, so memory stays at a few rows whatever the image size; the SSIM
/// formula then runs in Playwright's floating-point order, so counts equal Playwright's.
enum SSIMCIE94 {
    static let ssimRadius = 15
    static let windowSide = 2 * ssimRadius + 1
    static let windowArea = Double(windowSide * windowSide)
    /// The SSIM above which a differing pixel is taken for anti-aliasing.
    static let antialiasedSSIM = 0.99

    /// Counts (and, when `options.collectsMask`, marks) the differing pixels of two images of
    /// one size; the other statistics come from the exact comparison.
    static func compare(_ expected: RGBAImage, _ actual: RGBAImage, maxDeltaE: Double, options: ComparisonOptions) -> DiffResult {
        var exactOptions = options
        exactOptions.metric = .exact
        var result = ComparisonEngine(reference: expected, actual: actual, options: exactOptions).run(kernel: .vectorized)
        result.metric = options.metric
        guard !result.sizeDiffers else {
            result.judge(by: options.allowance)
            return result
        }
        let counted = differingPixels(
            expected, actual, maxDeltaE: maxDeltaE,
            ignored: IgnoreMap(options: options, width: expected.width, height: expected.height), bands: bandCount(options, expected))
        var mask = options.collectsMask ? DifferenceMask(width: expected.width, height: expected.height) : nil
        var box: PixelRect?
        for index in counted {
            let x = index % expected.width, y = index / expected.width
            mask?.set(x: x, y: y)
            let pixel = PixelRect(minX: x, minY: y, maxX: x, maxY: y)
            box = box.map { $0.union(pixel) } ?? pixel
        }
        result.differentPixels = counted.count
        result.differentRatio = result.totalPixels == 0 ? 0 : Double(counted.count) / Double(result.totalPixels)
        result.boundingBox = box
        result.mask = mask
        result.judge(by: options.allowance)
        return result
    }

    /// The bands asked for, or one per 128 rows, at most 8: each band builds its window sums
    /// over 31 rows before its first.
    static func bandCount(_ options: ComparisonOptions, _ image: RGBAImage) -> Int {
        RowBands.count(height: image.height, requested: options.bands)
    }

    /// The row-major indices of the pixels Playwright's comparator counts, in order, judged in
    /// `bands` row bands on all cores.
    static func differingPixels(_ expected: RGBAImage, _ actual: RGBAImage, maxDeltaE: Double, ignored: IgnoreMap?, bands: Int = 1) -> [Int] {
        var found = [[Int]](repeating: [], count: max(1, min(bands, expected.height)))
        found.withUnsafeMutableBufferPointer { results in
            let shared = UncheckedSendable(results)
            RowBands.forEach(height: expected.height, bands: results.count) { band, rows in
                shared.value[band] = differingPixels(expected, actual, rows: rows, maxDeltaE: maxDeltaE, ignored: ignored)
            }
        }
        return found.flatMap { $0 }
    }

    /// The pixels counted in `rows`.
    static func differingPixels(_ expected: RGBAImage, _ actual: RGBAImage, rows: Range<Int>, maxDeltaE: Double, ignored: IgnoreMap?) -> [Int] {
        let first = Channels(expected), second = Channels(actual)
        var windows = WindowSums(first, second)
        var labCache = PlaywrightLab.Cache()
        var counted: [Int] = []
        var undecided: [Int] = []
        for y in rows {
            let rowStart = counted.count
            undecided.removeAll(keepingCapacity: true)
            for x in differingColumns(expected, actual, row: y) {
                let e = first[x, y], a = second[x, y]
                guard e != a, ignored?.contains(x: x, y: y) != true else { continue }
                guard PlaywrightLab.deltaE94(labCache.lab(e), labCache.lab(a)) > maxDeltaE else { continue }
                if first.isFlat(around: x, y) || second.isFlat(around: x, y) {
                    counted.append(y * expected.width + x)
                } else {
                    undecided.append(x)
                }
            }
            guard !undecided.isEmpty else { continue }
            windows.move(to: y)
            let usesPrefix = undecided.count * windowSide > expected.width + 2 * ssimRadius
            if usesPrefix { windows.makePrefixSums() }
            for x in undecided where windows.ssim(x: x, usingPrefixSums: usesPrefix) < antialiasedSSIM {
                counted.append(y * expected.width + x)
            }
            counted[rowStart...].sort()
        }
        return counted
    }

    /// The columns of row `y` whose RGBA bytes differ: equal bytes blend to equal colours.
    static func differingColumns(_ expected: RGBAImage, _ actual: RGBAImage, row y: Int) -> [Int] {
        expected.pixels.withUnsafeBytes { e in
            actual.pixels.withUnsafeBytes { a in
                (0..<expected.width).filter { x in
                    let offset = (y * expected.width + x) * 4
                    return e.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                }
            }
        }
    }

    /// An image as Playwright's comparator sees it: R, G, B blended over white (truncated to
    /// a byte), and outside the image a checkerboard, magenta where the padded coordinates'
    /// sum is even and green where it is odd.
    struct Channels {
        let image: RGBAImage

        init(_ image: RGBAImage) { self.image = image }

        /// The colour at (x, y), which may lie up to ``SSIMCIE94/ssimRadius`` outside the image.
        subscript(x: Int, y: Int) -> SIMD3<UInt8> {
            guard x >= 0, y >= 0, x < image.width, y < image.height else {
                return (x + y + 2 * SSIMCIE94.ssimRadius) % 2 == 0 ? SIMD3(255, 0, 255) : SIMD3(0, 255, 0)
            }
            let k = (y * image.width + x) * 4
            let alpha = image.pixels[k + 3]
            guard alpha != 255 else { return SIMD3(image.pixels[k], image.pixels[k + 1], image.pixels[k + 2]) }
            let share = Double(alpha) / 255
            func blended(_ c: UInt8) -> UInt8 { UInt8(255 + (Double(c) - 255) * share) }
            return SIMD3(blended(image.pixels[k]), blended(image.pixels[k + 1]), blended(image.pixels[k + 2]))
        }

        /// Row `y` from 15 pixels left of the image to 15 right of it, R, G, B per pixel.
        func paddedRow(_ y: Int) -> [UInt8] {
            let radius = SSIMCIE94.ssimRadius
            var row = [UInt8](repeating: 0, count: (image.width + 2 * radius) * 3)
            for column in 0..<(image.width + 2 * radius) {
                let colour = self[column - radius, y]
                row[column * 3] = colour.x
                row[column * 3 + 1] = colour.y
                row[column * 3 + 2] = colour.z
            }
            return row
        }

        /// Whether the 3 × 3 neighbourhood of (x, y) is one colour: Playwright's "variance 0".
        func isFlat(around x: Int, _ y: Int) -> Bool {
            let centre = self[x, y]
            for dy in -1...1 {
                for dx in -1...1 where self[x + dx, y + dy] != centre { return false }
            }
            return true
        }
    }

    /// The sums SSIM needs over the 31 × 31 window around a pixel, for each of R, G, B: both
    /// images' values, their squares and their products. They are kept per column for the 31
    /// rows around the current row, and slid down (or rebuilt) as the row moves.
    struct WindowSums {
        let first: Channels
        let second: Channels
        let width: Int
        /// For padded column `c` (image column `c − 15`) and channel `ch`, the column's sums at
        /// `(c * 3 + ch) * 5 + q`, q: Σa, Σb, Σa², Σb², Σab.
        var columns: [Int]
        /// The image row the column sums are centred on, if any yet.
        var centreRow: Int?

        init(_ first: Channels, _ second: Channels) {
            self.first = first
            self.second = second
            width = first.image.width
            columns = []
        }

        static let quantities = 5

        /// Running sums of ``columns`` along the row, one entry more than columns: entry `c`
        /// holds the sum of columns before `c`.
        var prefix: [Int] = []

        mutating func makePrefixSums() {
            let stride = 3 * Self.quantities
            let count = columns.count / stride
            if prefix.count != columns.count + stride { prefix = [Int](repeating: 0, count: columns.count + stride) }
            columns.withUnsafeBufferPointer { columns in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    for column in 0..<count {
                        for q in 0..<stride { prefix[(column + 1) * stride + q] = prefix[column * stride + q] + columns[column * stride + q] }
                    }
                }
            }
        }

        /// The mean SSIM of R, G and B over the window around image column `x` of the row the
        /// sums are centred on.
        func ssim(x: Int, usingPrefixSums: Bool) -> Double {
            var total = 0.0
            let stride = 3 * Self.quantities
            for channel in 0..<3 {
                var sums = (a: 0, b: 0, aa: 0, bb: 0, ab: 0)
                if usingPrefixSums {
                    let low = x * stride + channel * Self.quantities, high = (x + SSIMCIE94.windowSide) * stride + channel * Self.quantities
                    sums = (prefix[high] - prefix[low], prefix[high + 1] - prefix[low + 1], prefix[high + 2] - prefix[low + 2],
                            prefix[high + 3] - prefix[low + 3], prefix[high + 4] - prefix[low + 4])
                } else {
                    columns.withUnsafeBufferPointer { columns in
                        for column in x..<(x + SSIMCIE94.windowSide) {
                            let base = column * stride + channel * Self.quantities
                            sums.a += columns[base]
                            sums.b += columns[base + 1]
                            sums.aa += columns[base + 2]
                            sums.bb += columns[base + 3]
                            sums.ab += columns[base + 4]
                        }
                    }
                }
                total += SSIMCIE94.ssim(sums)
            }
            return total / 3.0
        }

        /// Centres the column sums on image row `y`: slides them when `y` is near the last row,
        /// rebuilds them otherwise.
        mutating func move(to y: Int) {
            let radius = SSIMCIE94.ssimRadius
            if let centre = centreRow, centre <= y, y - centre < SSIMCIE94.windowSide {
                for row in centre..<y {
                    add(row: row - radius, sign: -1)
                    add(row: row + radius + 1, sign: 1)
                }
            } else {
                columns = [Int](repeating: 0, count: (width + 2 * radius) * 3 * Self.quantities)
                for row in (y - radius)...(y + radius) { add(row: row, sign: 1) }
            }
            centreRow = y
        }

        mutating func add(row: Int, sign: Int) {
            let radius = SSIMCIE94.ssimRadius
            let first = self.first.paddedRow(row), second = self.second.paddedRow(row)
            columns.withUnsafeMutableBufferPointer { columns in
                for column in 0..<(width + 2 * radius) {
                    for channel in 0..<3 {
                        let va = Int(first[column * 3 + channel]), vb = Int(second[column * 3 + channel])
                        let base = (column * 3 + channel) * Self.quantities
                        columns[base] += sign * va
                        columns[base + 1] += sign * vb
                        columns[base + 2] += sign * va * va
                        columns[base + 3] += sign * vb * vb
                        columns[base + 4] += sign * va * vb
                    }
                }
            }
        }
    }

    /// SSIM of one channel over one window, in Playwright's order of operations.
    static func ssim(_ sums: (a: Int, b: Int, aa: Int, bb: Int, ab: Int)) -> Double {
        let n = windowArea
        let (sumA, sumB) = (Double(sums.a), Double(sums.b))
        let mean1 = sumA / n, mean2 = sumB / n
        let var1 = (Double(sums.aa) - sumA * sumA / n) / n
        let var2 = (Double(sums.bb) - sumB * sumB / n) / n
        let covariance = (Double(sums.ab) - sumA * sumB / n) / n
        let c1 = (0.01 * 255.0) * (0.01 * 255.0)
        let c2 = (0.03 * 255.0) * (0.03 * 255.0)
        return (2 * mean1 * mean2 + c1) * (2 * covariance + c2) / (mean1 * mean1 + mean2 * mean2 + c1) / (var1 + var2 + c2)
    }
}

/// CIE Lab as Playwright's comparator computes it: the 4-digit sRGB → XYZ matrix, D65 white
/// (0.950489, 1, 1.088840), and powers rather than cube roots.
struct PlaywrightLab {
    let l: Double
    let a: Double
    let b: Double

    init(_ rgb: SIMD3<UInt8>) {
        let r = Self.linear[Int(rgb.x)], g = Self.linear[Int(rgb.y)], b = Self.linear[Int(rgb.z)]
        let x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.950489
        let y = r * 0.2126 + g * 0.7152 + b * 0.0722
        let z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.088840
        let (fx, fy, fz) = (Self.f(x), Self.f(y), Self.f(z))
        l = 116 * fy - 16
        a = 500 * (fx - fy)
        self.b = 200 * (fy - fz)
    }

    /// A direct-mapped cache of conversions: screenshots reuse few colours.
    struct Cache {
        private static let bits = 12
        private var keys = [UInt32](repeating: .max, count: 1 << bits)
        private var values = [PlaywrightLab](repeating: PlaywrightLab(SIMD3(0, 0, 0)), count: 1 << bits)

        mutating func lab(_ colour: SIMD3<UInt8>) -> PlaywrightLab {
            let key = UInt32(colour.x) << 16 | UInt32(colour.y) << 8 | UInt32(colour.z)
            let slot = Int((key &* 2_654_435_761) >> UInt32(32 - Self.bits))
            if keys[slot] == key { return values[slot] }
            let lab = PlaywrightLab(colour)
            keys[slot] = key
            values[slot] = lab
            return lab
        }
    }

    static let linear: [Double] = (0...255).map { value in
        let c = Double(value) / 255
        return c > 0.04045 ? Double.pow((c + 0.055) / 1.055, 2.4) : c / 12.92
    }

    static let sigmaSquared = 6.0 * 6 / 29 / 29
    static let sigmaCubed = 6.0 * 6 * 6 / 29 / 29 / 29

    static func f(_ t: Double) -> Double {
        t > sigmaCubed ? Double.pow(t, 1.0 / 3) : t / 3 / sigmaSquared + 4.0 / 29
    }

    /// CIE94 for graphic arts (k1 0.045, k2 0.015), weighted by `first`'s chroma.
    static func deltaE94(_ first: PlaywrightLab, _ second: PlaywrightLab) -> Double {
        let deltaL = first.l - second.l, deltaA = first.a - second.a, deltaB = first.b - second.b
        let c1 = (first.a * first.a + first.b * first.b).squareRoot()
        let c2 = (second.a * second.a + second.b * second.b).squareRoot()
        let deltaC = c1 - c2
        var deltaH = deltaA * deltaA + deltaB * deltaB - deltaC * deltaC
        deltaH = deltaH < 0 ? 0 : deltaH.squareRoot()
        let sC = 1.0 + 0.045 * c1, sH = 1.0 + 0.015 * c1
        let termC = deltaC / sC, termH = deltaH / sH
        return (deltaL * deltaL + termC * termC + termH * termH).squareRoot()
    }
}
