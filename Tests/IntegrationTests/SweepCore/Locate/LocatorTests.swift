import CodeSweep
import Foundation
import Imaging
import Records
import TestSupport
import Testing
import ZBarBridge

@testable import SweepCore

/// The QR locator and the located passes, on real images made at test time with qrencode and
/// ImageMagick and read by ZBar: a code warped by perspective that ZBar misses on the raw image,
/// a mirrored code, a sheet of 40 codes, a damaged code, and a textured photo without codes.
@Suite("QR locator", .serialized)
struct LocatorTests {

    /// The normal plan's photo passes (the pictures drawn here have no noise: the digital path
    /// would read them with zxing-cpp first, and these tests look at the locator's path).
    static func normalPlanRead(_ image: LumaImage) -> [DetectedCode] {
        var options = ReaderOptions(effort: .normal)
        options.plan.digital = []
        return BarcodeReader.read(ReadFrame(image), options).codes
    }

    /// A version 3 QR (29 modules of 8 px) on a white canvas, its corners at (182,182)-(414,414).
    static func code(_ dir: TempDir, _ text: String) throws -> String {
        let q = dir.file("q.png"), c = dir.file("c.png")
        try run(Tools.qrencode, ["-o", q, "-s", "8", "-m", "4", "-l", "M", "-v", "3", "--", text])
        try run(Tools.convert, [q, "-bordercolor", "white", "-border", "150", c])
        return c
    }

    @Test func aCodeWarpedByPerspectiveIsReadThroughTheLocatorWithItsCorners() throws {
        let dir = try TempDir()
        let text = "https://example.com/perspective-test"
        let c = try Self.code(dir, text)
        let p = dir.file("p.png")
        // The code's corners (clockwise from top-left) moved to a keystone.
        let drawn = [Point(x: 230, y: 170), Point(x: 430, y: 190), Point(x: 470, y: 430), Point(x: 180, y: 420)]
        try run(
            Tools.convert,
            [
                c, "-virtual-pixel", "white", "-distort", "Perspective",
                "182,182 230,170  414,182 430,190  414,414 470,430  182,414 180,420", p,
            ])
        let image = try Library.firstFrame(p)
        // ZBar alone does not read it.
        #expect(ZBarDecoder.decode(image, symbologies: [.qr]).isEmpty)
        // The locator's best candidate is this code, its outline (the frame fitted through the
        // finders, before any read) within a module and a half of the drawing; the code is read
        // through the locator (the grid decoder, or ZBar through a warp), its corners within 2 px.
        let best = try #require(QRLocator.locate(image).first)
        expectCorners(best.corners, near: drawn, tolerance: 12)
        let codes = Self.normalPlanRead(image)
        let code = try #require(codes.first { $0.bytes == Array(text.utf8) }, "\(codes)")
        #expect(code.pass == "grid" || code.pass.hasPrefix("located"))
        expectCorners(code.corners, near: drawn, tolerance: 2)
    }

    @Test func aMirroredCodeAtASlantIsReadThroughTheLocator() throws {
        let dir = try TempDir()
        let text = "MIRRORED-0042"
        let c = try Self.code(dir, text)
        let m = dir.file("m.png")
        // Mirrored (a code seen through glass, or printed reversed), then the same keystone.
        try run(
            Tools.convert,
            [
                c, "-flop", "-virtual-pixel", "white", "-distort", "Perspective",
                "182,182 200,150  414,182 450,200  414,414 420,420  182,414 190,460", m,
            ])
        let image = try Library.firstFrame(m)
        #expect(ZBarDecoder.decode(image, symbologies: [.qr]).isEmpty)
        let codes = Self.normalPlanRead(image)
        let code = try #require(codes.first { $0.bytes == Array(text.utf8) }, "\(codes)")
        // The grid decoder reads it (as its mirror image) before any warp.
        #expect(code.pass == "grid" && code.qr?.mirrored == true)
        // The outline is the keystone's, whatever corner the mirrored code calls its first.
        let drawn = [Point(x: 200, y: 150), Point(x: 450, y: 200), Point(x: 420, y: 420), Point(x: 190, y: 460)]
        for p in code.corners.points {
            #expect(drawn.contains { abs($0.x - p.x) <= 2 && abs($0.y - p.y) <= 2 }, "\(code.corners.points)")
        }
    }

