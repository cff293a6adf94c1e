import CodeSweep
import FileWalker
import Foundation
import Imaging
import MagickBridge
import Records
import SweepCore
import TestSupport
import Testing
import ZBarBridge

/// Scan-plan behaviour on real images: each image is generated at test time with qrencode and
/// ImageMagick (/usr/bin/convert), loaded through the library's ImageLoader and decoded by ZBar.
/// "Only found after X" is shown by a plan without X missing the code and the plan with X finding it.
@Suite("Scan plan", .serialized)
struct ScanPlanTests {
    // MARK: helpers

    static func qr(_ path: String, _ text: String, module: Int, margin: Int = 4, inverted: Bool = false) throws {
        var a = ["-o", path, "-s", "\(module)", "-m", "\(margin)", "-l", "M"]
        if inverted { a += ["--foreground=FFFFFF", "--background=000000"] }
        try run(Tools.qrencode, a + ["--", text])
    }

    static func read(_ image: LumaImage, _ passes: [ScanPass], roi: FractionalRect? = nil) -> [DetectedCode] {
        var options = ReaderOptions(symbologies: .standard, effort: .normal, roi: roi)
        options.plan = ScanPlan(effort: .normal, passes: passes)
        return BarcodeReader.read(ReadFrame(image), options).codes
    }

