import Foundation
import Imaging
import QREncodeBridge
import QRSymbol
import Records
import Reporting
import TestSupport
import Testing

@testable import CodeSweep
@testable import SweepCore

/// The grid decoder on pictures: libqrencode's symbols drawn into an image through a
/// perspective, a bend and a blur, found by the locator and read by `QRGridReader` alone (no
/// ZBar), then through the whole reader with the details in the record.
@Suite("QRGridReader")
struct QRGridReaderTests {
    /// Every located candidate read by the grid decoder alone; with `framing`, also the symbol
    /// framed as the locator frames a code whose version it estimated right: through its three
    /// finder centres and the parallelogram's fourth point (under a perspective, a module or
    /// more off at the far corner), for the codes the locator misses (it does not find every
    /// dense code; that is the locator's limit, not the grid decoder's).
    static func gridReads(_ img: LumaImage, framing m: QRMatrix? = nil, _ toImage: Homography? = nil) -> [QRGridReader.Read] {
        var candidates = QRLocator.locate(img)
        if let m, let toImage {
            let n = Double(m.size)
            let a = toImage.apply(Point(x: 3.5, y: 3.5)), b = toImage.apply(Point(x: n - 3.5, y: 3.5)), c = toImage.apply(Point(x: 3.5, y: n - 3.5))
            let h = Homography(
                from: [Point(x: 3.5, y: 3.5), Point(x: n - 3.5, y: 3.5), Point(x: 3.5, y: n - 3.5), Point(x: n - 3.5, y: n - 3.5)],
                to: [a, b, c, Point(x: b.x + c.x - a.x, y: b.y + c.y - a.y)])!
            candidates.append(
                QRCandidate(
                    topLeft: a, topRight: b, bottomLeft: c, dimension: m.size, moduleSize: QRLocator.distance(a, b) / (n - 7),
                    alignment: nil, score: 1, toImage: h))
        }
        return candidates.compactMap { c in
            if case .read(let r) = QRGridReader.read(img, candidate: c) { return r }
            return nil
        }
    }

    @Test(
        "one symbol of every version, each level and mask in turn, drawn at 4 px a module under a slight perspective, read by the grid decoder alone, corners within 1.5 px"
    )
    func everyVersionFromPictures() throws {
        let levels = QRErrorCorrection.allCases
        for v in 1...40 {
            let ec = levels[v % 4], mask = v % 8
            let payload = Array("https://codesweep.example/v/\(v)".utf8)
            guard let made = try? QREncoder.encode(payload, ec: ec, minVersion: v), made.version == v else { continue }
            let m = try #require(made.remasked(to: mask))
            let side = Double(m.size * 4), o = 40.0
            let corners = [Point(x: o, y: o + 3), Point(x: o + side + 6, y: o), Point(x: o + side, y: o + side + 5), Point(x: o - 4, y: o + side)]
            let img = Drawn.qr(m, canvas: (Int(side + 2 * o), Int(side + 2 * o)), toImage: Drawn.frame(m, corners: corners))
            let reads = Self.gridReads(img, framing: m, Drawn.frame(m, corners: corners))
            let r = try #require(reads.first, "version \(v) \(ec) mask \(mask) not read")
            #expect(r.decoded.content.bytes == payload && r.decoded.version == v && r.decoded.ec == ec && r.decoded.mask == mask && !r.mirrored)
            expectCorners(r.corners, near: corners, tolerance: 1.5, "v\(v)")
        }
    }

