import Foundation
import Records
import TestSupport
import Testing

@testable import Forensics

/// Helpers for the Picture tests: real QR files, the records, the pictures read back.
enum PictureSupport {
    /// A QR code made by qrencode, optionally placed on a larger grey canvas at (x, y).
    static func makeQR(_ text: String, at url: URL, scale: Int = 6, canvas: (w: Int, h: Int, x: Int, y: Int)? = nil) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let r = try run(Tools.qrencode, ["-s", String(scale), "-m", "2", "-o", url.path, text], check: false)
        #expect(r.status == 0, "qrencode: \(r.stderr)")
        if let c = canvas {
            let r2 = try run(
                Tools.convert,
                [
                    "-size", "\(c.w)x\(c.h)", "xc:#C8C8C8", url.path,
                    "-geometry", "+\(c.x)+\(c.y)", "-composite", "PNG24:" + url.path,
                ], check: false)
            #expect(r2.status == 0, "convert: \(r2.stderr)")
        }
    }

    static func records(_ r: ProcessResult) throws -> [JSONValue] { try JSONL.values(r.stdout) }

    /// Files below a folder, as relative paths, sorted.
    static func files(below dir: URL) -> [String] {
        let base = dir.resolvingSymlinksInPath().path
        var out: [String] = []
        if let e = FileManager.default.enumerator(atPath: base) {
            while let p = e.nextObject() as? String {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + "/" + p, isDirectory: &isDir), !isDir.boolValue { out.append(p) }
            }
        }
        return out.sorted()
    }

    /// An image as packed 8-bit RGB, read with the real ImageMagick CLI (not our own code).
    struct RGB {
        var width: Int, height: Int, bytes: [UInt8]
        func at(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * width + x) * 3
            return (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]))
        }
    }

    static func readRGB(_ url: URL) throws -> RGB {
        let size = try run("/usr/bin/identify", ["-format", "%w %h", url.path], check: false)
        let wh = size.stdout.split(separator: " ").compactMap { Int($0) }
        #expect(wh.count == 2)
        let raw = try run("/usr/bin/convert", [url.path, "-depth", "8", "rgb:-"], check: false)
        #expect(raw.status == 0, "convert: \(raw.stderr)")
        #expect(raw.stdoutBytes.count == wh[0] * wh[1] * 3)
        return RGB(width: wh[0], height: wh[1], bytes: [UInt8](raw.stdoutBytes))
    }
}

@Suite("Picture: scan --annotate")
struct PictureAnnotateTests {
    typealias S = PictureSupport

    static func corners(_ record: JSONValue) -> [(Double, Double)] {
        (record["codes"]?.arrayValue?.first?["corners"]?.arrayValue ?? []).compactMap {
            guard let xy = $0.arrayValue, xy.count == 2, let x = xy[0].doubleValue, let y = xy[1].doubleValue else { return nil }
            return (x, y)
        }
    }