    static func texts(_ codes: [DetectedCode]) -> [String] {
        codes.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    static func near(_ p: Point, _ x: Double, _ y: Double, tolerance: Double) -> Bool {
        abs(p.x - x) <= tolerance && abs(p.y - y) <= tolerance
    }

    // MARK: tests

    @Test("a code with huge modules filling the frame is found only after downscaling")
    func downscaling() throws {
        let s = try TempDir("scanplan")
        let code = s.file("big.png"), img = s.file("big.jpg")
        // 60 px modules with a thin margin, softened and with sensor noise like a close-up photo:
        // at full size ZBar's edge detector sees the noise, at 1/4 the noise is averaged away.
        try run(Tools.qrencode, ["-o", code, "-s", "60", "-m", "1", "-l", "L", "--", "FILL-THE-FRAME-42"])
        try run(Tools.convert, ["-seed", "7", code, "-blur", "0x3", "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "90", img])
        let image = try Library.firstFrame(img)
        let full = Self.read(image, [ScanPass("full", [])])
        #expect(!Self.texts(full).contains("FILL-THE-FRAME-42"), "full-resolution pass alone should miss it")
        let codes = Self.read(image, [ScanPass("full", []), ScanPass("quarter", [.downscale(4)])])
        #expect(Self.texts(codes) == ["FILL-THE-FRAME-42"])
        #expect(codes.first?.pass == "quarter")
    }

    @Test("a light-on-dark QR code is found only after inversion")
    func inversion() throws {
        let s = try TempDir("scanplan")
        let code = s.file("inv.png")
        try Self.qr(code, "INVERTED-QR-7", module: 8, margin: 4, inverted: true)
        let image = try Library.firstFrame(code)
        #expect(Self.read(image, [ScanPass("full", [])]).isEmpty, "a plain pass should not read a negative QR")
        let codes = Self.read(image, [ScanPass("full", []), ScanPass("invert", [.invert], symbols: .twoDimensional)])
        #expect(Self.texts(codes) == ["INVERTED-QR-7"])
        #expect(codes.first?.pass == "invert")
        // Corners map back to the image as is: the code spans 4..(4+21) modules of 8 px.
        let box = try #require(codes.first).corners.boundingBox
        #expect(abs(box.minX - 32) <= 4 && abs(box.maxX - 200) <= 4 && abs(box.minY - 32) <= 4 && abs(box.maxY - 200) <= 4)
    }

    @Test("a crowded sheet of small QR codes needs tiling")
    func tiling() throws {
        let s = try TempDir("scanplan")
        // 60 QR codes with 3 px modules on a 12 MP sheet, 10 columns x 6 rows.
        // Photo-like: a sheet with sensor noise, the codes printed on it, all slightly soft.
        // ImageMagick's own uncompressed format: a noisy 12 MP PNG costs 24 s of zlib to write,
        // and the sheet made from either is the same, pixel for pixel.
        let paper = s.file("paper.miff")
        try run(Tools.convert, ["-seed", "11", "-size", "4000x3000", "xc:white", "-attenuate", "0.5", "+noise", "Gaussian", paper])
        var args = [paper]
        var expected: [String] = []
        for k in 0..<60 {
            let text = "SHEET-\(k < 10 ? "0" : "")\(k)-CODE"
            let png = s.file("c\(k).png")
            try Self.qr(png, text, module: 3, margin: 2)
            args += [png, "-geometry", "+\(150 + (k % 10) * 370)+\(150 + (k / 10) * 450)", "-composite"]
            expected.append(text)
        }
        let sheet = s.file("sheet.jpg")
        try run(Tools.convert, args + ["-blur", "0x0.7", "-quality", "90", sheet])
        let image = try Library.firstFrame(sheet)
        let whole = Set(Self.texts(Self.read(image, [ScanPass("full", [])])))
        let tiled = Self.read(image, [ScanPass("full", []), ScanPass("tiles3", [.tiles(grid: 3, overlap: 0.15)])])
        let tiledTexts = Self.texts(tiled)
        let onlyTiled = Set(tiledTexts).subtracting(whole)
        #expect(onlyTiled.count >= 10, "tiling should find codes the whole-image pass misses (whole \(whole.count), tiled \(tiledTexts.count))")
        #expect(tiled.contains { $0.pass == "tiles3" })
        // Each code once, although overlapping tiles read many of them twice.
        #expect(tiledTexts.count == Set(tiledTexts).count)
        #expect(Set(tiledTexts).isSubset(of: Set(expected)))
        // Corners of a tile read are in sheet pixels: each code sits in its own grid cell.
        for c in tiled where c.pass == "tiles3" {
            let k = Int(String(decoding: c.bytes, as: UTF8.self).dropFirst(6).prefix(2))!
            let x0 = Double(150 + (k % 10) * 370), y0 = Double(150 + (k / 10) * 450)
            let b = c.corners.boundingBox
            #expect(
                b.minX >= x0 && b.maxX <= x0 + 200 && b.minY >= y0 && b.maxY <= y0 + 200,
                "code \(k) at \(b) outside its cell at \(x0),\(y0)")
        }
    }

    @Test("a code found by two passes is reported once, by the first pass, with full-image corners")
    func mergeTwoPasses() throws {
        let s = try TempDir("scanplan")
        let code = s.file("m.png"), img = s.file("m.png.jpg")
        try Self.qr(code, "MERGE-ME-ONCE", module: 10, margin: 4)  // 21 modules: code at 40...250
        try run(Tools.convert, [code, "-bordercolor", "white", "-border", "100", "-quality", "95", img])  // at 140...350
        let image = try Library.firstFrame(img)
        let half = [ScanPass("half", [.downscale(2)])]
        #expect(Self.texts(Self.read(image, half)) == ["MERGE-ME-ONCE"], "the second pass alone finds it too")
        let codes = Self.read(image, [ScanPass("full", [])] + half + [ScanPass("up", [.upscale(2)])])
        #expect(codes.count == 1)
        let c = try #require(codes.first)
        #expect(c.pass == "full")
        // Clockwise from the code's top-left: (140,140) (350,140) (350,350) (140,350).
        let want = [(140.0, 140.0), (350.0, 140.0), (350.0, 350.0), (140.0, 350.0)]
        for (p, w) in zip(c.corners.points, want) {
            #expect(Self.near(p, w.0, w.1, tolerance: 4), "corner \(p) expected near \(w)")
        }
        // The downscaled pass's corners, mapped back, agree with the full pass's.
        let h = try #require(Self.read(image, half).first)
        for (p, q) in zip(c.corners.points, h.corners.points) {
            #expect(Self.near(p, q.x, q.y, tolerance: 4))
        }
    }

    @Test("--roi: corners stay in full-image pixels and codes outside the region are not reported")
    func roi() throws {
        let s = try TempDir("scanplan")
        let left = s.file("l.png"), right = s.file("r.png"), img = s.file("two.png")
        try Self.qr(left, "LEFT-CODE", module: 8, margin: 2)  // 25 modules = 200 px
        try Self.qr(right, "RIGHT-CODE", module: 8, margin: 2)
        try run(
            Tools.convert,
            [
                "-size", "1200x600", "xc:white", left, "-geometry", "+100+200", "-composite",
                right, "-geometry", "+800+150", "-composite", img,
            ])
        let image = try Library.firstFrame(img)
        let all = Self.read(image, [ScanPass("full", [])])
        #expect(Set(Self.texts(all)) == ["LEFT-CODE", "RIGHT-CODE"])
        let codes = Self.read(image, [ScanPass("full", [])], roi: FractionalRect(x: 0.5, y: 0, width: 0.5, height: 1))
        #expect(Self.texts(codes) == ["RIGHT-CODE"])
        // The right code's modules span 816...984 x 166...334 in the full image.
        let b = try #require(codes.first).corners.boundingBox
        #expect(
            abs(b.minX - 816) <= 4 && abs(b.maxX - 984) <= 4 && abs(b.minY - 166) <= 4 && abs(b.maxY - 334) <= 4,
            "corners \(b) not in full-image pixels")
        // And the same through the roi cut at a scale: a fit pass inside the ROI maps back too.
        let fitted = Self.read(image, [ScanPass("half", [.downscale(2)])], roi: FractionalRect(x: 0.5, y: 0, width: 0.5, height: 1))
        let fb = try #require(fitted.first).corners.boundingBox
        #expect(abs(fb.minX - 816) <= 5 && abs(fb.maxY - 334) <= 5)
    }

    static let normalPasses = ScanPlan.forEffort(.normal).passes

    /// A QR code of `text` (2-module margin) in a camera shot at (1500, 1200).
    static func cameraQR(_ s: TempDir, _ text: String, module: Int, tilt: Int, blur: Double) throws -> String {
        let code = s.file("q.png")
        try qr(code, text, module: module, margin: 2)
        return try Make.cameraShot(s, code, x: 1500, y: 1200, tilt: tilt, blur: blur, name: "shot.jpg")
    }

    /// Reads a file through `FileScanner`, as a sweep does (a 12 MP JPEG decoded at half size
    /// first, full resolution only if a pass asks for it), with the plan made of `passes`.
    static func sweepRead(_ path: String, _ passes: [ScanPass]) throws -> [DetectedCode] {
        var settings = ScanSettings()
        settings.reader.plan = ScanPlan(effort: .normal, passes: passes)
        guard case .file(let entry)? = Walker().walk([path]).first, let record = FileScanner.scan(entry, settings: settings) else {
            throw ToolFailure("no record for \(path)")
        }
        #expect(record.error == nil, "\(path): \(String(describing: record.error))")
        return record.codes
    }

    @Test("a tilted, blurred QR with 3 px modules in a 12 MP photo is read from a full-resolution crop with room around it")
    func blurredSmallModules() throws {
        let s = try TempDir("scanplan")
        let shot = try Self.cameraQR(s, "https://ex.am/t/c-ABCDEFGHJKLMNPQRST", module: 3, tilt: 12, blur: 1.2)
        // The locator's frames for it are off (four version 1 guesses of a version 3 code under
        // blur), so neither the grid decoder nor normal's warps read it: the fine-texture crop at
        // full resolution does, with or without the located passes.
        let codes = try Self.sweepRead(shot, Self.normalPasses)
        #expect(Self.texts(codes) == ["https://ex.am/t/c-ABCDEFGHJKLMNPQRST"])
        #expect(codes.first?.pass == "fine-full")
        let unlocated = try Self.sweepRead(shot, Self.normalPasses.filter { !$0.name.hasPrefix("located") && $0.reader != .grid })
        #expect(Self.texts(unlocated) == ["https://ex.am/t/c-ABCDEFGHJKLMNPQRST"])
        #expect(unlocated.first?.pass == "fine-full")
        // Why crops keep a margin: ZBar misses this code in a crop with 25 px around it, and
        // reads it in the same crop with 64 px more on every side.
        let box = try #require(codes.first).corners.boundingBox
        let tight = PixelRect(x: Int(box.minX) - 25, y: Int(box.minY) - 25, width: Int(box.maxX - box.minX) + 50, height: Int(box.maxY - box.minY) + 50)
        let image = try Library.firstFrame(shot)
        let decode = { (r: PixelRect) in ZBarDecoder.decode(image.cropped(r), symbologies: [.qr], config: .init()) }
        #expect(decode(tight).isEmpty)
        #expect(decode(tight.expanded(by: PlanSettings().cropMargin)).count == 1)
    }

    @Test("a blurred QR busy already when shrunk is found only by the full-resolution look at code-like places")
    func codeLikeRegionsAtFullSize() throws {
        let s = try TempDir("scanplan")
        let shot = try Self.cameraQR(s, "https://ex.am/t/r-ABCDEFGHJKLMNPQRST", module: 3, tilt: 10, blur: 1.2)
        // The locator finds it too (and the grid decoder reads it first in the normal plan);
        // without the located passes, regions-full is what reads it, and without both nothing
        // ZBar runs does (zxing-cpp's QR reader, in the isolated reader's passes, reads it too).
        let unlocated = Self.normalPasses.filter { !$0.name.hasPrefix("located") && $0.reader == .zbar }
        let without = unlocated.filter { $0.name != "regions-full" }
        #expect(try Self.sweepRead(shot, without).isEmpty, "the plan without regions-full should miss it")
        let codes = try Self.sweepRead(shot, unlocated)
        #expect(Self.texts(codes) == ["https://ex.am/t/r-ABCDEFGHJKLMNPQRST"])
        #expect(codes.first?.pass == "regions-full")
        let all = try Self.sweepRead(shot, Self.normalPasses)
        #expect(Self.texts(all) == ["https://ex.am/t/r-ABCDEFGHJKLMNPQRST"])
        #expect(all.first?.pass == "grid")
    }

    @Test("a 2 px-module QR under camera blur is found only after sharpening its fine-texture crop")
    func sharpenedFineCrop() throws {
        let s = try TempDir("scanplan")
        let shot = try Self.cameraQR(s, "https://ex.am/t/b-ABCDEFGHJKLMNPQRST", module: 2, tilt: 8, blur: 0.8)
        let without = Self.normalPasses.filter { !$0.steps.contains(.sharpen) }
        #expect(try Self.sweepRead(shot, without).isEmpty, "the plan without sharpening should miss it")
        let codes = try Self.sweepRead(shot, Self.normalPasses)
        #expect(Self.texts(codes) == ["https://ex.am/t/b-ABCDEFGHJKLMNPQRST"])
        #expect(codes.first?.pass == "sharpen-full")
        let b = try #require(codes.first).corners.boundingBox
        #expect(b.minX >= 1490 && b.maxX <= 1620 && b.minY >= 1190 && b.maxY <= 1320, "corners \(b) not on the code")
    }

    @Test("a blurred dense QR (version 35) is cropped whole for the full-resolution pass")
    func denseBlurredWholeCrop() throws {
        let s = try TempDir("scanplan")
        let code = s.file("q.png")
        let text = "DENSE-c-" + String(repeating: "X7Q2", count: 100)
        try run(Tools.qrencode, ["-o", code, "-s", "4", "-m", "4", "-l", "M", "-v", "35", "--", text])
        let shot = try Make.cameraShot(s, code, x: 900, y: 500, tilt: 5, blur: 1.8, name: "dense.jpg")
        let codes = try Self.sweepRead(shot, Self.normalPasses)
        #expect(Self.texts(codes) == [text])
        #expect(codes.first?.pass == "fine-full")
    }
}
