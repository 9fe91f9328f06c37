import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// Memory and inputs are bounded: a lying header, a pair too large for --max-memory, a device,
/// a FIFO, an image beyond ImageMagick's policy.
final class LimitsTests: ReliabilityTestCase {
    /// A JPEG whose header claims 16384 x 16384 over 161 bytes of data was grey-filled with 2 GB.
    func testJPEGClaimingMoreThanItsDataIsRefusedAtOnce() throws {
        var bytes = [UInt8](try Data(contentsOf: SharedData.packageRoot.appendingPathComponent("Fixtures/tune/noise/ref/jpeg-recompress.jpg")))
        let frame = try XCTUnwrap((0..<bytes.count - 9).first { bytes[$0] == 0xFF && [0xC0, 0xC1, 0xC2].contains(bytes[$0 + 1]) })
        bytes.replaceSubrange(frame + 5..<frame + 9, with: [0x40, 0x00, 0x40, 0x00])
        let lying = path("lying.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: lying))
        try FileManager.default.copyItem(atPath: lying, toPath: path("copy.jpg"))
        let run = try imgdiff(lying, path("copy.jpg"), "--max-memory", "4GiB")
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "imgdiff: error: \(lying): truncated or corrupt JPEG: Corrupt JPEG data: premature end of data segment\n")
    }

    /// Each image fits --max-memory; the two decoded together (the whole-image route) do not.
    func testWholeImagePairIsHeldToMaxMemory() throws {
        let reference = RGBAImage(width: 1, height: 1_500_000, filledWith: RGBA(0, 0, 0))
        var pixels = reference.pixels
        pixels[0] = 255
        let actual = RGBAImage(width: 1, height: 1_500_000, pixels: pixels)
        try ImageFile.writePNG(reference, to: path("ref.png"))
        try ImageFile.writePNG(actual, to: path("new.png"))
        let limits = ["--max-height", "2000000", "--max-memory", "8MiB"]
        let whole = try imgdiff([path("ref.png"), path("new.png"), "--metric", "structural"] + limits)
        XCTAssertEqual(whole.status, 2)
        XCTAssertEqual(whole.stderr, "imgdiff: error: \(path("new.png")): comparing this pair whole needs about 19 MiB (both images decoded, a mask and an overlay of the area they span, and any review image), more than the memory limit of 8 MiB; raise it with --max-memory\n")
        let streamed = try imgdiff([path("ref.png"), path("new.png"), "-o", path("blend.png")] + limits)
        XCTAssertEqual(streamed.status, 1, "the streamed route holds a band of rows: " + streamed.stderr)
        // The error names the image that makes the pair too large, not always the new one.
        try ImageFile.writePNG(RGBAImage(width: 1, height: 1, filledWith: RGBA(0, 0, 0)), to: path("dot.png"))
        let larger = try imgdiff([path("ref.png"), path("dot.png")] + limits)
        XCTAssertEqual(larger.status, 2)
        XCTAssertTrue(larger.stderr.hasPrefix("imgdiff: error: \(path("ref.png")): comparing this pair whole needs about"), larger.stderr)
    }

