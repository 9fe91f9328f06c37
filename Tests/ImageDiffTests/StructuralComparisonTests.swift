import Foundation
import XCTest
import TestSupport

@testable import ImageDiff

/// The structural mode against the kinds of change it must catch and the render noise it must
/// pass, on small drawn pages: a card with a border, a line of blocky "text", a flat panel.
final class StructuralComparisonTests: XCTestCase {
    let structural = ComparisonOptions(metric: .structural(StructuralRule()))

    /// A 120×80 page: white, a grey panel, a dark 1-px border around a card, and dark glyph
    /// strokes two pixels wide.
    func page(
        borderColor: RGBA = RGBA(40, 40, 40), panel: RGBA = RGBA(200, 210, 220), textOffset: Int = 0,
        glyphs: [Int] = [0, 1, 2, 3, 4, 5], drawsBorder: Bool = true, cardOffset: Int = 0
    ) -> RGBAImage {
        var image = RGBAImage(width: 120, height: 80, filledWith: RGBA(255, 255, 255))
        for y in 50..<75 { for x in 5..<60 { image[x, y] = panel } }
        if drawsBorder {
            for x in (70 + cardOffset)...(110 + cardOffset) {
                image[x, 45] = borderColor
                image[x, 75] = borderColor
            }
            for y in 45...75 {
                image[70 + cardOffset, y] = borderColor
                image[110 + cardOffset, y] = borderColor
            }
        }
        for glyph in glyphs {
            let left = 6 + glyph * 9 + textOffset
            for y in 10..<22 { for x in left..<(left + 2) { image[x, y] = RGBA(20, 20, 20) } }
            for x in left..<(left + 6) { for y in 20..<22 { image[x, y] = RGBA(20, 20, 20) } }
            if glyph % 2 == 0 { for x in left..<(left + 6) { for y in 10..<12 { image[x, y] = RGBA(20, 20, 20) } } }
        }
        return image
    }

    func testIdenticalPagesMatch() {
        let result = compare(page(), page(), options: structural)
        XCTAssertTrue(result.match)
        XCTAssertEqual(result.clusters, [])
    }

    func testTextMovedOnePixelIsRenderNoise() {
        let result = compare(page(), page(textOffset: 1), options: structural)
        XCTAssertTrue(result.match, "\(result.clusters ?? [])")
        XCTAssertEqual(result.differentPixels, 0)
    }

