import ImageDiff
import ImageDiffSnapshotTesting

/// A small vector scene, rasterised with 4 × 4 supersampling: the "renderer" under test in the
/// pullback example of Docs/SnapshotTesting.md.
struct Scene: Sendable {
    enum Shape: Sendable {
        case rectangle(x: Double, y: Double, width: Double, height: Double, color: RGBA)
        case disc(centerX: Double, centerY: Double, radius: Double, color: RGBA)

        func contains(_ x: Double, _ y: Double) -> Bool {
            switch self {
            case .rectangle(let left, let top, let width, let height, _):
                return x >= left && x < left + width && y >= top && y < top + height
            case .disc(let cx, let cy, let radius, _):
                return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius
            }
        }

        var color: RGBA {
            switch self {
            case .rectangle(_, _, _, _, let color), .disc(_, _, _, let color): return color
            }
        }
    }

    var width: Int
    var height: Int
    var background: RGBA
    var shapes: [Shape]
    /// How partly covered pixels are rounded. Two machines that round differently disagree by
    /// one level on anti-aliased edges, as GPUs and CPU vector units do.
    var edgeRounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero

    /// The scene as pixels: each shape painted over what lies below with its 4 × 4 coverage.
    func rasterize() -> RGBAImage {
        var image = RGBAImage(width: width, height: height, filledWith: background)
        let samples = 4
        for shape in shapes {
            for y in 0..<height {
                for x in 0..<width {
                    var covered = 0
                    for sy in 0..<samples {
                        for sx in 0..<samples
                        where shape.contains(
                            Double(x) + (Double(sx) + 0.5) / Double(samples),
                            Double(y) + (Double(sy) + 0.5) / Double(samples))
                        {
                            covered += 1
                        }
                    }
                    guard covered > 0 else { continue }
                    let coverage = Double(covered) / Double(samples * samples)
                    image[x, y] = mix(image[x, y], shape.color, coverage)
                }
            }
        }
        return image
    }

    private func mix(_ below: RGBA, _ above: RGBA, _ coverage: Double) -> RGBA {
        func channel(_ b: UInt8, _ a: UInt8) -> UInt8 {
            UInt8((Double(b) + (Double(a) - Double(b)) * coverage).rounded(edgeRounding))
        }
        return RGBA(channel(below.r, above.r), channel(below.g, above.g), channel(below.b, above.b))
    }
}

extension Scene {
    /// A 48 × 32 badge: a blue bar and an orange disc on light grey.
    static let badge = Scene(
        width: 48, height: 32, background: RGBA(235, 238, 242),
        shapes: [
            .rectangle(x: 4.5, y: 6.25, width: 22, height: 7.5, color: RGBA(40, 90, 200)),
            .rectangle(x: 4.5, y: 18.25, width: 14, height: 7.5, color: RGBA(40, 90, 200)),
            .disc(centerX: 35.3, centerY: 16.2, radius: 8.6, color: RGBA(245, 150, 40)),
        ])

    /// The badge as a machine that truncates partial coverage renders it: ±1 level on edges.
    static var badgeOnAnotherMachine: Scene {
        var scene = badge
        scene.edgeRounding = .towardZero
        return scene
    }

    /// The badge with its disc moved 3 pixels to the left: a real regression.
    static var badgeWithMovedDisc: Scene {
        var scene = badge
        scene.shapes[2] = .disc(centerX: 32.3, centerY: 16.2, radius: 8.6, color: RGBA(245, 150, 40))
        return scene
    }

    /// The badge with a slightly different orange: a change the eye can just see.
    static var badgeWithNewOrange: Scene {
        var scene = badge
        scene.shapes[2] = .disc(centerX: 35.3, centerY: 16.2, radius: 8.6, color: RGBA(245, 142, 40))
        return scene
    }
}

extension Snapshotting where Value == Scene, Format == RGBAImage {
    /// Snapshots a ``Scene`` through its rasterisation: the pullback of the image strategy.
    static func scene(
        precision: Float = 1,
        perceptualPrecision: Float = 1,
        metric: ComparisonMetric = .exact,
        ignoring ignoredRegions: [PixelRect] = [],
        ignoresAntialiasing: Bool = false,
        file: StaticString = #filePath,
        testName: String = #function
    ) -> Snapshotting {
        Snapshotting<RGBAImage, RGBAImage>
            .image(
                precision: precision, perceptualPrecision: perceptualPrecision, metric: metric,
                ignoring: ignoredRegions, ignoresAntialiasing: ignoresAntialiasing,
                file: file, testName: testName)
            .pullback { scene in scene.rasterize() }
    }
}
