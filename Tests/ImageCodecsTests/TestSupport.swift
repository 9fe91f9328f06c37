import Foundation
import ImageCodecs
import ImageDiff
import TestSupport
import XCTest

/// The package's own fixtures (the reference material outside it is ``SharedData``'s).
enum TestPaths {
    static let packageRoot = SharedData.packageRoot
    static let fixtures = packageRoot.appendingPathComponent("Fixtures/codecs")

    static func fixture(_ name: String) throws -> [UInt8] {
        let path = fixtures.appendingPathComponent(name).path
        guard let data = FileManager.default.contents(atPath: path) else {
            XCTFail("missing fixture \(path): run scripts/make-codec-fixtures.py")
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](data)
    }
}

/// A fresh directory under the system's temporary directory, removed by `cleanUp`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("imgdiff-codecs-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Asserts that decoding throws an `ImageFileError` labelled `name` whose error passes `matches`.
func assertDecodeFails(
    _ bytes: [UInt8], name: String = "input", _ what: String,
    file: StaticString = #filePath, line: UInt = #line,
    matches: (ImageCodecError) -> Bool
) {
    do {
        let image = try ImageDecoder.decode(bytes, name: name)
        XCTFail("\(what): decoded a \(image.width)x\(image.height) image instead of failing", file: file, line: line)
    } catch {
        XCTAssertEqual(error.path, name, file: file, line: line)
        XCTAssertTrue(matches(error.error), "\(what): unexpected error \(error)", file: file, line: line)
    }
}

/// The bytes cases.json's `pixel_sha256` hashes: "WxHxDEPTH:" and then every sample as a
/// big-endian uint16 (16-bit samples for 16-bit images, 8-bit ones otherwise).
func pixelHashInput(_ image: RGBAImage) -> [UInt8] {
    let prefix = Array("\(image.width)x\(image.height)x\(image.is16Bit ? 16 : 8):".utf8)
    let sampleCount = image.samples16?.count ?? image.pixels.count
    return [UInt8](unsafeUninitializedCapacity: prefix.count + sampleCount * 2) { buffer, count in
        var offset = 0
        for byte in prefix {
            buffer[offset] = byte
            offset += 1
        }
        if let samples16 = image.samples16 {
            samples16.withUnsafeBufferPointer { samples in
                for sample in samples {
                    buffer[offset] = UInt8(sample >> 8)
                    buffer[offset + 1] = UInt8(truncatingIfNeeded: sample)
                    offset += 2
                }
            }
        } else {
            image.pixels.withUnsafeBufferPointer { samples in
                for sample in samples {
                    buffer[offset] = 0
                    buffer[offset + 1] = sample
                    offset += 2
                }
            }
        }
        count = offset
    }
}

/// SHA-256 of many byte strings at once: one `sha256sum` run over temporary files (the Swift
/// implementation below is slow in debug builds and only the fallback).
func sha256Hex(_ inputs: [[UInt8]]) throws -> [String] {
    let directory = try TemporaryDirectory()
    defer { directory.cleanUp() }
    var paths: [String] = []
    for (index, bytes) in inputs.enumerated() {
        paths.append(directory.path("\(index)"))
        try Data(bytes).write(to: URL(fileURLWithPath: paths[index]))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = paths
    let pipe = Pipe()
    process.standardOutput = pipe
    if (try? process.run()) != nil {
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let hashes = output.split(separator: "\n").map { String($0.prefix(64)) }
        if process.terminationStatus == 0, hashes.count == inputs.count { return hashes }
    }
    return inputs.map(SHA256.hex)
}

/// FIPS 180-4 SHA-256, enough for test fixtures.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hex(_ message: [UInt8]) -> String {
        var h: [UInt32] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
        ]
        var data = message
        data.append(0x80)
        data += [UInt8](repeating: 0, count: (119 - message.count % 64) % 64)
        let bitLength = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var schedule = [UInt32](repeating: 0, count: 64)
        data.withUnsafeBufferPointer { bytes in
            k.withUnsafeBufferPointer { k in
                schedule.withUnsafeMutableBufferPointer { w in
                    for block in stride(from: 0, to: bytes.count, by: 64) {
                        for i in 0..<16 {
                            let p = block + i * 4
                            w[i] = UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
                        }
                        for i in 16..<64 {
                            let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                            let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                        }
                        var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
                        for i in 0..<64 {
                            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                            let t1 = hh &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                            let t2 = s0 &+ ((a & b) ^ (a & c) ^ (b & c))
                            (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                        }
                        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
                        h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
                    }
                }
            }
        }
        return h.map { String(format: "%08x", $0) }.joined()
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}

/// CRC-32 as PNG chunks use it, for building damaged files.
func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// The chunks of a PNG file: (offset of the length field, type, data length).
func pngChunks(_ png: [UInt8]) -> [(offset: Int, type: String, length: Int)] {
    var chunks: [(Int, String, Int)] = []
    var offset = 8
    while offset + 8 <= png.count {
        let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
        chunks.append((offset, String(decoding: png[offset + 4..<offset + 8], as: UTF8.self), length))
        offset += 12 + length
    }
    return chunks
}

/// Recomputes the CRC of the chunk whose length field is at `offset`.
func fixCRC(_ png: inout [UInt8], chunkAt offset: Int) {
    let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
    let crc = crc32(png[offset + 4..<offset + 8 + length])
    for i in 0..<4 { png[offset + 8 + length + i] = UInt8(truncatingIfNeeded: crc >> UInt32(24 - 8 * i)) }
}