    /// Text drawn half a pixel further right: every edge pixel takes a blend of its old colour
    /// and its left neighbour's, as a renderer with other hinting or subpixel positioning does.
    /// (A 1-px line moved so loses half its contrast over two pixels: that counts as a change.)
    func testTextMovedHalfAPixelIsRenderNoise() {
        let reference = page()
        var moved = reference
        for y in 8..<24 {
            for x in 1..<reference.width {
                let (left, here) = (reference[x - 1, y], reference[x, y])
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) + Int(b) + 1) / 2) }
                moved[x, y] = RGBA(mix(left.r, here.r), mix(left.g, here.g), mix(left.b, here.b))
            }
        }
        XCTAssertGreaterThan(compare(reference, moved, options: ComparisonOptions(metric: .exact)).differentPixels, 100)
        let result = compare(reference, moved, options: structural)
        XCTAssertTrue(result.match, "\(result.clusters ?? [])")
    }

    /// Lighter strokes lie between the old colour and the background, so the new image alone
    /// looks like anti-aliasing; the old colour, darker than anything near it in the new
    /// image, gives the change away.
    func testTextMadeLighterFails() {
        var lighter = page()
        for y in 0..<lighter.height {
            for x in 0..<lighter.width where lighter[x, y] == RGBA(20, 20, 20) { lighter[x, y] = RGBA(60, 60, 60) }
        }
        let result = compare(page(), lighter, options: structural)
        XCTAssertFalse(result.match, "\(result.clusters ?? [])")
    }

    func testSmallColourDriftIsRenderNoise() {
        let drifted = page(borderColor: RGBA(41, 41, 42), panel: RGBA(201, 211, 219))
        XCTAssertTrue(compare(page(), drifted, options: structural).match)
    }

    func testPanelRecolouredByDeltaE3Fails() {
        let panel = RGBA(200, 210, 220), changed = RGBA(200, 220, 236)
        let lab = (LabColor(r: panel.r, g: panel.g, b: panel.b), LabColor(r: changed.r, g: changed.g, b: changed.b))
        XCTAssertGreaterThanOrEqual(DeltaEFormula.cie94.difference(lab.0, lab.1), 3)
        let result = compare(page(), page(panel: changed), options: structural)
        XCTAssertFalse(result.match)
        XCTAssertEqual(result.differentPixels, 55 * 25)
        XCTAssertEqual(result.boundingBox, PixelRect(minX: 5, minY: 50, maxX: 59, maxY: 74))
    }

    func testSmallPatchOfDeltaE3Over50PixelsFails() {
        var changed = page()
        for y in 55..<62 { for x in 20..<28 { changed[x, y] = RGBA(200, 220, 236) } }
        XCTAssertFalse(compare(page(), changed, options: structural).match)
    }

    func testRemovedBorderFails() {
        let result = compare(page(), page(drawsBorder: false), options: structural)
        XCTAssertFalse(result.match)
    }

    func testOneGlyphChangedFails() {
        let result = compare(page(), page(glyphs: [0, 1, 3, 3, 4, 5]), options: structural)
        XCTAssertFalse(result.match, "\(result.clusters ?? [])")
    }

    func testCardMovedTwoPixelsFails() {
        XCTAssertFalse(compare(page(), page(cardOffset: 2), options: structural).match)
    }

    /// Among clusters scattered all over a page (other hinting, LCD text), a small strong
    /// cluster is taken for that noise; alone, or with the model off, it fails. A cluster of
    /// the smallest failing size and a mark on wide plain ground fail however scattered the
    /// page; a mark on plain ground that ink comes within 4 px of fails only on a page that is
    /// not scattered, or with the model off.
    func testSmallStrongClustersOnAScatteredPageAreNoise() {
        let rule = StructuralRule(), off = StructuralRule(explainsScatteredNoise: false)
        let scattered = StructuralRule.scatteredNoiseClusters
        XCTAssertTrue(rule.fails(pixels: 12, maxDeltaE: 40, strongClusters: scattered - 1))
        XCTAssertFalse(rule.fails(pixels: 12, maxDeltaE: 40, strongClusters: scattered))
        XCTAssertTrue(off.fails(pixels: 12, maxDeltaE: 40, strongClusters: scattered))
        XCTAssertTrue(rule.fails(pixels: rule.minimumClusterPixels, maxDeltaE: 3, strongClusters: scattered * 10))
        XCTAssertTrue(rule.fails(pixels: 1, maxDeltaE: 40, onPlainGround: true, onWidePlainGround: true, strongClusters: scattered * 10))
        XCTAssertFalse(rule.fails(pixels: 1, maxDeltaE: 40, onPlainGround: true, strongClusters: scattered))
        XCTAssertTrue(rule.fails(pixels: 1, maxDeltaE: 40, onPlainGround: true, strongClusters: scattered - 1))
        XCTAssertTrue(off.fails(pixels: 1, maxDeltaE: 40, onPlainGround: true, strongClusters: scattered))
        XCTAssertTrue(rule.fails(pixels: 16, maxDeltaE: 20, strongClusters: scattered, isThinLine: true))
        XCTAssertFalse(rule.fails(pixels: 15, maxDeltaE: 20, strongClusters: scattered, isThinLine: true))
        XCTAssertFalse(rule.fails(pixels: 12, maxDeltaE: 9, strongClusters: 1))
    }

    /// A line one pixel thick and 16 px long fails from twice the noise threshold, however
    /// scattered the page: a faint rule or border taken away. Shorter, thicker or fainter, it is
    /// judged as any cluster.
    func testALongThinLineFailsFromTwiceTheNoiseThreshold() {
        let rule = StructuralRule(), scattered = StructuralRule.scatteredNoiseClusters
        let faint = 2 * rule.noiseDeltaE
        XCTAssertTrue(rule.fails(pixels: 16, maxDeltaE: faint, isThinLine: true))
        XCTAssertTrue(rule.fails(pixels: 31, maxDeltaE: faint, strongClusters: scattered * 10, isThinLine: true))
        XCTAssertFalse(rule.fails(pixels: 31, maxDeltaE: faint - 0.01, isThinLine: true))
        XCTAssertFalse(rule.fails(pixels: 15, maxDeltaE: faint, isThinLine: true))
        XCTAssertFalse(rule.fails(pixels: 31, maxDeltaE: faint, isThinLine: false))
    }

    /// A 30-px piece of a faint rule (ΔE 6, #EBEBEB on white), as a divider between list rows,
    /// taken away: fewer pixels than a cluster must hold, and too faint for a strong one, but a
    /// line one pixel thick. The same piece drawn a level or two lighter (another gamma) passes.
    func testAFaintRulePartlyRemovedFails() {
        var reference = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
        for x in 10..<110 { reference[x, 20] = RGBA(235, 235, 235) }
        var removed = reference, lighter = reference
        for x in 40..<70 {
            removed[x, 20] = RGBA(255, 255, 255)
            lighter[x, 20] = RGBA(237, 237, 237)
        }
        let result = compare(reference, removed, options: structural)
        XCTAssertFalse(result.match, "\(result.clusters ?? [])")
        XCTAssertLessThan(result.clusters?.first?.maxDeltaE ?? 0, StructuralRule().strongDeltaE)
        XCTAssertTrue(compare(reference, lighter, options: structural).match)
    }

    /// A card's 1-px border drawn 2 px thick along its top (and, apart, its left side), and a
    /// 2-px border drawn 1 px thick: each pixel of the change holds the border's colour in one
    /// image and the ground's in the other, so a one-pixel shift explains it pixel by pixel,
    /// but the border's other edge stayed. Each fails as a line drawn thicker or thinner.
    func testABorderDrawnAPixelThickerOrThinnerFails() {
        let border = RGBA(40, 40, 40)
        var reference = RGBAImage(width: 120, height: 60, filledWith: RGBA(255, 255, 255))
        for x in 10...110 { (reference[x, 5], reference[x, 55]) = (border, border) }
        for y in 5...55 { (reference[10, y], reference[110, y]) = (border, border) }
        var thickerTop = reference, thickerLeft = reference
        for x in 10...110 { thickerTop[x, 6] = border }
        for y in 5...55 { thickerLeft[11, y] = border }
        for (name, changed) in [("top", thickerTop), ("left", thickerLeft)] {
            let grew = compare(reference, changed, options: structural)
            XCTAssertFalse(grew.match, name)
            XCTAssertEqual(grew.clusters?.filter(\.lineWidthChanged).count, 1, "\(name): \(grew.clusters ?? [])")
            let shrank = compare(changed, reference, options: structural)
            XCTAssertFalse(shrank.match, name)
            XCTAssertEqual(shrank.clusters?.filter(\.lineWidthChanged).count, 1, "\(name): \(shrank.clusters ?? [])")
        }
        let top = compare(reference, thickerTop, options: structural).clusters?.first(where: \.lineWidthChanged)
        XCTAssertEqual(top?.boundingBox, PixelRect(minX: 11, minY: 6, maxX: 109, maxY: 6))
        XCTAssertEqual(top?.pixels, 99)
        let left = compare(reference, thickerLeft, options: structural).clusters?.first(where: \.lineWidthChanged)
        XCTAssertEqual(left?.boundingBox, PixelRect(minX: 11, minY: 6, maxX: 11, maxY: 54))
    }

    /// An element snapshot cropped to its border box: the border lies on the image's own edge,
    /// with no ground beyond it. Its bottom drawn a pixel thicker or thinner passed; it fails as
    /// a line drawn thicker or thinner, where the whole card moved a pixel in its frame is none.
    func testABorderOnTheImagesOwnEdgeDrawnThickerFails() {
        func card(bottom: Int = 1, shiftedDown: Bool = false) -> RGBAImage {
            let border = RGBA(120, 120, 120)
            var image = RGBAImage(width: 80, height: 40, filledWith: RGBA(250, 250, 250))
            for y in 0..<40 { (image[0, y], image[79, y]) = (border, border) }
            for x in 0..<80 {
                image[x, 0] = border
                for y in (40 - bottom)..<40 { image[x, y] = border }
            }
            for y in 12..<16 { for x in 10..<40 { image[x, y] = RGBA(30, 30, 30) } }
            guard shiftedDown else { return image }
            var moved = RGBAImage(width: 80, height: 40, filledWith: RGBA(250, 250, 250))
            for y in 1..<40 { for x in 0..<80 { moved[x, y] = image[x, y - 1] } }
            return moved
        }
        for (name, reference, actual) in [("thicker", card(), card(bottom: 2)), ("thinner", card(bottom: 2), card())] {
            let result = compare(reference, actual, options: structural)
            XCTAssertFalse(result.match, name)
            let line = result.clusters?.first(where: \.lineWidthChanged)
            XCTAssertEqual(line?.boundingBox, PixelRect(minX: 1, minY: 38, maxX: 78, maxY: 38), "\(name): \(result.clusters ?? [])")
        }
        let moved = compare(card(), card(shiftedDown: true), options: structural)
        XCTAssertEqual(moved.clusters?.filter(\.lineWidthChanged).count ?? 0, 0, "\(moved.clusters ?? [])")
    }

    /// What a line drawn thicker must not be taken for: a line moved by a pixel (both its edges
    /// changed), a fill a pixel taller (thicker than a line), the gap between two elements
    /// narrowed as one grew or moved, a line thickened over fewer pixels than a cluster must
    /// hold, and a line made a level lighter (within the noise threshold).
    func testLinesMovedFillsGrownAndShortPiecesAreNoLineWidthChange() {
        var reference = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
        for x in 10..<110 { reference[x, 20] = RGBA(60, 60, 60) }
        var moved = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
        for x in 10..<110 { moved[x, 21] = RGBA(60, 60, 60) }
        var short = reference, lighter = reference
        for x in 10..<(10 + StructuralRule().minimumClusterPixels - 1) { short[x, 21] = RGBA(60, 60, 60) }
        for x in 10..<110 { lighter[x, 20] = RGBA(61, 61, 61) }
        var fill = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
        for y in 10..<20 { for x in 10..<110 { fill[x, y] = RGBA(60, 60, 60) } }
        var tallerFill = fill
        for x in 10..<110 { tallerFill[x, 20] = RGBA(60, 60, 60) }
        // A blue fill a pixel taller under a border 2 px above it: the white gap between them
        // narrows, but it lies between two colours, no line on its ground.
        var framed = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255))
        for x in 10..<110 {
            framed[x, 6] = RGBA(60, 60, 60)
            for y in 9..<20 { framed[x, y] = RGBA(40, 90, 200) }
        }
        var tallerFramed = framed
        for x in 10..<110 { tallerFramed[x, 8] = RGBA(40, 90, 200) }
        // A line 2 px thick moved a pixel, 3 px from a line that stayed: the white gap between
        // them narrows, but the moved line's far edge changed too.
        var pair = RGBAImage(width: 120, height: 40, filledWith: RGBA(255, 255, 255)), movedPair = pair
        for x in 10..<110 {
            (pair[x, 20], pair[x, 21], pair[x, 25]) = (RGBA(0, 0, 0), RGBA(0, 0, 0), RGBA(120, 120, 120))
            (movedPair[x, 21], movedPair[x, 22], movedPair[x, 25]) = (RGBA(0, 0, 0), RGBA(0, 0, 0), RGBA(120, 120, 120))
        }
        for (name, first, second) in [("moved", reference, moved), ("short", reference, short), ("lighter", reference, lighter),
            ("fill", fill, tallerFill), ("framed fill", framed, tallerFramed), ("moved beside a line", pair, movedPair)]
        {
            let result = compare(first, second, options: structural)
            XCTAssertEqual(result.clusters?.filter(\.lineWidthChanged).count ?? 0, 0, "\(name): \(result.clusters ?? [])")
        }
    }

    /// A page whose every drawn pixel is a level lighter carries recompression's signature
    /// (every textured block differs, by a level or two, and no plain one), and the JPEG block
    /// model, which reads luma, explained any change that kept the blocks' mean luma: glyphs
    /// tinted blue (ΔE94 8) or a white ground tinted yellow passed. Recompression cannot give gray
    /// text or a white ground a colour that nothing near them has, so both now fail; the page
    /// lifted a level alone still passes.
    func testATintUnderALevelOfNoiseEverywhereFails() {
        let reference = page()
        func lifted(tint: (r: Int, g: Int, b: Int), in box: PixelRect? = nil) -> RGBAImage {
            var image = reference
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let c = image[x, y]
                    let inBox = box.map { x >= $0.minX && x <= $0.maxX && y >= $0.minY && y <= $0.maxY } ?? false
                    func level(_ value: UInt8, _ change: Int) -> UInt8 {
                        let lifted = c == RGBA(255, 255, 255) ? Int(value) : Int(value) + 1
                        return UInt8(min(255, max(0, lifted + (inBox ? change : 0))))
                    }
                    image[x, y] = RGBA(level(c.r, tint.r), level(c.g, tint.g), level(c.b, tint.b))
                }
            }
            return image
        }
        let noise = lifted(tint: (0, 0, 0))
        XCTAssertNotNil(RecompressionNoise(reference, noise))
        XCTAssertTrue(compare(reference, noise, options: structural).match)
        let glyphs = PixelRect(minX: 6, minY: 10, maxX: 38, maxY: 21)
        let ground = PixelRect(minX: 60, minY: 2, maxX: 100, maxY: 30)
        for (name, actual) in [("glyphs tinted blue", lifted(tint: (0, 0, 12), in: glyphs)), ("ground tinted yellow", lifted(tint: (0, 0, -10), in: ground))] {
            XCTAssertNotNil(RecompressionNoise(reference, actual), name)
            let result = compare(reference, actual, options: structural)
            XCTAssertFalse(result.match, "\(name): \(result.summary)")
        }
    }

    /// The thin lines that the JPEG block model leaves marked: runs along a row or a column
    /// with nothing marked on either side, long enough, and reaching the line's contrast
    /// somewhere.
    func testThinLinesAreRunsWithNothingMarkedBesideThem() {
        var mask = DifferenceMask(width: 40, height: 30)
        for x in 2..<20 { mask.set(x: x, y: 3) }  // 18 long, thin
        for x in 2..<20 { mask.set(x: x, y: 10) }  // 18 long, one pixel marked below it
        mask.set(x: 7, y: 11)
        for x in 2..<12 { mask.set(x: x, y: 20) }  // too short
        for y in 5..<25 { mask.set(x: 35, y: y) }  // a column, 20 long
        let lines = RecompressionNoise.thinLines(in: mask, length: 16) { _ in true }
        XCTAssertEqual(lines, Set((2..<20).map { 3 * 40 + $0 } + (5..<25).map { $0 * 40 + 35 }))
        let faint = RecompressionNoise.thinLines(in: mask, length: 16) { $0 != 3 * 40 + 9 }
        XCTAssertEqual(faint, lines, "one pixel that reaches the contrast keeps the run")
        XCTAssertTrue(RecompressionNoise.thinLines(in: mask, length: 16) { _ in false }.isEmpty)
        XCTAssertTrue(RecompressionNoise.thinLines(in: mask, length: 21) { _ in true }.isEmpty)
    }

    /// A dark pixel beside a glyph's stroke, where other hinting leaves such pixels.
    func testSingleStrayPixelAtAnEdgePasses() {
        var changed = page()
        changed[8, 14] = RGBA(0, 0, 0)
        let result = compare(page(), changed, options: structural)
        XCTAssertTrue(result.match)
        XCTAssertEqual(result.clusters?.count, 1)
        XCTAssertEqual(result.clusters?.first?.fails, false)
        XCTAssertEqual(result.clusters?.first?.onPlainGround, false)
    }

    /// A dot or a caret that appears on (or goes from) a plain area is no render noise, which
    /// follows edges: it fails at any size when its contrast is strong. Playwright's fixtures
    /// hold two (a red pixel, a caret's pixel).
    func testMarkOnPlainGroundFails() {
        for (x, y) in [(100, 5), (0, 0), (119, 79), (30, 40)] {
            var dotted = page()
            dotted[x, y] = RGBA(0, 0, 0)
            for (reference, actual) in [(page(), dotted), (dotted, page())] {
                let result = compare(reference, actual, options: structural)
                XCTAssertFalse(result.match, "dot at \(x), \(y)")
                XCTAssertEqual(result.clusters?.map(\.onPlainGround), [true], "dot at \(x), \(y)")
                XCTAssertEqual(result.differentPixels, 1)
            }
        }
        // A faint dot is noise-scale; a dot on the grey panel is on plain ground too, but one
        // pixel from the panel's edge it is not (the ground is looked at two pixels around).
        var faint = page()
        faint[100, 5] = RGBA(246, 246, 246)
        XCTAssertTrue(compare(page(), faint, options: structural).match)
        var onPanel = page()
        onPanel[30, 60] = RGBA(0, 0, 0)
        XCTAssertFalse(compare(page(), onPanel, options: structural).match)
        var nearPanelEdge = page()
        nearPanelEdge[6, 60] = RGBA(0, 0, 0)
        let nearEdge = compare(page(), nearPanelEdge, options: structural)
        XCTAssertTrue(nearEdge.match)
        XCTAssertEqual(nearEdge.clusters?.map(\.onPlainGround), [false])
    }

    /// Plain ground is one colour in the reference around the box, up to two pixels out, and
    /// the same in the other image within the noise threshold.
    func testPlainGroundIsOneColourUnchanged() {
        let box = PixelRect(minX: 10, minY: 10, maxX: 11, maxY: 10)
        let plain = RGBAImage(width: 30, height: 20, filledWith: RGBA(240, 240, 240))
        func isPlain(_ reference: RGBAImage, _ actual: RGBAImage) -> Bool {
            StructuralComparison.isOnPlainGround(box, reference, actual, noiseDeltaE: 2.3)
        }
        XCTAssertTrue(isPlain(plain, plain))
        for (x, y) in [(8, 8), (13, 12), (12, 10), (9, 11)] {
            var faint = plain, changed = plain, uneven = plain
            faint[x, y] = RGBA(239, 240, 240)
            changed[x, y] = RGBA(225, 240, 240)
            uneven[x, y] = RGBA(239, 240, 240)
            XCTAssertTrue(isPlain(plain, faint), "\(x), \(y)")
            XCTAssertFalse(isPlain(plain, changed), "\(x), \(y)")
            XCTAssertFalse(isPlain(uneven, uneven), "\(x), \(y)")
        }
        var beyond = plain, inside = plain
        beyond[7, 10] = RGBA(0, 0, 0)
        beyond[14, 13] = RGBA(0, 0, 0)
        inside[11, 10] = RGBA(0, 0, 0)
        XCTAssertTrue(isPlain(beyond, beyond))
        XCTAssertTrue(isPlain(plain, inside))
        let corner = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        XCTAssertTrue(StructuralComparison.isOnPlainGround(corner, plain, plain, noiseDeltaE: 2.3))
        let whole = PixelRect(minX: 0, minY: 0, maxX: 29, maxY: 19)
        XCTAssertFalse(StructuralComparison.isOnPlainGround(whole, plain, plain, noiseDeltaE: 2.3))
    }

    func testMaskHoldsOnlyFailingClusters() {
        var changed = page(panel: RGBA(200, 220, 236))
        changed[8, 14] = RGBA(0, 0, 0)
        var options = structural
        options.collectsMask = true
        let result = compare(page(), changed, options: options)
        XCTAssertEqual(result.mask?.count, 55 * 25)
        XCTAssertEqual(result.mask?.contains(x: 8, y: 14), false)
    }

    func testSizesThatDifferFail() {
        let smaller = RGBAImage(width: 100, height: 80, filledWith: RGBA(255, 255, 255))
        XCTAssertFalse(compare(page(), smaller, options: structural).match)
    }

    func testNamedAndThresholdedLikeEveryMetric() {
        XCTAssertEqual(ComparisonMetric(name: "structural"), .structural(StructuralRule()))
        XCTAssertEqual(ComparisonMetric.structural(StructuralRule()).with(threshold: 3).threshold, 3)
    }

    // MARK: Anti-aliased text: a colour one step off against other text gamma

    /// A word of eight anti-aliased ring-shaped glyphs on white, their coverage sampled 4 × 4
    /// and raised to `gamma` (other text gamma, as another machine's rasterizer applies it).
    /// With `lcd`, each pixel's red, green and blue stripes (thirds of the pixel, left to
    /// right) are covered apart, as LCD anti-aliasing draws text. The glyphs of `glyphs` alone
    /// are drawn; those of `opened` lose their right-hand side (an o made a c), and those of
    /// `moved` are set that many pixels further right. Glyphs `spacing` pixels apart or more do
    /// not touch.
    func word(
        ink: UInt8, gamma: Double = 1, lcd: Bool = false, spacing: Double = 10.3, glyphs: Range<Int> = 0..<8,
        opened: Set<Int> = [], moved: [Int: Double] = [:]
    ) -> RGBAImage {
        let width = max(96, Int(8 + 7 * spacing) + 9)
        var image = RGBAImage(width: width, height: 24, filledWith: RGBA(255, 255, 255))
        for glyph in glyphs {
            let (centreX, centreY) = (8.0 + Double(glyph) * spacing + (moved[glyph] ?? 0), 12.0)
            for y in 4..<20 {
                for x in max(0, Int(centreX) - 7)..<min(width, Int(centreX) + 8) {
                    /// The coverage of the columns `from`..<`to` (in sixths of the pixel).
                    func coverage(_ from: Int, _ to: Int) -> Double {
                        var covered = 0
                        for sy in 0..<4 {
                            for sx in from..<to {
                                let dx = Double(x) + (Double(sx) + 0.5) / 6 - centreX
                                let dy = Double(y) + (Double(sy) + 0.5) / 4 - centreY
                                let distance = (dx * dx + dy * dy).squareRoot()
                                if distance >= 3.2 && distance <= 5.4 && !(opened.contains(glyph) && dx > 1.5) { covered += 1 }
                            }
                        }
                        return pow(Double(covered) / Double(4 * (to - from)), gamma)
                    }
                    func level(_ coverage: Double) -> UInt8 { UInt8((255 - (255 - Double(ink)) * coverage).rounded()) }
                    if lcd {
                        image[x, y] = RGBA(level(coverage(0, 2)), level(coverage(2, 4)), level(coverage(4, 6)))
                    } else {
                        let gray = level(coverage(0, 6))
                        image[x, y] = RGBA(gray, gray, gray)
                    }
                }
            }
        }
        return image
    }

    /// #333 to #444: each pixel of the strokes could be an anti-aliased edge of the old text,
    /// but every one moved the same way and the solid strokes moved too: a coherent change.
    func testAntialiasedTextOneStepLighterFails() {
        let reference = word(ink: 0x33), lighter = word(ink: 0x44)
        let changed = compare(reference, lighter, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 3)))
        XCTAssertGreaterThanOrEqual(changed.differentPixels, 50, "the change the mode must never miss: ΔE ≥ 3 over ≥ 50 px")
        let result = compare(reference, lighter, options: structural)
        XCTAssertFalse(result.match)
        XCTAssertTrue(result.clusters?.contains { $0.coherent && $0.fails } ?? false, "\(result.clusters ?? [])")
    }

    /// A light chip (ΔE94 about 4.6 from the page) with dark text inside it, its box drawn a
    /// row lower while the text stays, as glyphs set on whole pixels can leave it: each of its
    /// long edges changes one way, all of its pixels solid, but one displacement of a pixel
    /// carries the reference onto the new image there, so no coherent change is taken and the
    /// pair passes as the 1-px shift it is. The chip given a new colour, and its text one step
    /// lighter, still fail as coherent changes; a border taken away still fails.
    func testAChipMovedOnePixelIsNoCoherentChange() {
        func chip(top: Int, fill: RGBA = RGBA(241, 242, 244), ink: UInt8 = 0x33) -> RGBAImage {
            var image = RGBAImage(width: 160, height: 40, filledWith: RGBA(255, 255, 255))
            for y in top..<(top + 11) { for x in 20..<140 { image[x, y] = fill } }
            for glyph in 0..<10 {
                let left = 26 + glyph * 11
                for y in 16..<22 { for x in left..<(left + 2) { image[x, y] = RGBA(ink, ink, ink) } }
                for x in left..<(left + 6) { image[x, 21] = RGBA(ink, ink, ink) }
            }
            return image
        }
        let reference = chip(top: 13)
        let moved = compare(reference, chip(top: 14), options: structural)
        XCTAssertTrue(moved.match, "\(moved.clusters ?? [])")
        XCTAssertFalse(moved.clusters?.contains { $0.coherent } ?? false)
        let edges = compare(reference, chip(top: 14), options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3)))
        XCTAssertEqual(edges.differentPixels, 2 * 120)
        for changed in [chip(top: 13, fill: RGBA(226, 228, 231)), chip(top: 13, ink: 0x55)] {
            let result = compare(reference, changed, options: structural)
            XCTAssertFalse(result.match)
            XCTAssertTrue(result.clusters?.contains { $0.coherent && $0.fails } ?? false, "\(result.clusters ?? [])")
        }
        var lined = reference
        for x in 20..<140 { lined[x, 30] = RGBA(150, 150, 150) }
        XCTAssertFalse(compare(lined, reference, options: structural).match)
    }

    /// Coverage raised to the power 0.9: every partly covered pixel darkens, the same way, but
    /// the solid strokes and the background stay: render noise.
    func testOtherTextGammaIsRenderNoise() {
        let reference = word(ink: 0x33), otherGamma = word(ink: 0x33, gamma: 0.9)
        XCTAssertGreaterThan(
            compare(reference, otherGamma, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3))).differentPixels, 50)
        let result = compare(reference, otherGamma, options: structural)
        XCTAssertTrue(result.match, "\(result.clusters ?? [])")
    }

    /// Eight ring glyphs 13 px apart (as ``word(ink:gamma:lcd:spacing:glyphs:opened:moved:)``),
    /// and the box around the fifth, centred at x = 60.
    func spacedWord(glyphs: Range<Int> = 0..<8, opened: Set<Int> = [], moved: [Int: Double] = [:]) -> RGBAImage {
        word(ink: 0x33, spacing: 13, glyphs: glyphs, opened: opened, moved: moved)
    }
    let fifthGlyph = PixelRect(minX: 54, minY: 6, maxX: 66, maxY: 18)
    /// A cluster of 40 pixels over the fifth glyph.
    var fifthCluster: DifferenceCluster { DifferenceCluster(pixels: 40, boundingBox: fifthGlyph, maxDeltaE: 80, fails: false) }

    /// An o made a c in the middle of a word: seen pixel by pixel, the arc taken away looks like
    /// anti-aliased edges and pixels shifted by one, which explain most of it; seen whole, no
    /// displacement of the old glyph draws the new one, and the glyphs beside it are drawn the
    /// same. It fails as an isolated change.
    func testAGlyphChangedAloneOnItsLineFails() {
        let result = compare(spacedWord(), spacedWord(opened: [4]), options: structural)
        XCTAssertFalse(result.match)
        let failing = result.clusters?.filter(\.fails) ?? []
        XCTAssertTrue(failing.contains(where: \.isolated), "\(result.clusters ?? [])")
        XCTAssertTrue(failing.allSatisfy { fifthGlyph.union($0.boundingBox) == fifthGlyph }, "\(failing)")
    }

    /// The same glyph set half a pixel or a pixel further right, as other sub-pixel
    /// positioning sets a word, passes: a displacement explains it.
    func testAGlyphSetAtAnotherPositionPasses() {
        for offset in [0.25, 0.5, 1] {
            let result = compare(spacedWord(), spacedWord(moved: [4: offset]), options: structural)
            XCTAssertTrue(result.match, "moved \(offset) px: \(result.clusters ?? [])")
            XCTAssertTrue(IsolatedChange.isDisplaced(fifthCluster, spacedWord(), spacedWord(moved: [4: offset]), rule: StructuralRule()))
        }
        XCTAssertFalse(IsolatedChange.isDisplaced(fifthCluster, spacedWord(), spacedWord(opened: [4]), rule: StructuralRule()))
        XCTAssertFalse(IsolatedChange.isDisplaced(
            fifthCluster, spacedWord(), spacedWord(moved: [4: 0.5]), rule: StructuralRule(shiftRadius: 0)))
    }

    /// The displacement search in two lanes answers as it does on the calling thread (bands
    /// 1), displaced or not, at every shift radius: so does the isolated change it serves.
    func testDisplacementSearchInLanesAnswersAsOnOneThread() {
        let pairs = [spacedWord(moved: [4: 0.25]), spacedWord(moved: [4: 1]), spacedWord(opened: [4]), spacedWord()]
        var answers: Set<Bool> = []
        for actual in pairs {
            for radius in 0...2 {
                let rule = StructuralRule(shiftRadius: radius)
                let inLanes = IsolatedChange.isDisplaced(fifthCluster, spacedWord(), actual, rule: rule)
                XCTAssertEqual(inLanes, IsolatedChange.isDisplaced(fifthCluster, spacedWord(), actual, rule: rule, bands: 1))
                answers.insert(inLanes)
            }
            let candidateOptions = StructuralComparison.candidateOptions(rule: StructuralRule(), options: structural)
            guard let candidates = ComparisonEngine(reference: spacedWord(), actual: actual, options: candidateOptions).run(kernel: .scalar).mask
            else { return XCTFail("no candidates' mask") }
            let found = IsolatedChange.find(in: candidates, spacedWord(), actual, rule: StructuralRule())
            XCTAssertEqual(found?.cluster, IsolatedChange.find(in: candidates, spacedWord(), actual, rule: StructuralRule(), bands: 1)?.cluster)
            if found != nil { answers.insert(true) }
        }
        XCTAssertEqual(answers, [true, false])
    }

    /// Half-pixel steps answer as quarter and eighth pixels do: a displacement is judged against
    /// the pixels it lies between, whatever its fraction. Glyphs moved by fractions and whole
    /// pixels, and one changed, at every shift radius and with clusters of every size from the
    /// smallest strong one (the pixels left unexplained that count: a quarter of the cluster's),
    /// so that some answers lie at the edge where one pixel more or less would turn them.
    func testHalfPixelDisplacementsAnswerAsFinerSteps() {
        let pairs = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2].map { spacedWord(moved: [4: $0]) } + [spacedWord(opened: [4])]
        var answers: [Bool: Int] = [:]
        for actual in pairs {
            for radius in 0...2 {
                let rule = StructuralRule(shiftRadius: radius)
                for pixels in stride(from: 8, through: 200, by: 12) {
                    var cluster = fifthCluster
                    cluster.pixels = pixels
                    let halves = IsolatedChange.isDisplaced(cluster, spacedWord(), actual, rule: rule, bands: 1)
                    for steps in [4, 8] {
                        XCTAssertEqual(
                            halves, IsolatedChange.isDisplaced(cluster, spacedWord(), actual, rule: rule, bands: 1, stepsPerPixel: steps),
                            "radius \(radius), \(pixels) pixels, 1/\(steps) px")
                    }
                    answers[halves, default: 0] += 1
                }
            }
        }
        XCTAssertGreaterThan(answers[true] ?? 0, 10)
        XCTAssertGreaterThan(answers[false] ?? 0, 10)
    }

    /// A glyph with no text drawn the same beside it is left to the other explanations: a label
    /// whose every glyph another renderer drew differently shows no more than that. Alone, the
    /// o made a c is no isolated change, and a word whose every glyph changed has no unchanged
    /// neighbours.
    func testAGlyphWithoutUnchangedNeighboursIsNoIsolatedChange() {
        let alone = compare(spacedWord(glyphs: 4..<5), spacedWord(glyphs: 4..<5, opened: [4]), options: structural)
        XCTAssertFalse(alone.clusters?.contains(where: \.isolated) ?? true, "\(alone.clusters ?? [])")
        let rule = StructuralRule()
        let wholeWord = PixelRect(minX: 1, minY: 6, maxX: 102, maxY: 18)
        var wordChanged = ReferenceEdges(spacedWord(), spacedWord(opened: Set(0..<8)), rule: rule)
        var glyphChanged = ReferenceEdges(spacedWord(), spacedWord(opened: [4]), rule: rule)
        XCTAssertFalse(IsolatedChange.hasUnchangedNeighbours(wholeWord, in: &wordChanged))
        XCTAssertTrue(IsolatedChange.hasUnchangedNeighbours(fifthGlyph, in: &glyphChanged))
    }

    /// The o made a c, with the glyphs after it set a pixel further along, as a longer word
    /// pushes the rest of its line: each of those is a moved copy of what was there, the changed
    /// glyph is not, and it fails as an isolated change.
    func testAGlyphChangedWithTheRestOfItsLineMovedAlongFails() {
        let reference = word(ink: 0x33, spacing: 16)
        let changed = word(ink: 0x33, spacing: 16, opened: [4], moved: [5: 1, 6: 1, 7: 1])
        let result = compare(reference, changed, options: structural)
        XCTAssertFalse(result.match)
        let isolated = result.clusters?.filter(\.isolated) ?? []
        XCTAssertEqual(isolated.count, 1, "\(result.clusters ?? [])")
        let fifthGlyph = PixelRect(minX: 66, minY: 6, maxX: 78, maxY: 18)
        XCTAssertTrue(isolated.allSatisfy { $0.fails && fifthGlyph.union($0.boundingBox) == fifthGlyph }, "\(isolated)")
    }

    /// A glyph changed on each of two lines is no isolated change: other hinting redraws glyphs
    /// all over a page, and a change alone on its line leaves the other lines drawn the same or
    /// moved.
    func testGlyphsChangedOnTwoLinesAreNoIsolatedChange() {
        func twoLines(opened: (Set<Int>, Set<Int>)) -> RGBAImage {
            let top = spacedWord(opened: opened.0), bottom = spacedWord(opened: opened.1)
            var image = RGBAImage(width: top.width, height: 2 * top.height, filledWith: RGBA(255, 255, 255))
            for y in 0..<top.height {
                for x in 0..<top.width {
                    image[x, y] = top[x, y]
                    image[x, y + top.height] = bottom[x, y]
                }
            }
            return image
        }
        let result = compare(twoLines(opened: ([], [])), twoLines(opened: ([4], [2])), options: structural)
        XCTAssertFalse(result.clusters?.contains(where: \.isolated) ?? false, "\(result.clusters ?? [])")
        let oneLine = compare(twoLines(opened: ([], [])), twoLines(opened: ([4], [])), options: structural)
        XCTAssertTrue(oneLine.clusters?.contains(where: \.isolated) ?? false, "\(oneLine.clusters ?? [])")
    }

    /// Two glyphs changed on one line leave two places no displacement explains: alone in its
    /// image, that line is a label another renderer could have drawn, and is no isolated change;
    /// with another line drawn the same further down the page, the renderer did not change, and
    /// it is.
    func testTwoGlyphsChangedOnALineFailWhenTheRestOfThePageIsTheSame() {
        func page(opened: Set<Int>, withLineBelow: Bool) -> RGBAImage {
            let line = spacedWord(opened: opened), unchanged = spacedWord()
            var image = RGBAImage(width: line.width, height: withLineBelow ? 4 * line.height : line.height, filledWith: RGBA(255, 255, 255))
            for y in 0..<line.height {
                for x in 0..<line.width {
                    image[x, y] = line[x, y]
                    if withLineBelow { image[x, y + 3 * line.height] = unchanged[x, y] }
                }
            }
            return image
        }
        let alone = compare(page(opened: [], withLineBelow: false), page(opened: [2, 5], withLineBelow: false), options: structural)
        XCTAssertFalse(alone.clusters?.contains(where: \.isolated) ?? false, "\(alone.clusters ?? [])")
        let onAPage = compare(page(opened: [], withLineBelow: true), page(opened: [2, 5], withLineBelow: true), options: structural)
        XCTAssertTrue(onAPage.clusters?.contains(where: \.isolated) ?? false, "\(onAPage.clusters ?? [])")
    }

    /// A circle another rasterizer drew a little larger differs strongly all round its edge, but
    /// each pixel moves only part of the way from the ground to the ink: no ink was put down or
    /// taken away. The o made a c takes pixels all the way.
    func testACircleDrawnLargerPutsDownNoInk() {
        let reference = ring(radius: 9.5, stroke: 1.5), larger = ring(radius: 9.8, stroke: 1.5)
        let rule = StructuralRule()
        let strong = compare(reference, larger, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: IsolatedChange.highContrast(rule))))
        XCTAssertGreaterThan(strong.differentPixels, 0)
        XCTAssertFalse(IsolatedChange.putsDownInk(Array(0..<reference.pixelCount), reference, larger, rule: rule))
        let glyphs = spacedWord()
        XCTAssertTrue(IsolatedChange.putsDownInk(Array(0..<glyphs.pixelCount), glyphs, spacedWord(opened: [4]), rule: rule))
    }

    /// Text far along the row counts as neighbours too: with the glyphs 70 px apart (over five
    /// heights of the changed one, nothing but ground between them, as a mark in a table cell
    /// has), the o made a c still fails as an isolated change.
    func testAGlyphWithItsNeighboursFarAlongTheRowFails() {
        let reference = word(ink: 0x33, spacing: 70, glyphs: 0..<5), changed = word(ink: 0x33, spacing: 70, glyphs: 0..<5, opened: [4])
        let result = compare(reference, changed, options: structural)
        XCTAssertFalse(result.match)
        XCTAssertTrue(result.clusters?.contains { $0.isolated && $0.fails } ?? false, "\(result.clusters ?? [])")
    }

    /// A ring of radius `radius` and stroke `stroke` around (40.5, 20.5), ink #505050 on white,
    /// each pixel's coverage sampled 8 × 8 and raised to `gamma`.
    func ring(radius: Double, stroke: Double, gamma: Double = 1, ink: UInt8 = 0x50) -> RGBAImage {
        var image = RGBAImage(width: 80, height: 40, filledWith: RGBA(255, 255, 255))
        for y in 0..<40 {
            for x in 0..<80 {
                var covered = 0
                for sy in 0..<8 {
                    for sx in 0..<8 {
                        let dx = Double(x) + (Double(sx) + 0.5) / 8 - 40.5, dy = Double(y) + (Double(sy) + 0.5) / 8 - 20.5
                        if abs((dx * dx + dy * dy).squareRoot() - radius) <= stroke / 2 { covered += 1 }
                    }
                }
                let coverage = pow(Double(covered) / 64, gamma)
                let gray = UInt8((255 - (255 - Double(ink)) * coverage).rounded())
                image[x, y] = RGBA(gray, gray, gray)
            }
        }
        return image
    }

    /// Another rasterizer draws a one-pixel circle a little darker all round (SwiftShader's
    /// coverage against the GPU's): every pixel darkens, the same way, but no pixel of the
    /// stroke is solid, so the circle shows no colour of its own that could have changed, and
    /// the pair passes. A ring wide enough to hold solid ink, given a new colour, still fails
    /// as a coherent change.
    func testAThinCircleDrawnDarkerIsRenderNoise() {
        let reference = ring(radius: 9.5, stroke: 1), darker = ring(radius: 9.5, stroke: 1.15)
        let candidates = compare(reference, darker, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3)))
        XCTAssertGreaterThanOrEqual(candidates.differentPixels, StructuralRule().minimumClusterPixels)
        let result = compare(reference, darker, options: structural)
        XCTAssertTrue(result.match, "\(result.clusters ?? [])")

        let wide = ring(radius: 9, stroke: 3), recoloured = ring(radius: 9, stroke: 3, ink: 0x60)
        let changed = compare(wide, recoloured, options: structural)
        XCTAssertFalse(changed.match)
        XCTAssertTrue(changed.clusters?.contains { $0.coherent && $0.fails } ?? false, "\(changed.clusters ?? [])")
    }

    /// Eight strokes of small text with no solid pixel: each a diagonal one pixel wide, three
    /// quarters of each row's ink in one pixel and a quarter in the next (as ``coverage``
    /// grades it), over `ground`, blended in code values.
    func thinStrokes(ink: RGBA, ground: RGBA = RGBA(231, 245, 255), coverage: (Double) -> Double = { $0 }) -> RGBAImage {
        var image = RGBAImage(width: 72, height: 20, filledWith: ground)
        func mix(_ ink: UInt8, _ ground: UInt8, _ share: Double) -> UInt8 {
            UInt8((Double(ground) + (Double(ink) - Double(ground)) * coverage(share)).rounded())
        }
        func blend(_ share: Double) -> RGBA { RGBA(mix(ink.r, ground.r, share), mix(ink.g, ground.g, share), mix(ink.b, ground.b, share)) }
        for stroke in 0..<8 {
            for step in 0..<8 {
                let (x, y) = (4 + stroke * 8 + step, 14 - step)
                image[x, y] = blend(0.75)
                image[x + 1, y] = blend(0.25)
            }
        }
        return image
    }

    /// Small text given another ink (#1864ab to #1c7ed6 on a pale blue chip): every pixel moved
    /// one way, but no stroke holds a solid pixel to show that its ink moved. Each new pixel is
    /// off the line through the old ink and the ground, so the change is coherent and fails. The
    /// same strokes drawn with more coverage (a power of 0.8), which takes the most covered
    /// pixels past the old ones, stay on that line: render noise.
    func testSmallTextGivenAnotherInkFails() {
        let reference = thinStrokes(ink: RGBA(24, 100, 171))
        let changed = thinStrokes(ink: RGBA(28, 126, 214))
        let box = PixelRect(minX: 0, minY: 0, maxX: 71, maxY: 19)
        var labCache = LabCache()
        XCTAssertFalse(StructuralComparison.movesEndpoint(of: box, reference, changed, rule: StructuralRule(), labCache: &labCache))
        func differing(_ other: RGBAImage) -> [Int] {
            (0..<(reference.width * reference.height)).filter { reference.pixels[($0 * 4)..<($0 * 4 + 3)] != other.pixels[($0 * 4)..<($0 * 4 + 3)] }
        }
        XCTAssertTrue(StructuralComparison.changesInkColour(
            differing(changed), in: box, reference, changed, rule: StructuralRule(), labCache: &labCache))
        let result = compare(reference, changed, options: structural)
        XCTAssertFalse(result.match)
        XCTAssertTrue(result.clusters?.contains { $0.coherent && $0.fails } ?? false, "\(result.clusters ?? [])")

        let otherCoverage = thinStrokes(ink: RGBA(24, 100, 171)) { pow($0, 0.8) }
        XCTAssertGreaterThanOrEqual(
            compare(reference, otherCoverage, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3))).differentPixels,
            StructuralRule().minimumClusterPixels)
        XCTAssertFalse(StructuralComparison.changesInkColour(
            differing(otherCoverage), in: box, reference, otherCoverage, rule: StructuralRule(), labCache: &labCache))
        let noise = compare(reference, otherCoverage, options: structural)
        XCTAssertTrue(noise.match, "\(noise.clusters ?? [])")
    }

    /// Two rows of six small words (two diagonal strokes each, a fully and a half covered
    /// pixel a step, no solid pixel), dark gray on white; `inks` gives each word's ink.
    func smallWords(inks: [RGBA], coverage: (Double) -> Double = { $0 }) -> RGBAImage {
        var image = RGBAImage(width: 200, height: 40, filledWith: RGBA(255, 255, 255))
        func mix(_ ink: UInt8, _ share: Double) -> UInt8 { UInt8((255 + (Double(ink) - 255) * coverage(share)).rounded()) }
        for (word, ink) in inks.enumerated() {
            let (left, top) = (4 + (word % 6) * 32, 4 + (word / 6) * 18)
            for stroke in 0..<2 {
                for step in 0..<8 {
                    let (x, y) = (left + stroke * 8 + step, top + 12 - step)
                    image[x, y] = RGBA(mix(ink.r, 1), mix(ink.g, 1), mix(ink.b, 1))
                    image[x + 1, y] = RGBA(mix(ink.r, 0.5), mix(ink.g, 0.5), mix(ink.b, 0.5))
                }
            }
        }
        return image
    }

    /// One small word a step lighter (#333 to #444, 32 px, under the coherent changes' size)
    /// on a page otherwise drawn byte for byte the same fails as a coherent change on an
    /// unchanged page. Other text gamma, which redraws every word so, passes, as does the
    /// word's change beside a level's change elsewhere on the page (no longer unchanged), and
    /// the change on a page of that one word (whose edges all lie in the place that changed).
    func testSmallTextColourAloneOnAnUnchangedPageFails() {
        let (gray, lighter) = (RGBA(51, 51, 51), RGBA(68, 68, 68))
        let reference = smallWords(inks: Array(repeating: gray, count: 12))
        var inks = Array(repeating: gray, count: 12)
        inks[7] = lighter
        var changed = smallWords(inks: inks)
        let candidates = compare(reference, changed, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3))).differentPixels
        XCTAssertLessThan(candidates, StructuralRule().minimumClusterPixels)
        let result = compare(reference, changed, options: structural)
        XCTAssertFalse(result.match)
        XCTAssertEqual(result.clusters?.filter(\.fails).map(\.onUnchangedPage), [true], "\(result.clusters ?? [])")
        XCTAssertEqual(result.boundingBox, PixelRect(minX: 36, minY: 27, maxX: 52, maxY: 34))

        let otherGamma = smallWords(inks: Array(repeating: gray, count: 12)) { pow($0, 0.8) }
        XCTAssertTrue(compare(reference, otherGamma, options: structural).match)

        changed[150, 2] = RGBA(254, 255, 255)
        XCTAssertTrue(compare(reference, changed, options: structural).match)

        let oneWord = smallWords(inks: [gray]), oneWordLighter = smallWords(inks: [lighter])
        XCTAssertTrue(compare(oneWord, oneWordLighter, options: structural).match)
    }

    /// Blends of two colours lie on their segment in the space they were mixed in, at any
    /// share; a colour past an end lies on the segment drawn on past it, and one of another hue
    /// on neither.
    func testBlendsLieOnTheirColourSegment() {
        let (ground, ink): (ColourSegment.Colour, ColourSegment.Colour) = ((231, 245, 255), (24, 100, 171))
        var labCache = LabCache()
        for curve in ColourSegment.blendingCurves {
            let segment = ColourSegment(from: ground, to: ink, in: curve)
            for share in stride(from: 0.0, through: 1.0, by: 0.125) {
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { curve.encoded(curve.linear(a) + (curve.linear(b) - curve.linear(a)) * share) }
                let blend = (mix(ground.r, ink.r), mix(ground.g, ink.g), mix(ground.b, ink.b))
                XCTAssertLessThan(segment.distance(to: blend, &labCache), 1, "\(curve) \(share)")
            }
            func half(_ a: UInt8, _ b: UInt8) -> UInt8 { curve.encoded((curve.linear(a) + curve.linear(b)) / 2) }
            let toHalf = ColourSegment(from: ground, to: (half(ground.r, ink.r), half(ground.g, ink.g), half(ground.b, ink.b)), in: curve)
            XCTAssertGreaterThan(toHalf.distance(to: ink, &labCache), 2.3, "past the end")
            XCTAssertLessThan(toHalf.distance(to: ink, pastEnd: true, &labCache), 1, "on the line past the end")
            XCTAssertGreaterThan(segment.distance(to: (28, 126, 214), pastEnd: true, &labCache), 2.3, "another hue")
        }
    }

    /// A check mark of thin anti-aliased strokes (green on white), each pixel's coverage of a
    /// 1.2-px line sampled 8 × 8.
    func checkMark() -> RGBAImage {
        var image = RGBAImage(width: 40, height: 30, filledWith: RGBA(255, 255, 255))
        let strokes = [((12.0, 15.0), (16.0, 19.0)), ((16.0, 19.0), (25.0, 9.0))]
        for y in 0..<30 {
            for x in 0..<40 {
                var covered = 0
                for sy in 0..<8 {
                    for sx in 0..<8 {
                        let (px, py) = (Double(x) + (Double(sx) + 0.5) / 8, Double(y) + (Double(sy) + 0.5) / 8)
                        let near = strokes.contains { start, end in
                            let (dx, dy) = (end.0 - start.0, end.1 - start.1)
                            let t = max(0, min(1, ((px - start.0) * dx + (py - start.1) * dy) / (dx * dx + dy * dy)))
                            let (cx, cy) = (start.0 + t * dx - px, start.1 + t * dy - py)
                            return (cx * cx + cy * cy).squareRoot() <= 0.6
                        }
                        if near { covered += 1 }
                    }
                }
                let coverage = Double(covered) / 64
                func level(_ ink: Double) -> UInt8 { UInt8((255 - (255 - ink) * coverage).rounded()) }
                image[x, y] = RGBA(level(0x22), level(0xAA), level(0x66))
            }
        }
        return image
    }

    /// A check mark that goes away: pixelmatch's detector takes every pixel of its thin strokes
    /// for an anti-aliased edge, but the other image is plain white all round them, so no edge
    /// was redrawn there: a change.
    func testThinMarkRemovedFromPlainGroundFails() {
        let reference = checkMark(), removed = RGBAImage(width: 40, height: 30, filledWith: RGBA(255, 255, 255))
        let result = compare(reference, removed, options: structural)
        XCTAssertFalse(result.match, "\(result.clusters ?? [])")
        XCTAssertFalse(compare(removed, reference, options: structural).match, "a check mark drawn on plain ground")
    }

    // MARK: LCD text against grayscale text

    func subpixelText(_ reference: RGBAImage, _ actual: RGBAImage) -> SubpixelText? {
        let options = StructuralComparison.candidateOptions(rule: StructuralRule(), options: ComparisonOptions())
        guard let marked = compare(reference, actual, options: options).mask else { return nil }
        return SubpixelText(reference, actual, marked: marked)
    }

    /// The same word drawn with LCD anti-aliasing: coloured fringes, warm on one side of each
    /// stroke and cool on the other, that no blend of the gray pixels around explains.
    func testLCDTextIsRenderNoise() {
        let reference = word(ink: 0x33), lcd = word(ink: 0x33, lcd: true)
        XCTAssertGreaterThan(
            compare(reference, lcd, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3))).differentPixels, 100)
        XCTAssertEqual(subpixelText(reference, lcd)?.actualIsLCD, true)
        XCTAssertEqual(subpixelText(lcd, reference)?.actualIsLCD, false)
        XCTAssertTrue(compare(reference, lcd, options: structural).match)
        XCTAssertTrue(compare(lcd, reference, options: structural).match)
    }

    /// #333 to #444 drawn with LCD anti-aliasing: the ink moved, which the LCD model never
    /// explains.
    func testTextOneStepLighterUnderLCDTextFails() {
        let reference = word(ink: 0x33), lighter = word(ink: 0x44, lcd: true)
        XCTAssertTrue(subpixelText(reference, lighter) != nil)
        let result = compare(reference, lighter, options: structural)
        XCTAssertFalse(result.match)
        XCTAssertTrue(result.clusters?.contains { $0.coherent && $0.fails } ?? false, "\(result.clusters ?? [])")
    }

    /// In an LCD pair, a candidate that the grayscale image covers alike with its left and right
    /// neighbours (each channel within 2 levels) is marked again after the explanations, and no
    /// other is: the background between glyphs and beside them, never a stroke's edge, nor the
    /// first or last column.
    func testEvenlyCoveredCandidatesOfAnLCDPairAreNeverExplained() throws {
        let gray = word(ink: 0x33), lcd = word(ink: 0x33, lcd: true)
        let (width, height) = (gray.width, gray.height)
        var candidates = DifferenceMask(width: width, height: height)
        for y in 0..<height { for x in 0..<width where (x + y) % 3 != 0 { candidates.set(x: x, y: y) } }
        func isCoveredAlike(_ x: Int, _ y: Int) -> Bool {
            guard x > 0, x < width - 1 else { return false }
            let centre = gray[x, y]
            return [gray[x - 1, y], gray[x + 1, y]].allSatisfy { side in
                abs(Int(side.r) - Int(centre.r)) <= 2 && abs(Int(side.g) - Int(centre.g)) <= 2 && abs(Int(side.b) - Int(centre.b)) <= 2
            }
        }
        for (reference, actual) in [(gray, lcd), (lcd, gray)] {
            let text = try XCTUnwrap(subpixelText(reference, actual))
            var unexplained = DifferenceMask(width: width, height: height)
            text.markingEvenlyCovered(in: &unexplained, candidates: candidates, reference, actual)
            var (marked, unmarked) = (0, 0)
            for y in 0..<height {
                for x in 0..<width {
                    let expected = candidates.contains(x: x, y: y) && isCoveredAlike(x, y)
                    XCTAssertEqual(unexplained.contains(x: x, y: y), expected, "(\(x), \(y))")
                    if candidates.contains(x: x, y: y) { if expected { marked += 1 } else { unmarked += 1 } }
                }
            }
            XCTAssertGreaterThan(marked, 100)
            XCTAssertGreaterThan(unmarked, 100)
        }
    }

    /// A blue badge added beside gray text tints its pixels one way only: no LCD signature.
    func testOneHueAddedIsNeverTakenForLCDText() {
        let reference = word(ink: 0x33)
        var badged = reference
        for y in 2..<22 { for x in 40..<60 { badged[x, y] = RGBA(60, 110, 220) } }
        XCTAssertTrue(subpixelText(reference, badged) == nil)
        XCTAssertFalse(compare(reference, badged, options: structural).match)
    }

    /// The page with a blue button, drawn as a display whose tone curve is a plain 1.8 power
    /// (Generic RGB's) shows it: every colour but white moves, by ΔE94 up to about 9.
    func buttonPage(panel: RGBA = RGBA(200, 210, 220)) -> RGBAImage {
        var image = page(panel: panel)
        for y in 30..<42 { for x in 70..<100 { image[x, y] = RGBA(59, 130, 246) } }
        return image
    }

    func throughGamma18(_ image: RGBAImage) -> RGBAImage {
        func level(_ v: UInt8) -> UInt8 {
            let c = Double(v) / 255
            let linear = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            return UInt8((pow(linear, 1 / 1.8) * 255).rounded())
        }
        var drawn = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image[x, y]
                drawn[x, y] = RGBA(level(c.r), level(c.g), level(c.b))
            }
        }
        return drawn
    }

    func testAnotherDisplayProfileIsRenderNoise() {
        let reference = buttonPage(), actual = throughGamma18(buttonPage())
        XCTAssertFalse(compare(reference, actual, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 2.3))).match)
        XCTAssertTrue(ColourDrift(reference, actual, noiseDeltaE: 2.3) != nil)
        let result = compare(reference, actual, options: structural)
        XCTAssertTrue(result.match, "\(result.differentPixels) pixels counted")
    }

    /// Under the other profile the panel also changed colour: the border, the strokes and the
    /// button moved together, the panel did not move with them. No drift is explained away, and
    /// the pair fails.
    func testAChangedColourUnderAnotherDisplayProfileFails() {
        let reference = buttonPage(), actual = throughGamma18(buttonPage(panel: RGBA(214, 222, 230)))
        XCTAssertFalse(ColourDrift(reference, actual, noiseDeltaE: 2.3) != nil)
        XCTAssertFalse(compare(reference, actual, options: structural).match)
    }

    /// One colour that moved is a changed colour, never a display profile: a matrix maps any
    /// two colours anywhere, so it takes three that moved together.
    func testOneChangedColourIsNeverTakenForADisplayProfile() {
        let reference = buttonPage(), actual = buttonPage(panel: RGBA(214, 222, 230))
        XCTAssertFalse(ColourDrift(reference, actual, noiseDeltaE: 2.3) != nil)
        XCTAssertFalse(compare(reference, actual, options: structural).match)
    }

    /// A card filled by a gradient from `start` to #5f3dc4, across 200 columns of a white page
    /// (each column one colour, blended in sRGB's code values as browsers blend), under a line
    /// of gray text.
    func gradientCard(start: RGBA) -> RGBAImage {
        let text = word(ink: 0x33, spacing: 16)
        var card = RGBAImage(width: 240, height: 70, filledWith: RGBA(255, 255, 255))
        for y in 0..<text.height { for x in 0..<text.width { card[x, y] = text[x, y] } }
        let end = RGBA(0x5f, 0x3d, 0xc4)
        for x in 20..<220 {
            let t = Double(x - 20) / 199
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - t) + Double(b) * t).rounded()) }
            for y in 30..<66 { card[x, y] = RGBA(mix(start.r, end.r), mix(start.g, end.g), mix(start.b, end.b)) }
        }
        return card
    }

    /// A gradient given another start colour moves many solid colours together, as a display
    /// profile would, but all of them lie on one line in sRGB's code values, which a matrix
    /// nearly maps:
    /// no drift is explained away, and the pair fails. The colours a profile moved on the button
    /// page do not lie so.
    func testAGradientGivenAnotherEndIsNoDisplayProfile() {
        let reference = gradientCard(start: RGBA(0x36, 0x4f, 0xc7)), actual = gradientCard(start: RGBA(0x3b, 0x5b, 0xdb))
        XCTAssertFalse(compare(reference, actual, options: ComparisonOptions(metric: .deltaE(.cie94, threshold: 3))).match)
        XCTAssertNil(ColourDrift(reference, actual, noiseDeltaE: 2.3))
        XCTAssertFalse(compare(reference, actual, options: structural).match)
        var labCache = LabCache()
        let gradient = (ColourDrift.solidColours(reference, actual) ?? []).filter { $0.reference != $0.actual }.map(\.reference)
        XCTAssertGreaterThan(gradient.count, 20)
        XCTAssertTrue(ColourDrift.lieOnOneLine(gradient, noiseDeltaE: 2.3, &labCache))
        let page = (ColourDrift.solidColours(buttonPage(), throughGamma18(buttonPage())) ?? []).filter { $0.reference != $0.actual }
            .map(\.reference)
        XCTAssertFalse(ColourDrift.lieOnOneLine(page, noiseDeltaE: 2.3, &labCache))
    }

    /// Grays moved along the gray axis are what another tone curve does, never one gradient:
    /// the line test leaves them to the fit.
    func testGraysAlongTheGrayAxisAreNoGradient() {
        var labCache = LabCache()
        let grays: [(r: UInt8, g: UInt8, b: UInt8)] = [(40, 40, 40), (120, 120, 120), (200, 200, 200), (245, 245, 245)]
        XCTAssertFalse(ColourDrift.lieOnOneLine(grays, noiseDeltaE: 2.3, &labCache))
        let tints: [(r: UInt8, g: UInt8, b: UInt8)] = [(40, 60, 200), (120, 130, 220), (200, 205, 240)]
        XCTAssertTrue(ColourDrift.lieOnOneLine(tints, noiseDeltaE: 2.3, &labCache))
    }

    /// Four lines of three blocky words (glyphs as in ``page``). `moves[line][word]` shifts a
    /// word right; with `redrawn`, every glyph is drawn half a pixel further right as well (a
    /// blend with its left neighbour), as another hinting draws it; `glyphs` replaces one word's
    /// glyphs, keyed by line and word.
    /// With `drawnAsBefore`, that word (line, word) is left as it was drawn, pixel for pixel,
    /// where it moved, while the others are drawn anew.
    func textPage(
        moves: [[Int]] = Array(repeating: [0, 0, 0], count: 4), redrawn: Bool = false, replaced: (line: Int, word: Int)? = nil,
        drawnAsBefore: (line: Int, word: Int)? = nil
    ) -> RGBAImage {
        var image = RGBAImage(width: 160, height: 90, filledWith: RGBA(255, 255, 255))
        for line in 0..<4 {
            let top = 6 + line * 21
            for word in 0..<3 {
                for glyph in 0..<3 {
                    let left = 6 + word * 46 + glyph * 10 + moves[line][word]
                    let kind = (line + word + glyph) % 3 + ((replaced.map { $0 == (line, word) } ?? false) ? 1 : 0)
                    for y in top..<(top + 12) { for x in left..<(left + 2) { image[x, y] = RGBA(30, 30, 30) } }
                    if kind % 3 != 1 { for x in left..<(left + 7) { for y in (top + 10)..<(top + 12) { image[x, y] = RGBA(30, 30, 30) } } }
                    if kind % 3 != 2 { for x in left..<(left + 7) { for y in top..<(top + 2) { image[x, y] = RGBA(30, 30, 30) } } }
                    if kind % 3 == 0 { for y in top..<(top + 12) { for x in (left + 5)..<(left + 7) { image[x, y] = RGBA(30, 30, 30) } } }
                }
            }
        }
        guard redrawn else { return image }
        var drawn = image
        for y in 0..<image.height {
            for x in 1..<image.width {
                let (left, here) = (image[x - 1, y], image[x, y])
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) + Int(b) + 1) / 2) }
                drawn[x, y] = RGBA(mix(left.r, here.r), mix(left.g, here.g), mix(left.b, here.b))
            }
        }
        if let (line, word) = drawnAsBefore {
            let left = 6 + word * 46 + moves[line][word], top = 6 + line * 21
            for y in top..<(top + 12) { for x in left...(left + 27) { drawn[x, y] = image[x, y] } }
        }
        return drawn
    }

    /// Full hinting snaps glyphs to whole pixels, so a word can land drawn exactly as before:
    /// moved as the words beside it on its line moved, it is text set again.
    func testAWordMovedWithItsLineDrawnAsBeforeIsRenderNoise() {
        let moves = [[1, 2, 3], [3, 4, 5], [1, 1, 2], [1, 2, 3]]
        let actual = textPage(moves: moves, redrawn: true, drawnAsBefore: (line: 1, word: 1))
        let result = compare(textPage(), actual, options: structural)
        XCTAssertTrue(result.match, "\(result.clusters ?? [])")
    }

    /// The same word moved further than the words on either side of it is a word moved, or the
    /// text after a changed word: it fails.
    func testAWordMovedAgainstItsLineFails() {
        let moves = [[1, 2, 3], [3, 8, 5], [1, 1, 2], [1, 2, 3]]
        XCTAssertFalse(compare(textPage(), textPage(moves: moves, redrawn: true, drawnAsBefore: (line: 1, word: 1)), options: structural).match)
    }

    /// Words on either side that moved far apart are no line set again around the word between
    /// them (the text after a changed word jumps): that word is not explained, wherever it moved.
    func testAWordBetweenWordsThatJumpFails() {
        let moves = [[1, 2, 3], [1, 4, 7], [1, 1, 2], [1, 2, 3]]
        XCTAssertFalse(compare(textPage(), textPage(moves: moves, redrawn: true, drawnAsBefore: (line: 1, word: 1)), options: structural).match)
    }

    /// Words moved along their lines by other glyph advances, more the further along, and drawn
    /// anew: text set again by another hinting, on every line.
    static let reflow = [[0, 2, 4], [0, 3, 5], [0, 2, 3], [0, 3, 6]]

    func testTextSetAgainOnEveryLineIsRenderNoise() {
        let reference = textPage(), actual = textPage(moves: Self.reflow, redrawn: true)
        let plain = compare(reference, actual, options: structural)
        XCTAssertTrue(plain.match, "\(plain.clusters ?? [])")
        XCTAssertFalse(compare(reference, textPage(moves: Self.reflow), options: ComparisonOptions(metric: .exact)).match)
    }

    /// The same moves with each word drawn exactly as before, pixel for pixel: margins or
    /// padding changed, a layout change.
    func testWordsMovedUnchangedFail() {
        XCTAssertFalse(compare(textPage(), textPage(moves: Self.reflow), options: structural).match)
    }

    /// On one line only, the moves are an element respaced, not another hinting.
    func testTextSetAgainOnOneLineFails() {
        let moves = [[0, 0, 0], [0, 3, 5], [0, 0, 0], [0, 0, 0]]
        XCTAssertFalse(compare(textPage(), textPage(moves: moves, redrawn: true), options: structural).match)
    }

    func testAWordReplacedUnderTextSetAgainFails() {
        let actual = textPage(moves: Self.reflow, redrawn: true, replaced: (line: 2, word: 1))
        XCTAssertFalse(compare(textPage(), actual, options: structural).match)
    }

    /// A stem's ink is kept when it moves or splits over two columns, and lost when it lightens.
    func testInkChangeAroundACluster() {
        func page(_ columns: [Int: UInt8]) -> RGBAImage {
            var image = RGBAImage(width: 20, height: 12, filledWith: RGBA(255, 255, 255))
            for (x, level) in columns { for y in 2..<10 { image[x, y] = RGBA(level, level, level) } }
            return image
        }
        let stem = page([8: 40, 9: 40])
        func change(_ other: RGBAImage, _ move: (dx: Int, dy: Int), box: PixelRect = PixelRect(minX: 7, minY: 2, maxX: 10, maxY: 9)) -> Double {
            stem.pixels.withUnsafeBufferPointer { a in
                other.pixels.withUnsafeBufferPointer { b in
                    guard let a = a.baseAddress, let b = b.baseAddress else { return .nan }
                    return TextReflow.inkChange(around: box, moved: move, a, b, width: 20, height: 12)
                }
            }
        }
        XCTAssertEqual(change(page([9: 40, 10: 40]), (1, 0)), 0)
        XCTAssertEqual(change(page([8: 147, 9: 40, 10: 148]), (0, 0)), 0, accuracy: 0.005)
        XCTAssertGreaterThan(change(page([8: 120, 9: 120]), (0, 0)), 0.3)
        XCTAssertEqual(change(page([8: 40, 9: 40]), (0, 0), box: PixelRect(minX: 1, minY: 2, maxX: 10, maxY: 9)).isInfinite, false)
        XCTAssertEqual(change(page([8: 40, 9: 40]), (-1, 0), box: PixelRect(minX: 1, minY: 2, maxX: 10, maxY: 9)), .infinity)
    }

    func testLinesSeparateByTheirRows() {
        XCTAssertEqual(TextReflow.lines(of: [0...5, 3...9, 12...20, 21...21, 2...4]), 3)
        XCTAssertEqual(TextReflow.lines(of: []), 0)
    }

    /// The run-based clustering finds what a plain flood fill over pixels finds: the same
    /// clusters in the same order, with the same pixels, boxes and largest ΔE, on random masks
    /// from sparse dust to dense blobs, including runs that touch the image's edges.
    func testClustersEqualAPlainFloodFill() {
        var generator = SplitMix(seed: 0xC1A5_7E2)
        for (width, height) in [(1, 1), (1, 12), (12, 1), (5, 7), (31, 17), (64, 48)] {
            for density in [0.02, 0.1, 0.3, 0.6, 1.0] {
                let (reference, actual) = (randomImage(width, height, &generator), randomImage(width, height, &generator))
                var mask = DifferenceMask(width: width, height: height)
                for y in 0..<height {
                    for x in 0..<width where Double(generator.next() % 1000) < density * 1000 { mask.set(x: x, y: y) }
                }
                for rule in [StructuralRule(), StructuralRule(explainsScatteredNoise: false)] {
                    let expected = floodFilledClusters(of: mask, reference, actual, rule: rule)
                    for bands in [0, 1, 3] {
                        let found = StructuralComparison.clusters(of: mask, reference, actual, rule: rule, bands: bands)
                        let context = "\(width)x\(height) density \(density) bands \(bands) scattered \(rule.explainsScatteredNoise)"
                        XCTAssertEqual(found.clusters, expected.clusters, context)
                        XCTAssertEqual(Array(found.members), expected.members, context)
                    }
                }
            }
        }
    }

    private func randomImage(_ width: Int, _ height: Int, _ generator: inout SplitMix) -> RGBAImage {
        RGBAImage(width: width, height: height, pixels: (0..<(width * height * 4)).map { $0 % 4 == 3 ? 255 : generator.nextByte() })
    }

    /// The plain reference: a flood fill from each unvisited pixel in row-major order over the
    /// pixels at most ``StructuralComparison/linkDistance`` apart in rows and columns, each
    /// cluster's pixels then put in row-major order.
    private func floodFilledClusters(
        of mask: DifferenceMask, _ reference: RGBAImage, _ actual: RGBAImage, rule: StructuralRule
    ) -> (clusters: [DifferenceCluster], members: [[Int]]) {
        let (width, height, reach) = (mask.width, mask.height, StructuralComparison.linkDistance)
        var visited = [Bool](repeating: false, count: width * height)
        var clusters: [DifferenceCluster] = [], members: [[Int]] = []
        for start in 0..<(width * height) where mask.contains(x: start % width, y: start / width) && !visited[start] {
            var stack = [start], pixels: [Int] = []
            visited[start] = true
            while let index = stack.popLast() {
                pixels.append(index)
                let (x, y) = (index % width, index / width)
                for ny in max(0, y - reach)...min(height - 1, y + reach) {
                    for nx in max(0, x - reach)...min(width - 1, x + reach) where mask.contains(x: nx, y: ny) && !visited[ny * width + nx] {
                        visited[ny * width + nx] = true
                        stack.append(ny * width + nx)
                    }
                }
            }
            pixels.sort()
            let xs = pixels.map { $0 % width }, ys = pixels.map { $0 / width }
            let maxDeltaE = pixels.map { index in
                let (p, q) = (reference.pixels, actual.pixels)
                return DeltaEFormula.cie94.difference(
                    LabColor(r: p[index * 4], g: p[index * 4 + 1], b: p[index * 4 + 2]),
                    LabColor(r: q[index * 4], g: q[index * 4 + 1], b: q[index * 4 + 2]))
            }.max() ?? 0
            clusters.append(DifferenceCluster(
                pixels: pixels.count,
                boundingBox: PixelRect(minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0),
                maxDeltaE: maxDeltaE, fails: false))
            members.append(pixels)
        }
        let strong = rule.strongClusters(among: clusters)
        for index in clusters.indices { clusters[index].fails = rule.fails(clusters[index], strongClusters: strong) }
        return (clusters, members)
    }

    /// The banded, table-counted solid colours equal a plain count over every interior pixel,
    /// on pages of random blocks (long runs, short runs, colours that move and colours that
    /// stay), and a single translucent pixel anywhere, edges included, rules drift out.
    func testSolidColoursEqualAPlainCount() {
        var generator = SplitMix(seed: 0x50_11D5)
        for (width, height) in [(3, 3), (17, 5), (64, 40), (301, 97)] {
            for blockSide in [1, 3, 8] {
                let (reference, actual) = blockPage(width, height, blockSide: blockSide, &generator)
                for bands in [0, 1, 3] {
                    let found = ColourDrift.solidColours(reference, actual, bands: bands)
                    let expected = plainSolidColours(reference, actual)
                    XCTAssertEqual(found.map(Self.described), Self.described(expected), "\(width)x\(height) side \(blockSide) bands \(bands)")
                }
            }
        }
        let (reference, actual) = blockPage(40, 30, blockSide: 8, &generator)
        for corner in [0, 39, 40 * 29, 40 * 30 - 1] {
            var translucent = actual
            translucent.pixels[corner * 4 + 3] = 254
            XCTAssertNil(ColourDrift.solidColours(reference, translucent), "translucent pixel \(corner)")
        }
    }

    /// Hundreds of colours, each moved in half its blocks one way and in half the other: the
    /// tables grow past their first size, and many colours tie between their two new colours.
    func testSolidColoursOfManyColoursEqualAPlainCount() {
        var generator = SplitMix(seed: 0x7_1E5)
        let palette = (0..<300).map { _ in (0..<3).map { _ in UInt8(truncatingIfNeeded: generator.next() % 250) } }
        let (width, height, side) = (403, 301, 5)
        let columns = (width + side - 1) / side
        let blocks = (0..<(columns * ((height + side - 1) / side))).map { _ in (Int(generator.next() % 300), generator.next() % 2 == 0) }
        var (a, b) = ([UInt8](), [UInt8]())
        for y in 0..<height {
            for x in 0..<width {
                let (index, up) = blocks[(y / side) * columns + x / side]
                let colour = palette[index]
                a += colour + [255]
                b += (up ? [colour[0] &+ 2, colour[1], colour[2]] : [colour[0], colour[1], colour[2] &+ 3]) + [255]
            }
        }
        let (reference, actual) = (RGBAImage(width: width, height: height, pixels: a), RGBAImage(width: width, height: height, pixels: b))
        let expected = plainSolidColours(reference, actual)
        XCTAssertGreaterThan(expected.count, 200)
        for bands in [0, 1, 2] {
            XCTAssertEqual(ColourDrift.solidColours(reference, actual, bands: bands).map(Self.described), Self.described(expected), "bands \(bands)")
        }
    }

    private static func described(_ solids: [ColourDrift.SolidColour]) -> [String] {
        solids.map { "\($0.reference) -> \($0.actual) x\($0.pixels)" }
    }

    /// A page of `blockSide`-pixel blocks in four colours; the new page moves one colour by a
    /// few levels everywhere and repaints some blocks.
    private func blockPage(_ width: Int, _ height: Int, blockSide: Int, _ generator: inout SplitMix) -> (RGBAImage, RGBAImage) {
        let palette: [[UInt8]] = [[255, 255, 255], [20, 30, 40], [200, 60, 60], [90, 180, 90]]
        var (a, b) = ([UInt8](), [UInt8]())
        let columns = (width + blockSide - 1) / blockSide
        let blocks = (0..<(columns * ((height + blockSide - 1) / blockSide))).map { _ in Int(generator.next() % 4) }
        let repainted = (0..<blocks.count).map { _ in generator.next() % 7 == 0 }
        for y in 0..<height {
            for x in 0..<width {
                let block = (y / blockSide) * columns + x / blockSide
                let colour = palette[blocks[block]]
                a += colour + [255]
                let moved = blocks[block] == 2 ? [colour[0] &- 3, colour[1] &+ 2, colour[2]] : colour
                b += (repainted[block] ? palette[(blocks[block] + 1) % 4] : moved) + [255]
            }
        }
        return (RGBAImage(width: width, height: height, pixels: a), RGBAImage(width: width, height: height, pixels: b))
    }

    /// The plain count: every interior pixel that shares its colour with both neighbours along
    /// its row or its column, by its colour and the new image's there.
    private func plainSolidColours(_ reference: RGBAImage, _ actual: RGBAImage) -> [ColourDrift.SolidColour] {
        let (width, height) = (reference.width, reference.height)
        func colour(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 3)]) }
        var counts: [[UInt8]: [[UInt8]: Int]] = [:]
        for y in 1..<max(1, height - 1) {
            for x in 1..<max(1, width - 1) {
                let centre = colour(reference, x, y)
                let solid = (centre == colour(reference, x - 1, y) && centre == colour(reference, x + 1, y))
                    || (centre == colour(reference, x, y - 1) && centre == colour(reference, x, y + 1))
                if solid { counts[centre, default: [:]][colour(actual, x, y), default: 0] += 1 }
            }
        }
        return counts.sorted { $0.key.reversed().lexicographicallyPrecedes($1.key.reversed()) }.compactMap { key, news in
            let pixels = news.values.reduce(0, +)
            guard pixels >= ColourDrift.minimumSolidPixels,
                let mode = news.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key.reversed().lexicographicallyPrecedes($1.key.reversed()) == false) }),
                2 * mode.value >= pixels
            else { return nil }
            return ColourDrift.SolidColour(reference: (key[0], key[1], key[2]), actual: (mode.key[0], mode.key[1], mode.key[2]), pixels: pixels)
        }
    }
    /// A line of gray text as a rasterizer draws it: stems of `ink` fully covered, and beside
    /// each a partly covered column, `offset` pixels over, holding `coverage` of the ink.
    func textLine(ink: UInt8, coverage: Double, offset: Int) -> RGBAImage {
        var image = RGBAImage(width: 80, height: 24, filledWith: RGBA(255, 255, 255))
        let shade = UInt8((255 - coverage * (255 - Double(ink))).rounded())
        for stem in stride(from: 8, to: 72, by: 6) {
            for y in 8..<16 {
                image[stem, y] = RGBA(ink, ink, ink)
                image[stem + offset, y] = RGBA(shade, shade, shade)
            }
        }
        return image
    }

    /// The ink test's colour table counts as a dictionary does, through its growth and with
    /// runs of one colour.
    func testTheColourTableCountsAsADictionary() {
        var generator = SystemRandomNumberGenerator()
        var table = InkReplacement.ColourTable()
        var expected: [UInt32: Int] = [:]
        for _ in 0..<20_000 {
            let colour = UInt32.random(in: 0...0xFF_FFFF, using: &generator) & 0xF0_F0F0
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                table.add(colour)
                expected[colour, default: 0] += 1
            }
        }
        let counted = Dictionary(uniqueKeysWithValues: table.entries.map { ($0.colour.packed, $0.pixels) })
        XCTAssertGreaterThan(counted.count, 1024)
        XCTAssertEqual(counted, expected)
    }

    /// Other hinting moves the partly covered pixels of every glyph but keeps the ink of the
    /// fully covered ones; text given another ink, also redrawn by other hinting, loses the
    /// reference's ink. Its lightness moves both ways, so it is no coherent change by itself.
    func testTextRedrawnInAnotherInkIsAnInkReplacement() {
        let rule = StructuralRule()
        var labCache = LabCache()
        let reference = textLine(ink: 0x66, coverage: 0.5, offset: 1)
        let hinted = textLine(ink: 0x66, coverage: 0.3, offset: -1)
        let recoloured = textLine(ink: 0x56, coverage: 0.3, offset: -1)
        let box = PixelRect(minX: 0, minY: 6, maxX: 79, maxY: 17)
        XCTAssertFalse(InkReplacement.replaces(in: box, reference, hinted, asGiven: true, rule: rule, labCache: &labCache))
        XCTAssertTrue(InkReplacement.replaces(in: box, reference, recoloured, asGiven: true, rule: rule, labCache: &labCache))
        XCTAssertTrue(InkReplacement.replaces(in: box, recoloured, reference, asGiven: true, rule: rule, labCache: &labCache))
        // Too few fully covered pixels make no plateau.
        var short = RGBAImage(width: 80, height: 24, filledWith: RGBA(255, 255, 255))
        var shortRecoloured = short
        for stem in [8, 20] {
            for y in 8..<15 {
                short[stem, y] = RGBA(0x66, 0x66, 0x66)
                shortRecoloured[stem, y] = RGBA(0x56, 0x56, 0x56)
            }
        }
        XCTAssertFalse(InkReplacement.replaces(in: box, short, shortRecoloured, asGiven: true, rule: rule, labCache: &labCache))
    }

    /// A rule no front end would make is a problem its checks report, and the comparison still
    /// runs on it, where a huge radius or cluster size overflowed.
    func testARuleOutsideItsRangesIsAProblemAndComparesWithoutTrapping() {
        XCTAssertNil(StructuralRule().problem)
        let odd = [
            StructuralRule(shiftRadius: .max), StructuralRule(shiftRadius: -1), StructuralRule(minimumClusterPixels: 0),
            StructuralRule(minimumStrongClusterPixels: .min), StructuralRule(strongDeltaE: .nan),
        ]
        let reference = RGBAImage(width: 40, height: 30, filledWith: RGBA(240, 240, 240))
        var actual = reference
        for x in 5..<35 { actual[x, 12] = RGBA(20, 20, 20) }
        for rule in odd {
            XCTAssertNotNil(rule.problem, "\(rule)")
            XCTAssertEqual(ComparisonOptions(metric: .structural(rule)).judgingProblem, rule.problem)
            _ = compare(reference, actual, options: ComparisonOptions(metric: .structural(rule)))
            _ = rule.fails(pixels: 30, maxDeltaE: 90, isThinLine: true)
        }
        let neverStrong = StructuralRule(minimumStrongClusterPixels: .max)
        XCTAssertNil(neverStrong.problem, "no strong cluster fails by its size: a rule, if an odd one")
        XCTAssertFalse(neverStrong.fails(pixels: 30, maxDeltaE: 90, isThinLine: true))
        XCTAssertEqual(
            compare(reference, actual, options: ComparisonOptions(metric: .structural(StructuralRule(shiftRadius: .max)))).differentPixels,
            compare(reference, actual, options: ComparisonOptions(metric: .structural(StructuralRule(shiftRadius: 4)))).differentPixels,
            "a radius past the largest searches the largest")
    }

    /// Most of a small image changed fails whatever the cluster sizes: a swatch of 2×2 turned
    /// from white to black had passed, as four pixels are fewer than a failing cluster.
    func testMostOfATinyImageChangedFails() {
        for side in 1...3 {
            let white = RGBAImage(width: side, height: side, filledWith: RGBA(255, 255, 255))
            for (colour, fails) in [(RGBA(0, 0, 0), true), (RGBA(200, 40, 40), true), (RGBA(250, 250, 250), false)] {
                var actual = white
                for y in 0..<side { for x in 0..<side { actual[x, y] = colour } }
                let result = compare(white, actual, options: ComparisonOptions(metric: .structural(StructuralRule())))
                XCTAssertEqual(result.match, !fails, "\(side)×\(side) to \(colour)")
            }
        }
    }
}