    @Test("a tilted version 32 code at 4 px a module with blur, and a bent version 15 code: read through alignment-pattern sampling")
    func tiltedAndBent() throws {
        // Tilted: corners moved 5-25 px off the square, a 1 px box blur (about 0.8 px sigma).
        let dense = try QREncoder.encode(Array(String(repeating: "tilted-v32-", count: 90).utf8), ec: .M, minVersion: 32)
        try #require(dense.version == 32)
        let s = Double(dense.size * 4)
        let tilted = [Point(x: 60, y: 45), Point(x: 60 + s + 22, y: 60), Point(x: 60 + s + 5, y: 60 + s + 25), Point(x: 48, y: 60 + s - 8)]
        let t = Drawn.qr(dense, canvas: (Int(s) + 160, Int(s) + 160), toImage: Drawn.frame(dense, corners: tilted), blur: 1)
        let tr = try #require(Self.gridReads(t, framing: dense, Drawn.frame(dense, corners: tilted)).first, "tilted v32 not read")
        #expect(tr.decoded.version == 32 && tr.decoded.content.bytes == Array(String(repeating: "tilted-v32-", count: 90).utf8))

        // Bent: the middle of the code pushed down by 2.5 modules (a bow, as a label on a bottle
        // or a page that is not flat): no single perspective frame fits it.
        let bentCode = try QREncoder.encode(Array("https://codesweep.example/bent/label".utf8), ec: .M, minVersion: 15)
        let b = Double(bentCode.size * 6)
        let corners = [Point(x: 50, y: 50), Point(x: 50 + b, y: 50), Point(x: 50 + b, y: 50 + b), Point(x: 50, y: 50 + b)]
        let bow = { (p: Point) -> Point in
            let f = min(1, max(0, (p.x - 50) / b))
            return Point(x: 0, y: 15 * sin(Double.pi * f))
        }
        let bent = Drawn.qr(bentCode, canvas: (Int(b) + 100, Int(b) + 130), toImage: Drawn.frame(bentCode, corners: corners), bend: bow)
        let candidates = QRLocator.locate(bent)
        let c = try #require(candidates.first)
        // One perspective frame through the finders is modules off in the middle: the symbol
        // sampled through it alone does not decode; the reader's alignment lattice follows the bow.
        let flat = QRGridReader.Sampler(image: bent, frame: c.toImage, dimension: c.dimension, refine: false)
        #expect(flat.grids().allSatisfy { if case .success = QRSymbolDecoder.decode($0) { return false } else { return true } })
        let br = try #require(Self.gridReads(bent).first, "bent v15 not read")
        #expect(br.decoded.content.bytes == Array("https://codesweep.example/bent/label".utf8) && br.decoded.version == 15)
    }

    @Test(
        "a close-up under a strong slant (the near side 1.6 times the far one, blurred, a caption under it): the locator frames the fourth corner from the finders' widths, and the grid decoder reads it"
    )
    func closeUpUnderStrongSlant() throws {
        for (version, payload) in [(1, "V1 CLOSE UP"), (2, "codesweep close v2")] {
            let m = try QREncoder.encode(Array(payload.utf8), ec: .M, minVersion: version)
            try #require(m.version == version)
            // Photographed from low down and close: the top (far) side 20 px a module, the
            // bottom (near) side 32 px, the far side centred over the near one; blurred.
            let n = Double(m.size), far = 20 * n, near = 32 * n, height = 26 * n
            let corners = [
                Point(x: 60 + (near - far) / 2, y: 60), Point(x: 60 + (near + far) / 2, y: 60),
                Point(x: 60 + near, y: 60 + height), Point(x: 60, y: 60 + height),
            ]
            let toImage = Drawn.frame(m, corners: corners)
            var img = Drawn.qr(m, canvas: (Int(near) + 120, Int(height) + 200), toImage: toImage, blur: 2)
            // A line of print under the code, past its quiet zone (a label's caption, as on the
            // BoofCV close-ups): the finders' outer sides no longer give the fourth corner.
            var px = img.pixels
            for y in Int(60 + height + 50)..<Int(60 + height + 80) { for x in 80..<Int(near) + 40 { px[y * img.width + x] = 40 } }
            img = LumaImage(width: img.width, height: img.height, pixels: px)
            let c = try #require(QRLocator.locate(img).first, "v\(version): not located")
            let located = c.toImage.apply(Point(x: Double(c.dimension), y: Double(c.dimension)))
            // The corner no finder marks where the symbol has it, within a module (the
            // parallelogram through the finder centres puts it some seven modules off).
            #expect(c.dimension == m.size && QRLocator.distance(located, corners[2]) < 20, "v\(version): fourth corner at \(located), drawn at \(corners[2])")
            guard case .read(let r) = QRGridReader.read(img, candidate: c) else {
                Issue.record("v\(version): the grid decoder did not read the located candidate")
                continue
            }
            #expect(r.decoded.content.bytes == Array(payload.utf8) && r.decoded.version == version)
            // Within a module (20-32 px here).
            expectCorners(r.corners, near: corners, tolerance: 20, "v\(version) close-up")
        }
    }