    @Test("The outline is drawn where the code is: on the edges between corners, not inside or well outside")
    func outlineWhereTheCodeIs() throws {
        let dir = try TempDir("picture-outline")
        let input = dir.url.appendingPathComponent("in/card.png")
        try S.makeQR("outline check", at: input, scale: 6, canvas: (640, 420, 180, 110))
        let r = try run(
            codesweepBinary,
            [
                "scan", "-q", "--jobs", "1", dir.url.appendingPathComponent("in").path,
                "--annotate", dir.url.appendingPathComponent("out").path,
            ], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let recs = try S.records(r)
        #expect(recs.count == 1)
        let c = Self.corners(recs[0])
        try #require(c.count == 4)
        let out = dir.url.appendingPathComponent("out/card.png.annotated.png")
        let img = try S.readRGB(out)
        #expect(img.width == 640 && img.height == 420)
        func isOutline(_ p: (Int, Int, Int)) -> Bool { p.0 >= 240 && p.1 <= 15 && p.2 >= 240 }
        // Points along each edge (away from the corner dots) are the outline colour.
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            for t in [0.3, 0.5, 0.7] {
                let x = Int((a.0 + (b.0 - a.0) * t).rounded()), y = Int((a.1 + (b.1 - a.1) * t).rounded())
                #expect(isOutline(img.at(x, y)), "edge \(i) at t=\(t) (\(x),\(y)) is \(img.at(x, y))")
            }
        }
        // Inside the code and well outside it (below, left, right: the label is above): not outline.
        let cx = Int(c.map(\.0).reduce(0, +) / 4), cy = Int(c.map(\.1).reduce(0, +) / 4)
        let minX = Int(c.map(\.0).min()!), maxX = Int(c.map(\.0).max()!), maxY = Int(c.map(\.1).max()!)
        for (x, y) in [(cx, cy), (cx + 20, cy - 25), (cx, maxY + 30), (minX - 30, cy), (maxX + 30, cy), (5, 410), (630, 410)] {
            #expect(!isOutline(img.at(x, y)), "(\(x),\(y)) should not be outline: \(img.at(x, y))")
        }
        // The first corner (the code's own top-left) is marked green, the others not.
        let first = img.at(Int(c[0].0.rounded()), Int(c[0].1.rounded()))
        #expect(first.1 >= 200 && first.0 <= 40 && first.2 <= 40, "first corner is \(first)")
        for i in 1..<4 {
            let p = img.at(Int(c[i].0.rounded()), Int(c[i].1.rounded()))
            #expect(isOutline(p), "corner \(i) is \(p)")
        }
        // The input is untouched and the copy decodes to the same payload (the label stays outside the code).
        let again = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", out.path], check: false)
        #expect(try S.records(again).first?["codes"]?.arrayValue?.first?["text"]?.stringValue == "outline check")
    }

    @Test("The annotated folder mirrors the input tree; files without codes get no picture")
    func mirrorsTheTree() throws {
        let dir = try TempDir("picture-mirror")
        let inRoot = dir.url.appendingPathComponent("photos")
        try S.makeQR("deep", at: inRoot.appendingPathComponent("2024/trip/a.png"), scale: 4)
        try S.makeQR("top", at: inRoot.appendingPathComponent("b.png"), scale: 4)
        let r0 = try run("/usr/bin/convert", ["-size", "200x150", "xc:white", inRoot.appendingPathComponent("2024/blank.png").path], check: false)
        #expect(r0.status == 0)
        let other = dir.url.appendingPathComponent("other")
        try S.makeQR("second root", at: other.appendingPathComponent("c.png"), scale: 4)

        let out1 = dir.url.appendingPathComponent("out1")
        let r1 = try run(codesweepBinary, ["scan", "-q", "photos", "--annotate", "out1"], currentDirectory: dir.path, check: false)
        #expect(r1.status == 0, "\(r1.stderr)")
        #expect(S.files(below: out1) == ["2024/trip/a.png.annotated.png", "b.png.annotated.png"])

        // Several arguments: each folder argument under its own name, a file argument by its name.
        let r2 = try run(codesweepBinary, ["scan", "-q", "photos", "other", "photos/b.png", "--annotate", "out2"], currentDirectory: dir.path, check: false)
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(
            S.files(below: dir.url.appendingPathComponent("out2")) == [
                "b.png.annotated.png", "other/c.png.annotated.png", "photos/2024/trip/a.png.annotated.png", "photos/b.png.annotated.png",
            ])
        // Inputs are unchanged and nothing was added among them.
        #expect(S.files(below: inRoot) == ["2024/blank.png", "2024/trip/a.png", "b.png"])
    }

