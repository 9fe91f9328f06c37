import FuzzSupport
import ImageDiff

@testable import ImageCodecs
@testable import ImagePipeline

/// Limits small enough that neither libFuzzer's memory limit nor its timeout is ever the
/// decoder's legitimate work.
let limits = DecodingLimits(maxWidth: 4096, maxHeight: 4096, maxPixels: 1 << 22, maxMemory: 1 << 26, maxFileSize: 1 << 20)

/// PNG decoding: the fast path (libdeflate inflating whole, ISA-L a chunk at a time; whole and
/// streamed), libpng, and the structure check of
/// byte-identical inputs. Whenever both decoders accept an input they must agree, the streamed
/// comparison of an image with itself must find no difference, and every decoded image must
/// survive an encode–decode round trip unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard ContainerFormat(sniffing: bytes) == .png else { return -1 }
    let decoded = Result { () throws(ImageCodecError) in try PNGDecoder.decode(bytes, limits: limits) }
    let libpng = Result { () throws(ImageCodecError) in try PNGDecoder.decodeWithLibPNG(bytes, limits: limits) }
    _ = try? ImageDecoder.structurallyValidPNGSize(Array(bytes), name: "fuzz", limits: limits)
    let chunked = Result { () throws(ImageCodecError) -> [UInt8]? in
        guard let rows = try PNGRowStream(bytes, limits: limits) else { return nil }
        var pixels = [UInt8](repeating: 0, count: rows.width * rows.height * 4)
        try pixels.withUnsafeMutableBufferPointer { buffer throws(ImageCodecError) in
            guard let base = buffer.baseAddress else { return }
            try rows.read(rows.height, into: base)
        }
        return pixels
    }
    for parallelism in [Parallelism.allCores, .callingThread] {
        let streamed = Result { () throws(ImageFileError) in
            try StreamedRoute.run(
                EncodedImage(name: "fuzz", bytes: Array(bytes)), EncodedImage(name: "fuzz", bytes: Array(bytes)),
                options: ComparisonOptions(), limits: limits, overlay: nil, parallelism: parallelism)
        }
        switch streamed {
        case .success(.compared(let result, _)?) where result.differentPixels != 0:
            fatalError("the streamed comparison of a PNG with itself found differences")
        case .success(.decoded?):
            fatalError("the streamed comparison handed over unasked")
        default:
            break
        }
    }
    // The whole-image decode inflates with libdeflate, the chunked stream with ISA-L: the same
    // rows, or the same refusal.
    switch (decoded, chunked) {
    case (.success(let image), .success(let pixels?)) where image.pixels != pixels:
        fatalError("libdeflate's and ISA-L's inflate decode this PNG differently")
    case (.success, .failure), (.failure, .success(.some)):
        fatalError("one inflate decodes this PNG and the other refuses it")
    default:
        break
    }
    guard case .success(let image) = decoded else { return 0 }
    if case .success(let reference) = libpng, reference != image {
        fatalError("the fast path and libpng decode this PNG differently")
    }
    do {
        let encoded = try PNGEncoder.encode(image)
        let roundTrip = try ImageDecoder.decode(encoded, name: "round trip", limits: limits)
        if roundTrip != image { fatalError("an encode–decode round trip changed the image") }
    } catch {
        fatalError("a decoded image could not be encoded and decoded again: \(error)")
    }
    return 0
}

@_cdecl("FuzzPNGDecode_main")
func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
