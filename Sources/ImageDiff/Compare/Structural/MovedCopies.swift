/// Strong clusters that are one drawing moved, as the structural mode tells them from scattered
/// noise.
///
/// A block of text or an icon moved by a changed margin leaves a cluster at each glyph's edges,
/// and a block of a few lines leaves dozens: as many as other hinting leaves all over a page,
/// where the scattered-noise rule lets small strong clusters pass. But each of the moved block's
/// clusters is the new image's drawing, pixel for pixel, one displacement away, the same one for
/// all of them, beyond the one-pixel shifts the mode explains; glyphs drawn again are not. When
/// most of a page's strong clusters are such copies at one displacement, they are no scattered
/// noise, and are not counted as it (``StructuralRule/explainsScatteredNoise``).
enum MovedCopies {
    /// The farthest displacement looked for, in pixels along each axis.
    static let largestMove = 3
    /// The displacements looked for: at least two pixels along an axis, beyond the one-pixel
    /// shifts the mode explains, nearest first (rows first among equals).
    static let moves = (-largestMove...largestMove).flatMap { dy in (-largestMove...largestMove).map { dx in (dx: dx, dy: dy) } }
        .filter { max(abs($0.dx), abs($0.dy)) >= 2 }
        .sorted { max(abs($0.dx), abs($0.dy)) < max(abs($1.dx), abs($1.dy)) }
    /// The most strong clusters examined: enough to see a share, bounded on a large pair.
    static let largestExamined = 400
    /// The largest box (in pixels, widened by one each side) searched for a copy: a glyph's or a
    /// word's. A larger cluster counts as examined and no copy.
    static let largestBox = 4096

    /// How many of the strong clusters (`strongDeltaE`) of `clusters` the new image holds
    /// unchanged at the displacement of at least two pixels that most of them share, or 0
    /// when no displacement is shared by at least half of those examined.
    static func count(in clusters: [DifferenceCluster], _ reference: RGBAImage, _ actual: RGBAImage, strongDeltaE: Double) -> Int {
        let strong = clusters.filter { $0.maxDeltaE >= strongDeltaE }.prefix(largestExamined)
        guard !strong.isEmpty else { return 0 }
        var tally: [Int: Int] = [:]
        reference.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for cluster in strong where (cluster.boundingBox.width + 2) * (cluster.boundingBox.height + 2) <= largestBox {
                    if let move = displacement(of: cluster.boundingBox, a, b, width: reference.width, height: reference.height) {
                        tally[(move.dy + largestMove) * (2 * largestMove + 1) + move.dx + largestMove, default: 0] += 1
                    }
                }
            }
        }
        guard let shared = tally.values.max(), 2 * shared >= strong.count else { return 0 }
        return shared
    }

    /// The first of ``moves`` at which the new image holds the reference's drawing around `box`
    /// (widened by a pixel) unchanged (``TextReflow/holdsSameDrawing(_:moved:_:_:width:)``).
    /// Nil when none does.
    static func displacement(
        of box: PixelRect, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, height: Int
    ) -> (dx: Int, dy: Int)? {
        let widened = PixelRect(minX: max(0, box.minX - 1), minY: max(0, box.minY - 1), maxX: min(width - 1, box.maxX + 1), maxY: min(height - 1, box.maxY + 1))
        return moves.first { move in
            widened.minX + move.dx >= 0 && widened.maxX + move.dx < width && widened.minY + move.dy >= 0
                && widened.maxY + move.dy < height && TextReflow.holdsSameDrawing(widened, moved: move, a, b, width: width)
        }
    }
}