    @Test("--annotate refuses a folder inside the scanned folder and a picture path that is an input")
    func refusesToOverwriteInputs() throws {
        let dir = try TempDir("picture-refuse")
        let input = dir.url.appendingPathComponent("in/q.png")
        try S.makeQR("keep me", at: input, scale: 4)
        let original = try Data(contentsOf: input)

        // DIR equal to, or inside, the scanned folder.
        for target in ["in", "in/annotated", "in/../in/x"] {
            let r = try run(codesweepBinary, ["scan", "-q", "in", "--annotate", target], currentDirectory: dir.path, check: false)
            #expect(r.status == 2, "--annotate \(target): \(r.status)")
            #expect(r.stderr.contains("inside the folder being scanned"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(S.files(below: dir.url.appendingPathComponent("in")) == ["q.png"])

        // The picture's path is a hard link to an input: writing it would destroy the input.
        let out = dir.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.linkItem(at: input, to: out.appendingPathComponent("q.png.annotated.png"))
        let r = try run(codesweepBinary, ["scan", "-q", "in", "--annotate", "out"], currentDirectory: dir.path, check: false)
        #expect(r.status == 2)
        #expect(r.stderr.contains("would write over the input"), "\(r.stderr)")
        // The picture's path is itself an input named on the command line.
        let r2 = try run(codesweepBinary, ["scan", "-q", "in/q.png", "out/q.png.annotated.png", "--annotate", "out"], currentDirectory: dir.path, check: false)
        #expect(r2.status == 2)
        #expect(try Data(contentsOf: input) == original)

        // An ordinary earlier picture (not an input) is replaced; the input stays as it was.
        try FileManager.default.removeItem(at: out.appendingPathComponent("q.png.annotated.png"))
        try Data("old picture".utf8).write(to: out.appendingPathComponent("q.png.annotated.png"))
        let r3 = try run(codesweepBinary, ["scan", "-q", "in", "--annotate", "out"], currentDirectory: dir.path, check: false)
        #expect(r3.status == 0, "\(r3.stderr)")
        let written = try Data(contentsOf: out.appendingPathComponent("q.png.annotated.png"))
        #expect(written.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try Data(contentsOf: input) == original)
        #expect(S.files(below: out) == ["q.png.annotated.png"])
    }

    @Test("Without a usable font the picture still gets its outline, and stderr says why")
    func noFontDegrades() throws {
        let dir = try TempDir("picture-nofont")
        try S.makeQR("font test", at: dir.url.appendingPathComponent("in/q.png"), scale: 6, canvas: (400, 300, 100, 60))
        try Data("not a font".utf8).write(to: dir.url.appendingPathComponent("bogus.ttf"))
        let r = try run(
            codesweepBinary, ["scan", "-q", "in", "--annotate", "out"], env: ["CODESWEEP_FONT": dir.url.appendingPathComponent("bogus.ttf").path],
            currentDirectory: dir.path, check: false)
        #expect(r.status == 0)
        #expect(r.stderr.contains("no usable font; outlines drawn without labels"), "\(r.stderr)")
        let c = Self.corners(try S.records(r)[0])
        try #require(c.count == 4)
        let img = try S.readRGB(dir.url.appendingPathComponent("out/q.png.annotated.png"))
        let mid = img.at(Int(((c[0].0 + c[1].0) / 2).rounded()), Int(((c[0].1 + c[1].1) / 2).rounded()))
        #expect(mid.0 >= 240 && mid.1 <= 15 && mid.2 >= 240, "top edge is \(mid)")
    }

    @Test("Labels escape control characters and bidi overrides")
    func labelText() {
        let code = DetectedCode(
            symbology: .qr, bytes: Array("a\nb\u{202E}c\\d".utf8), corners: Quad([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]),
            quality: 1, orientation: 0, frame: 0, pass: "p")
        #expect(DisplayText.label(for: code) == "qr: a\\nb\\u{202E}c\\\\d")
        let long = DetectedCode(
            symbology: .code128, bytes: Array(String(repeating: "x", count: 100).utf8), corners: code.corners,
            quality: 3, orientation: 0, frame: 0, pass: "p")
        #expect(DisplayText.label(for: long, limit: 10) == "code128: xxxxxxxxx…")
    }
}