    @Test func aDamagedCodeIsStillLocated() throws {
        let dir = try TempDir()
        let c = try Self.code(dir, "DAMAGED-CODE-1234567890")
        let d = dir.file("d.png")
        // A dark blot over a third of the data area: no reader decodes it, but its finders stand.
        try run(Tools.convert, [c, "-fill", "black", "-draw", "rectangle 250,250 360,400", d])
        let image = try Library.firstFrame(d)
        #expect(ZBarDecoder.decode(image, symbologies: [.qr]).isEmpty)
        let located = QRLocator.locate(image)
        let candidate = try #require(located.first)
        #expect(located.count == 1)
        #expect(candidate.dimension == 29 || candidate.dimension == 25 || candidate.dimension == 33, "\(candidate.dimension)")
        #expect(abs(candidate.moduleSize - 8) < 1.5, "\(candidate.moduleSize)")
        expectCorners(
            candidate.corners, near: [Point(x: 182, y: 182), Point(x: 414, y: 182), Point(x: 414, y: 414), Point(x: 182, y: 414)],
            tolerance: 8)
    }

    /// A sheet of QR codes made with qrencode (`module` px modules, a 2-module margin, EC M) on
    /// a white canvas `size` ("WxH"): code k says `texts[k]` and has its top-left at `at(k)`;
    /// `finish` are ImageMagick options applied before writing `name`.
    static func sheet(
        _ dir: TempDir, size: String, module: Int, texts: [String], at: (Int) -> (Int, Int),
        finish: [String] = [], name: String = "sheet.png"
    ) throws -> String {
        var args = ["-size", size, "xc:white"]
        for (k, text) in texts.enumerated() {
            let png = dir.file("q\(k).png")
            try run(Tools.qrencode, ["-o", png, "-s", "\(module)", "-m", "2", "-l", "M", "--", text])
            let (x, y) = at(k)
            args += [png, "-geometry", "+\(x)+\(y)", "-composite"]
        }
        let sheet = dir.file(name)
        try run(Tools.convert, args + finish + [sheet])
        return sheet
    }

    @Test func aSheetOfFortySmallCodesIsReadWhole() throws {
        let dir = try TempDir()
        let texts = (0..<40).map { k in "SHEET-\(k)-\(String(k * 7919, radix: 36))" }
        let sheet = try Self.sheet(
            dir, size: "4000x3000", module: 5, texts: texts,
            at: { k in (120 + (k % 8) * 480 + (k * 37) % 60, 150 + (k / 8) * 560 + (k * 53) % 50) },
            finish: ["-blur", "0x0.8", "-quality", "90"], name: "sheet.jpg")
        let record = try Library.file(sheet)
        let found = Set(record.codes.map { String(decoding: $0.bytes, as: UTF8.self) })
        #expect(found == Set(texts), "missing: \(Set(texts).subtracting(found).sorted())")
        #expect(record.codes.count == 40)
    }

    @Test func aTexturedPhotoWithoutCodesCostsNoFullResolutionPass() throws {
        // Text, a grid and checkerboards: texture that looks code-like, and no code.
        let dir = try TempDir()
        let png = dir.file("texture.png")
        var draw = ["-size", "2000x1500", "xc:gray90", "-font", "DejaVu-Sans", "-pointsize", "22", "-fill", "black"]
        for line in 0..<20 {
            draw += ["-annotate", "+60+\(80 + line * 34)", "Quarterly figures \(line): revenue 12,345.67 and costs 8,901.23 (+4.5 %)"]
        }
        draw += ["-stroke", "black", "-strokewidth", "2"]
        for i in 0..<30 { draw += ["-draw", "line \(1100 + i * 28),800 \(1100 + i * 28),1400"] }
        for i in 0..<22 { draw += ["-draw", "line 1100,\(800 + i * 28) 1912,\(800 + i * 28)"] }
        draw += [
            "-stroke", "none", "(", "-size", "400x400", "pattern:checkerboard", "-scale", "300%", ")",
            "-geometry", "+100+850", "-composite", png,
        ]
        try run(Tools.convert, draw)
        let half = try Library.firstFrame(png)
        #expect(QRLocator.locate(half).isEmpty)
        let log = RecordingPlan.Log()
        RecordingPlan.run(half, log: log)
        #expect(log.fullDecodes == 0, "\(log.sizes)")
    }

