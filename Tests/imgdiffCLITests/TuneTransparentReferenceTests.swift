import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// `imgdiff tune` over references with a transparent background, and when no setting fails
/// every canary: what it says, and that `--write-config` says it wrote nothing.
final class TuneTransparentReferenceTests: XCTestCase {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-tune-alpha-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// An icon: an opaque card with glyphs and a rule, on a fully transparent background whose
    /// colour the two sides encode differently (black and white), as two encoders may.
    func icon(transparentColour: UInt8) -> RGBAImage {
        var image = RGBAImage(width: 160, height: 120, filledWith: RGBA(transparentColour, transparentColour, transparentColour, 0))
        for y in 20..<100 { for x in 30..<130 { image[x, y] = RGBA(40, 90, 200) } }
        for glyph in 0..<7 {
            for y in 30..<44 { for x in (40 + glyph * 12)..<(42 + glyph * 12) { image[x, y] = RGBA(250, 250, 250) } }
            for x in (40 + glyph * 12)..<(48 + glyph * 12) { image[x, 30 + (glyph % 3) * 6] = RGBA(250, 250, 250) }
        }
        for x in 35..<125 { image[x, 80] = RGBA(250, 250, 250) }
        return image
    }

    func testTransparentBackgroundReferenceGetsARecommendation() throws {
        let noise = work.appendingPathComponent("noise").path
        try writePair(icon(transparentColour: 0), icon(transparentColour: 255), to: noise, as: "icon.png")
        let config = work.appendingPathComponent("imgdiff.json").path
        let canaries = work.appendingPathComponent("canaries").path
        let run = try imgdiff("tune", noise, "--write-config", config, "--write-canaries", canaries)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: config), run.stdout + run.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: canaries + "/new").sorted()
        XCTAssertEqual(written, Canary.kinds.map { "icon.png--\($0).png" })
        for name in written {
            let compared = try imgdiff("\(canaries)/ref/\(name)", "\(canaries)/new/\(name)", "--metric", "channel", "--threshold", "0")
            XCTAssertEqual(compared.status, 1, "\(name) shows a change: \(compared.stdout)\(compared.stderr)")
        }
    }

    /// A noise pair whose new image holds a spot that the faint-spot canary moves back to the
    /// reference's colour: that canary is the reference itself, no mode fails it, and tune says
    /// so by name, and that it wrote no settings file.
    func testNoSettingNamesTheCanaryNoModeFailsAndSaysTheConfigWasNotWritten() throws {
        let ground = UInt8(200)
        let spotGrey = Self.greyDarkenedByDeltaE94Three(from: ground)
        let reference = RGBAImage(width: 40, height: 20, filledWith: RGBA(spotGrey, spotGrey, spotGrey))
        var actual = reference
        for y in 0..<5 { for x in 0..<10 { actual[x, y] = RGBA(ground, ground, ground) } }
        let noise = work.appendingPathComponent("noise").path
        try writePair(reference, actual, to: noise, as: "flat.png")
        let config = work.appendingPathComponent("imgdiff.json").path

        let run = try imgdiff("tune", noise, "--write-config", config)
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config))
        XCTAssertFalse(run.stdout.contains("too small or too flat"), run.stdout)
        XCTAssertTrue(run.stdout.contains("every mode passes flat.png + faint-spot"), run.stdout)
        let notWritten = run.stderr.split(separator: "\n").filter { $0.contains("\(config): settings file not written") }
        XCTAssertEqual(notWritten.count, 1, run.stderr)
        XCTAssertTrue(notWritten.first?.contains("flat.png + faint-spot") == true, run.stderr)
        XCTAssertFalse(run.stderr.contains("write the setting with --write-config"), "no setting to write: \(run.stderr)")

        let json = try imgdiff("tune", noise, "--json")
        XCTAssertEqual(json.status, 1, json.stderr)
        XCTAssertFalse(json.stderr.contains("settings file not written"), "no --write-config, no line: \(json.stderr)")
    }

    /// The grey the canary's faint spot makes of `grey`: darker by the fewest levels that reach
    /// ΔE94 3.
    static func greyDarkenedByDeltaE94Three(from grey: UInt8) -> UInt8 {
        let original = LabColor(r: grey, g: grey, b: grey)
        var value = grey
        while value > 0 {
            value -= 1
            if DeltaEFormula.cie94.difference(original, LabColor(r: value, g: value, b: value)) >= 3 { break }
        }
        return value
    }

    enum Canary {
        static let kinds = ["faint-patch", "faint-spot", "removed-line", "shifted-block"]
    }

    func writePair(_ reference: RGBAImage, _ actual: RGBAImage, to folder: String, as name: String) throws {
        for (side, image) in [("ref", reference), ("new", actual)] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(side)", withIntermediateDirectories: true)
            try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: "\(folder)/\(side)/\(name)"))
        }
    }
}
