import Foundation
import Testing
@testable import CodeSweep
@testable import FileWalker
@testable import SweepCore

/// Helpers shared by the test files: a temporary folder per test, the real image tools run as
/// processes, and the library's own scan and sweep entry points.

enum Tools {
    /// The real ImageMagick 6 CLI; a `convert` found on PATH may be something else.
    static let convert = "/usr/bin/convert"
    static let qrencode = "/usr/bin/qrencode"
    static let zint = "/usr/bin/zint"
    static let exiftool = "/usr/bin/exiftool"
}

/// The codesweep binary next to the test runner (`swift build --build-tests` builds both).
let codesweepBinary: String = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = runner.deletingLastPathComponent()
    if dir.path.hasSuffix(".xctest/Contents/MacOS") { dir = dir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    return dir.appendingPathComponent("codesweep").path
}()

/// A fresh folder under the system temp folder, named for the suite that owns it.
func makeTempFolder(_ suite: String, _ name: String) throws -> URL {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("codesweep-\(suite)-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
}

struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

struct ToolFailure: Error, CustomStringConvertible {
    var description: String
}

/// The environment for child processes: the library sets MAGICK_CONFIGURE_PATH (its own
/// locked-down policy) in this process once ImageMagick starts; tools such as `convert` and the
/// codesweep binary must not inherit it.
func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MAGICK_") }.merging(extra) { $1 }
}

/// Runs a program to completion, its stdout and stderr going to temporary files (no pipe can
/// fill up and block the child).
@discardableResult
func run(_ executable: String, _ arguments: [String], currentDirectory: String? = nil, check: Bool = true) throws -> ProcessResult {
    let scratch = try TempDir()
    let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
    FileManager.default.createFile(atPath: outPath, contents: nil)
    FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    p.environment = childEnvironment()
    if let currentDirectory { p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    try out.close()
    try err.close()
    let result = ProcessResult(status: p.terminationStatus,
                               stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
                               stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
    if check && result.status != 0 {
        throw ToolFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
    }
    return result
}

/// A fresh folder under the system temporary folder, removed when the test is done.
final class TempDir {
    let path: String
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/codesweep-tests-XXXXXX").utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ToolFailure(description: "mkdtemp failed")
        }
        path = String(cString: p)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func mkdir(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
        return file(name)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }
}

/// Where a square QR symbol sits: top-left corner of the symbol (without quiet zone) and side.
struct PlacedQR {
    var x: Double, y: Double, side: Double
    /// Clockwise from the top-left, as drawn upright.
    var quad: [Point] {
        [Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side)]
    }
}

enum Make {
    /// Writes a QR code PNG with `qrencode` (scale px per module, margin modules of quiet zone)
    /// and returns the symbol's side in pixels (without the quiet zone).
    @discardableResult
    static func qr(_ text: String, to path: String, scale: Int = 5, margin: Int = 2) throws -> Int {
        try run(Tools.qrencode, ["-l", "M", "-s", String(scale), "-m", String(margin), "-o", path, text])
        return try pngWidth(path) - 2 * margin * scale
    }

    /// Writes a zint barcode PNG (barcode type number as zint numbers them: 20 Code 128, 13 EAN).
    static func zint(type: Int, _ data: String, to path: String, scale: String = "1", height: Int = 40) throws {
        try run(Tools.zint, ["-b", String(type), "--scale=\(scale)", "--height=\(height)", "-d", data, "-o", path])
    }

    /// `convert` with the given arguments (timestamps never matter here).
    static func convert(_ args: [String]) throws {
        try run(Tools.convert, args)
    }

    /// A white canvas with a QR code pasted at (x, y) of its quiet zone; returns where the symbol sits.
    static func qrOnCanvas(_ text: String, in dir: TempDir, name: String, width: Int = 360, height: Int = 240,
                           at x: Int = 40, _ y: Int = 30, scale: Int = 5, margin: Int = 2,
                           extra: [String] = []) throws -> PlacedQR {
        // Intermediates live at the temp folder's top, outside any tree a test walks.
        let qrPath = dir.file("qr-" + name.replacingOccurrences(of: "/", with: "_") + ".png")
        let side = try qr(text, to: qrPath, scale: scale, margin: margin)
        try convert(["-size", "\(width)x\(height)", "xc:white", qrPath, "-geometry", "+\(x)+\(y)", "-composite"]
                    + extra + [dir.file(name)])
        return PlacedQR(x: Double(x + margin * scale), y: Double(y + margin * scale), side: Double(side))
    }

    static func pngWidth(_ path: String) throws -> Int {
        let d = try Data(contentsOf: URL(fileURLWithPath: path))
        guard d.count > 24 else { throw ToolFailure(description: "not a PNG: \(path)") }
        let b = [UInt8](d[16..<20])
        return Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
    }

    static func setOrientation(_ path: String, _ orientation: Int) throws {
        try run(Tools.exiftool, ["-q", "-n", "-overwrite_original", "-Orientation=\(orientation)", path])
    }
}

enum Library {
    /// Scans one file through the library exactly as the CLI does for an explicit path.
    static func file(_ path: String, settings: ScanSettings = ScanSettings()) throws -> FileRecord {
        let items = Walker().walk([path])
        guard items.count == 1 else { throw ToolFailure(description: "walk of \(path) gave \(items.count) items") }
        switch items[0] {
        case .file(let entry):
            guard let record = FileScanner.scan(entry, settings: settings) else {
                throw ToolFailure(description: "explicit file \(path) was skipped")
            }
            return record
        case .failure(let p, let b, let e):
            return FileRecord.failure(path: p, pathBytes: b, e)
        }
    }

    /// Runs the library's parallel sweep over walked roots and collects the records in emit order.
    static func sweep(_ roots: [String], jobs: Int, walk: WalkOptions = WalkOptions(),
                      settings: ScanSettings = ScanSettings()) async -> [FileRecord] {
        let items = Walker(options: walk).walk(roots)
        var records: [FileRecord] = []
        await Sweep(settings: settings, jobs: jobs).run(items, emit: { records.append($0) })
        return records
    }
}

/// Text of a code's payload (all test payloads are ASCII).
extension DetectedCode {
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Asserts that each corner lies within `tolerance` px of the expected one, in order.
func expectCorners(_ quad: Quad, near expected: [Point], tolerance: Double,
                   _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(quad.points.count == 4, sourceLocation: sourceLocation)
    for (i, (got, want)) in zip(quad.points, expected).enumerated() {
        let d = max(abs(got.x - want.x), abs(got.y - want.y))
        #expect(d <= tolerance, "corner \(i) is \(got), expected \(want) ± \(tolerance) \(context); all: \(quad.points)",
                sourceLocation: sourceLocation)
    }
}

enum PackageRoot {
    /// The package root, found from this source file's location (Tests/CodeSweepTests/Support/).
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
    static var samples: String { path + "/Samples" }
}
