import Foundation
import ImageCodecs
import XCTest

final class HugePagesTests: XCTestCase {
    private static let hugePage = 2 << 20

    /// A span holding no whole 2-MiB page is never advised, whatever the kernel.
    func testSpanWithoutAWholeHugePageIsNotAdvised() throws {
        let buffer = try XCTUnwrap(aligned(3 * Self.hugePage))
        defer { free(buffer) }
        XCTAssertFalse(HugePages.advise(buffer, count: 0))
        XCTAssertFalse(HugePages.advise(buffer, count: Self.hugePage - 1))
        // From one byte past a page boundary, a page and a half reaches no later boundary
        // twice.
        XCTAssertFalse(HugePages.advise(buffer + 1, count: Self.hugePage + Self.hugePage / 2))
    }

    /// Where the kernel offers transparent huge pages, a span of whole 2-MiB pages is advised.
    func testSpanOfWholeHugePagesIsAdvisedWhereTheKernelOffersThem() throws {
        let setting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
        guard let setting, !setting.contains("[never]") else {
            throw XCTSkip("this kernel offers no transparent huge pages (/sys/kernel/mm/transparent_hugepage/enabled)")
        }
        let buffer = try XCTUnwrap(aligned(2 * Self.hugePage))
        defer { free(buffer) }
        XCTAssertTrue(HugePages.advise(buffer, count: 2 * Self.hugePage))
        XCTAssertTrue(HugePages.advise(buffer + 1, count: 2 * Self.hugePage - 1), "the second page lies whole within")
    }

    private func aligned(_ count: Int) -> UnsafeMutableRawPointer? {
        var pointer: UnsafeMutableRawPointer?
        return posix_memalign(&pointer, Self.hugePage, count) == 0 ? pointer : nil
    }
}
