import Foundation
import ImageDiff
import SnapshotFiles

/// Whether and where a failing image snapshot leaves images a person can open: the reference, the
/// failure, the review image (reference | new | highlight, ``ReviewImage``), the red blend
/// overlay and the difference mask.
///
/// By default they go where swift-snapshot-testing writes its own failure artifact:
/// `$SNAPSHOT_ARTIFACTS/<TestFile>/` (the temporary directory when the variable is unset), named
/// after that artifact: `testName.1.png` is joined by `testName.1.reference.png`,
/// `testName.1.failure.png`, `testName.1.review.png`, `testName.1.blend.png` and
/// `testName.1.mask.png`.
public struct ImageSnapshotArtifacts: Sendable {
    /// Whether failures write images and list them in the message.
    public var isEnabled: Bool
    /// The folder that takes the place of `$SNAPSHOT_ARTIFACTS`; `nil` follows
    /// swift-snapshot-testing.
    public var rootDirectory: String?
    /// The folder that holds the test file's references, when `verifySnapshot` is given its own
    /// `snapshotDirectory`; `nil` means swift-snapshot-testing's `__Snapshots__/<TestFile>`.
    /// It is read to name the artifacts after the reference that failed.
    public var snapshotDirectory: String?
    /// The rounding of the blend overlay (ImageMagick 7 by default).
    public var blendRounding: ImageMagickRounding
    /// The colour of differing pixels in the mask; the rest is transparent.
    public var maskColor: RGBA

    /// The defaults are ``automatic``'s: every image, beside swift-snapshot-testing's artifact.
    public init(
        isEnabled: Bool = true,
        rootDirectory: String? = nil,
        snapshotDirectory: String? = nil,
        blendRounding: ImageMagickRounding = .im7,
        maskColor: RGBA = RGBA(255, 0, 0, 255)
    ) {
        self.isEnabled = isEnabled
        self.rootDirectory = rootDirectory
        self.snapshotDirectory = snapshotDirectory
        self.blendRounding = blendRounding
        self.maskColor = maskColor
    }

    /// Next to swift-snapshot-testing's failure artifact.
    public static let automatic = ImageSnapshotArtifacts()
    /// No files; the message still says how the images differ.
    public static let disabled = ImageSnapshotArtifacts(isEnabled: false)
}

/// One image written for a failing snapshot.
public struct ImageSnapshotArtifact: Sendable, Equatable {
    /// `reference`, `failure`, `review`, `blend` or `mask`.
    public var kind: String
    /// Where it was written.
    public var path: String
    /// The file's bytes, in the snapshot codec's format (PNG by default).
    public var bytes: [UInt8]
}

/// The test a strategy was made for, as `assertSnapshot` names it.
struct SnapshotTestLocation: Sendable {
    /// The test file's path (`#filePath`).
    var filePath: String
    /// The test function (`#function`).
    var testName: String

    /// The test file's name without extension, the folder swift-snapshot-testing files it under.
    var fileName: String {
        URL(fileURLWithPath: filePath, isDirectory: false).deletingPathExtension().lastPathComponent
    }

    /// `__Snapshots__/<TestFile>` beside the test file.
    var defaultSnapshotDirectory: String {
        URL(fileURLWithPath: filePath, isDirectory: false).deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__").appendingPathComponent(fileName).path
    }

    /// The test name as swift-snapshot-testing puts it into file names.
    var sanitizedTestName: String { sanitizePathComponent(testName) }
}

/// swift-snapshot-testing's file-name rule: runs of non-word characters become `-`, and a
/// leading or trailing `-` goes.
func sanitizePathComponent(_ string: String) -> String {
    string
        .replacingOccurrences(of: "\\W+", with: "-", options: .regularExpression)
        .replacingOccurrences(of: "^-|-$", with: "", options: .regularExpression)
}

/// Writes the artifacts of one failure.
struct ArtifactWriter {
    let settings: ImageSnapshotArtifacts
    let location: SnapshotTestLocation
    let codec: any SnapshotImageCodec

    /// The folder swift-snapshot-testing writes this test file's failure artifact into, read at
    /// the time of the failure as swift-snapshot-testing does.
    var artifactsDirectory: String {
        let root =
            settings.rootDirectory
            ?? ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"]
            ?? NSTemporaryDirectory()
        return URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(location.fileName).path
    }

