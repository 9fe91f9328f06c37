import FuzzSupport
import ImageDiff

@testable import ImageCodecs

/// Limits small enough that neither libFuzzer's memory limit nor its timeout is ever the
/// decoder's legitimate work.
let limits = DecodingLimits(maxWidth: 4096, maxHeight: 4096, maxPixels: 1 << 22, maxMemory: 1 << 26, maxFileSize: 1 << 20)

/// JPEG decoding: libjpeg-turbo through the C shim, and ImageMagick for CMYK and YCCK.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard ContainerFormat(sniffing: bytes) == .jpeg else { return -1 }
    guard let image = try? ImageDecoder.decode(bytes, limits: limits) else { return 0 }
    if image.pixels.count != image.width * image.height * 4 { fatalError("decoded buffer does not match the size") }
    return 0
}

@_cdecl("FuzzJPEGDecode_main")
func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