    /// Two small images of other shapes span, compared, the wider width by the taller height:
    /// 1 x 20000 and 20000 x 1 hold 20,000 pixels each and span 400 million. The pair is
    /// refused before decoding, for every route and output, and nothing is written; a GIF
    /// pair, whose sizes only decoding tells, is refused once decoded.
    func testImagesOfOtherShapesAreHeldToMaxMemoryByTheAreaTheySpan() throws {
        let (tall, wide) = (RGBAImage(width: 1, height: 20_000, filledWith: RGBA(1, 2, 3)), RGBAImage(width: 20_000, height: 1, filledWith: RGBA(1, 2, 4)))
        try ImageFile.writePNG(tall, to: path("tall.png"))
        try ImageFile.writePNG(wide, to: path("wide.png"))
        let message = "comparing this pair whole needs about 1908 MiB (both images decoded, a mask and an overlay of the area they span, and any review image), more than the memory limit of 256 MiB; raise it with --max-memory\n"
        for outputs in [[], ["--mask", path("mask.png")], ["--metric", "structural"], ["-o", path("blend.png")]] {
            let run = try imgdiff([path("tall.png"), path("wide.png"), "--max-memory", "256MiB"] + outputs)
            XCTAssertEqual(run.status, 2, "\(outputs)")
            XCTAssertEqual(run.stderr, "imgdiff: error: \(path("wide.png")): " + message, "\(outputs)")
        }
        // A review image draws the area three times over: 298 bytes of PNG took 5.5 GB before its
        // canvas was counted. Refused under the default limit too.
        for limit in [["--max-memory", "256MiB"], []] {
            let review = try imgdiff([path("tall.png"), path("wide.png"), "--review", path("review.png")] + limit)
            XCTAssertEqual(review.status, 2, "\(limit)")
            XCTAssertTrue(review.stderr.hasPrefix("imgdiff: error: \(path("wide.png")): comparing this pair whole needs about 1"), review.stderr)
            XCTAssertTrue(review.stderr.contains("MiB (both images decoded, a mask and an overlay of the area they span, and any review image), more than the memory limit"), review.stderr)
        }
        for name in ["review.png", "mask.png", "blend.png"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(name)), name)
        }
        try Data(Self.blackGIF(width: 1, height: 10_000)).write(to: URL(fileURLWithPath: path("tall.gif")))
        try Data(Self.blackGIF(width: 10_000, height: 1)).write(to: URL(fileURLWithPath: path("wide.gif")))
        let gifs = try imgdiff(path("tall.gif"), path("wide.gif"), "--max-memory", "256MiB")
        if !gifs.stderr.contains("ImageMagick is not") {
            XCTAssertEqual(gifs.status, 2)
            XCTAssertEqual(gifs.stderr, "imgdiff: error: \(path("wide.gif")): " + message.replacingOccurrences(of: "1908 MiB", with: "477 MiB"))
        }
        try ImageFile.writePNG(RGBAImage(width: 1, height: 200, filledWith: RGBA(1, 2, 3)), to: path("short.png"))
        try ImageFile.writePNG(RGBAImage(width: 200, height: 1, filledWith: RGBA(1, 2, 3)), to: path("narrow.png"))
        let small = try imgdiff([path("short.png"), path("narrow.png"), "--max-memory", "256MiB", "--review", path("review.png")])
        XCTAssertEqual(small.status, 1, "a pair whose area fits is compared: " + small.stderr)
    }

    func testDevicesAndFIFOsAreRefusedWithoutReading() throws {
        XCTAssertEqual(mkfifo(path("pipe.png"), 0o600), 0)
        for (input, kind) in [("/dev/zero", "a character device"), (path("pipe.png"), "a FIFO")] {
            let run = try runProcess(IMGDiffExecutable.url, [input, same.path], timeout: 20)
            XCTAssertEqual(run.status, 2, input)
            XCTAssertEqual(run.stderr, "imgdiff: error: \(input): not a regular file (\(kind)); imgdiff reads image files only\n")
        }
    }

    /// A 20,000 x 1 GIF is within imgdiff's limits but beyond Debian's ImageMagick policy
    /// (width 16KP): the message says so, instead of "memory allocation failed".
    func testImageBeyondImageMagicksPolicySaysSo() throws {
        try Data(Self.blackGIF(width: 20_000, height: 1)).write(to: URL(fileURLWithPath: path("wide.gif")))
        let run = try imgdiff(path("wide.gif"), path("wide.gif"))
        XCTAssertFalse(run.stderr.contains("memory allocation failed"), run.stderr)
        if run.status == 2, !run.stderr.contains("ImageMagick is not") {
            XCTAssertTrue(run.stderr.contains("beyond what ImageMagick's security policy allows (width "), run.stderr)
        } else {
            XCTAssertEqual(run.status, 0, "a policy that allows it decodes it: " + run.stderr)
        }
    }

    /// A black GIF of `width` x `height` (an even number of pixels) in a few bytes a pixel.
    static func blackGIF(width: Int, height: Int) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var gif = Array("GIF89a".utf8) + word(width) + word(height) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        gif += [0x2C, 0, 0, 0, 0] + word(width) + word(height) + [0, 2]
        // Clear, 0, 0 in 3-bit codes: two pixels a group, and the code table never grows past 3 bits.
        var data: [UInt8] = [], accumulator = 0, bitCount = 0
        for code in Array(repeating: [4, 0, 0], count: width * height / 2).joined() + [5] {
            accumulator |= code << bitCount
            bitCount += 3
            while bitCount >= 8 {
                data.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bitCount -= 8
            }
        }
        if bitCount > 0 { data.append(UInt8(accumulator)) }
        for start in stride(from: 0, to: data.count, by: 255) {
            let block = data[start..<min(start + 255, data.count)]
            gif += [UInt8(block.count)] + block
        }
        return gif + [0, 0x3B]
    }
}
