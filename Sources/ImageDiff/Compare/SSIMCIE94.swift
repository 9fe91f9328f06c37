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
/// Each padded row is made once (``PaddedRows`` keeps the last 64). Window sums are exact
/// integers, kept per column for the 31 rows around the current row and slid down the image,
/// then slid along the row from one undecided pixel to the next, so memory stays at a few rows
/// whatever the image size; the SSIM formula then runs in Playwright's floating-point order,
/// so counts equal Playwright's. ΔE94 is approximated a row's pixels at a time, eight to a
/// vector (``PlaywrightLab/approximateDeltaE94(_:_:)``), and taken in Playwright's own
/// arithmetic only where the approximation lies too near the threshold or the largest ΔE so far
/// to settle them.
enum SSIMCIE94 {
    static let ssimRadius = 15
    static let windowSide = 2 * ssimRadius + 1
    static let windowArea = Double(windowSide * windowSide)
    /// The SSIM above which a differing pixel is taken for anti-aliasing.
    static let antialiasedSSIM = 0.99

    /// Counts (and, when `options.collectsMask`, marks) the differing pixels of two images of
    /// one size. The largest ΔE is Playwright's CIE94, taken in the same pass; the other
    /// statistics are the exact comparison's, tallied row by row in the same walk.
    static func compare(_ expected: RGBAImage, _ actual: RGBAImage, maxDeltaE: Double, options: ComparisonOptions) -> DiffResult {
        var exactOptions = options
        exactOptions.metric = .exact
        guard expected.size == actual.size, expected.width > 0, expected.height > 0 else {
            var result = ComparisonEngine(reference: expected, actual: actual, options: exactOptions).run(kernel: .vectorized)
            result.metric = options.metric
            result.judge(by: options.allowance)
            return result
        }
        exactOptions.measuresDeltaE = false
        let exact = ComparisonEngine(reference: expected, actual: actual, options: exactOptions)
        let ignored = IgnoreMap(options: options, width: expected.width, height: expected.height)
        let bands = RowBands.map(height: expected.height, bands: bandCount(options, expected)) { _, rows in
            exact.statistics(ignored: ignored) { judge in
                differingPixels(expected, actual, rows: rows, maxDeltaE: maxDeltaE, ignored: ignored) { y, columns in
                    judge.scan(row: y, differingColumns: columns)
                }
            }
        }
        var result = exact.result(merging: bands.map(\.0), mask: nil)
        result.metric = options.metric
        let counted = bands.flatMap(\.1.counted)
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
        result.maxDeltaE = bands.map(\.1.largestDeltaE).max() ?? 0
        result.boundingBox = box
        result.mask = mask
        result.judge(by: options.allowance)
        return result
    }

    /// The bands asked for, or one per 64 rows, at most 8: each band builds its window sums
    /// over 31 rows before its first, and 8 bands share out evenly over 2, 4 or 8 cores.
    static func bandCount(_ options: ComparisonOptions, _ image: RGBAImage) -> Int {
        options.bands > 0 ? options.bands : max(1, min(8, image.height / 64))
    }

