import Foundation
import ImageCodecs
import ImageDiff

// decode-all FOLDER... [--threads N]
// decode-all REF_DIR NEW_DIR --time-blends
//
// The decode floor of `imgdiff batch`: decodes every image file under the given folders with
// `ImageDecoder.decode(contentsOf:)`, the decoder batch uses, on N worker threads (default one
// per core, as batch), and prints how many it decoded. Exit status 2 on a usage error or when
// any file fails to decode (each failure is one line on stderr).
//
// With --time-blends, what writing a blend per pair costs beyond decoding: each pair (the same
// path under both folders) is decoded, one pair at a time and untimed, and then its review
// overlay (`ImageMagickBlend.Renderer`) rendered and encoded as PNG in memory (`PNGEncoder`, as
// imgdiff encodes it, its bands on all cores), timed. Prints the encoding's total wall time.
//
// Files are found as batch finds them: recursively, hidden files and folders skipped, by
// extension (png jpg jpeg gif bmp tif tiff webp ppm pgm pnm).

let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "webp", "ppm", "pgm", "pnm"]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("decode-all: \(message)\n".utf8))
    exit(2)
}

func imageFiles(under folder: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("\(folder): not a folder")
    }
    let root = URL(fileURLWithPath: folder, isDirectory: true)
    guard let enumerator = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { fail("\(folder): cannot list the folder") }
    var files: [String] = []
    for case let url as URL in enumerator {
        guard imageExtensions.contains(url.pathExtension.lowercased()),
            (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
        else { continue }
        files.append(url.path)
    }
    return files.sorted()
}

let usage = "usage: decode-all FOLDER... [--threads N] | decode-all REF_DIR NEW_DIR --time-blends"
var folders: [String] = []
var threads = ProcessInfo.processInfo.activeProcessorCount
var timesBlends = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--threads":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 1 else {
            fail("--threads needs a whole number of at least 1")
        }
        threads = value
    case "--time-blends":
        timesBlends = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        folders.append(argument)
    }
}
if folders.isEmpty || timesBlends && folders.count != 2 { fail(usage) }

/// The relative paths of `folder`'s images.
func relativeImagePaths(under folder: String) -> Set<String> {
    let prefix = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.path + "/"
    return Set(imageFiles(under: folder).map { String(URL(fileURLWithPath: $0).standardizedFileURL.path.dropFirst(prefix.count)) })
}

/// The workers' shared state: the next file to take, and what they decoded.
final class Work: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private(set) var decoded = 0
    private(set) var pixels = 0
    private(set) var failures: [String] = []

    func take(limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < limit else { return nil }
        next += 1
        return next - 1
    }

    func record(_ image: RGBAImage) {
        lock.lock()
        decoded += 1
        pixels += image.width * image.height
        lock.unlock()
    }

    func record(failure: String) {
        lock.lock()
        failures.append(failure)
        lock.unlock()
    }
}

/// Decodes `files` on `threadCount` threads, each taking the next file until none is left.
func decodeAll(_ files: [String], threadCount: Int) -> Work {
    let work = Work()
    let done = DispatchGroup()
    for _ in 0..<max(1, min(threadCount, files.count)) {
        done.enter()
        let worker = Thread {
            while let index = work.take(limit: files.count) {
                do throws(ImageFileError) {
                    work.record(try ImageDecoder.decode(contentsOf: files[index]))
                } catch {
                    work.record(failure: error.description)
                }
            }
            done.leave()
        }
        worker.stackSize = 8 << 20
        worker.start()
    }
    done.wait()
    return work
}

/// Decodes each pair of `reference` and `new` (untimed) and times rendering and encoding its
/// blend; prints the total and exits.
func timeBlends(reference: String, new: String) -> Never {
    let pairs = relativeImagePaths(under: reference).intersection(relativeImagePaths(under: new)).sorted()
    var encoding = Duration.zero, encodedBytes = 0, failures: [String] = []
    let clock = ContinuousClock()
    for path in pairs {
        do {
            let first = try ImageDecoder.decode(contentsOf: reference + "/" + path)
            let second = try ImageDecoder.decode(contentsOf: new + "/" + path)
            let started = clock.now
            let bytes = first.is16Bit || second.is16Bit
                ? try PNGEncoder.encode(ImageMagickBlend.render(reference: first, failure: second))
                : try PNGEncoder.encode(ImageMagickBlend.Renderer(reference: first, failure: second))
            encoding += clock.now - started
            encodedBytes += bytes.count
        } catch {
            failures.append("\(path): \(error)")
        }
    }
    for failure in failures { FileHandle.standardError.write(Data("decode-all: \(failure)\n".utf8)) }
    let seconds = Double(encoding.components.seconds) + Double(encoding.components.attoseconds) * 1e-18
    print("\(pairs.count - failures.count) blends rendered and encoded in \(String(format: "%.3f", seconds)) s "
        + "(\(encodedBytes) bytes; their images decoded apart, untimed); \(failures.count) failed")
    exit(failures.isEmpty ? 0 : 2)
}

if timesBlends { timeBlends(reference: folders[0], new: folders[1]) }

let files = folders.flatMap(imageFiles(under:))
let workerCount = max(1, min(threads, files.count))
let work = decodeAll(files, threadCount: workerCount)
for failure in work.failures { FileHandle.standardError.write(Data("decode-all: \(failure)\n".utf8)) }
print("\(work.decoded) images decoded (\(work.pixels) pixels) on \(workerCount) threads; \(work.failures.count) failed")
exit(work.failures.isEmpty ? 0 : 2)
