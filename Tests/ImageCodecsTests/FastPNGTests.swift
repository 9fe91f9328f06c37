import CImageCodecs
import Foundation
import TestSupport
import XCTest

@testable import ImageCodecs
@testable import ImageDiff

/// The fast path (libdeflate or ISA-L, then the SIMD unfilter) decodes exactly what libpng
/// decodes, in any band split, whichever inflate it takes.
final class FastPNGTests: XCTestCase {
    var root: URL { SharedData.packageRoot }

    /// Every PNG under `directories` except the hostile fixtures.
    func pngFiles(under directories: [URL]) -> [URL] {
        directories.flatMap { directory -> [URL] in
            let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            return (enumerator?.allObjects as? [URL] ?? []).filter {
                $0.pathExtension == "png" && !$0.path.contains("/Fixtures/hostile/")
            }
        }
    }

    /// Decodes each file both ways; returns how many the fast path took.
    func assertFastPathEqualsLibPNG(on files: [URL], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        var taken = 0
        for url in files {
            let bytes = try [UInt8](Data(contentsOf: url))
            if url.path.contains("cypress") || url.path.contains("syn-8k") { continue }
            try bytes.withUnsafeBufferPointer { buffer in
                let libpng = try PNGDecoder.decodeWithLibPNG(buffer)
                guard let fast = try FastPNGDecoder.decode(buffer) else { return }
                taken += 1
                XCTAssertEqual(fast, libpng, url.lastPathComponent, file: file, line: line)
                // The whole-image decode inflates with libdeflate; the chunked ISA-L inflate
                // of the streams must give the same rows.
                let chunked = try Self.readInBands(buffer, of: fast.height, inflatesWhole: false)
                XCTAssertEqual(chunked, libpng.pixels, "\(url.lastPathComponent), inflated a chunk at a time", file: file, line: line)
            }
        }
        return taken
    }

    func testFastPathEqualsLibPNGOnEveryFixturePNG() throws {
        let taken = try assertFastPathEqualsLibPNG(on: pngFiles(under: [root.appendingPathComponent("Fixtures")]))
        XCTAssertGreaterThan(taken, 20, "the fast path must take the 8-bit RGB/RGBA files")
    }

    /// The corpus and the ImageMagick conformance cases (reference material).
    func testFastPathEqualsLibPNGOnEveryReferencePNG() throws {
        let directories = try ["corpus", "conformance/imagemagick/cases"].map { try SharedData.url($0) }
        let taken = try assertFastPathEqualsLibPNG(on: pngFiles(under: directories))
        XCTAssertGreaterThan(taken, 20, "the fast path must take the 8-bit RGB/RGBA files")
    }

    /// Every filter type and both pixel sizes, on random rows of awkward lengths, unfiltered in
    /// place and moved down over a filter byte as the decoder does: SIMD equals scalar.
    func testSIMDUnfilterEqualsScalar() {
        var generator = SplitMix(seed: 0x5EED)
        func next() -> UInt8 { generator.nextByte() }
        for bpp in [3, 4] {
            for pixels in [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 100] {
                let length = pixels * bpp
                for filter in 0...4 {
                    for hasPrevious in [false, true] {
                        for shift in [0, 1, 5, 17] {
                            let previous = (0..<length).map { _ in next() }
                            let input = (0..<length).map { _ in next() }
                            var fast = [UInt8](repeating: 0, count: shift) + input
                            var scalar = input
                            previous.withUnsafeBufferPointer { up in
                                let upPointer = hasPrevious ? up.baseAddress : nil
                                fast.withUnsafeMutableBufferPointer { buffer in
                                    guard let base = buffer.baseAddress else { return }
                                    XCTAssertEqual(cic_png_unfilter_row(Int32(filter), base, base + shift, upPointer, length, Int32(bpp)), 1)
                                }
                                scalar.withUnsafeMutableBufferPointer { buffer in
                                    guard let base = buffer.baseAddress else { return }
                                    cic_png_unfilter_row_scalar(Int32(filter), base, base, upPointer, length, Int32(bpp))
                                }
                            }
                            XCTAssertEqual(Array(fast.prefix(length)), scalar,
                                           "filter \(filter) bpp \(bpp) pixels \(pixels) previous \(hasPrevious) shift \(shift)")
                        }
                    }
                }
            }
        }
    }