    /// The pixels counted in `rows`, and the largest ΔE94 there. `visit` is handed each row
    /// with the columns whose bytes differ, in order.
    static func differingPixels(
        _ expected: RGBAImage, _ actual: RGBAImage, rows: Range<Int>, maxDeltaE: Double, ignored: IgnoreMap?,
        visit: (_ y: Int, _ differingColumns: ArraySlice<Int>) -> Void
    ) -> (counted: [Int], largestDeltaE: Double) {
        var windows = WindowSums(Channels(expected), Channels(actual))
        var labCache = PlaywrightLab.Cache()
        var counted: [Int] = []
        var undecided: [Int] = []
        // A row's pixels whose colours differ as Playwright sees them, their colours, and ΔE94
        // between those colours (approximated).
        var pairs: [Int] = [], firstColours: [SIMD3<UInt8>] = [], secondColours: [SIMD3<UInt8>] = []
        var largestDeltaE = 0.0
        var columnStorage = [Int](repeating: 0, count: expected.width)
        for y in rows {
            let rowStart = counted.count
            undecided.removeAll(keepingCapacity: true)
            let count = columnStorage.withUnsafeMutableBufferPointer { differingColumns(expected, actual, row: y, into: $0) }
            let columns = columnStorage[..<count]
            visit(y, columns)
            guard count > 0 else { continue }
            // The neighbourhood shares the rows' storage: it ends before the window moves and
            // adds rows, so that they are added in place.
            do {
                let neighbourhood = windows.neighbourhood(ofRow: y)
                pairs.removeAll(keepingCapacity: true)
                firstColours.removeAll(keepingCapacity: true)
                secondColours.removeAll(keepingCapacity: true)
                for x in columns {
                    let e = neighbourhood.first.colour(x: x), a = neighbourhood.second.colour(x: x)
                    guard e != a, ignored?.contains(x: x, y: y) != true else { continue }
                    pairs.append(x)
                    firstColours.append(e)
                    secondColours.append(a)
                }
                let approximateDeltaEs = PlaywrightLab.approximateDeltaE94(firstColours, secondColours)
                for (index, x) in pairs.enumerated() {
                    let margin = PlaywrightLab.approximationMargin
                    let (low, high) = (approximateDeltaEs[index] - margin, approximateDeltaEs[index] + margin)
                    // Above the threshold and below the largest so far, the exact ΔE would change nothing.
                    if !(high < largestDeltaE && low > maxDeltaE) {
                        guard high >= min(largestDeltaE, maxDeltaE) else { continue }
                        let deltaE = PlaywrightLab.deltaE94(labCache.lab(firstColours[index]), labCache.lab(secondColours[index]))
                        largestDeltaE = max(largestDeltaE, deltaE)
                        guard deltaE > maxDeltaE else { continue }
                    }
                    if neighbourhood.first.isFlat(around: x) || neighbourhood.second.isFlat(around: x) {
                        counted.append(y * expected.width + x)
                    } else {
                        undecided.append(x)
                    }
                }
            }
            guard !undecided.isEmpty else { continue }
            windows.move(to: y)
            for x in undecided where windows.ssim(x: x) < antialiasedSSIM {
                counted.append(y * expected.width + x)
            }
            counted[rowStart...].sort()
        }
        return (counted, largestDeltaE)
    }

