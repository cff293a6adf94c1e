import CodeSweep
import Foundation
import Imaging
import MagickBridge
import Records
import TestSupport
import Testing
import ZBarBridge
import ZXingBridge

@testable import AssetCheck
@testable import CodeGenerate
@testable import SweepCore

/// `generate` verifies faster than `check` grades, without grading differently: the degradations
/// are the plain per-pixel loops bit for bit, the gated margin search gives the full search's
/// grade, and a code's verification grade is the grade `check` gives the written file.
@Suite("Scannability gate")
struct ScannabilityGateTests {
    // MARK: - The degradations, as they were written first (plain loops): the reference.

    static func plainResampled(_ img: LumaImage, scale: Double) -> LumaImage {
        let width = img.width, height = img.height, pixels = img.pixels
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        guard width > 0, height > 0 else { return img }
        if w == width && h == height { return img }
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        func spans(_ n: Int, _ s: Double, _ limit: Int) -> [(Int, Int, [Double])] {
            (0..<n).map { o in
                let a = Double(o) * s, b = min(Double(limit), Double(o + 1) * s)
                let i0 = Int(a), i1 = min(limit - 1, max(i0, Int((b - 1e-9).rounded(.down))))
                var weights: [Double] = []
                for i in i0...i1 {
                    let lo = max(a, Double(i)), hi = min(b, Double(i + 1))
                    weights.append(max(0, hi - lo))
                }
                return (i0, i1, weights)
            }
        }
        let xs = spans(w, sx, width), ys = spans(h, sy, height)
        var tmp = [Double](repeating: 0, count: w * height)
        for y in 0..<height {
            let row = y * width
            for (ox, (i0, _, wts)) in xs.enumerated() {
                var s = 0.0, t = 0.0
                for (k, wt) in wts.enumerated() { s += Double(pixels[row + i0 + k]) * wt; t += wt }
                tmp[y * w + ox] = t > 0 ? s / t : 255
            }
        }
        var out = [UInt8](repeating: 0, count: w * h)
        for (oy, (j0, _, wts)) in ys.enumerated() {
            for x in 0..<w {
                var s = 0.0, t = 0.0
                for (k, wt) in wts.enumerated() { s += tmp[(j0 + k) * w + x] * wt; t += wt }
                out[oy * w + x] = UInt8(max(0, min(255, (t > 0 ? s / t : 255).rounded())))
            }
        }
        return LumaImage(width: w, height: h, pixels: out)
    }

    /// The plain blur loops (kept once, in GenerateTests), with the blur's own no-op guard.
    static func plainBlurred(_ img: LumaImage, sigma: Double) -> LumaImage {
        guard sigma > 0.05, img.width > 0, img.height > 0 else { return img }
        return Reference.gaussianBlur(img, sigma: sigma)
    }

    static func plainFaded(_ img: LumaImage, to fraction: Double, light: UInt8) -> LumaImage {
        let l = Double(light)
        return LumaImage(
            width: img.width, height: img.height,
            pixels: img.pixels.map {
                UInt8(max(0, min(255, (l + (Double($0) - l) * fraction).rounded())))
            })
    }

