import CImageCodecs
import Dispatch
import ImageDiff

/// Writes PNG files: rows are filtered (Up) and deflated in bands on all cores, the bands'
/// zlib pieces joined into one stream, then wrapped in IHDR / IDAT / IEND chunks.
enum PNGWriter {
    struct Layout {
        var format: cic_row_format
        var bitDepth: UInt8
        var colourType: UInt8
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
    }

    /// Rows a band holds at least: small images stay on one core.
    static let minimumBandBytes = 1 << 20

    static func encode(
        _ buffer: UnsafeRawBufferPointer, width: Int, height: Int, layout: Layout, level: Int
    ) throws(ImageCodecError) -> [UInt8] {
        guard let pixels = buffer.baseAddress else { throw .cannotEncode("empty image") }
        let source = UncheckedSendableBox(pixels)
        return try encode(width: width, height: height, layout: layout, level: level) { rows, final in
            deflate(source.value, layout.format, width: width, rows: rows, firstRowInBuffer: rows.lowerBound, level: level, final: final)
        }
    }

    /// Renders and compresses band by band: only the bands in flight are ever in memory.
    static func encode(_ renderer: some RowRenderer, level: Int) throws(ImageCodecError) -> [UInt8] {
        let format = renderer.hasAlpha ? CIC_ROWS_RGBA8 : CIC_ROWS_RGB8
        let layout = Layout(format: format, bitDepth: 8, colourType: renderer.hasAlpha ? 6 : 2)
        let width = renderer.width
        return try encode(width: width, height: renderer.height, layout: layout, level: level) { rows, final in
            let start = max(0, rows.lowerBound - 1)
            let rowBytes = width * 4
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: (rows.upperBound - start) * rowBytes)
            defer { buffer.deallocate() }
            renderer.renderRows(start..<rows.upperBound, into: buffer)
            return deflate(buffer, format, width: width, rows: rows, firstRowInBuffer: rows.lowerBound - start, level: level, final: final)
        }
    }

    /// Filters and deflates `rows`; the row above the first (for the Up filter) sits just
    /// before it in `pixels` unless the band starts the image.
    static func deflate(
        _ pixels: UnsafeRawPointer, _ format: cic_row_format, width: Int, rows: Range<Int>, firstRowInBuffer: Int,
        level: Int, final: Bool
    ) -> Band {
        var band = Band()
        band.ok = cic_png_deflate_band(
            pixels, format, UInt32(width), UInt32(firstRowInBuffer), UInt32(rows.count), Int32(level),
            final ? 1 : 0, &band.bytes, &band.count, &band.adler, &band.filteredCount) != 0
        return band
    }

    static func encode(
        width: Int, height: Int, layout: Layout, level: Int,
        band makeBand: @Sendable (Range<Int>, Bool) -> Band
    ) throws(ImageCodecError) -> [UInt8] {
        let rowBytes = cic_png_row_bytes(layout.format, UInt32(width)) + 1
        let bandCount = max(1, min(64, height, rowBytes * height / minimumBandBytes))
        let bands = UnsafeMutableBufferPointer<Band>.allocate(capacity: bandCount)
        bands.initialize(repeating: Band())
        defer {
            for band in bands { cic_free(band.bytes) }
            bands.deallocate()
        }
        let shared = UncheckedSendableBox(bands)
        DispatchQueue.concurrentPerform(iterations: bandCount) { index in
            let rows = (height * index / bandCount)..<(height * (index + 1) / bandCount)
            shared.value[index] = makeBand(rows, index == bandCount - 1)
        }
        guard bands.allSatisfy(\.ok) else { throw .cannotEncode("out of memory while compressing") }
        var adler: UInt32 = 1
        var compressedCount = 0
        for band in bands {
            adler = cic_adler32_combine(adler, band.adler, band.filteredCount)
            compressedCount += band.count
        }
        var zlib = [UInt8]()
        zlib.reserveCapacity(compressedCount + 6)
        zlib += [0x78, 0x01]
        for band in bands where band.count > 0 {
            zlib.append(contentsOf: UnsafeBufferPointer(start: band.bytes, count: band.count))
        }
        zlib += bigEndian(adler)

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.reserveCapacity(zlib.count + zlib.count / (1 << 20) * 12 + 256)
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [layout.bitDepth, layout.colourType, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        if !layout.palette.isEmpty { appendChunk("PLTE", layout.palette, to: &file) }
        if !layout.transparency.isEmpty { appendChunk("tRNS", layout.transparency, to: &file) }
        var offset = 0
        repeat {
            let end = min(zlib.count, offset + (1 << 20))
            appendChunk("IDAT", zlib[offset..<end], to: &file)
            offset = end
        } while offset < zlib.count
        appendChunk("IEND", [], to: &file)
        return file
    }

    struct Band {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        var adler: UInt32 = 1
        var filteredCount = 0
        var ok = false
    }

    static func appendChunk<Payload: Collection<UInt8>>(_ type: String, _ payload: Payload, to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file += bigEndian(UInt32(payload.count))
        let start = file.count
        file += typeBytes
        file.append(contentsOf: payload)
        let crc = file[start...].withUnsafeBufferPointer { cic_crc32(0, $0.baseAddress, $0.count) }
        file += bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// A value handed to `concurrentPerform`; the bands it points to are written by one thread each.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
