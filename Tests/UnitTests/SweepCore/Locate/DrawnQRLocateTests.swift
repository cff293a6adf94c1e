import Foundation
import Imaging
import QRSymbol
import Records
import TestSupport
import Testing

@testable import SweepCore

/// The QR locator and the grid reader on pictures drawn in memory, no file and no C library:
/// symbols made here from QRSymbol's parts (byte mode, Reed-Solomon blocks, a chosen mask),
/// drawn through a frame (turned, keystoned, small), located by `QRLocator` and read by
/// `QRGridReader` alone; and drawings that are no code. (The same on libqrencode's symbols and
/// on files made with ImageMagick: the integration tests' QRGridReaderTests and LocatorTests.)
@Suite("QR locator and grid reader on drawn codes")
struct DrawnQRLocateTests {
    /// A symbol of `version` at level `ec` under `mask` carrying `payload` in one byte segment:
    /// the function patterns the grid reader knows, version information from version 7, the
    /// data padded, split into blocks, each with its error correction, interleaved and masked,
    /// and the format information written.
    static func symbol(_ payload: [UInt8], version v: Int, ec: QRErrorCorrection, mask: Int) throws -> QRMatrix {
        let n = QRStructure.size(version: v)
        var modules = [Bool](repeating: false, count: n * n)
        for k in QRGridReader.Sampler.knownModules(version: v) { modules[Int(k.v) * n + Int(k.u)] = k.t > 0 }
        if v >= 7 {
            let code = QRVersionInformation.codeword(v)
            let (a, b) = QRVersionInformation.positions(size: n)
            for (i, p) in (a.enumerated().map { $0 } + b.enumerated().map { $0 }) { modules[p.y * n + p.x] = code >> i & 1 == 1 }
        }
        let layout = QRBlockLayout(version: v, ec: ec)
        let capacity = layout.dataCodewords * 8
        var bits = QRSymbolTests.Bits()
        bits.put(0b0100, 4)
        bits.put(payload.count, v < 10 ? 8 : 16)
        for byte in payload { bits.put(Int(byte), 8) }
        guard bits.count <= capacity else { throw DoesNotFit(bytes: payload.count, version: v, ec: ec) }
        bits.put(0, min(4, capacity - bits.count))
        if bits.count % 8 != 0 { bits.put(0, 8 - bits.count % 8) }
        var data = bits.out
        while data.count < layout.dataCodewords { data.append(data.count % 2 == bits.out.count % 2 ? 0xEC : 0x11) }
        let rs = ReedSolomonEncoder(degree: layout.ecPerBlock)
        var start = 0
        let blocks = layout.dataPerBlock.map { k in
            let d = Array(data[start..<(start + k)])
            start += k
            return d + rs.errorCorrection(d)
        }
        return QRMatrix(version: v, ec: ec, size: n, modules: modules)
            .replacingCodewords(layout.codewords(of: blocks), mask: mask)
            .writingFormat(QRFormat(ec: ec, mask: mask))
    }

    struct DoesNotFit: Error {
        var bytes: Int, version: Int, ec: QRErrorCorrection
    }

    /// A drawing of a code: the symbol's corners (clockwise from its own top-left) and the
    /// picture.
    struct Drawing {
        var m: QRMatrix
        var corners: [Point]
        var image: LumaImage
    }

    /// `m` drawn at `module` px a module, turned by `degrees` about the centre of a canvas
    /// with room round it, its top edge narrowed by `keystone` px at each end (a perspective).
    static func draw(_ m: QRMatrix, module: Double, degrees: Double, keystone: Double = 0, mirrored: Bool = false) -> Drawing {
        let side = module * Double(m.size)
        let canvas = Int((side * 1.5 + 60).rounded())
        let c = Double(canvas) / 2, h = side / 2
        let square = [Point(x: -h + keystone, y: -h), Point(x: h - keystone, y: -h), Point(x: h, y: h), Point(x: -h, y: h)]
        let a = degrees * Double.pi / 180
        let corners = square.map { Point(x: c + $0.x * cos(a) - $0.y * sin(a), y: c + $0.x * sin(a) + $0.y * cos(a)) }
        let image = Drawn.qr(m, canvas: (canvas, canvas), toImage: Drawn.frame(m, corners: corners), mirrored: mirrored)
        return Drawing(m: m, corners: corners, image: image)
    }

    /// The largest distance between two outlines' corners, corner by corner.
    static func cornerError(_ quad: Quad, _ corners: [Point]) -> Double {
        zip(quad.points, corners).map { QRLocator.distance($0, $1) }.max() ?? .infinity
    }

