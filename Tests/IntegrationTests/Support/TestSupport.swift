import Foundation
import Imaging
import MagickBridge
import Records
import Reporting
import Synchronization
import TestSupport
import Testing

@testable import CodeSweep
@testable import FileWalker
@testable import SweepCore

/// Helpers shared by the test files: the real image tools (run with `run`, Processes.swift),
/// images made with them, and the library's own scan and sweep entry points. Folders.swift has
/// the temporary folder and the binary, TestJSON.swift and SchemaCheck.swift read the output.

enum Tools {
    /// The real ImageMagick 6 CLI; a `convert` found on PATH may be something else.
    static let convert = "/usr/bin/convert"
    static let qrencode = "/usr/bin/qrencode"
    static let zint = "/usr/bin/zint"
    static let exiftool = "/usr/bin/exiftool"
    static let iconv = "/usr/bin/iconv"
    /// Debian's zbar-tools: the peer a payload's reading is compared with.
    static let zbarimg = "/usr/bin/zbarimg"
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

    /// A seeded plasma picture (a photo to the engine: ZBar reads it first) of `fault`'s size: the fault-injecting
    /// binary's readers fail on it (`FaultFrame`); the shipped binary reads it as an image with no code.
    static func faultFrame(_ fault: FaultFrame, to path: String) throws {
        try convert(["-size", "\(fault.size.width)x\(fault.size.height)", "-seed", "7", "plasma:fractal", path])
    }

    /// `convert` with the given arguments (timestamps never matter here).
    static func convert(_ args: [String]) throws {
        try run(Tools.convert, args)
    }

    /// A white canvas with a QR code pasted at (x, y) of its quiet zone; returns where the symbol sits.
    static func qrOnCanvas(
        _ text: String, in dir: TempDir, name: String, width: Int = 360, height: Int = 240,
        at x: Int = 40, _ y: Int = 30, scale: Int = 5, margin: Int = 2,
        extra: [String] = []
    ) throws -> PlacedQR {
        // Intermediates live at the temp folder's top, outside any tree a test walks.
        let qrPath = dir.file("qr-" + name.replacingOccurrences(of: "/", with: "_") + ".png")
        let side = try qr(text, to: qrPath, scale: scale, margin: margin)
        try convert(
            ["-size", "\(width)x\(height)", "xc:white", qrPath, "-geometry", "+\(x)+\(y)", "-composite"]
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

    /// Writes a QR code PNG holding exactly `bytes` (qrencode's 8-bit mode, no ECI).
    static func qr(bytes: [UInt8], to png: String, moduleSize: Int = 4) throws {
        let raw = png + ".bin"
        try Data(bytes).write(to: URL(fileURLWithPath: raw))
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try run(Tools.qrencode, ["-8", "-r", raw, "-s", String(moduleSize), "-m", "4", "-o", png])
    }

    /// A 12 MP photo-like frame (a seeded plasma scene with sensor noise, as the hard set's) with
    /// `code` pasted at (x, y) tilted by `tilt` degrees, then the frame blurred as a phone's
    /// optics do.
    static func cameraShot(_ s: TempDir, _ code: String, x: Int, y: Int, tilt: Int, blur: Double, name: String) throws -> String {
        let out = s.file(name)
        try run(
            Tools.convert,
            [
                try cameraScene(), "(", code, "-background", "white", "-rotate", "\(tilt)", ")", "-geometry", "+\(x)+\(y)", "-composite",
                "-blur", "0x\(blur)", "-quality", "85", out,
            ])
        return out
    }

    /// The scene every camera shot is pasted on (seeded: the same pixels in one command or two),
    /// made once per test process, as MIFF (nothing to compress): 5 s of ImageMagick a shot saved.
    static func cameraScene() throws -> String {
        try cameraSceneFile.withLock { made in
            if let made { return made.file("scene.miff") }
            let dir = try TempDir("camera-scene")
            try run(
                Tools.convert,
                [
                    "-seed", "101", "-size", "200x150", "plasma:fractal", "-blur", "0x1", "-resize", "4000x3000!",
                    "-attenuate", "0.5", "+noise", "Gaussian", dir.file("scene.miff"),
                ])
            made = dir
            return dir.file("scene.miff")
        }
    }

    private static let cameraSceneFile = Mutex<TempDir?>(nil)

    /// Encodes text to bytes with the iconv command (independent of the code under test).
    static func iconv(_ text: String, to charset: String) throws -> [UInt8] {
        [UInt8](try run(Tools.iconv, ["-f", "UTF-8", "-t", charset], stdin: Data(text.utf8)).stdoutBytes)
    }
}

enum Library {
    /// The first frame of an image file, sniffed and loaded as the scanner loads it (ImageLoader).
    static func firstFrame(_ path: String) throws -> LumaImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let format = try #require(ImageFormat.sniff(bytes.prefix(32)))
        let loaded = try ImageLoader.load(bytes, format: format)
        return try #require(loaded.frames.first)
    }

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
    static func sweep(
        _ roots: [String], jobs: Int, walk: WalkOptions = WalkOptions(),
        settings: ScanSettings = ScanSettings()
    ) async -> [FileRecord] {
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
func expectCorners(
    _ quad: Quad, near expected: [Point], tolerance: Double,
    _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(quad.points.count == 4, sourceLocation: sourceLocation)
    for (i, (got, want)) in zip(quad.points, expected).enumerated() {
        let d = max(abs(got.x - want.x), abs(got.y - want.y))
        #expect(
            d <= tolerance, "corner \(i) is \(got), expected \(want) ± \(tolerance) \(context); all: \(quad.points)",
            sourceLocation: sourceLocation)
    }
}
