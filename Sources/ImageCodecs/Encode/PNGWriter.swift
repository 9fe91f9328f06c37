import CImageCodecs
import Dispatch
import ImageDiff

/// Writes PNG files: rows are filtered (Up) and deflated in bands on all cores, the bands'
/// zlib pieces joined into one stream, then wrapped in IHDR / IDAT / IEND chunks.
package enum PNGWriter {
    package struct Layout {
        var format: cic_row_format
        var bitDepth: UInt8
        var colourType: UInt8
        var palette: [UInt8] = []
        var transparency: [UInt8] = []

        /// 8-bit RGBA rows written as RGBA, or as RGB when the image has no alpha.
        package init(rendered hasAlpha: Bool) {
            self.init(format: hasAlpha ? CIC_ROWS_RGBA8 : CIC_ROWS_RGB8, bitDepth: 8, colourType: hasAlpha ? 6 : 2)
        }

        init(format: cic_row_format, bitDepth: UInt8, colourType: UInt8, palette: [UInt8] = [], transparency: [UInt8] = []) {
            self.format = format
            self.bitDepth = bitDepth
            self.colourType = colourType
            self.palette = palette
            self.transparency = transparency
        }
    }

    /// Rows a band holds at least: small images stay on one core.
    static let minimumBandBytes = 1 << 20

    static func encode(
        _ buffer: UnsafeRawBufferPointer, width: Int, height: Int, layout: Layout, level: Int
    ) throws(ImageCodecError) -> [UInt8] {
        guard let pixels = buffer.baseAddress else { throw .cannotEncode("empty image") }
        let source = UncheckedSendable(pixels)
        return try encode(width: width, height: height, layout: layout, level: level) { rows, final in
            deflate(source.value, layout.format, width: width, rows: rows, firstRowInBuffer: rows.lowerBound, level: level, final: final)
        }
    }

    /// Renders and compresses band by band: only the bands in flight are ever in memory.
    /// `pieces`, when given, are the row ranges deflated apart, in order; they decide the
    /// file's bytes, so a caller that must match another writer's bytes passes that writer's.
    static func encode(
        _ renderer: some RowRenderer, level: Int, pieces: [Range<Int>]? = nil
    ) throws(ImageCodecError) -> [UInt8] {
        let layout = Layout(rendered: renderer.hasAlpha)
        let width = renderer.width
        return try encode(width: width, height: renderer.height, layout: layout, level: level, pieces: pieces) { rows, final in
            deflateRendered(rows, width: width, format: layout.format, level: level, final: final, render: renderer.renderRows)
        }
    }

    /// Renders `rows` and the row above them (for the Up filter) into a scratch buffer with
    /// `render`, then filters and deflates `rows`.
    static func deflateRendered(
        _ rows: Range<Int>, width: Int, format: cic_row_format, level: Int, final: Bool,
        render: (Range<Int>, UnsafeMutablePointer<UInt8>) -> Void
    ) -> Band {
        let start = max(0, rows.lowerBound - 1)
        let rowBytes = width * 4
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, (rows.upperBound - start) * rowBytes))
        defer { buffer.deallocate() }
        render(start..<rows.upperBound, buffer)
        return deflate(buffer, format, width: width, rows: rows, firstRowInBuffer: rows.lowerBound - start, level: level, final: final)
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
        width: Int, height: Int, layout: Layout, level: Int, pieces: [Range<Int>]? = nil,
        band makeBand: @Sendable (Range<Int>, Bool) -> Band
    ) throws(ImageCodecError) -> [UInt8] {
        let rowBytes = cic_png_row_bytes(layout.format, UInt32(width)) + 1
        let bandCount = pieces?.count ?? RowBands.count(height: height, bytesPerRow: rowBytes)
        let bands = UnsafeMutableBufferPointer<Band>.allocate(capacity: bandCount)
        bands.initialize(repeating: Band())
        defer {
            for band in bands { cic_free(band.bytes) }
            bands.deallocate()
        }
        let shared = UncheckedSendable(bands)
        if let pieces {
            DispatchQueue.concurrentPerform(iterations: bandCount) { index in
                shared.value[index] = makeBand(pieces[index], index == bandCount - 1)
            }
        } else {
            RowBands.forEach(height: height, bands: bandCount) { index, rows in
                shared.value[index] = makeBand(rows, index == bandCount - 1)
            }
        }
        return try assemble(UnsafeBufferPointer(bands), width: width, height: height, layout: layout)
    }

    /// The PNG file of compressed bands that cover the image's rows in order, the last one
    /// final; the bands stay the caller's to free.
    static func assemble(
        _ bands: UnsafeBufferPointer<Band>, width: Int, height: Int, layout: Layout
    ) throws(ImageCodecError) -> [UInt8] {
        guard bands.allSatisfy(\.ok) else { throw .cannotEncode("out of memory while compressing") }
        var zlib = ZlibStream(capacity: bands.reduce(0) { $0 + $1.count })
        for band in bands {
            zlib.append(UnsafeBufferPointer(start: band.bytes, count: band.count), adler: band.adler, filteredCount: band.filteredCount)
        }
        return file(zlib, width: width, height: height, layout: layout)
    }

    /// The PNG file around a finished zlib stream of the image's filtered rows.
    package static func file(_ zlib: ZlibStream, width: Int, height: Int, layout: Layout) -> [UInt8] {
        let zlib = zlib.finished()
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

    /// A zlib stream joined from deflated pieces in row order (each but the last sync-flushed),
    /// with the Adler-32 of all their filtered bytes.
    package struct ZlibStream {
        private var bytes: [UInt8] = [0x78, 0x01]
        private var adler: UInt32 = 1

        package init(capacity: Int = 0) { bytes.reserveCapacity(capacity + 6) }

        package mutating func append(_ piece: UnsafeBufferPointer<UInt8>, adler pieceAdler: UInt32, filteredCount: Int) {
            adler = cic_adler32_combine(adler, pieceAdler, filteredCount)
            bytes.append(contentsOf: piece)
        }

        func finished() -> [UInt8] { bytes + bigEndian(adler) }
    }

    /// Deflates band after band of rendered rows on one thread, reusing its buffers: for
    /// writers that compress many small bands as they arrive.
    package final class BandDeflater {
        private let deflater: OpaquePointer
        private let rendered: UnsafeMutablePointer<UInt8>
        private let width: Int
        private let maxRows: Int

        /// Nil when out of memory.
        package convenience init?(layout: Layout, width: Int, maxRows: Int, level: Int) {
            self.init(format: layout.format, width: width, maxRows: maxRows, level: level)
        }

        init?(format: cic_row_format, width: Int, maxRows: Int, level: Int) {
            guard let deflater = cic_png_deflater_new(format, UInt32(width), UInt32(maxRows), Int32(level)) else { return nil }
            self.deflater = deflater
            rendered = .allocate(capacity: (maxRows + 1) * width * 4)
            rendered.initialize(repeating: 0, count: (maxRows + 1) * width * 4)
            self.width = width
            self.maxRows = maxRows
        }

        deinit {
            cic_png_deflater_free(deflater)
            rendered.deallocate()
        }

        /// A deflated band: its bytes stay valid until the deflater's next band.
        package struct Piece {
            package var bytes: UnsafeBufferPointer<UInt8>
            package var adler: UInt32
            package var filteredCount: Int
        }

        /// Renders `rows` and the row above them with `render`, then filters and deflates
        /// `rows` (at most `maxRows`); nil when out of memory.
        package func deflate(_ rows: Range<Int>, final: Bool, render: (Range<Int>, UnsafeMutablePointer<UInt8>) -> Void) -> Piece? {
            precondition(rows.count <= maxRows, "band larger than the deflater was made for")
            let start = max(0, rows.lowerBound - 1)
            render(start..<rows.upperBound, rendered)
            var bytes: UnsafePointer<UInt8>?
            var count = 0, filteredCount = 0
            var adler: UInt32 = 1
            guard cic_png_deflater_run(
                deflater, rendered, UInt32(rows.lowerBound - start), UInt32(rows.count), final ? 1 : 0,
                &bytes, &count, &adler, &filteredCount) != 0
            else { return nil }
            return Piece(bytes: UnsafeBufferPointer(start: bytes, count: count), adler: adler, filteredCount: filteredCount)
        }
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