    /// (version, level, mask, px a module, degrees, keystone px): sizes from 3 to 8 px a
    /// module, turns all round, two perspectives.
    static let cases: [(Int, QRErrorCorrection, Int, Double, Double, Double)] = [
        (1, .L, 0, 6, 0, 0), (2, .M, 1, 5, 17, 0), (3, .Q, 2, 8, 200, 0), (4, .H, 3, 4, 95, 0),
        (5, .M, 4, 4, 310, 0), (7, .L, 5, 4, 33, 0), (10, .Q, 6, 3, 0, 0), (3, .M, 7, 6, 10, 14),
        (6, .H, 5, 5, 250, 20),
    ]

    /// Case `i`'s payload for `version` at `ec`: "CS-i:" then pseudo-random bytes (0x00 and 0xFF
    /// among them), filling most of the symbol's data codewords.
    static func payload(_ i: Int, version: Int, ec: QRErrorCorrection) -> [UInt8] {
        var r = Rand(state: UInt64(100 + i))
        let room = QRBlockLayout(version: version, ec: ec).dataCodewords - (version < 10 ? 2 : 3)
        let head = Array("CS-\(i):".utf8)
        return head + [0x00, 0xFF] + (0..<(room * 4 / 5 - head.count - 2)).map { _ in UInt8(r.below(256)) }
    }

    @Test("the symbols made here decode from their modules: the drawings below carry what they say")
    func symbolsDecode() throws {
        for (i, (v, ec, mask, _, _, _)) in Self.cases.enumerated() {
            let payload = Self.payload(i, version: v, ec: ec)
            let decoded = try QRSymbolDecoder.decode(QRModuleGrid(Self.symbol(payload, version: v, ec: ec, mask: mask))).get()
            #expect(decoded.content.bytes == payload && decoded.version == v && decoded.ec == ec && decoded.mask == mask && decoded.corrected == 0)
        }
    }

    @Test("one candidate per drawn code, of its size, its outline within a module of the drawing, at every size, turn and perspective")
    func locatorFindsEachDrawnCode() throws {
        for (i, (v, ec, mask, px, deg, keystone)) in Self.cases.enumerated() {
            let d = Self.draw(
                try Self.symbol(Self.payload(i, version: v, ec: ec), version: v, ec: ec, mask: mask), module: px, degrees: deg, keystone: keystone)
            let found = QRLocator.locate(d.image)
            let label = "v\(v) at \(px) px, \(deg)°, keystone \(keystone)"
            try #require(found.count == 1, "\(label): \(found.count) candidates")
            #expect(found[0].dimension == d.m.size, "\(label): dimension \(found[0].dimension)")
            let error = Self.cornerError(found[0].corners, d.corners)
            #expect(error <= px, "\(label): a corner \(error) px off")
        }
    }

    @Test("two codes in one picture: the two best candidates are the two codes, each framed; the grid reader reads both, nothing else")
    func locatorFindsTwoCodes() throws {
        let pa = Self.payload(1, version: 2, ec: .M), pb = Self.payload(2, version: 4, ec: .L)
        let a = try Self.draw(Self.symbol(pa, version: 2, ec: .M, mask: 3), module: 5, degrees: 12)
        let b = try Self.draw(Self.symbol(pb, version: 4, ec: .L, mask: 6), module: 4, degrees: 280)
        // Side by side: b's picture to the right of a's, the two laid on one canvas.
        let w = a.image.width + b.image.width, h = max(a.image.height, b.image.height)
        var picture = LumaImage(width: w, height: h, fill: 235)
        for y in 0..<a.image.height { for x in 0..<a.image.width { picture.pixels[y * w + x] = a.image.pixels[y * a.image.width + x] } }
        for y in 0..<b.image.height {
            for x in 0..<b.image.width { picture.pixels[y * w + a.image.width + x] = b.image.pixels[y * b.image.width + x] }
        }
        let shifted = b.corners.map { Point(x: $0.x + Double(a.image.width), y: $0.y) }
        let found = QRLocator.locate(picture)
        // Behind the two, at most guesses from two finders and a third (ranked last, their
        // finders half seen): here one, b's two finders with a wrong third.
        try #require(found.count >= 2, "\(found.count) candidates")
        #expect(found.filter { $0.finderMatch >= 0.8 }.count == 2, "\(found.map(\.finderMatch))")
        for (drawn, size, px) in [(a.corners, a.m.size, 5.0), (shifted, b.m.size, 4.0)] {
            let near = found.prefix(2).filter { Self.cornerError($0.corners, drawn) <= px }
            #expect(near.count == 1 && near.first?.dimension == size, "\(near.map(\.dimension))")
        }
        var read: Set<[UInt8]> = []
        for c in found { if case .read(let r) = QRGridReader.read(picture, candidate: c) { read.insert(r.decoded.content.bytes) } }
        #expect(read == [pa, pb], "\(read.count) payloads read")
    }