    @Test("the plan caps the located codes a frame keeps, best timing pattern first")
    func locatedCodesAreCapped() throws {
        let dir = try TempDir()
        let sheet = try Self.sheet(dir, size: "1800x700", module: 6, texts: (0..<6).map { "CAP-\($0)" }, at: { k in (60 + k * 290, 200) })
        let image = try Library.firstFrame(sheet)
        let located = QRLocator.locate(image)
        #expect(located.count == 6)
        func views(cap: Int?) -> Int {
            var settings = PlanSettings()
            if let cap { settings.maxLocatedCodes = cap }
            let log = RecordingPlan.Log()
            RecordingPlan.run(image, [ScanPass("located", [.located(side: 300, margin: 0.25)])], settings: settings, log: log)
            return log.sizes.count
        }
        #expect(views(cap: nil) == 6)
        #expect(views(cap: 4) == 4)
        #expect(PlanSettings().listing.contains { $0.contains("at most 4096 codes kept") })
    }

    @Test("pixel noise makes finder-like triples; the frame's poor finder match keeps them from costing located passes, a sheet's codes are kept")
    func pixelNoiseCostsNoLocatedPasses() throws {
        // A 1000x1000 px patch of 1 px black/white noise on a grey 2000x1500 frame.
        var noise = LumaImage(width: 2000, height: 1500, fill: 200)
        var state: UInt32 = 2026
        for y in 250..<1250 {
            for x in 500..<1500 {
                state = state &* 1_103_515_245 &+ 12345
                noise.pixels[y * 2000 + x] = (state >> 16) & 1 == 0 ? 15 : 240
            }
        }
        let located = QRLocator.locate(noise)
        #expect(located.count > PlanSettings().noisyLocatedAbove, "\(located.count)")
        let matches = located.map(\.finderMatch).sorted()
        #expect(matches[matches.count / 2] < 0.7, "\(matches)")
        func views(_ settings: PlanSettings) -> Int {
            let log = RecordingPlan.Log()
            RecordingPlan.run(noise, [ScanPass("located", [.located(side: 300, margin: 0.25)])], settings: settings, log: log)
            return log.sizes.count
        }
        var off = PlanSettings()
        off.noisyLocatedAbove = .max
        #expect(views(off) > PlanSettings().noisyLocatedAbove)
        #expect(views(PlanSettings()) <= 3, "\(views(PlanSettings()))")
        // Codes match their finders: more than 24 of them on a sheet are all kept.
        let dir = try TempDir()
        let sheet = try Self.sheet(
            dir, size: "2400x1500", module: 4, texts: (0..<30).map { "NOISE-SHEET-\($0)" },
            at: { k in (40 + (k % 6) * 390, 40 + (k / 6) * 290) })
        let sheetImage = try Library.firstFrame(sheet)
        let sheetLocated = QRLocator.locate(sheetImage)
        let sheetMatches = sheetLocated.map(\.finderMatch).sorted()
        #expect(sheetLocated.count >= 30 && sheetMatches[sheetMatches.count / 2] > 0.9, "\(sheetMatches)")
        let all = RecordingPlan.Log(), kept = RecordingPlan.Log()
        RecordingPlan.run(sheetImage, [ScanPass("located", [.located(side: 300, margin: 0.25)])], settings: off, log: all)
        RecordingPlan.run(sheetImage, [ScanPass("located", [.located(side: 300, margin: 0.25)])], log: kept)
        #expect(all.sizes.count == sheetLocated.count && kept.sizes.count == sheetLocated.count, "\(all.sizes.count) \(kept.sizes.count)")
    }

