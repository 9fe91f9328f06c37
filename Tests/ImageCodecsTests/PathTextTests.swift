import ImageCodecs
import XCTest

/// Paths are cut at the scalar `/`. A name that starts with a combining mark (U+0301) makes one
/// `Character` of the slash before it, so every case is also tried with such names.
final class PathTextTests: XCTestCase {
    private let mark = "\u{301}"

    func testComponentsLeaveOutEmptyNames() {
        XCTAssertEqual(PathText.components(of: "/a//b/c/"), ["a", "b", "c"])
        XCTAssertEqual(PathText.components(of: "a/\(mark)b/\(mark)c.png"), ["a", "\(mark)b", "\(mark)c.png"])
        XCTAssertEqual(PathText.components(of: "/"), [])
    }

    func testParentAndLastComponent() {
        let cases: [(path: String, parent: String, last: String)] = [
            ("a", ".", "a"), ("/", "/", "/"), ("/a", "/", "a"), ("a/b", "a", "b"), ("a/b//", "a", "b"),
            ("/\(mark)a", "/", "\(mark)a"), ("x/\(mark)a/\(mark)b.png", "x/\(mark)a", "\(mark)b.png"),
            ("\(mark)a/\(mark)b/", "\(mark)a", "\(mark)b"),
        ]
        for (path, parent, last) in cases {
            XCTAssertTrue(PathText.parent(of: path).unicodeScalars.elementsEqual(parent.unicodeScalars), "parent of \(path)")
            XCTAssertTrue(PathText.lastComponent(path).unicodeScalars.elementsEqual(last.unicodeScalars), "last of \(path)")
        }
    }

    func testSplitAfterLastSlashKeepsTheSlashAndAnEmptyName() {
        let cases: [(path: String, folder: String, name: String)] = [
            ("a.png", "", "a.png"), ("/a.png", "/", "a.png"), ("d/", "d/", ""), ("d/\(mark)a.png", "d/", "\(mark)a.png"),
        ]
        for (path, folder, name) in cases {
            let split = PathText.splitAfterLastSlash(path)
            XCTAssertTrue(split.folder.unicodeScalars.elementsEqual(folder.unicodeScalars), "folder of \(path)")
            XCTAssertTrue(split.name.unicodeScalars.elementsEqual(name.unicodeScalars), "name of \(path)")
        }
    }

    func testSlashesAtEitherEndAreFoundBeforeACombiningMark() {
        XCTAssertTrue(PathText.isAbsolute("/\(mark)a"))
        XCTAssertFalse(PathText.isAbsolute("\(mark)a/b"))
        XCTAssertTrue(PathText.endsWithSlash("a/"))
        XCTAssertFalse(PathText.endsWithSlash("a/\(mark)"))
        XCTAssertEqual(PathText.join("/\(mark)a/", "b").unicodeScalars.count, "/\(mark)a/b".unicodeScalars.count)
        XCTAssertEqual(PathText.join("a", "\(mark)b").unicodeScalars.filter { $0 == "/" }.count, 1)
    }

    func testPathExtension() {
        XCTAssertEqual(PathText.pathExtension("d.x/a.PNG"), "PNG")
        XCTAssertEqual(PathText.pathExtension("d.x/.hidden"), "")
        XCTAssertEqual(PathText.pathExtension("d.x/name"), "")
        XCTAssertEqual(PathText.pathExtension("a.\(mark)png").unicodeScalars.first, mark.unicodeScalars.first)
    }
}
