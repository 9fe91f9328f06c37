import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// The batch report's `index.html` in a real browser: Debian's chromium, headless (installed by
/// `scripts/deps --test`). The page builds its cards with JavaScript, so every assertion reads
/// the DOM after the script ran (`--dump-dom`), or the rendered pixels (`--screenshot`).
final class BrowserReportTests: XCTestCase {
    var work: URL!
    var report: URL { work.appendingPathComponent("report") }
    let fixtures = SharedData.packageRoot.appendingPathComponent("Fixtures/batch")

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("imgdiff-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let run = try imgdiff("batch", fixtures.appendingPathComponent("ref").path,
                              fixtures.appendingPathComponent("new").path, "--out", report.path)
        XCTAssertEqual(run.status, 1, run.stderr)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testPageRendersEveryPairFailuresFirst() throws {
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("<article"), "cards come from the script, not the static HTML")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "no network")

        let page = try dumpDOM()
        XCTAssertEqual(page.body["data-ready"], "true", "the script ran")
        XCTAssertEqual(page.body["data-filter"], "all")
        XCTAssertEqual(page.pairs.map(\.path), [
            "login.png", "settings/account.png", "onboarding/welcome.png", "legacy/about.png", "home.png",
            "settings/theme.png",
        ])
        XCTAssertEqual(page.pairs.map(\.status), ["changed", "changed", "new", "deleted", "passed", "passed"])

        let login = try XCTUnwrap(page.pairs.first)
        XCTAssertEqual(login.tabs, ["Side by side", "Blend", "Mask", "Slider", "Onion skin"])
        XCTAssertTrue(login.text.contains("1,440 / 38,400"), login.text)
        XCTAssertTrue(login.text.contains("3.75%"), login.text)
        XCTAssertTrue(login.text.contains("max ΔE94"), login.text)
        XCTAssertTrue(login.markup.contains("class=\"box\""), "the bounding box is drawn")
        XCTAssertEqual(login.images.map(\.src), ["pairs/login.png/reference.png", "pairs/login.png/new.png"])
        XCTAssertEqual(login.images.map(\.loaded), ["true", "true"], "the images load from the report folder")
    }

    /// `#`, `%`, `?`, a tab and a space in file names: the page URL-encodes each path segment,
    /// so every image still loads.
    func testImagesWithURLSpecialCharactersInTheirNamesLoad() throws {
        let names = ["a#1.png", "b%20.png", "c?x=1.png", "d\te.png", "e f.png"]
        let login = SharedData.packageRoot.appendingPathComponent("Fixtures/login")
        for name in names {
            for (side, file) in [("ref", "ref.png"), ("new", "fail.png")] {
                let folder = work.appendingPathComponent("odd/\(side)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: login.appendingPathComponent(file), to: folder.appendingPathComponent(name))
            }
        }
        let oddReport = work.appendingPathComponent("odd-report")
        let run = try imgdiff("batch", work.appendingPathComponent("odd/ref").path, work.appendingPathComponent("odd/new").path,
                              "--out", oddReport.path)
        XCTAssertEqual(run.status, 1, run.stderr)
        let page = try dumpDOM(oddReport.appendingPathComponent("index.html"))
        XCTAssertEqual(page.pairs.count, names.count)
        for pair in page.pairs {
            XCTAssertEqual(pair.images.map(\.loaded), ["true", "true"], pair.path)
        }
    }

    /// A PPM pair: the browser cannot show the copies, so the page shows the PNG previews.
    func testImagesInFormatsBrowsersDoNotShowLoadAsTheirPreviews() throws {
        let folders = ["ref", "new"].map { work.appendingPathComponent("ppm/\($0)") }
        var image = RGBAImage(width: 24, height: 16, filledWith: RGBA(240, 240, 245), hasAlpha: false)
        for (index, folder) in folders.enumerated() {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            image[4 + index, 4] = RGBA(20, 20, 20)
            var bytes = Array("P6\n24 16\n255\n".utf8)
            for pixel in 0..<image.pixelCount { bytes += image.pixels[(pixel * 4)..<(pixel * 4 + 3)] }
            try Data(bytes).write(to: folder.appendingPathComponent("icon.ppm"))
        }
        let ppmReport = work.appendingPathComponent("ppm-report")
        let run = try imgdiff("batch", folders[0].path, folders[1].path, "--out", ppmReport.path)
        XCTAssertEqual(run.status, 1, run.stderr)
        let pair = try XCTUnwrap(try dumpDOM(ppmReport.appendingPathComponent("index.html")).pairs.first)
        XCTAssertEqual(pair.images.map(\.src), ["pairs/icon.ppm/reference-preview.png", "pairs/icon.ppm/new-preview.png"])
        XCTAssertEqual(pair.images.map(\.loaded), ["true", "true"])

        // The copy itself, which the page no longer shows, is one the browser cannot draw.
        let copyPage = work.appendingPathComponent("ppm-report/copy.html")
        try Data("<img src=\"pairs/icon.ppm/new.ppm\" onload=\"document.body.dataset.loaded='true'\" onerror=\"document.body.dataset.loaded='error'\">".utf8)
            .write(to: copyPage)
        XCTAssertEqual(try dumpDOM(copyPage).body["data-loaded"], "error")
        try FileManager.default.removeItem(at: copyPage)
    }

    func testFiltersShowOnlyTheirPairs() throws {
        let expected: [String: [String]] = [
            "failed": ["login.png", "settings/account.png"],
            "new": ["onboarding/welcome.png"],
            "deleted": ["legacy/about.png"],
            "passed": ["home.png", "settings/theme.png"],
        ]
        for (filter, paths) in expected {
            let page = try dumpDOM(fragment: "filter=\(filter)")
            XCTAssertEqual(page.body["data-filter"], filter)
            XCTAssertEqual(page.pairs.map(\.path), paths, filter)
            XCTAssertEqual(page.currentFilter, filter)
        }
        let passed = try dumpDOM(fragment: "filter=passed")
        let home = try XCTUnwrap(passed.pairs.first)
        XCTAssertEqual(home.images.map(\.loaded), ["true", "true"], "passed pairs link to the input files")
    }

    func testViews() throws {
        let views: [String: (images: [String], control: Bool)] = [
            "blend": (["blend"], false),
            "mask": (["reference", "mask"], false),
            "slider": (["reference", "new"], true),
            "onion": (["reference", "new"], true),
        ]
        for (view, expectation) in views {
            let page = try dumpDOM(fragment: "filter=failed&view=\(view)")
            XCTAssertEqual(page.pairs.count, 2)
            for pair in page.pairs {
                XCTAssertTrue(pair.markup.contains("data-view=\"\(view)\" aria-selected=\"true\"")
                    || pair.markup.contains("aria-selected=\"true\" data-view=\"\(view)\""), "\(view) tab selected")
                XCTAssertEqual(pair.images.map { String($0.alt.split(separator: " ")[0]) }, expectation.images, view)
                XCTAssertEqual(pair.markup.contains("type=\"range\""), expectation.control, view)
            }
            XCTAssertEqual(page.pairs[0].images.map(\.loaded), expectation.images.map { _ in "true" }, view)
        }
    }

    /// A pair of two sizes is drawn on the canvas it was compared on (the larger width and
    /// height, where its mask and bounding box lie): each frame keeps the canvas's shape, each
    /// image its own share of it, and the box stays inside the frame in every view.
    func testAPairOfTwoSizesIsDrawnOnItsCanvas() throws {
        let folders = ["ref", "new"].map { work.appendingPathComponent("sizes/" + $0) }
        for folder in folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("ref/login.png"), to: folders[0].appendingPathComponent("grow.png"))
        let larger = RGBAImage(width: 300, height: 240, filledWith: RGBA(37, 99, 235))
        try Data(PNGEncoder.encode(larger)).write(to: folders[1].appendingPathComponent("grow.png"))
        let sizesReport = work.appendingPathComponent("sizes-report")
        XCTAssertEqual(try imgdiff("batch", folders[0].path, folders[1].path, "--out", sizesReport.path).status, 1)
        for view in ["side", "blend", "mask", "slider", "onion"] {
            let page = try dumpDOM(sizesReport.appendingPathComponent("index.html"), fragment: "filter=failed&view=\(view)")
            let pair = try XCTUnwrap(page.pairs.first, view)
            XCTAssertTrue(pair.markup.contains("aspect-ratio: 300 / 240"), "\(view): \(pair.markup)")
            if view != "blend" {
                XCTAssertTrue(pair.markup.contains("width: 80%"), "\(view): the 240-px reference takes 80% of the canvas")
            }
            let box = try XCTUnwrap(Page.allMatches(#"class="box" style="([^"]*)""#, in: pair.markup).first?.first, view)
            XCTAssertEqual(box, "left:0%;top:0%;width:100%;height:100%", "\(view): the box 0:0-299:239 fills the canvas")
        }
        let slider = try dumpDOM(sizesReport.appendingPathComponent("index.html"), fragment: "filter=failed&view=slider")
        XCTAssertEqual(
            Page.matches(#"<a href="([^"]*)" data-filter"#, in: slider.dom).map { $0.replacingOccurrences(of: "&amp;", with: "&") },
            ["#filter=all&view=slider", "#filter=failed&view=slider", "#filter=new&view=slider", "#filter=deleted&view=slider",
             "#filter=passed&view=slider"],
            "another filter keeps the view")
    }

    /// A report folder reached through a symbolic link (`bazel-bin`, macOS's `/tmp`): the page
    /// opened at the path batch printed finds the passed pairs' inputs, whose links a browser
    /// resolves against that path as text.
    func testPassedImagesLoadFromAReportBehindASymbolicLink() throws {
        let project = work.appendingPathComponent("project")
        for side in ["ref", "new"] {
            try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(side), to: project.appendingPathComponent(side))
        }
        let cache = work.appendingPathComponent("cache/a/b/c")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: project.appendingPathComponent("out").path, withDestinationPath: "../cache/a/b/c")
        let run = try runProcess(IMGDiffExecutable.url, ["batch", "ref", "new", "--out", "out/report"], currentDirectory: project)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stdout.contains("report: out/report/index.html"), run.stdout)
        // And the parts of a sharded run there, merged there: the parts' links are followed
        // from their folders as spelled, too.
        for index in 1...2 {
            let part = try runProcess(
                IMGDiffExecutable.url, ["batch", "ref", "new", "--out", "out/part-\(index)", "--shard", "\(index)/2"], currentDirectory: project)
            XCTAssertTrue([0, 1].contains(part.status), part.stderr)
        }
        let merged = try runProcess(
            IMGDiffExecutable.url, ["merge-reports", "out/part-1", "out/part-2", "--out", "out/merged"], currentDirectory: project)
        XCTAssertEqual(merged.status, 1, merged.stderr)
        for folder in ["out/report", "out/merged"] {
            let page = try dumpDOM(project.appendingPathComponent(folder + "/index.html"), fragment: "filter=passed")
            XCTAssertEqual(page.pairs.map(\.path), ["home.png", "settings/theme.png"], folder)
            for pair in page.pairs {
                XCTAssertEqual(pair.images.map(\.loaded), ["true", "true"], "\(folder) \(pair.path): \(pair.images.map(\.src))")
            }
        }
    }

    func testScreenshot() throws {
        let shot = work.appendingPathComponent("shot.png")
        try runChromium(["--window-size=1280,900", "--screenshot=\(shot.path)", pageURL(fragment: "")])
        let image = try ImageDecoder.decode(contentsOf: shot.path)
        XCTAssertEqual(image.size, ImageSize(width: 1280, height: 900))
        var colours = Set<RGBA>()
        var badgeRed = 0, header = 0
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) {
                let pixel = image[x, y]
                colours.insert(pixel)
                if pixel == RGBA(217, 45, 32) { badgeRed += 1 }
                if pixel == RGBA(37, 99, 235) { header += 1 }
            }
        }
        XCTAssertGreaterThan(colours.count, 200, "a rendered page, not a blank one")
        XCTAssertGreaterThan(badgeRed, 20, "the red 'changed' badge and card edge")
        XCTAssertGreaterThan(header, 2000, "the snapshots themselves (their blue headers)")
    }

    /// 5,000 pairs: the page still renders at once, with only the first 40 cards in the DOM.
    func testFiveThousandPairsStayLazy() throws {
        let big = work.appendingPathComponent("big")
        let source = fixtures.appendingPathComponent("ref/home.png").path
        let changed = fixtures.appendingPathComponent("ref/login.png").path
        for index in 0..<5000 {
            let folder = "d\(index % 50)"
            for side in ["ref", "new"] {
                let directory = big.appendingPathComponent("\(side)/\(folder)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let target = directory.appendingPathComponent("s\(index).png").path
                try FileManager.default.linkItem(atPath: side == "new" && index % 500 == 0 ? changed : source, toPath: target)
            }
        }
        let bigReport = work.appendingPathComponent("big-report")
        let run = try imgdiff("batch", big.appendingPathComponent("ref").path, big.appendingPathComponent("new").path,
                              "--out", bigReport.path)
        XCTAssertEqual(run.status, 1, run.stderr)

        let page = try dumpDOM(bigReport.appendingPathComponent("index.html"), fragment: "")
        XCTAssertEqual(page.body["data-shown"], "40")
        XCTAssertEqual(page.pairs.count, 40)
        XCTAssertEqual(page.pairs.prefix(10).map(\.status), Array(repeating: "changed", count: 10), "failures first")
        let passed = try dumpDOM(bigReport.appendingPathComponent("index.html"), fragment: "filter=passed")
        XCTAssertEqual(passed.pairs.count, 40)
        XCTAssertTrue(passed.text.contains("Showing 40 of 4,990 pairs"), passed.text.prefix(400).description)
    }

    // MARK: Browser

    struct Page {
        struct Pair {
            struct Image {
                let src: String
                let alt: String
                let loaded: String?
            }

            let path: String
            let status: String
            let markup: String
            var text: String { Page.text(markup) }
            var tabs: [String] { Page.matches(#"<button[^>]*role="tab"[^>]*>([^<]*)</button>"#, in: markup) }
            var images: [Image] {
                Page.tags("img", in: markup).map { Image(src: $0["src"] ?? "", alt: $0["alt"] ?? "", loaded: $0["data-loaded"]) }
            }
        }

        let dom: String
        var body: [String: String] { Page.tags("body", in: dom).first ?? [:] }
        var text: String { Page.text(dom) }
        var pairs: [Pair] {
            dom.components(separatedBy: "<article").dropFirst().map { chunk in
                let markup = "<article" + (chunk.components(separatedBy: "</article>").first ?? "")
                let attributes = Page.tags("article", in: markup).first ?? [:]
                return Pair(path: attributes["data-path"] ?? "", status: attributes["data-status"] ?? "", markup: markup)
            }
        }
        var currentFilter: String? {
            Page.tags("a", in: dom).first { $0["aria-current"] == "true" }?["data-filter"]
        }

        /// The attributes of every `<name ...>` tag.
        static func tags(_ name: String, in html: String) -> [[String: String]] {
            matches("<\(name)(\\s[^>]*)?>", in: html).map { attributes in
                var result: [String: String] = [:]
                for pair in allMatches(#"([\w:-]+)="([^"]*)""#, in: attributes) where pair.count == 2 {
                    result[pair[0]] = pair[1]
                        .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
                }
                return result
            }
        }

        static func text(_ html: String) -> String {
            html.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
                .replacingOccurrences(of: "&amp;", with: "&")
                .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
        }

        static func matches(_ pattern: String, in text: String) -> [String] {
            allMatches(pattern, in: text).map { $0.first ?? "" }
        }

        static func allMatches(_ pattern: String, in text: String) -> [[String]] {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
            let range = NSRange(text.startIndex..., in: text)
            return regex.matches(in: text, range: range).map { match in
                (1..<match.numberOfRanges).map { index in
                    Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
                }
            }
        }
    }

    func pageURL(_ file: URL? = nil, fragment: String) -> String {
        let url = (file ?? report.appendingPathComponent("index.html")).absoluteString
        return fragment.isEmpty ? url : url + "#" + fragment
    }

    func dumpDOM(_ file: URL? = nil, fragment: String = "") throws -> Page {
        let run = try runChromium(["--window-size=1280,2000", "--dump-dom", pageURL(file, fragment: fragment)])
        return Page(dom: run.stdout)
    }

    @discardableResult
    func runChromium(_ arguments: [String]) throws -> CLIRun {
        let browser = try XCTUnwrap(
            Self.chromium,
            "chromium is not installed: run scripts/deps --test (as root it installs Debian's chromium)")
        let profile = work.appendingPathComponent("chromium-profile-\(UUID().uuidString)")
        let run = try runProcess(browser, [
            "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=5000",
        ] + arguments, timeout: 120)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run
    }

    static let chromium: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").flatMap { directory in
            ["chromium", "chromium-browser"].map { URL(fileURLWithPath: String(directory)).appendingPathComponent($0) }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
