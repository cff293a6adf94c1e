import Foundation
import Imaging
import QREncodeBridge
import QRSymbol
import Readers
import Records
import TestSupport
import Testing

@testable import SweepCore

/// The texture probe's gates with a real QR code in the picture (libqrencode's modules drawn
/// through a frame): a located code is no evidence of a linear code, and explains its place for
/// the isolated reader. (The probe on drawn textures alone: the unit tests' TextureProbeTests.)
@Suite("Texture probe with a QR code in the picture")
struct TextureProbeQRTests {
    /// A 900x700 picture of a version 3 QR code of `payload`, `module` px a module, its
    /// top-left corner at (x, y).
    static func drawnQR(_ payload: String, x: Double, y: Double, module: Double) throws -> LumaImage {
        let m = try QREncoder.encode(Array(payload.utf8), ec: .M, minVersion: 3)
        let side = module * Double(m.size)
        let corners = [Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side)]
        return Drawn.qr(m, canvas: (900, 700), toImage: Drawn.frame(m, corners: corners))
    }

    /// How many views the one pass `pass` hands its decoder (ZBar's or, for a `.zxing` pass,
    /// the isolated reader), every decode reading nothing.
    static func decoderCalls(_ img: LumaImage, _ pass: ScanPass) -> Int {
        var options = ReaderOptions(effort: .normal)
        options.plan = ScanPlan(effort: .normal, passes: [pass])
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        var executor = PlanExecutor(options: options) { _, _ in
            calls.count += 1; return []
        }
        executor.readers.append(
            ViewReader(name: .zxing, symbologies: [.qr, .datamatrix, .pdf417, .aztec]) { _, _ in
                calls.count += 1; return []
            })
        _ = executor.scan(img)
        return calls.count
    }

    /// The 1 MP turns for slanted linear codes run where a linear code may be: bars show, or
    /// the image is tiny (a turn costs little there); not on a photo of a QR code alone, nor on
    /// a frame without bars (each turn is a 1 MP scan).
    @Test("linear evidence: a bar field, or a tiny image; a QR code alone is none")
    func linearEvidenceGatesTheTurns() throws {
        let qr = try Self.drawnQR("https://codesweep.example/turns", x: 120, y: 100, module: 8)
        let qrAndBars = Drawn.bars(width: 900, height: 700, box: (560, 150, 300, 200), degrees: 20, into: qr)
        let barsAlone = Drawn.bars(width: 900, height: 700, box: (560, 150, 300, 200), degrees: 20)
        let plain = LumaImage(width: 900, height: 700, fill: 200)
        let turn = ScanPass("turn", [.fit(megapixels: 1), .rotate(30)], when: [.codeEvidence(megapixels: 1, orUnder: 0.1, finders: nil)], symbols: .linear)
        #expect(Self.decoderCalls(qr, turn) == 0, "a QR code alone is no evidence of a linear code")
        #expect(Self.decoderCalls(qrAndBars, turn) == 1, "bars beside the QR code are")
        #expect(Self.decoderCalls(barsAlone, turn) == 1)
        #expect(Self.decoderCalls(plain, turn) == 0, "a small image without bars: no turns")
        #expect(Self.decoderCalls(LumaImage(width: 300, height: 200, fill: 200), turn) == 1, "under 0.1 MP the turns run")
        let bigPlain = LumaImage(width: 1600, height: 1000, fill: 200)
        #expect(Self.decoderCalls(bigPlain, turn) == 0, "over 1 MP without bars: no turns")
        let bigBars = Drawn.bars(width: 1600, height: 1000, box: (600, 300, 500, 300), degrees: 20, into: bigPlain)
        #expect(Self.decoderCalls(bigBars, turn) == 1)
    }

    /// The isolated reader's places (code-like, no code read in them) leave out a located QR
    /// code's place, read or not: zxing-cpp looks there for Data Matrix, PDF417 and Aztec only.
    @Test("a located QR code explains its place for the isolated reader; a code-like patch without finders does not")
    func locatedQRExplainsItsPlaceForTheSecondDecoder() throws {
        let qr = try Self.drawnQR("https://codesweep.example/places", x: 200, y: 150, module: 6)
        let patch = Drawn.patch(width: 900, height: 700, x: 300, y: 200, module: 4, modules: 40)
        let places = ScanPass(
            "places", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 1), .rotate(20)], when: [.codeLike],
            symbols: .twoDimensional, reader: .zxing)
        #expect(Self.decoderCalls(qr, places) == 0, "the QR code's place is explained by the located code, unread as it is here")
        #expect(Self.decoderCalls(patch, places) >= 1, "a code-like place with no finders is the isolated reader's")
    }
}