    /// Seeded pictures: noise, hard two-level modules (as codes are) and smooth ramps, odd sizes.
    static func pictures() -> [LumaImage] {
        var rng = SplitMix(seed: 2026)
        var out: [LumaImage] = []
        for (w, h) in [(1, 1), (2, 5), (7, 3), (13, 13), (40, 29), (97, 64), (211, 180)] {
            out.append(LumaImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
            let m = 1 + rng.int(7)
            out.append(
                LumaImage(
                    width: w, height: h,
                    pixels: (0..<(w * h)).map { i in
                        ((i % w) / m + (i / w) / m) % 3 == 0 ? 20 : 235
                    }))
            out.append(LumaImage(width: w, height: h, pixels: (0..<(w * h)).map { i in UInt8((i % w) * 255 / max(1, w - 1)) }))
        }
        return out
    }

    @Test("resample, blur and fade are the plain per-pixel loops bit for bit")
    func degradationsBitForBit() {
        for img in Self.pictures() {
            for s in [1 / 1.25, 1 / 1.5, 0.5, 1 / 3.0, 0.25, 6.0 / 8, 6.0 / 7.3, 0.99, 1.7] {
                #expect(img.resampled(scale: s) == Self.plainResampled(img, scale: s), "resample \(img.width)x\(img.height) by \(s)")
            }
            for sigma in [0.04, 0.1, 0.6, 1.2, 2.1, 3, 4.2, 5.5] {
                #expect(img.gaussianBlurred(sigma: sigma) == Self.plainBlurred(img, sigma: sigma), "blur \(img.width)x\(img.height) σ \(sigma)")
            }
            for f in [1, 0.5, 0.3, 0.2, 0.12, 0] {
                for light: UInt8 in [255, 230, 17] {
                    #expect(img.contrastReduced(to: f, light: light) == Self.plainFaded(img, to: f, light: light))
                }
            }
        }
        // The rounding without libm: ties away from zero, as `rounded()`.
        var values: [Double] = [
            0, 0.49999999999999994, 0.5, 1.5, 2.5, 127.5, 254.49, 254.5, 255.49999999999997, 255.5, 300,
            -0.4, -0.5, -3, 1e300, .infinity, 4_503_599_627_370_496, 0.5000000000000001,
        ]
        for k in 0...256 {
            let x = Double(k)
            values += [x, x + 0.5, (x + 0.5).nextDown, (x + 0.5).nextUp, x.nextDown, x.nextUp, x + 0.25, x + 0.75]
        }
        for v in values {
            #expect(clampedByte(v) == UInt8(max(0, min(255, v.rounded()))), "\(v)")
        }
        // Bilinear samples: the plain formula with checked conversions, bit for bit, inside,
        // on pixel centres and halves, at and past the edges.
        let img = LumaImage(width: 7, height: 5, pixels: (0..<35).map { UInt8(($0 * 73 + 11) % 256) })
        func plainSample(_ px: Double, _ py: Double) -> Double {
            let x = max(0, min(Double(img.width - 1), px)), y = max(0, min(Double(img.height - 1), py))
            let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, img.width - 1), y1 = min(y0 + 1, img.height - 1)
            let fx = x - Double(x0), fy = y - Double(y0)
            let a = Double(img[x0, y0]), b = Double(img[x1, y0]), c = Double(img[x0, y1]), d = Double(img[x1, y1])
            return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
        }
        for px in stride(from: -1.0, through: 7.5, by: 0.125) + [(2.5).nextDown, (2.5).nextUp, (3.0).nextDown, 0.1, 5.999999999] {
            for py in [-0.3, 0, 0.5, (1.5).nextDown, 1.25, 2.5, 3.7, 4, 4.2, 9] {
                #expect(img.sample(Point(x: px, y: py)).bitPattern == plainSample(px, py).bitPattern, "\(px), \(py)")
            }
        }
    }

    // MARK: - The gated search against the full one