    /// Runs of consecutive rows with mixed filters (Paeth runs of every length, and runs that mix
    /// Average and Paeth, go through the interleaved kernels): the multi-row unfilter equals the
    /// scalar one row after another.
    /// Bytes come either uniform or from a few values at the ends and middle of the range, where
    /// the predictor's distances tie and its byte arithmetic saturates.
    func testInterleavedPaethRowsEqualScalar() {
        var generator = SplitMix(seed: 0xC0FFEE)
        let edgeValues: [UInt8] = [0, 1, 2, 126, 127, 128, 129, 253, 254, 255]
        var fromEdges = false
        func next() -> UInt8 {
            let byte = generator.nextByte()
            return fromEdges ? edgeValues[Int(byte) % edgeValues.count] : byte
        }
        let filterPatterns: [[UInt8]] = [
            [4], [4, 4], [4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4, 4],
            Array(repeating: 4, count: 8), Array(repeating: 4, count: 9), Array(repeating: 4, count: 10),
            Array(repeating: 4, count: 19), [2, 4, 4, 1, 4, 4, 4, 3, 4, 0, 4, 4, 4, 4, 4, 1],
            [3, 3], [3, 4], [4, 3, 4], [3, 4, 4, 3], [3, 3, 3, 4, 3], Array(repeating: 3, count: 8),
            [4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4], [3, 4, 4, 4, 4, 4, 4, 4, 3, 3, 1, 3, 4, 3, 3, 4, 4, 4],
        ]
        for bpp in [3, 4] {
            for pixels in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 23, 24, 25, 64, 101] {
                let length = pixels * bpp
                for pattern in filterPatterns {
                    for hasPrevious in [false, true] { for edges in [false, true] {
                        fromEdges = edges
                        let rows = pattern.count, stride = length + 1
                        var filtered = [UInt8](repeating: 0, count: rows * stride)
                        for row in 0..<rows {
                            filtered[row * stride] = pattern[row]
                            for index in 1...length { filtered[row * stride + index] = next() }
                        }
                        let previous = (0..<length).map { _ in next() }
                        var fast = [UInt8](repeating: 0, count: rows * length)
                        var scalar = [UInt8](repeating: 0, count: rows * length)
                        previous.withUnsafeBufferPointer { up in
                            let upPointer = hasPrevious ? up.baseAddress : nil
                            filtered.withUnsafeBufferPointer { input in
                                guard let input = input.baseAddress else { return }
                                fast.withUnsafeMutableBufferPointer { out in
                                    guard let out = out.baseAddress else { return }
                                    XCTAssertEqual(cic_png_unfilter_rows(out, length, input, stride, upPointer, rows, length, Int32(bpp)), 1)
                                }
                                scalar.withUnsafeMutableBufferPointer { out in
                                    guard let out = out.baseAddress else { return }
                                    for row in 0..<rows {
                                        let above = row == 0 ? upPointer : UnsafePointer(out + (row - 1) * length)
                                        cic_png_unfilter_row_scalar(
                                            Int32(pattern[row]), out + row * length, input + row * stride + 1, above, length, Int32(bpp))
                                    }
                                }
                            }
                        }
                        XCTAssertEqual(fast, scalar, "bpp \(bpp) pixels \(pixels) filters \(pattern) previous \(hasPrevious) edges \(edges)")
                    } }
                }
            }
        }
    }

    /// RGB files unfilter as RGBA rows (every filter treats each byte of a pixel apart): random
    /// filtered data under every filter, in runs that reach the multi-row Paeth kernels, at
    /// widths that leave every tail, decodes as libpng decodes it.
    func testRGBFilesOfEveryFilterEqualLibPNG() throws {
        var generator = SplitMix(seed: 0x5EED_0F_F11E)
        let filterPatterns: [[UInt8]] = [[0, 1, 2, 3, 4], [4], [1, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2], [3, 3, 1, 1, 2]]
        for width in [1, 2, 5, 6, 7, 21, 64, 333] {
            for pattern in filterPatterns {
                let height = 23
                var filtered: [UInt8] = []
                for row in 0..<height {
                    filtered.append(pattern[row % pattern.count])
                    for _ in 0..<(width * 3) { filtered.append(generator.nextByte()) }
                }
                let png = Self.storedPNG(width: width, height: height, colourType: 2, filtered: filtered)
                try png.withUnsafeBufferPointer { buffer in
                    let libpng = try PNGDecoder.decodeWithLibPNG(buffer)
                    let fast = try XCTUnwrap(try FastPNGDecoder.decode(buffer), "the fast path takes 8-bit RGB")
                    XCTAssertEqual(fast, libpng, "width \(width) filters \(pattern)")
                    for band in [1, 4, 9] {
                        XCTAssertEqual(try Self.readInBands(buffer, of: band), libpng.pixels, "width \(width) filters \(pattern) in bands of \(band)")
                    }
                }
            }
        }
    }

    /// The AVX2 Adler-32 equals the plain loop on any length, start and alignment, and on runs
    /// of 0xFF, which grow its sums fastest.
    func testSIMDAdler32EqualsScalar() {
        var generator = SplitMix(seed: 0xAD1E_5EED)
        func next() -> UInt64 { generator.next() }
        let random = (0..<(200_000 + 64)).map { _ in generator.nextByte() }
        let saturated = [UInt8](repeating: 0xFF, count: 200_000)
        for bytes in [random, saturated] {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for length in [0, 1, 31, 32, 63, 64, 65, 1000, 5552, 32767, 32768, 32769, 65536 + 17, 200_000 - 64] + (0..<40).map({ _ in Int(next() % 100_000) }) {
                    let offset = Int(next() % 64), start = UInt32(next() % 65521) << 16 | UInt32(next() % 65521)
                    XCTAssertEqual(cic_adler32(start, base + offset, length), cic_adler32_scalar(start, base + offset, length),
                                   "length \(length) offset \(offset)")
                }
            }
        }
    }

    /// The zlib wrapper is read outside ISA-L: a stream cut into IDAT chunks of a few bytes
    /// (header and checksum split too) decodes as libpng decodes it, and a wrong checksum, a
    /// missing one or a bad header is an error, never an image.
    func testZlibWrapperAcrossChunksAndItsErrors() throws {
        let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("Fixtures/login/ref.png")))
        var chunks: [(type: String, payload: [UInt8])] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[position + $1]) }
            chunks.append((String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self),
                           Array(bytes[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        let zlib = chunks.filter { $0.type == "IDAT" }.flatMap(\.payload)
        func png(_ zlib: [UInt8], pieces: Int) -> [UInt8] {
            var file = Array(bytes.prefix(8))
            for (type, payload) in chunks where type != "IDAT" && type != "IEND" { file += Self.pngChunk(type, payload[...]) }
            var start = 0, size = 1
            while start < zlib.count {
                let end = min(zlib.count, start + (pieces == 1 ? zlib.count : size))
                file += Self.pngChunk("IDAT", zlib[start..<end])
                start = end
                size = size % pieces + 1
            }
            return file + Self.pngChunk("IEND", [])
        }
        for pieces in [1, 2, 3, 7] {
            try png(zlib, pieces: pieces).withUnsafeBufferPointer { buffer in
                let fast = try XCTUnwrap(try FastPNGDecoder.decode(buffer))
                XCTAssertEqual(fast, try PNGDecoder.decodeWithLibPNG(buffer), "IDAT chunks of 1 to \(pieces) bytes")
                XCTAssertEqual(try Self.readInBands(buffer, of: 7, inflatesWhole: false), fast.pixels, "chunked, pieces of 1 to \(pieces)")
                let stream = try XCTUnwrap(try PNGRowStream(buffer, limits: .default))
                XCTAssertTrue(stream.inflateWhole(upTo: PNGRowStream.wholeInflateBytes), "IDAT chunks of 1 to \(pieces) bytes joined")
            }
        }
        var wrongChecksum = zlib
        wrongChecksum[wrongChecksum.count - 1] ^= 1
        var badHeader = zlib
        badHeader[1] ^= 1
        let broken: [(String, [UInt8], String)] = [
            ("wrong checksum", wrongChecksum, "incorrect Adler-32 checksum"),
            ("checksum cut", Array(zlib.dropLast(2)), "truncated zlib stream"),
            ("bad header", badHeader, "corrupt zlib data"),
        ]
        for (label, data, problem) in broken {
            for pieces in [1, 3] {
                XCTAssertThrowsError(try png(data, pieces: pieces).withUnsafeBufferPointer { try FastPNGDecoder.decode($0) }, label) { error in
                    XCTAssertTrue("\(error)".contains(problem), "\(label): \(error)")
                }
                // The same problem, named the same way, whichever inflate the stream started with.
                for inflatesWhole in [false, true] {
                    XCTAssertThrowsError(
                        try png(data, pieces: pieces).withUnsafeBufferPointer {
                            try Self.readInBands($0, of: 64, inflatesWhole: inflatesWhole)
                        }, label
                    ) { error in
                        XCTAssertTrue("\(error)".contains(problem), "\(label), inflatesWhole \(inflatesWhole): \(error)")
                    }
                }
            }
        }
    }

    /// A stream that inflated its data at once decodes its first rows again from it, without
    /// moving: the same rows a fresh stream reads, RGB and RGBA alike, until its last row is read.
    func testReadingAgainFromTheTopGivesTheFirstRows() throws {
        for path in ["Fixtures/login/ref.png", "Fixtures/codecs/rgb8.png"] {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(path)))
            try bytes.withUnsafeBufferPointer { buffer in
                let whole = try XCTUnwrap(try FastPNGDecoder.decode(buffer, inflatesWhole: false))
                let rows = try XCTUnwrap(try PNGRowStream(buffer, limits: .default))
                XCTAssertTrue(rows.inflateWhole(upTo: PNGRowStream.wholeInflateBytes), path)
                let rowBytes = rows.width * 4
                let (first, again) = (min(7, rows.height - 1), min(5, rows.height - 1))
                var pixels = [UInt8](repeating: 0, count: rows.height * rowBytes)
                var top = [UInt8](repeating: 0, count: again * rowBytes)
                try pixels.withUnsafeMutableBufferPointer { out in
                    guard let out = out.baseAddress else { return }
                    try rows.read(first, into: out)
                    try top.withUnsafeMutableBufferPointer { try rows.readAgainFromTop(again, into: XCTUnwrap($0.baseAddress)) }
                    XCTAssertTrue(rows.holdsInflatedRows, path)
                    try rows.read(rows.height - first, into: out + first * rowBytes)
                }
                XCTAssertEqual(pixels, whole.pixels, "\(path): the stream read on as if nothing had been read again")
                XCTAssertEqual(top, Array(whole.pixels.prefix(again * rowBytes)), "\(path): the first rows, again")
                XCTAssertFalse(rows.holdsInflatedRows, "\(path): released with the last row")
                XCTAssertThrowsError(try top.withUnsafeMutableBufferPointer { try rows.readAgainFromTop(1, into: XCTUnwrap($0.baseAddress)) })
            }
        }
    }

    /// libdeflate takes a stream whole only when it holds exactly the rows: image data that runs
    /// on past the last row is left to the chunked inflate, which ignores the rest as libpng
    /// does, and an image whose rows exceed the limit is inflated a chunk at a time too.
    func testWholeInflateTakesExactStreamsOnly() throws {
        let (width, height) = (5, 3)
        var generator = SplitMix(seed: 0xD3F1)
        var filtered: [UInt8] = []
        for row in 0..<height {
            filtered.append(UInt8(row % 5))
            for _ in 0..<(width * 4) { filtered.append(generator.nextByte()) }
        }
        let exact = Self.storedPNG(width: width, height: height, colourType: 6, filtered: filtered)
        let overlong = Self.storedPNG(width: width, height: height, colourType: 6, filtered: filtered + [1, 2, 3, 4, 5, 6, 7, 8])
        let expected = try exact.withUnsafeBufferPointer { try XCTUnwrap(try FastPNGDecoder.decode($0)) }
        try exact.withUnsafeBufferPointer { buffer in
            XCTAssertTrue(try XCTUnwrap(try PNGRowStream(buffer, limits: .default)).inflateWhole(upTo: filtered.count))
            XCTAssertFalse(try XCTUnwrap(try PNGRowStream(buffer, limits: .default)).inflateWhole(upTo: filtered.count - 1))
        }
        try overlong.withUnsafeBufferPointer { buffer in
            XCTAssertFalse(try XCTUnwrap(try PNGRowStream(buffer, limits: .default)).inflateWhole(upTo: 1 << 20))
            XCTAssertEqual(try XCTUnwrap(try FastPNGDecoder.decode(buffer)), expected)
            XCTAssertEqual(try Self.readInBands(buffer, of: 2, inflatesWhole: true), expected.pixels)
        }
    }

    /// A PNG of already filtered rows, its zlib stream made of stored (uncompressed) blocks.
    static func storedPNG(width: Int, height: Int, colourType: UInt8, filtered: [UInt8]) -> [UInt8] {
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65535, filtered.count)
            let length = UInt16(end - start)
            zlib += [end == filtered.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            zlib += filtered[start..<end]
            start = end
        } while start < filtered.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in filtered {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += bigEndian(b << 16 | a)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colourType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header[...]) + pngChunk("IDAT", zlib[...])
            + pngChunk("IEND", [])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// One PNG chunk: length, type, payload and CRC.
    static func pngChunk(_ type: String, _ payload: ArraySlice<UInt8>) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return bigEndian(UInt32(payload.count)) + body + bigEndian(cic_crc32(0, body, body.count))
    }

    /// The PNG in `buffer` read through the row stream `band` rows at a time, its image data
    /// inflated at once (libdeflate) or a chunk at a time (ISA-L).
    static func readInBands(_ buffer: UnsafeBufferPointer<UInt8>, of band: Int, inflatesWhole: Bool = false) throws -> [UInt8] {
        let rows = try XCTUnwrap(try PNGRowStream(buffer, limits: .default))
        if inflatesWhole { rows.inflateWhole(upTo: PNGRowStream.wholeInflateBytes) }
        var pixels = [UInt8](repeating: 7, count: rows.width * rows.height * 4)
        try pixels.withUnsafeMutableBufferPointer { out in
            guard let out = out.baseAddress else { return }
            var y = 0
            while y < rows.height {
                let count = min(band, rows.height - y)
                try rows.read(count, into: out + y * rows.width * 4)
                y += count
            }
        }
        return pixels
    }

    /// The row stream read in bands of any size gives the whole-image decode.
    func testRowStreamInAnyBandSplitEqualsWholeDecode() throws {
        for path in ["Fixtures/login/ref.png", "Fixtures/login/fail.png"] {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(path)))
            try bytes.withUnsafeBufferPointer { buffer in
                let whole = try XCTUnwrap(try FastPNGDecoder.decode(buffer))
                for band in [1, 3, 7, 64, whole.height] {
                    for inflatesWhole in [false, true] {
                        XCTAssertEqual(
                            try Self.readInBands(buffer, of: band, inflatesWhole: inflatesWhole), whole.pixels,
                            "\(path) in bands of \(band), inflatesWhole \(inflatesWhole)")
                    }
                }
            }
        }
    }

    func testBrokenStreamsAreErrorsNotImages() throws {
        let url = root.appendingPathComponent("Fixtures/login/ref.png")
        let bytes = try [UInt8](Data(contentsOf: url))
        for cut in [40, bytes.count / 2, bytes.count - 13] {
            let truncated = Array(bytes.prefix(cut))
            XCTAssertThrowsError(try truncated.withUnsafeBufferPointer { try PNGDecoder.decode($0) }, "cut at \(cut)")
        }
    }

    /// The check byte-identical files get instead of a decode accepts a sound PNG and refuses,
    /// naming the problem, what libpng refuses in the chunk structure and the header: a colour
    /// type or bit depth PNG does not have, another interlace method, a palette image without
    /// its palette, an unknown critical chunk, a zlib header that is none, a second header or
    /// palette, a chunk type that is not four letters; and, as libpng, ignores a truecolour
    /// image's suggested palette of a wrong length.
    func testStructureCheckRefusesWhatLibPNGRefuses() throws {
        let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("Fixtures/login/ref.png")))
        XCTAssertEqual(try ImageDecoder.structurallyValidPNGSize(bytes, name: "ref.png"), ImageSize(width: 320, height: 200))
        XCTAssertNil(try ImageDecoder.structurallyValidPNGSize(Array("not a png".utf8), name: "text"))

        /// The file's chunks, each as its whole bytes (length, type, payload, CRC).
        var chunks: [[UInt8]] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[position + $1]) }
            chunks.append(Array(bytes[position..<(position + 12 + length)]))
            position += 12 + length
        }
        func file(_ chunks: [[UInt8]]) -> [UInt8] { Array(bytes.prefix(8)) + chunks.joined() }
        func type(_ chunk: [UInt8]) -> String { String(decoding: chunk[4..<8], as: UTF8.self) }
        /// The file's IHDR with one field changed, its CRC made anew.
        func header(bitDepth: UInt8? = nil, colourType: UInt8? = nil, interlace: UInt8? = nil) -> [UInt8] {
            var payload = Array(chunks[0][8..<21])
            if let bitDepth { payload[8] = bitDepth }
            if let colourType { payload[9] = colourType }
            if let interlace { payload[12] = interlace }
            return Self.pngChunk("IHDR", payload[...])
        }
        let idat = try XCTUnwrap(chunks.firstIndex { type($0) == "IDAT" })
        var badCRC = chunks
        badCRC[idat][badCRC[idat].count - 1] ^= 1
        // A tEXt chunk (ancillary, CRC from zlib) between two halves of the image data.
        let text = Self.pngChunk("tEXt", Array("Comment\0split".utf8)[...])
        let idatBytes = chunks[idat]
        let split = 8 + (idatBytes.count - 12) / 2
        var interrupted = chunks
        interrupted.replaceSubrange(
            idat...idat,
            with: [Self.pngChunk("IDAT", idatBytes[8..<split]), text, Self.pngChunk("IDAT", idatBytes[split..<(idatBytes.count - 4)])])
        var consecutive = interrupted
        consecutive.remove(at: idat + 1)
        XCTAssertNotNil(try ImageDecoder.structurallyValidPNGSize(file(consecutive), name: "two IDATs"))

        let palette = Self.pngChunk("PLTE", [0, 0, 0, 255, 255, 255][...])
        let broken: [(String, [UInt8], String)] = [
            ("truncated", Array(bytes.prefix(bytes.count - 6)), "truncated chunk"),
            ("CRC", file(badCRC), "CRC error"),
            ("no IEND", file(chunks.filter { type($0) != "IEND" }), "no IEND"),
            ("no IDAT", file(chunks.filter { type($0) != "IDAT" }), "no image data"),
            ("IHDR not first", file([chunks[1], chunks[0]] + chunks[2...]), "IHDR is not first"),
            ("IDAT run broken", file(interrupted), "not consecutive"),
            ("colour type 7", file([header(colourType: 7)] + chunks[1...]), "invalid colour type or bit depth"),
            ("RGB of 4 bits", file([header(bitDepth: 4)] + chunks[1...]), "invalid colour type or bit depth"),
            ("interlace method 2", file([header(interlace: 2)] + chunks[1...]), "unknown compression, filter or interlace method"),
            ("palette image without PLTE", file([header(colourType: 3)] + chunks[1...].filter { type($0) != "PLTE" }), "no palette (PLTE)"),
            ("unknown critical chunk", file([chunks[0], Self.pngChunk("CRIT", [1, 2, 3][...])] + chunks[1...]), "unknown critical chunk"),
            ("zlib header", file(chunks.enumerated().map { $0.offset == idat ? Self.pngChunk("IDAT", [0x79] + $0.element[9..<($0.element.count - 4)]) : $0.element }), "incorrect zlib header"),
            ("second IHDR", file([chunks[0], chunks[0]] + chunks[1...]), "a second IHDR"),
            ("second PLTE", file([chunks[0], palette, palette] + chunks[1...]), "a second palette (PLTE)"),
            ("chunk type with a NUL", file([chunks[0], Self.pngChunk("tE\u{0}t", [1][...])] + chunks[1...]), "invalid chunk type"),
            ("empty PLTE", file([chunks[0], Self.pngChunk("PLTE", [][...])] + chunks[1...]), "an empty palette (PLTE)"),
        ]
        for (label, data, problem) in broken {
            XCTAssertThrowsError(try ImageDecoder.structurallyValidPNGSize(data, name: label), label) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(label): \(error)")
            }
            XCTAssertThrowsError(try data.withUnsafeBufferPointer { try PNGDecoder.decodeWithLibPNG($0) }, "libpng on \(label)")
            XCTAssertThrowsError(try ImageDecoder.decode(data, name: label), "decoding \(label)")
        }
        // A suggested palette of a length no palette has, in a truecolour image, is ignored by
        // libpng, and so by the check: byte-identical copies of such a file match.
        let oddPalette = file([chunks[0], Self.pngChunk("PLTE", [1, 2, 3, 4, 5, 6, 7][...])] + chunks[1...])
        XCTAssertEqual(try ImageDecoder.structurallyValidPNGSize(oddPalette, name: "odd palette"), ImageSize(width: 320, height: 200))
        XCTAssertEqual(
            try oddPalette.withUnsafeBufferPointer { try PNGDecoder.decodeWithLibPNG($0) }.pixels,
            try ImageDecoder.decode(bytes, name: "ref.png").pixels)
    }

    /// Images big enough for several bands round-trip through the banded encoder, as do the
    /// row renderer and the 1-bit mask.
    func testBandedEncoderRoundTrips() throws {
        let width = 700, height = 900
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            pixels[index * 4] = UInt8(truncatingIfNeeded: index)
            pixels[index * 4 + 1] = UInt8(truncatingIfNeeded: index / width)
            pixels[index * 4 + 2] = UInt8(truncatingIfNeeded: index * 7 / 3)
            pixels[index * 4 + 3] = UInt8(truncatingIfNeeded: 255 - index % 3)
        }
        let rgba = RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: true)
        XCTAssertEqual(try ImageDecoder.decode(PNGEncoder.encode(rgba), name: "rgba"), rgba)
        var opaque = rgba
        opaque.hasAlpha = false
        for index in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[index] = 255 }
        XCTAssertEqual(try ImageDecoder.decode(PNGEncoder.encode(opaque), name: "rgb"), opaque)
        let wide = RGBAImage(width: width, height: height, samples16: pixels.map { UInt16($0) * 251 }, hasAlpha: true)
        XCTAssertEqual(try ImageDecoder.decode(PNGEncoder.encode(wide), name: "rgba16").samples16, wide.samples16)

        var shifted = opaque
        for index in stride(from: 0, to: shifted.pixels.count, by: 44) { shifted.pixels[index] &+= 9 }
        let renderer = ImageMagickBlend.Renderer(reference: opaque, failure: shifted)
        XCTAssertEqual(try ImageDecoder.decode(PNGEncoder.encode(renderer), name: "blend"), renderer.image())

        let result = compare(opaque, shifted, options: ComparisonOptions(metric: .exact, collectsMask: true))
        let mask = try XCTUnwrap(result.mask)
        let decodedMask = try ImageDecoder.decode(PNGEncoder.encode(mask: mask), name: "mask")
        XCTAssertEqual(decodedMask.pixels, mask.render().pixels)
    }
}