    @Test("the grid reader gives back each drawn code's bytes, version, level and mask, its corners within a pixel and a half")
    func gridReaderReadsEachDrawnCode() throws {
        for (i, (v, ec, mask, px, deg, keystone)) in Self.cases.enumerated() {
            let payload = Self.payload(i, version: v, ec: ec)
            let d = try Self.draw(Self.symbol(payload, version: v, ec: ec, mask: mask), module: px, degrees: deg, keystone: keystone)
            let label = "v\(v)-\(ec) mask \(mask) at \(px) px, \(deg)°"
            let candidate = try #require(QRLocator.locate(d.image).first, "\(label): not located")
            guard case .read(let r) = QRGridReader.read(d.image, candidate: candidate) else {
                Issue.record("\(label): not read")
                continue
            }
            #expect(r.decoded.content.bytes == payload, "\(label)")
            #expect(r.decoded.version == v && r.decoded.ec == ec && r.decoded.mask == mask, "\(label): \(r.decoded)")
            #expect(r.decoded.corrected == 0 && !r.mirrored, "\(label): \(r.decoded.corrected) corrected")
            let error = Self.cornerError(r.corners, d.corners)
            #expect(error <= 1.5, "\(label): a corner \(error) px off")
        }
    }

    @Test("a mirrored code (drawn transposed) is read as its mirror image: the same bytes, mirrored said")
    func gridReaderReadsMirroredCodes() throws {
        for (v, ec, mask, deg) in [(2, QRErrorCorrection.L, 2, 0.0), (5, .Q, 6, 40), (8, .M, 1, 160)] {
            let payload = Array("MIRRORED-\(v)".utf8)
            let d = try Self.draw(Self.symbol(payload, version: v, ec: ec, mask: mask), module: 5, degrees: deg, mirrored: true)
            let candidate = try #require(QRLocator.locate(d.image).first, "v\(v): not located")
            guard case .read(let r) = QRGridReader.read(d.image, candidate: candidate) else {
                Issue.record("mirrored v\(v): not read")
                continue
            }
            #expect(r.mirrored && r.decoded.content.bytes == payload, "v\(v): mirrored \(r.mirrored), \(r.decoded.content.bytes)")
            #expect(r.decoded.version == v && r.decoded.ec == ec && r.decoded.mask == mask, "v\(v): \(r.decoded)")
        }
    }

    @Test("random modules behind real finders, timing and alignment, format information blank: located, and no code")
    func randomModulesAreNoCode() throws {
        var r = Rand(state: 23)
        for v in [2, 4] {
            var m = QRGridSamplingTests.symbol(version: v, &r)
            // All-light format modules are at least 5 bits from every format: no format read.
            var modules = m.modules
            let (first, second) = QRFormat.positions(size: m.size)
            for p in first + second { modules[p.y * m.size + p.x] = false }
            m = QRMatrix(version: v, ec: .L, size: m.size, modules: modules)
            let d = Self.draw(m, module: 5, degrees: 25)
            let found = QRLocator.locate(d.image)
            try #require(found.count == 1, "v\(v): \(found.count) candidates")
            #expect(Self.cornerError(found[0].corners, d.corners) <= 5, "v\(v)")
            let outcome = QRGridReader.read(d.image, candidate: found[0])
            guard case .notACode = outcome else {
                Issue.record("v\(v): \(outcome)")
                continue
            }
        }
    }

    @Test("texture without a code (a module patch, finder-like rings) locates nothing the grid reader reads")
    func textureIsNoCode() {
        let patch = Drawn.patch(width: 400, height: 400, x: 60, y: 60, module: 6, modules: 41)
        #expect(QRLocator.locate(patch).isEmpty)
        // The rings make candidates (triples of finder-like rings, some with format information
        // by chance); none may read as a code.
        let rings = Drawn.rings(width: 600, height: 500)
        for c in QRLocator.locate(rings) {
            if case .read(let r) = QRGridReader.read(rings, candidate: c) { Issue.record("rings read as \(r.decoded.content.bytes)") }
        }
    }
}