    /// Codes with grades from A down: small modules, thin quiet zones, weak contrast, inverted,
    /// a logo, and the same codes shrunk and blurred as a print would be.
    static func specimens() throws -> [(name: String, image: LumaImage, payload: [UInt8])] {
        let options: [[(String, String)]] = [
            [], [("ec", "L"), ("module", "6")], [("module", "2")], [("module", "3"), ("margin", "2")],
            [("module", "4"), ("margin", "1")], [("fg", "#555555"), ("bg", "#dddddd")], [("fg", "#777777")],
            [("fg", "white"), ("bg", "navy")], [("ec", "H"), ("size", "200")], [("module", "2"), ("margin", "0")],
        ]
        var out: [(String, LumaImage, [UInt8])] = []
        for (i, opts) in options.enumerated() {
            var spec = CodeSpec()
            for (k, v) in opts { try spec.apply(option: k, value: v) }
            let payload = Array("https://example.com/gate/\(i)?utm_source=test&utm_campaign=c\(i * 7)".utf8)
            let code = try CodeGenerator.make(payload, spec: spec)
            let image = try #require(Verifier.luma(of: code))
            out.append(("\(opts)", image, code.payload))
            out.append(("\(opts) blurred", image.gaussianBlurred(sigma: 0.3 * Double(code.layout.modulePx)), code.payload))
            out.append(("\(opts) shrunk", image.resampled(scale: 0.6), code.payload))
        }
        var spec = CodeSpec()
        spec.logoPath = "logo.png"
        spec.logoSize = 0.10
        let logoCode = try CodeGenerator.make(Array("https://example.com/gate/logo".utf8), spec: spec, logo: try Make.logoPNG())
        out.append(("logo", try #require(Verifier.luma(of: logoCode)), logoCode.payload))
        return out
    }

    @Test("the gated margin search gives the full search's grade and weak parameters, at every gate")
    func gatedEqualsFull() throws {
        let probe = ScannabilityProbe.plainLook
        var grades = Set<Grade>()
        var measured = 0
        for s in try Self.specimens() {
            guard
                let code = BarcodeReader.read(ReadFrame(s.image), ReaderOptions(symbologies: SymbologySet([.qr]))).codes.first(where: { $0.bytes == s.payload })
            else { continue }
            let full = probe.measure(code, in: s.image)
            #expect(full.marginsComplete)
            grades.insert(full.grade)
            measured += 1
            for gate in [Grade.A, .B, .C, .D] {
                let gated = probe.measure(code, in: s.image, gate: gate)
                #expect(gated.grade == full.grade, "\(s.name) gate \(gate): \(gated.grades) vs \(full.grades)")
                let weak = { (x: Scannability) in x.weakest(below: gate).map { "\($0.parameter) \($0.grade)" } }
                #expect(weak(gated) == weak(full), "\(s.name) gate \(gate)")
                // What is not a margin is measured the same.
                #expect(
                    gated.readsAsIs == full.readsAsIs && gated.inverted == full.inverted && gated.contrast == full.contrast
                        && gated.modulePx == full.modulePx && gated.quietZonePx == full.quietZonePx)
                // Margins are lower bounds of the full ones.
                #expect(
                    gated.scaleMargin <= full.scaleMargin && gated.blurMargin <= full.blurMargin
                        && gated.contrastMargin >= full.contrastMargin)
                if gated.marginsComplete { #expect(gated == full) }
            }
        }
        #expect(measured >= 25)
        // The set is worth something only if it spans grades.
        #expect(grades.count >= 3, "grades seen: \(grades)")
    }

    @Test("the region takes the image's edge within a module of it, and only there")
    func regionSnapsToEdges() {
        // A code from 33 to 327 in a 360 px picture, 8 px modules: 4 modules of margin reach 1 px.
        let made = ScannabilityProbe.region(around: (33, 33, 327, 327), margin: 31.8, snap: 7.95, width: 360, height: 360)
        #expect(made == PixelRect(x: 0, y: 0, width: 360, height: 360))
        // In a photo the same code keeps its margin on every side.
        let photo = ScannabilityProbe.region(around: (533, 433, 827, 727), margin: 31.8, snap: 7.95, width: 2000, height: 1500)
        #expect(photo == PixelRect(x: 501, y: 401, width: 359, height: 359))
        // Near one edge only: that side snaps, the others stay.
        let corner = ScannabilityProbe.region(around: (36, 300, 330, 594), margin: 31.8, snap: 7.95, width: 1000, height: 1000)
        #expect(corner == PixelRect(x: 0, y: 268, width: 363, height: 359))
    }

    @Test("the probe's plain look through the engine reads what one call of the decoder itself reads")
    func plainLookIsOneDecoderCall() throws {
        MagickEnvironment.start()
        let symbologies: [Symbology] = [.qr, .ean13, .ean5, .code128, .datamatrix, .pdf417]
        var checked = 0
        for name in ["ean13-product.jpg", "datamatrix-label.png", "qr-photo.jpg", "boarding-pass.png", "screenshot.png"] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: PackageRoot.samples + "/" + name)))
            let format = try #require(ImageFormat.sniff(bytes.prefix(32)))
            let image = try #require(try ImageLoader.load(bytes, format: format).frames.first)
            // As is, shrunk, a thin strip (the plan would pad it) and a sliver under the plan's smallest view.
            let views = [
                image, image.downscaled(by: 3),
                image.cropped(PixelRect(x: 0, y: image.height / 2, width: image.width, height: 6)),
                image.cropped(PixelRect(x: image.width / 3, y: 0, width: 5, height: image.height)),
            ]
            for view in views {
                for symbology in symbologies {
                    let direct =
                        symbology.reader == .zxing
                        ? ZXingDecoder.decode(view, symbologies: [symbology]).symbols
                        : ZBarDecoder.decode(view, symbologies: [symbology])
                    let expected = Set(direct.filter { $0.symbology == symbology }.map(\.bytes))
                    let probed = Set(ScannabilityProbe.plainLook.decode(view, symbology))
                    #expect(probed == expected, "\(name) \(view.width)x\(view.height) \(symbology)")
                    checked += expected.count
                }
            }
        }
        #expect(checked >= 4, "the samples hold codes the plain look reads")
    }

    @Test("a made code is measured on the pixels the read decoded: that decode is not done twice")
    func madeCodeReusesTheRead() throws {
        let code = try CodeGenerator.make(Array("https://www.example.com/c/0?utm_source=flyer&utm_campaign=winter-0".utf8), spec: CodeSpec())
        let image = try #require(Verifier.luma(of: code))
        var options = ReaderOptions(symbologies: SymbologySet([.qr]), effort: .normal)
        // As the Verifier reads it: the photo passes (a drawn code would take the digital path).
        options.plan.digital = []
        options.keepsDecodeLog = true
        let read = BarcodeReader.read(ReadFrame(image), options)
        let found = read.codes
        let log = try #require(read.log)
        let match = try #require(found.first { $0.bytes == code.payload })
        // The premise: the grid decoder reads the code first (QR codes located first) and gives
        // its outer edge, on the 32 px margin, so the code's box plus 4 measured modules is the
        // picture whole.
        #expect(match.pass == "grid" && match.corners.boundingBox.minX >= 31.5 && code.layout.modulePx == 8)
        final class Seen: @unchecked Sendable { var images: [LumaImage] = [] }
        let seen = Seen()
        let production = ScannabilityProbe.plainLook(reusing: log)
        let probe = ScannabilityProbe { img, symbology in
            if log.zbar(img, symbologies: [symbology]) == nil { seen.images.append(img) }
            return production.decode(img, symbology)
        }
        let s = probe.measure(match, in: image, gate: .B)
        #expect(s.readsAsIs && s.grade == .A)
        // The probe decodes only what the read's log does not hold: degraded (smaller) copies, and
        // the picture as it is at most once (the read's grid decoder made no ZBar decode of it),
        // and no view twice.
        #expect(!seen.images.isEmpty)
        #expect(seen.images.filter { $0.width >= image.width * 9 / 10 }.count <= 1, "\(seen.images.map(\.width)) of \(image.width)")
        #expect(seen.images.indices.allSatisfy { i in !seen.images[..<i].contains(seen.images[i]) }, "a view decoded twice")
    }

    // MARK: - Verification against check

    @Test("generate's verification grade is the grade check gives the written file")
    func verificationGradeIsChecks() async throws {
        let dir = try TempDir()
        let verifier = Verifier(minGrade: .D)
        var expected: [String: Grade] = [:]
        let logo = try Make.logoPNG()
        let options: [[(String, String)]] = [
            [], [("ec", "Q")], [("fg", "#003366")], [("ec", "L"), ("module", "6")], [("size", "360")], [("module", "2")],
            [("module", "3"), ("margin", "2")], [("fg", "#666666"), ("bg", "#e0e0e0")], [("fg", "white"), ("bg", "#1d3557")],
            [("module", "2"), ("margin", "1")], [("logo", "logo.png"), ("logo-size", "0.08")], [("format", "jpeg"), ("module", "3")],
        ]
        for (i, opts) in options.enumerated() {
            var spec = CodeSpec()
            for (k, v) in opts { try spec.apply(option: k, value: v) }
            let code = try CodeGenerator.make(
                Array("https://www.example.com/c/\(i)?utm_source=flyer".utf8), spec: spec,
                logo: spec.logoPath == nil ? nil : logo)
            let name = "code-\(i).\(code.format.fileExtension)"
            let v = verifier.verify(code, path: dir.file(name))
            let s = try #require(v.scannability, "\(opts): \(v.problems)")
            expected[name] = s.grade
            try Data(code.file).write(to: URL(fileURLWithPath: dir.file(name)))
        }
        #expect(Set(expected.values).count >= 3, "grades: \(expected)")
        let runner = CheckRunner(
            rules: CheckRules(), context: PathContext(currentDirectory: dir.path), today: "2026-01-01",
            jobs: 2, isolation: .none)
        let (records, scans) = await runner.scan(paths: [dir.path])
        var checked = 0
        for (r, s) in zip(records, scans) {
            let name = URL(fileURLWithPath: r.path).lastPathComponent
            guard let want = expected[name] else { continue }
            let grade = try #require(s.first ?? nil, "check measured no code in \(name)").grade
            #expect(grade == want, "\(name): check \(grade), generate \(want)")
            checked += 1
        }
        #expect(checked == expected.count)
    }

    @Test("verification still fails a code that does not read back, and one graded below --min-grade")
    func verificationStillFails() throws {
        // The file that would be written holds a blank picture: nothing reads back.
        var code = try CodeGenerator.make(Array("https://example.com/blank".utf8), spec: CodeSpec())
        code.file = try CodePicture.encode(RGBImage(width: code.raster.width, height: code.raster.height, fill: RGBColor(r: 255, g: 255, b: 255)), as: .png)
        let blank = Verifier(minGrade: .D).verify(code, path: "b.png")
        #expect(!blank.passed && !blank.readsBack && blank.problems.contains { $0.contains("does not read back") }, "\(blank.problems)")
        // The file holds another code than the one made: read, but not byte-exact.
        let other = try CodeGenerator.make(Array("https://example.com/other".utf8), spec: CodeSpec())
        code.file = other.file
        let wrong = Verifier(minGrade: .D).verify(code, path: "w.png")
        #expect(!wrong.passed && wrong.problems.contains { $0.contains("does not read back exactly") }, "\(wrong.problems)")

        // 2 px modules and a 1-module margin: graded below B; the message names the same weak
        // parameters the full grading finds.
        var small = CodeSpec()
        small.modulePx = 2
        small.margin = 1
        let weak = try CodeGenerator.make(Array("https://example.com/weak?utm_source=x".utf8), spec: small)
        let v = Verifier(minGrade: .B).verify(weak, path: "weak.png")
        let s = try #require(v.scannability)
        #expect(!v.passed && s.grade < .B && v.problems.contains { $0.hasPrefix("grade \(s.grade), below --min-grade B") }, "\(v.problems)")
        let image = try #require(Verifier.luma(of: weak))
        let read = try #require(BarcodeReader.read(ReadFrame(image), ReaderOptions(symbologies: SymbologySet([.qr]))).codes.first)
        let full = ScannabilityProbe.plainLook.measure(read, in: image)
        #expect(full.grade == s.grade)
        #expect(full.weakest(below: .B).map { "\($0.parameter) \($0.grade)" } == s.weakest(below: .B).map { "\($0.parameter) \($0.grade)" })
        // The same code passes a gate at its own grade.
        #expect(Verifier(minGrade: s.grade == .F ? .D : s.grade).verify(weak, path: "weak.png").passed == (s.grade != .F))
    }
}