    /// Writes the columns of row `y` whose RGBA bytes differ (equal bytes blend to equal
    /// colours) into the start of `columns`, which holds a row's width, and returns how many.
    /// Every column is written and counted only if it differs, so the loop has no branch.
    static func differingColumns(
        _ expected: RGBAImage, _ actual: RGBAImage, row y: Int, into columns: UnsafeMutableBufferPointer<Int>
    ) -> Int {
        expected.pixels.withUnsafeBytes { e in
            actual.pixels.withUnsafeBytes { a in
                guard columns.count >= expected.width, let columns = columns.baseAddress else { return 0 }
                let rowStart = y * expected.width * 4
                var count = 0
                for x in 0..<expected.width {
                    let offset = rowStart + x * 4
                    columns[count] = x
                    count += e.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != a.loadUnaligned(fromByteOffset: offset, as: UInt32.self) ? 1 : 0
                }
                return count
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
            return SIMD3(
                Self.overWhite(image.pixels[k], alpha: alpha), Self.overWhite(image.pixels[k + 1], alpha: alpha),
                Self.overWhite(image.pixels[k + 2], alpha: alpha))
        }

        /// A channel of a translucent pixel laid over white, truncated as a `Uint8Array` store
        /// truncates.
        static func overWhite(_ channel: UInt8, alpha: UInt8) -> UInt8 {
            UInt8(255 + (Double(channel) - 255) * (Double(alpha) / 255))
        }

        /// Row `y` from 15 pixels left of the image to 15 right of it, R, G, B per pixel, as
        /// the subscript gives it.
        func paddedRow(_ y: Int) -> [UInt8] {
            [UInt8](filling: paddedRowLength) { row, count in
                fill(row: y, into: row)
                count = paddedRowLength
            }
        }

        /// Bytes in a padded row: R, G, B for each image column and the 15 on either side.
        var paddedRowLength: Int { (image.width + 2 * SSIMCIE94.ssimRadius) * 3 }

        /// Writes ``paddedRow(_:)`` into `row`, which holds ``paddedRowLength`` bytes.
        func fill(row y: Int, into row: UnsafeMutableBufferPointer<UInt8>) {
            let radius = SSIMCIE94.ssimRadius
            let columns = image.width + 2 * radius
            func checkerboard(_ column: Int) {
                let magenta = (column + y + radius) % 2 == 0
                row[column * 3] = magenta ? 255 : 0
                row[column * 3 + 1] = magenta ? 0 : 255
                row[column * 3 + 2] = magenta ? 255 : 0
            }
            guard y >= 0, y < image.height else {
                for column in 0..<columns { checkerboard(column) }
                return
            }
            for column in 0..<radius { checkerboard(column) }
            for column in (radius + image.width)..<columns { checkerboard(column) }
            image.pixels.withUnsafeBufferPointer { pixels in
                let rowStart = y * image.width * 4
                for x in 0..<image.width {
                    let k = rowStart + x * 4, out = (x + radius) * 3
                    let alpha = pixels[k + 3]
                    if alpha == 255 {
                        row[out] = pixels[k]
                        row[out + 1] = pixels[k + 1]
                        row[out + 2] = pixels[k + 2]
                    } else {
                        for channel in 0..<3 { row[out + channel] = Self.overWhite(pixels[k + channel], alpha: alpha) }
                    }
                }
            }
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

    /// The padded rows of one image, each made once and kept while it is among the last
    /// ``capacity`` rows asked for: a window and the neighbourhood of its centre row never span
    /// more.
    struct PaddedRows {
        static let capacity = 64
        let channels: Channels
        let length: Int
        private var storage: [UInt8]
        private var heldRows: [Int?]

        init(_ channels: Channels) {
            self.channels = channels
            length = channels.paddedRowLength
            storage = [UInt8](repeating: 0, count: Self.capacity * length)
            heldRows = [Int?](repeating: nil, count: Self.capacity)
        }

        /// Where padded row `y` starts in ``bytes``, made if it is not held.
        mutating func offset(ofRow y: Int) -> Int {
            let slot = (y % Self.capacity + Self.capacity) % Self.capacity
            let start = slot * length
            if heldRows[slot] != y {
                storage.withUnsafeMutableBufferPointer { storage in
                    channels.fill(row: y, into: UnsafeMutableBufferPointer(rebasing: storage[start..<(start + length)]))
                }
                heldRows[slot] = y
            }
            return start
        }

        var bytes: [UInt8] { storage }

        /// Rows `y − 1`, `y` and `y + 1`, for the colours and 3 × 3 neighbourhoods of row `y`.
        mutating func neighbourhood(ofRow y: Int) -> Neighbourhood {
            let offsets = (offset(ofRow: y - 1), offset(ofRow: y), offset(ofRow: y + 1))
            return Neighbourhood(storage: storage, above: offsets.0, row: offsets.1, below: offsets.2)
        }
    }

    /// One image row with the rows above and below, as Playwright's comparator sees them.
    struct Neighbourhood {
        let storage: [UInt8]
        let above: Int
        let row: Int
        let below: Int

        /// The colour at image column `x` (−1 … width).
        func colour(x: Int) -> SIMD3<UInt8> {
            let k = row + (x + SSIMCIE94.ssimRadius) * 3
            return SIMD3(storage[k], storage[k + 1], storage[k + 2])
        }

        /// Whether the 3 × 3 neighbourhood of column `x` is one colour, as
        /// ``Channels/isFlat(around:_:)`` decides it.
        func isFlat(around x: Int) -> Bool {
            let centre = colour(x: x)
            let first = (x + SSIMCIE94.ssimRadius - 1) * 3
            // Three calls rather than a loop over an array of the rows: the array would be
            // allocated for every candidate pixel.
            func isFlat(rowAt start: Int) -> Bool {
                stride(from: start + first, to: start + first + 9, by: 3).allSatisfy { k in
                    SIMD3(storage[k], storage[k + 1], storage[k + 2]) == centre
                }
            }
            return isFlat(rowAt: above) && isFlat(rowAt: row) && isFlat(rowAt: below)
        }
    }

    /// The sums SSIM needs over the 31 × 31 window around a pixel, for each of R, G, B: both
    /// images' values, their squares and their products. They are kept per padded column and
    /// channel for the 31 rows around the current row, and slid down (or rebuilt) as the row
    /// moves.
    struct WindowSums {
        var first: PaddedRows
        var second: PaddedRows
        /// For quantity `q` (Σa, Σb, Σa², Σb², Σab), the sum over the window's rows of padded
        /// column `c`'s channel `ch`, at `q * rowLength + c * 3 + ch` (`c * 3 + ch` is where that
        /// byte sits in a padded row), and one entry more, so that a column's three channels load
        /// as one vector. A column of 31 rows sums at most 31 · 255², well within 32 bits.
        var columns: [Int32] = []
        /// The image row the column sums are centred on, if any yet.
        var centreRow: Int?
        /// The window around one column of the centre row, slid along it to the next column
        /// asked for.
        var window: RowWindow?
        /// Bytes in a padded row.
        let rowLength: Int
        /// A row of zeros: what a rebuild takes out as it puts each row in.
        let noRow: [UInt8]

        static let quantities = 5

        init(_ first: Channels, _ second: Channels) {
            self.first = PaddedRows(first)
            self.second = PaddedRows(second)
            rowLength = first.paddedRowLength
            noRow = [UInt8](repeating: 0, count: rowLength)
        }

        /// Rows `y − 1` … `y + 1` of both images.
        mutating func neighbourhood(ofRow y: Int) -> (first: Neighbourhood, second: Neighbourhood) {
            (first.neighbourhood(ofRow: y), second.neighbourhood(ofRow: y))
        }

        /// The window sums around one column: per quantity, R, G and B (and a lane unused).
        struct RowWindow {
            var x: Int
            var sums: InlineArray<5, SIMD4<Int32>>
        }

        /// The mean SSIM of R, G and B over the window around image column `x` of the row the
        /// sums are centred on.
        mutating func ssim(x: Int) -> Double {
            let sums = windowSums(x: x)
            var total = 0.0
            for channel in 0..<3 {
                total += SSIMCIE94.ssim((
                    Int(sums[0][channel]), Int(sums[1][channel]), Int(sums[2][channel]), Int(sums[3][channel]), Int(sums[4][channel])))
            }
            return total / 3.0
        }

        /// The window sums around column `x`: slid on from the last column asked for when that is
        /// less than a window to the left, summed afresh otherwise.
        mutating func windowSums(x: Int) -> InlineArray<5, SIMD4<Int32>> {
            let side = SSIMCIE94.windowSide
            let sums = columns.withUnsafeBufferPointer { columns in
                func column(_ q: Int, _ c: Int) -> SIMD4<Int32> {
                    var sum = SIMD4<Int32>.zero
                    if let base = columns.baseAddress {
                        sum = UnsafeRawPointer(base + q * rowLength + c * 3).loadUnaligned(as: SIMD4<Int32>.self)
                    }
                    return sum
                }
                guard let window, window.x <= x, x - window.x < side else {
                    return InlineArray<5, SIMD4<Int32>> { q in (x..<(x + side)).reduce(SIMD4<Int32>.zero) { $0 &+ column(q, $1) } }
                }
                var sums = window.sums
                for q in 0..<Self.quantities {
                    for c in window.x..<x { sums[q] &+= column(q, c + side) &- column(q, c) }
                }
                return sums
            }
            window = RowWindow(x: x, sums: sums)
            return sums
        }

        /// Centres the column sums on image row `y`: slides them when `y` is near the last row,
        /// rebuilds them otherwise.
        mutating func move(to y: Int) {
            let radius = SSIMCIE94.ssimRadius
            window = nil
            if let centre = centreRow, centre <= y, y - centre < SSIMCIE94.windowSide {
                for row in centre..<y { replace(row: row - radius, with: row + radius + 1) }
            } else {
                columns = [Int32](repeating: 0, count: Self.quantities * rowLength + 1)
                for row in (y - radius)...(y + radius) { replace(row: nil, with: row) }
            }
            centreRow = y
        }

        /// Takes row `old` (if any) out of the column sums and puts row `new` in, eight bytes at a
        /// time and then one by one.
        mutating func replace(row old: Int?, with new: Int) {
            let count = rowLength
            let oldOffsets = old.map { (first.offset(ofRow: $0), second.offset(ofRow: $0)) }
            let newOffsets = (first.offset(ofRow: new), second.offset(ofRow: new))
            let (firstBytes, secondBytes) = (first.bytes, second.bytes)
            firstBytes.withUnsafeBufferPointer { a in
                secondBytes.withUnsafeBufferPointer { b in
                    noRow.withUnsafeBufferPointer { zeros in
                        columns.withUnsafeMutableBufferPointer { sums in
                            guard let a = a.baseAddress, let b = b.baseAddress, let zeros = zeros.baseAddress, let sums = sums.baseAddress
                            else { return }
                            let newA = a + newOffsets.0, newB = b + newOffsets.1
                            let oldA = oldOffsets.map { a + $0.0 } ?? zeros, oldB = oldOffsets.map { b + $0.1 } ?? zeros
                            var index = 0
                            while index + 8 <= count {
                                func bytes(_ row: UnsafePointer<UInt8>) -> SIMD8<UInt16> {
                                    SIMD8(truncatingIfNeeded: UnsafeRawPointer(row + index).loadUnaligned(as: SIMD8<UInt8>.self))
                                }
                                func add(_ q: Int, _ added: SIMD8<UInt16>, _ removed: SIMD8<UInt16>) {
                                    let address = UnsafeMutableRawPointer(sums + q * count + index)
                                    let sum = address.loadUnaligned(as: SIMD8<Int32>.self)
                                        &+ SIMD8<Int32>(truncatingIfNeeded: added) &- SIMD8<Int32>(truncatingIfNeeded: removed)
                                    address.storeBytes(of: sum, as: SIMD8<Int32>.self)
                                }
                                let (na, nb, oa, ob) = (bytes(newA), bytes(newB), bytes(oldA), bytes(oldB))
                                add(0, na, oa)
                                add(1, nb, ob)
                                add(2, na &* na, oa &* oa)
                                add(3, nb &* nb, ob &* ob)
                                add(4, na &* nb, oa &* ob)
                                index += 8
                            }
                            while index < count {
                                let na = Int32(newA[index]), nb = Int32(newB[index]), oa = Int32(oldA[index]), ob = Int32(oldB[index])
                                sums[index] &+= na &- oa
                                sums[count + index] &+= nb &- ob
                                sums[2 * count + index] &+= na &* na &- oa &* oa
                                sums[3 * count + index] &+= nb &* nb &- ob &* ob
                                sums[4 * count + index] &+= na &* nb &- oa &* ob
                                index += 1
                            }
                        }
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
        let (x, y, z) = Self.whiteRatios(rgb)
        let (fx, fy, fz) = (Self.f(x), Self.f(y), Self.f(z))
        l = 116 * fy - 16
        a = 500 * (fx - fy)
        self.b = 200 * (fy - fz)
    }

    /// How far ``approximateDeltaE94(_:_:)`` may lie from Playwright's ΔE94, with a
    /// thousandfold to spare: its L\*, a\* and b\* come out within 1e-12 of ``init(_:)``'s.
    static let approximationMargin = 1e-9

    /// Playwright's ΔE94 between `first[i]` and `second[i]`, within ``approximationMargin``,
    /// eight pairs at a time: Lab from ``approximateCubeRoots(_:)`` rather than a power per
    /// channel.
    static func approximateDeltaE94(_ first: [SIMD3<UInt8>], _ second: [SIMD3<UInt8>]) -> [Double] {
        let count = min(first.count, second.count), padded = (count + 7) / 8 * 8
        // X/Xn, Y/Yn and Z/Zn of every colour, plane by plane (white past the last), so that a
        // vector loads eight lanes at once rather than being put together lane by lane.
        var ratios = [Double](repeating: 1, count: 6 * padded)
        ratios.withUnsafeMutableBufferPointer { planes in
            for index in 0..<count {
                (planes[index], planes[padded + index], planes[2 * padded + index]) = whiteRatios(first[index])
                (planes[3 * padded + index], planes[4 * padded + index], planes[5 * padded + index]) = whiteRatios(second[index])
            }
        }
        return ratios.withUnsafeBufferPointer { planes in
            [Double](filling: padded) { values, initialized in
                initialized = 0
                guard let planes = planes.baseAddress, let values = values.baseAddress else { return }
                for start in stride(from: 0, to: padded, by: 8) {
                    func lanes(_ plane: Int) -> SIMD8<Double> {
                        UnsafeRawPointer(planes + plane * padded + start).loadUnaligned(as: SIMD8<Double>.self)
                    }
                    let deltaE = deltaE94(Lanes(x: lanes(0), y: lanes(1), z: lanes(2)), Lanes(x: lanes(3), y: lanes(4), z: lanes(5)))
                    UnsafeMutableRawPointer(values + start).storeBytes(of: deltaE, as: SIMD8<Double>.self)
                }
                initialized = count
            }
        }
    }

    /// The Lab colours of eight pixels, one per lane, from their white ratios
    /// (``whiteRatios(_:)``).
    struct Lanes {
        var l: SIMD8<Double>
        var a: SIMD8<Double>
        var b: SIMD8<Double>

        @inline(__always)
        init(x: SIMD8<Double>, y: SIMD8<Double>, z: SIMD8<Double>) {
            @inline(__always)
            func f(_ t: SIMD8<Double>) -> SIMD8<Double> {
                let linearPart: SIMD8<Double> = t * (1 / (3 * sigmaSquared)) + 4.0 / 29
                return approximateCubeRoots(t).replacing(with: linearPart, where: t .<= sigmaCubed)
            }
            let (fx, fy, fz) = (f(x), f(y), f(z))
            l = 116 * fy - 16
            a = 500 * (fx - fy)
            b = 200 * (fy - fz)
        }
    }

    /// ``deltaE94(_:_:)`` lane by lane.
    @inline(__always)
    static func deltaE94(_ first: Lanes, _ second: Lanes) -> SIMD8<Double> {
        let deltaL = first.l - second.l, deltaA = first.a - second.a, deltaB = first.b - second.b
        let c1 = (first.a * first.a + first.b * first.b).squareRoot()
        let c2 = (second.a * second.a + second.b * second.b).squareRoot()
        let deltaC = c1 - c2
        let squaredAB: SIMD8<Double> = deltaA * deltaA + deltaB * deltaB
        let squaredH = squaredAB - deltaC * deltaC
        let deltaH = squaredH.replacing(with: 0, where: squaredH .< 0).squareRoot()
        let sC: SIMD8<Double> = 1.0 + 0.045 * c1, sH: SIMD8<Double> = 1.0 + 0.015 * c1
        let termC = deltaC / sC, termH = deltaH / sH
        let sum: SIMD8<Double> = deltaL * deltaL + termC * termC + termH * termH
        return sum.squareRoot()
    }

    /// t^(1/3) in each lane with t from σ³ to 2, within 1e-15 relatively: t · r², where r, the
    /// inverse cube root, starts from the exponent divided by three (3.5 % off at worst) and
    /// four Newton steps r ← r (4 − t r³) / 3 each square its error. Multiplications only.
    @inline(__always)
    static func approximateCubeRoots(_ t: SIMD8<Double>) -> SIMD8<Double> {
        // The bits' top half divided by three as a multiplication (exact for 32 bits), which
        // vectors hold; a 64-bit division they do not.
        let high = unsafeBitCast(t, to: SIMD8<UInt64>.self) &>> 32
        let third = (high &* 0xAAAA_AAAB) &>> 33
        var r = unsafeBitCast((0x553E_F0FF &- third) &<< 32, to: SIMD8<Double>.self)
        let tThird = t * (1.0 / 3)
        for _ in 0..<4 {
            let cube = r * r * r
            r *= 4.0 / 3 - tThird * cube
        }
        return t * r * r
    }

    /// X/Xn, Y/Yn and Z/Zn, in Playwright's constants.
    @inline(__always)
    static func whiteRatios(_ rgb: SIMD3<UInt8>) -> (x: Double, y: Double, z: Double) {
        let r = Self.linear[Int(rgb.x)], g = Self.linear[Int(rgb.y)], b = Self.linear[Int(rgb.z)]
        return (
            (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.950489, r * 0.2126 + g * 0.7152 + b * 0.0722,
            (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.088840
        )
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