    @Test("a grid drawn through a frame a fraction of a module off is read when sampled shifted back")
    func shiftedGridSampling() throws {
        let dir = try TempDir()
        let text = "SHIFTED-GRID-2026"
        let image = try Library.firstFrame(try Self.code(dir, text))
        let c = try #require(QRLocator.locate(image).first)
        // The frame moved 0.45 of a module down and right: every sample lands near the next module.
        let off = c.toImage.concatenating(Homography([1, 0, 0.45, 0, 1, 0.45, 0, 0, 1]))
        func dark(_ v: LumaImage) -> [Bool] {
            (0..<c.dimension * c.dimension).map { k in v[(4 + k % c.dimension) * 4 + 2, (4 + k / c.dimension) * 4 + 2] < 128 }
        }
        let truth = dark(image.sampledGrid(c.toImage, dimension: c.dimension, modulePixels: 4, quiet: 4).image)
        let centred = dark(image.sampledGrid(off, dimension: c.dimension, modulePixels: 4, quiet: 4).image)
        let shifted = image.sampledGrid(off, dimension: c.dimension, modulePixels: 4, quiet: 4, offset: Point(x: -0.25, y: -0.25))
        let errors = { (g: [Bool]) in zip(g, truth).filter { $0 != $1 }.count }
        #expect(errors(dark(shifted.image)) <= 3, "\(errors(dark(shifted.image)))")
        #expect(errors(centred) > 20, "\(errors(centred))")
        let read = ZBarDecoder.decode(shifted.image, symbologies: [.qr])
        #expect(read.map(\.bytes) == [Array(text.utf8)])
        // In the plan: a pass of its own after the grid redraw, listed as such.
        let listing = ScanPlan.forEffort(.normal).listing
        #expect(
            listing.contains("located-grid-shifted: located-qr-grid(shifted ±0.25 module) → zbar[2d]   when: code-like-texture and located-qr-unread"),
            "\(listing)")
    }

    @Test("doubling in integers gives the floating-point bilinear upscale's pixels exactly (so upscale(2) steps use it)")
    func integerDoublingMatchesBilinearUpscale() {
        for (w, h) in [(37, 23), (2, 2), (2, 9), (64, 3)] {
            var img = LumaImage(width: w, height: h, fill: 0)
            for i in img.pixels.indices { img.pixels[i] = UInt8((i * 7919 + (i / w) * 31) % 256) }
            let fast = img.doubled(), slow = img.bilinearUpscaled(by: 2)
            #expect(fast.width == 2 * w && fast.height == 2 * h)
            #expect(fast.pixels == slow.pixels, "\(w)x\(h)")
            #expect(img.upscaled(by: 2).pixels == slow.pixels)
        }
        // Extremes: black and white next to each other round the same way.
        var edge = LumaImage(width: 5, height: 4, fill: 255)
        for y in 0..<4 { edge[y % 5, y] = 0 }
        #expect(edge.doubled().pixels == edge.bilinearUpscaled(by: 2).pixels)
    }

    @Test("doubling copies the output of rows like the ones above: bit for bit the plain formula")
    func doublingWithRepeatedRows() {
        // The formula, pixel by pixel: weights 3/4 and 1/4 on each axis, edges clamped.
        func plain(_ img: LumaImage) -> [UInt8] {
            var out: [UInt8] = []
            for oy in 0..<(img.height * 2) {
                let y = oy / 2, y2 = oy % 2 == 0 ? max(0, y - 1) : min(img.height - 1, y + 1)
                for ox in 0..<(img.width * 2) {
                    let x = ox / 2, x2 = ox % 2 == 0 ? max(0, x - 1) : min(img.width - 1, x + 1)
                    let row = { (r: Int) in UInt32(img[x, r]) * 3 + UInt32(img[x2, r]) }
                    out.append(UInt8((row(y) * 3 + row(y2) + 8) >> 4))
                }
            }
            return out
        }
        // Runs of equal rows at the top, in the middle and at the bottom, single rows between.
        for (w, h, runs) in [(9, 2, [2]), (9, 3, [3]), (13, 20, [1, 4, 1, 1, 8, 3, 2]), (8, 17, [5, 1, 2, 9]), (5, 6, [1, 1, 1, 1, 1, 1])] {
            var img = LumaImage(width: w, height: h, fill: 0)
            var y = 0
            for (k, run) in runs.enumerated() {
                for _ in 0..<run {
                    for x in 0..<w { img[x, y] = UInt8((x * 37 + k * 91) % 256) }
                    y += 1
                }
            }
            #expect(img.doubled().pixels == plain(img), "\(w)x\(h) runs \(runs)")
        }
    }

    @Test("the binariser reuses a repeated row's sums and dark pixels: bit for bit the block-mean rule")
    func binariseWithRepeatedRows() {
        let options = QRLocator.Options()
        let B = QRLocator.blockSide, k = max(1, (options.blockRadius + B / 2) / B)
        // The rule, plainly: a pixel is dark below the mean of the 8x8 blocks within k blocks of
        // its own (edge blocks count their pixels), less the offset.
        func plain(_ img: LumaImage) -> [UInt8] {
            let bw = (img.width + B - 1) / B, bh = (img.height + B - 1) / B
            var out: [UInt8] = []
            for y in 0..<img.height {
                for x in 0..<img.width {
                    let bx = x / B, by = y / B
                    var sum = 0, count = 0
                    for yy in (max(0, by - k) * B)..<min(img.height, (min(bh, by + k + 1)) * B) {
                        for xx in (max(0, bx - k) * B)..<min(img.width, (min(bw, bx + k + 1)) * B) { sum += Int(img[xx, yy]); count += 1 }
                    }
                    let t = UInt8(clamping: sum / max(1, count) - options.offset)
                    out.append(img[x, y] < t ? 1 : 0)
                }
            }
            return out
        }
        for (w, h, runs) in [(40, 37, [3, 9, 1, 8, 16]), (33, 40, [1, 1, 17, 5, 16]), (64, 48, [48])] {
            var img = LumaImage(width: w, height: h, fill: 0)
            var y = 0
            for (r, run) in runs.enumerated() {
                for _ in 0..<run {
                    for x in 0..<w { img[x, y] = UInt8((x * 53 + r * 97 + (x / 5) * 31) % 256) }
                    y += 1
                }
            }
            #expect(QRLocator.binarise(img, scale: 1, options: options).dark == plain(img), "\(w)x\(h) runs \(runs)")
        }
    }

    @Test func homographyMapsFourPointsExactlyAndInverts() throws {
        let src = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        let dst = [Point(x: 230, y: 170), Point(x: 430, y: 190), Point(x: 470, y: 430), Point(x: 180, y: 420)]
        let h = try #require(Homography(from: src, to: dst))
        for (s, d) in zip(src, dst) {
            let p = h.apply(s)
            #expect(abs(p.x - d.x) < 1e-6 && abs(p.y - d.y) < 1e-6)
        }
        let inv = try #require(h.inverted)
        let back = inv.apply(h.apply(Point(x: 3, y: 7)))
        #expect(abs(back.x - 3) < 1e-9 && abs(back.y - 7) < 1e-9)
        // Three points on a line give no transform.
        #expect(Homography(from: [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2), Point(x: 0, y: 5)], to: dst) == nil)
    }

    @Test func locatedPassesAreNamedUniquelyAndListed() {
        for effort in Effort.allCases {
            let names = ScanPlan.forEffort(effort).passes.map(\.name)
            #expect(Set(names).count == names.count, "\(effort): \(names)")
        }
        let listing = ScanPlan.forEffort(.normal).listing
        #expect(listing.contains("located: located-qr(300px, margin 25%) → zbar[2d]   when: code-like-texture and located-qr-unread"), "\(listing)")
        #expect(
            listing.contains(
                "tiles3: tiles(3x3, overlap 15%) → zbar[all]   when: >=2MP and busy-area>=30% and located-qr>=8 and located-qr-read>=4 and located-qr-unread"),
            "\(listing)")
    }
}
