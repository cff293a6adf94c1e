import CodeGenerate
import CodeSweep
import Imaging
import QREncodeBridge
import QRSymbol
import Records
import SweepCore
import TestSupport
import Testing

@testable import SweepCore

/// The codeword layer under `generate --logo`: the Reed-Solomon encoder and block tables
/// checked against the standard's examples and against libqrencode's symbols, and the solver
/// that chooses the free bits so the modules under the plate show the plate and logo.
@Suite("GenerateLogoFit")
struct GenerateLogoFitTests {
    @Test("Reed-Solomon: the error correction codewords of ISO/IEC 18004's 1-M examples")
    func reedSolomonVectors() {
        let rs = ReedSolomonEncoder(degree: 10)
        // Annex I: "01234567" in numeric mode, 1-M.
        let numeric: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        #expect(rs.errorCorrection(numeric) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85])
        // "HELLO WORLD" in alphanumeric mode, 1-M.
        let hello: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(rs.errorCorrection(hello) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
        // g(x) of degree 7 (Annex A): α^0, α^87, α^229, α^146, α^149, α^238, α^102, α^21.
        #expect(ReedSolomonEncoder(degree: 7).generator == [0, 87, 229, 146, 149, 238, 102, 21].map { GF256.power($0) })
        #expect(GF256.multiply(0x80, 2) == 0x1D && GF256.multiply(7, 1) == 7 && GF256.multiply(0, 9) == 0)
    }

    @Test("block tables and interleaving: every libqrencode symbol, versions 1...40 at L, M, Q, H, checks in every block")
    func blocksMatchLibqrencode() throws {
        for ec in QRErrorCorrection.allCases {
            for v in 1...40 {
                let m = try QREncoder.encode(Array("v\(v)".utf8), ec: ec, minVersion: v)
                try #require(m.version == v)
                let layout = QRBlockLayout(version: v, ec: ec)
                #expect(layout.dataCodewords + layout.blockCount * layout.ecPerBlock == layout.totalCodewords)
                // Under the symbol's own mask every block's error correction is that of its data;
                // the codewords go back to the very same modules.
                let mask = try #require(m.detectMask(), "\(v)-\(ec)")
                #expect(m.replacingCodewords(layout.codewords(of: layout.blocks(of: m.codewords(mask: mask))), mask: mask) == m)
            }
        }
        // Capacities (Table 7, data codewords) as a spot check of the tables.
        #expect(QRBlockLayout(version: 1, ec: .H).dataCodewords == 9)
        #expect(QRBlockLayout(version: 10, ec: .H).dataCodewords == 122)
        #expect(QRBlockLayout(version: 40, ec: .L).dataCodewords == 2956)
        #expect(QRBlockLayout(version: 1, ec: .L).correctablePerBlock == 2 && QRBlockLayout(version: 10, ec: .H).correctablePerBlock == 14)
    }

    @Test("the payload's segments end where libqrencode's byte segment (and ECI designator) end")
    func segmentLength() throws {
        for (v, count) in [(3, 8), (12, 16), (30, 16)] {
            let bytes = Array("https://example.com/segment".utf8)
            let m = try QREncoder.encode(bytes, ec: .M, minVersion: v)
            let layout = QRBlockLayout(version: v, ec: .M)
            let data = layout.dataStream(of: layout.blocks(of: m.codewords(mask: try #require(m.detectMask()))))
            #expect(QRDataStream.segmentBits(data, version: v) == 4 + count + 8 * bytes.count)
            let withECI = try QREncoder.encode(bytes, ec: .M, minVersion: v, eci: 26)
            let d2 = layout.dataStream(of: layout.blocks(of: withECI.codewords(mask: try #require(withECI.detectMask()))))
            #expect(QRDataStream.segmentBits(d2, version: v) == 12 + 4 + count + 8 * bytes.count)
        }
    }

    @Test("the solver: codewords it takes show the targets under the plate, the payload and checks stay, the code reads")
    func solver() throws {
        let payload = Array("https://example.com/fit".utf8)
        let m = try QREncoder.encode(payload, ec: .H, minVersion: 10)
        let n = m.size
        let (plate, _) = LogoBudget.plate(size: n, areaFraction: 0.2)
        // A plate with a dark 9 × 9 square in its middle and an unsure ring around that square.
        var targets = LogoBudget.plainTargets(size: n, plate: plate)
        let c = n / 2
        for y in (c - 5)...(c + 5) {
            for x in (c - 5)...(c + 5) { targets[y * n + x] = max(abs(x - c), abs(y - c)) == 5 ? .unsure : .dark }
        }
        let plain = LogoDamage(m, targets: targets)
        let fit = LogoFit(m, targets: targets)
        let after = LogoDamage(fit.matrix, targets: targets)
        #expect(fit.freeBits > 0 && fit.bitsToFix > fit.matchedCodewords)
        #expect(after.covered == plain.covered)
        // Every codeword the solver took shows its targets; the rest is the damage (unsure included).
        #expect(after.damaged == after.covered - fit.matchedCodewords)
        #expect(after.damaged < plain.damaged / 2, "\(plain.damaged) → \(after.damaged)")
        // Block 0 holds the payload (no free bits): the fit cannot help it. Without the fit a
        // block is past what it restores (14 at 10-H); with it, none is.
        let t = QRBlockLayout(version: 10, ec: .H).correctablePerBlock
        #expect(after.damagedPerBlock[0] == plain.damagedPerBlock[0])
        #expect(plain.damagedPerBlock.max()! > t && after.damagedPerBlock.max()! <= t, "\(plain.damagedPerBlock) → \(after.damagedPerBlock)")

        // The same mask, consistent checks in every block, the same payload bits.
        let mask = try #require(m.detectMask())
        #expect(fit.matrix.detectMask() == mask)
        let layout = QRBlockLayout(version: 10, ec: .H)
        let before = layout.dataStream(of: layout.blocks(of: m.codewords(mask: mask)))
        let now = layout.dataStream(of: layout.blocks(of: fit.matrix.codewords(mask: mask)))
        let used = try #require(QRDataStream.segmentBits(before, version: 10)) + 4
        #expect(Array(before.prefix(used / 8)) == Array(now.prefix(used / 8)))
        #expect(before[used / 8] >> UInt8(8 - used % 8) == now[used / 8] >> UInt8(8 - used % 8))
        #expect(fit.matrix != m)

        // Drawn with the plate and the square, the engine reads the payload (without the fit it does not).
        let layoutPx = QRLayout(modules: n, modulePx: 6, marginModules: 4)
        var shown = fit.matrix.modules
        for (i, t) in targets.enumerated() where t != .open { shown[i] = t == .dark }
        let picture = layoutPx.render(QRMatrix(version: 10, ec: .H, size: n, modules: shown), foreground: .black, background: .white)
        let read = BarcodeReader.read(ReadFrame(picture.luma()), ReaderOptions(symbologies: SymbologySet([.qr]))).codes
        #expect(read.map(\.bytes) == [payload])
        var unfitted = m.modules
        for (i, t) in targets.enumerated() where t != .open { unfitted[i] = t == .dark }
        let before2 = layoutPx.render(QRMatrix(version: 10, ec: .H, size: n, modules: unfitted), foreground: .black, background: .white)
        #expect(BarcodeReader.read(ReadFrame(before2.luma()), ReaderOptions(symbologies: SymbologySet([.qr]))).codes.isEmpty)
    }

    @Test("module targets: dark, light and unsure from the grey drawn over each module")
    func targets() {
        // A 3 × 1-module plate at 4 px a module: black, white, and half black/half white.
        var px = [UInt8](repeating: 255, count: 12 * 4)
        for y in 0..<4 { for x in 0..<4 { px[y * 12 + x] = 0 }; for x in 8..<10 { px[y * 12 + x] = 0 } }
        let t = ModuleTarget.under(
            plate: ModuleRect(x: 1, y: 2, width: 3, height: 1), picture: LumaImage(width: 12, height: 4, pixels: px),
            modulePx: 4, symbolSize: 5, foreground: 0, background: 255)
        #expect(t[2 * 5 + 1] == .dark && t[2 * 5 + 2] == .light && t[2 * 5 + 3] == .unsure)
        #expect(t.enumerated().allSatisfy { $0.offset / 5 == 2 && (1...3).contains($0.offset % 5) || $0.element == .open })
        // The test logo's red (#d62828, grey 92) is dark on white; mid grey is unsure.
        let red = LumaImage(width: 2, height: 2, fill: RGBColor(r: 0xD6, g: 0x28, b: 0x28).luma)
        let grey = LumaImage(width: 2, height: 2, fill: 128)
        let plate = ModuleRect(x: 0, y: 0, width: 1, height: 1)
        #expect(ModuleTarget.under(plate: plate, picture: red, modulePx: 2, symbolSize: 1, foreground: 0, background: 255) == [.dark])
        #expect(ModuleTarget.under(plate: plate, picture: grey, modulePx: 2, symbolSize: 1, foreground: 0, background: 255) == [.unsure])
    }
}
