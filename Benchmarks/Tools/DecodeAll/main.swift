import Foundation
import ImageCodecs
import ImageDiff

// decode-all FOLDER... [--threads N]
//
// The decode floor of `imgdiff batch`: decodes every image file under the given folders with
// `ImageDecoder.decode(contentsOf:)`, the decoder batch uses, on N worker threads (default one
// per core, as batch), and prints how many it decoded. Exit status 2 on a usage error or when
// any file fails to decode (each failure is one line on stderr).
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

var folders: [String] = []
var threads = ProcessInfo.processInfo.activeProcessorCount
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--threads":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 1 else {
            fail("--threads needs a whole number of at least 1")
        }
        threads = value
    case "-h", "--help":
        print("usage: decode-all FOLDER... [--threads N]")
        exit(0)
    default:
        folders.append(argument)
    }
}
if folders.isEmpty { fail("usage: decode-all FOLDER... [--threads N]") }

let files = folders.flatMap(imageFiles(under:))

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

let workerCount = max(1, min(threads, files.count))
let work = decodeAll(files, threadCount: workerCount)
for failure in work.failures { FileHandle.standardError.write(Data("decode-all: \(failure)\n".utf8)) }
print("\(work.decoded) images decoded (\(work.pixels) pixels) on \(workerCount) threads; \(work.failures.count) failed")
exit(work.failures.isEmpty ? 0 : 2)