    @Test("a mirrored code is read as its mirror image and says so")
    func mirrored() throws {
        let m = try QREncoder.encode(Array("mirror-image".utf8), ec: .Q, minVersion: 3)
        let side = Double(m.size * 5)
        let corners = [Point(x: 30, y: 30), Point(x: 30 + side, y: 30), Point(x: 30 + side, y: 30 + side), Point(x: 30, y: 30 + side)]
        let img = Drawn.qr(m, canvas: (Int(side) + 60, Int(side) + 60), toImage: Drawn.frame(m, corners: corners), mirrored: true)
        let r = try #require(Self.gridReads(img).first)
        #expect(r.mirrored && r.decoded.content.bytes == Array("mirror-image".utf8) && r.decoded.ec == .Q)
    }

    @Test("random modules behind real finder, timing and alignment patterns are never read, by the grid decoder or the fast and normal plans")
    func fakeCodesNeverRead() throws {
        var r = Rand(state: 2026)
        for trial in 0..<24 {
            let v = 1 + (trial * 7) % 25
            let base = try QREncoder.encode(Array("x".utf8), ec: .L, minVersion: v)
            let roles = QRStructure.roles(version: v)
            var modules = base.modules
            // Random data; format information random in half of them, real in the other half.
            for i in 0..<modules.count where roles[i] == .data || (trial % 2 == 0 && roles[i] == .format) { modules[i] = r.below(2) == 0 }
            let fake = QRMatrix(version: v, ec: .L, size: base.size, modules: modules)
            let side = Double(fake.size * 5)
            let corners = [Point(x: 40, y: 44), Point(x: 40 + side, y: 40), Point(x: 44 + side, y: 40 + side), Point(x: 40, y: 44 + side)]
            let img = Drawn.qr(fake, canvas: (Int(side) + 90, Int(side) + 90), toImage: Drawn.frame(fake, corners: corners))
            #expect(!QRLocator.locate(img).isEmpty, "trial \(trial): the locator should find the fake")
            #expect(Self.gridReads(img).isEmpty, "trial \(trial): a fake code was read")
            // normal retries such a picture many ways (seconds each in a debug build): every sixth.
            for effort in trial % 6 == 0 ? [Effort.fast, .normal] : [.fast] {
                #expect(BarcodeReader.read(ReadFrame(img), ReaderOptions(effort: effort)).codes.isEmpty, "trial \(trial) \(effort)")
            }
        }
    }