    /// Writes the images; returns those written and a description of any that could not be.
    func write(
        reference: RGBAImage, failure: RGBAImage, evaluation: ImageSnapshotEvaluation
    ) -> (artifacts: [ImageSnapshotArtifact], problems: [String]) {
        let codec = self.codec
        var files: [(kind: String, encode: () throws -> [UInt8]?)] = [
            ("reference", { reference.pixelCount > 0 ? try codec.encode(reference) : nil }),
            ("failure", { failure.pixelCount > 0 ? try codec.encode(failure) : nil }),
        ]
        if let difference = evaluation.difference {
            let (rounding, maskColor) = (settings.blendRounding, settings.maskColor)
            for (kind, output) in [("review", ReviewOutput.review), ("blend", .blend), ("mask", .mask)] {
                files.append((kind, {
                    try codec.encode(
                        output, reference: reference, actual: failure, result: difference, rounding: rounding, maskColor: maskColor)
                }))
            }
        }
        let directory = artifactsDirectory
        let (baseName, referencePath, twins) = artifactBaseName(reference: reference, failure: failure)
        var artifacts: [ImageSnapshotArtifact] = []
        var problems: [String] = []
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return ([], ["cannot create \(directory): \(error.localizedDescription)"])
        }
        for (kind, encode) in files {
            let path = URL(fileURLWithPath: directory, isDirectory: true)
                .appendingPathComponent("\(baseName).\(kind).\(codec.pathExtension)").path
            do {
                guard let bytes = try encode() else { continue }
                try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
                artifacts.append(ImageSnapshotArtifact(kind: kind, path: path, bytes: bytes))
            } catch {
                problems.append("\(kind): \(error)")
            }
        }
        let entryPath = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(baseName + ReviewEntry.suffix).path
        if evaluation.settingsProblem != nil {
            // This run's images, which nothing judged, replaced an earlier failure's artifacts:
            // its entry would offer them under that failure's summary.
            try? FileManager.default.removeItem(atPath: entryPath)
        } else if let failureArtifact = artifacts.first(where: { $0.kind == "failure" }) {
            let entry = ReviewEntry(
                test: location.testName, reference: referencePath, failure: failureArtifact.path,
                review: artifacts.first { $0.kind == "review" }?.path, summary: evaluation.summary,
                recordedReference: artifacts.first { $0.kind == "reference" }?.path, twins: twins.count > 1 ? twins : nil,
                failureDigest: ReviewEntry.digest(of: failureArtifact.bytes))
            do {
                try Data(entry.encoded()).write(to: URL(fileURLWithPath: entryPath), options: .atomic)
            } catch {
                problems.append("review entry: \(error)")
            }
        }
        return (artifacts, problems)
    }

    /// Removes the review entries that an earlier run's failure of this test left for
    /// `reference`, which passes now: left behind, such an entry would have `imgdiff review
    /// --accept-all` replace the good reference with the old failure. Only this test's entries
    /// for references in this snapshot folder are read (a folder listing on each pass, an image
    /// decoded only where one is left), and one a failure of this process wrote (a twin's, with
    /// an identical reference) is kept.
    func removeEntries(passing reference: RGBAImage) {
        let directory = artifactsDirectory
        let prefix = location.sanitizedTestName + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let snapshots = settings.snapshotDirectory ?? location.defaultSnapshotDirectory
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(ReviewEntry.suffix) {
            guard !ClaimedArtifactNames.shared.isClaimed(String(name.dropLast(ReviewEntry.suffix.count)), in: snapshots) else { continue }
            let path = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path), let entry = ReviewEntry(bytes: Array(data)),
                let referencePath = entry.reference, Self.isSameFolder(containing: referencePath, as: snapshots),
                stores(reference, at: referencePath)
            else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The name of swift-snapshot-testing's failure artifact without its extension
    /// (`testName.identifier`), found by looking for the reference among this test's snapshots,
    /// with every reference path that holds the same pixels. Twins (two snapshots of one test
    /// with identical references, `named: "a"` and `"b"`) are given names by order: each
    /// failure takes the first matching name no earlier failure of this test has taken. That
    /// names the artifacts apart; which twin failed is only known to swift-snapshot-testing,
    /// whose failure file `imgdiff review` reads (see ``ReviewEntry/twins``). When the reference
    /// is not there (a custom snapshot folder, a strategy built away from the test), the
    /// identifier is a fingerprint of the failure's pixels instead.
    func artifactBaseName(reference: RGBAImage, failure: RGBAImage) -> (name: String, reference: String?, twins: [String]) {
        let prefix = location.sanitizedTestName + "."
        let suffix = "." + codec.pathExtension
        let directory = settings.snapshotDirectory ?? location.defaultSnapshotDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var matching: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let path = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name).path
            if stores(reference, at: path) { matching.append(String(name.dropLast(suffix.count))) }
        }
        guard !matching.isEmpty else { return (prefix + Self.fingerprint(failure.pixels), nil, []) }
        let name = ClaimedArtifactNames.shared.claim(among: matching, in: directory)
        let path = { (name: String) in URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name + suffix).path }
        return (name, path(name), matching.map(path))
    }

    /// Whether `file` lies in `folder` itself: an entry for a reference in another snapshot
    /// folder (the same test and name snapshotted per device, say) is that folder's failure,
    /// which a pass here says nothing about.
    static func isSameFolder(containing file: String, as folder: String) -> Bool {
        let parent = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().path
        return parent == URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether the file at `path` holds `image`'s pixels, as the snapshot codec decodes it.
    func stores(_ image: RGBAImage, at path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), let stored = try? codec.decode(Array(data)) else { return false }
        return stored.width == image.width && stored.height == image.height && ByteComparison.areEqual(stored.pixels, image.pixels)
    }

    /// FNV-1a of the bytes, as 8 hex digits.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// The artifact names failures of this process have taken, per snapshot folder: twins with
/// identical references get one name each, in the order they fail.
final class ClaimedArtifactNames: @unchecked Sendable {
    static let shared = ClaimedArtifactNames()

    // Guarded by `lock`: failures of tests running in parallel claim names at once.
    private var claimed: [String: Set<String>] = [:]
    private let lock = NSLock()

    /// Whether a failure of this process took `name` in `directory`.
    func isClaimed(_ name: String, in directory: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return claimed[directory, default: []].contains(name)
    }

    /// The first of `candidates` (sorted) not yet taken in `directory`, else the first.
    func claim(among candidates: [String], in directory: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        let taken = claimed[directory, default: []]
        let name = candidates.first { !taken.contains($0) } ?? candidates[0]
        claimed[directory, default: []].insert(name)
        return name
    }
}
