/// An 8-bit RGBA image produced a band of rows at a time, so that an encoder can write it
/// without the whole image in memory, and bands can be made on separate cores.
public protocol RowRenderer: Sendable {
    var width: Int { get }
    var height: Int { get }
    /// Whether the image carries alpha (an encoder may drop A otherwise).
    var hasAlpha: Bool { get }
    /// Writes `rows` as 8-bit RGBA, `width * 4` bytes a row, into `output`.
    func renderRows(_ rows: Range<Int>, into output: UnsafeMutablePointer<UInt8>)
}

extension RowRenderer {
    /// The whole image, rendered in row bands on all cores.
    public func image() -> RGBAImage {
        let rowBytes = width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: height * rowBytes) { buffer, count in
            if let base = buffer.baseAddress {
                let output = UncheckedSendable(base)
                RowBands.forEach(height: height, bytesPerRow: rowBytes) { rows in
                    renderRows(rows, into: output.value + rows.lowerBound * rowBytes)
                }
            }
            count = height * rowBytes
        }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }
}
