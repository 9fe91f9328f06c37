#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import XCTest

/// A temporary name says which process wrote it, so that a later run removes what a killed
/// one left, and never what a running one is writing, even where process IDs repeat (PID 1 in
/// every container run).
final class TemporaryNameTests: XCTestCase {
    func name(_ owner: String) -> [UInt8] { Array((ImageFile.temporaryPrefix + owner + "-1f2e3d").utf8) }

    func testARunningWriterIsToldFromAnEarlierOneOfTheSameID() throws {
        let own = ImageFile.temporaryName()
        XCTAssertTrue(own.hasPrefix(ImageFile.temporaryPrefix + "\(getpid())_"), own)
        XCTAssertFalse(ImageFile.isAbandonedTemporaryName(Array(own.utf8)), "this process still writes it")
        XCTAssertFalse(ImageFile.isAbandonedTemporaryName(name("\(getpid())")), "a name without a start time: the ID alone")
        let started = try XCTUnwrap(ImageFile.temporaryOwner.split(separator: "_").last.flatMap { UInt64($0) })
        XCTAssertTrue(ImageFile.isAbandonedTemporaryName(name("\(getpid())_\(started + 1)")), "another process that had this ID")
        XCTAssertTrue(ImageFile.isAbandonedTemporaryName(name("1_\(started + 12345)")), "PID 1 of an earlier container run")
        XCTAssertFalse(ImageFile.isAbandonedTemporaryName(name("1")), "PID 1 runs")
        XCTAssertTrue(ImageFile.isAbandonedTemporaryName(name("2147483646_5")), "no such process")
        for other in ["", "x", "0", "-5", "12abc"] {
            XCTAssertFalse(ImageFile.isAbandonedTemporaryName(name(other)), other)
        }
        XCTAssertFalse(ImageFile.isAbandonedTemporaryName(Array("report.json".utf8)))
    }
}