    @Test("records carry the symbol's version, level, mask and mirroring; the fast plan reads a code its ZBar pass misses")
    func detailsInRecords() throws {
        let dir = try TempDir("grid")
        // A dense code under a strong tilt and blur: ZBar's 1 MP pass misses it, the grid decoder reads it.
        let m = try QREncoder.encode(Array(String(repeating: "details-", count: 40).utf8), ec: .H, minVersion: 22)
        let s = Double(m.size * 4)
        let corners = [Point(x: 80, y: 60), Point(x: 80 + s + 30, y: 90), Point(x: 80 + s + 10, y: 90 + s + 20), Point(x: 70, y: 60 + s - 10)]
        let img = Drawn.qr(m, canvas: (Int(s) + 220, Int(s) + 220), toImage: Drawn.frame(m, corners: corners), blur: 1, mirrored: true)
        let pgm = dir.file("tilted.pgm")
        try (Data("P5 \(img.width) \(img.height) 255\n".utf8) + Data(img.pixels)).write(to: URL(fileURLWithPath: pgm))
        let png = dir.file("tilted.png")
        try Make.convert([pgm, png])
        var settings = ScanSettings()
        settings.reader = ReaderOptions(effort: .fast)
        // The drawn picture is noise-free (a digital frame, read by zxing-cpp first): zxing-cpp's
        // read carries the same details.
        let digital = try #require(try Library.file(png, settings: settings).codes.first)
        #expect(digital.qr == QRDetails(version: 22, ecLevel: "H", mask: m.detectMask()!, mirrored: true), "\(digital.pass)")
        // The photo path: under 1 MP zxing-cpp reads first, and reads it too; without zxing-cpp's
        // passes the grid decoder reads it.
        settings.reader.plan.digital = []
        #expect(try Library.file(png, settings: settings).codes.map(\.pass) == ["zxing-fit1"])
        settings.reader.plan.passes.removeAll { $0.reader == .zxing }
        let record = try Library.file(png, settings: settings)
        let code = try #require(record.codes.first)
        #expect(code.bytes == Array(String(repeating: "details-", count: 40).utf8))
        #expect(code.pass == "grid")
        #expect(code.qr == QRDetails(version: 22, ecLevel: "H", mask: m.detectMask()!, mirrored: true))
        // In the JSON record, and read back the same (the worker protocol reads records).
        let line = record.json().serialized()
        #expect(line.contains("\"version\":22") && line.contains("\"ec_level\":\"H\"") && line.contains("\"mirrored\":true"))
        let back = try JSONDecoder().decode(FileRecord.self, from: Data(line.utf8))
        #expect(back.codes.first?.qr == code.qr)
    }
}

extension QRGridReaderTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return stored }
    }

    @Test("a located candidate without format information is no code: the warp passes skip it (and run on it without the gate)")
    func notACodeGatesTheWarps() throws {
        // Format bits at least 4 from every format codeword, in both copies.
        let far = try #require((0..<(1 << 15)).first { bits in QRFormat.all.allSatisfy { ($0.codeword ^ bits).nonzeroBitCount >= 4 } })
        var r = Rand(state: 77)
        let base = try QREncoder.encode(Array("x".utf8), ec: .L, minVersion: 3)
        let roles = QRStructure.roles(version: 3)
        var modules = base.modules
        for i in 0..<modules.count where roles[i] == .data { modules[i] = r.below(2) == 0 }
        let (first, second) = QRFormat.positions(size: base.size)
        for (k, p) in first.enumerated() { modules[p.y * base.size + p.x] = far >> k & 1 == 1 }
        for (k, p) in second.enumerated() { modules[p.y * base.size + p.x] = far >> k & 1 == 1 }
        let fake = QRMatrix(version: 3, ec: .L, size: base.size, modules: modules)
        let side = Double(fake.size * 6)
        let corners = [Point(x: 60, y: 60), Point(x: 60 + side, y: 60), Point(x: 60 + side, y: 60 + side), Point(x: 60, y: 60 + side)]
        let img = Drawn.qr(fake, canvas: (Int(side) + 120, Int(side) + 120), toImage: Drawn.frame(fake, corners: corners))
        func passes(gate: Bool) -> [String] {
            var options = ReaderOptions(effort: .normal)
            options.plan.settings.gridRejectsNonCodes = gate
            var executor = PlanExecutor(options: options) { _, _ in [] }
            let lines = Lines()
            executor.trace = { lines.add($0) }
            #expect(executor.scan(img).isEmpty)
            return lines.all.filter { $0.hasPrefix("pass ") }.map { String($0.split(separator: " ")[1]) }
        }
        let gated = passes(gate: true), open = passes(gate: false)
        #expect(gated.contains("grid") && open.contains("grid"))
        #expect(!gated.contains { $0.hasPrefix("located") }, "\(gated)")
        #expect(open.contains("located") && open.contains("located-threshold"), "\(open)")
    }
}
