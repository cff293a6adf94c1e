import QREncodeBridge
import QRSymbol
import TestSupport
import Testing

/// The QR symbol module's reading half against libqrencode's symbols: every version x level x
/// mask decoded from their modules, damaged symbols, random modules behind real function
/// patterns. (The rest of the reading half: the unit tests' QRSymbolTests.)
@Suite("QRSymbol against libqrencode")
struct QRSymbolEncoderTests {
    @Test("every version x level x mask of libqrencode's symbols decodes from its modules, also mirrored")
    func everySymbolDecodes() throws {
        for ec in QRErrorCorrection.allCases {
            for v in 1...40 {
                let payload = Array("V\(v)\(ec.rawValue)".utf8) + (0..<(v % 3)).map { UInt8(0x80 + $0) }
                let made = try QREncoder.encode(payload, ec: ec, minVersion: v)
                try #require(made.version == v)
                for mask in 0..<8 {
                    let m = try #require(made.remasked(to: mask))
                    let grid = QRModuleGrid(m)
                    let decoded = try QRSymbolDecoder.decode(grid).get()
                    #expect(
                        decoded.content.bytes == payload && decoded.version == v && decoded.ec == ec && decoded.mask == mask && decoded.corrected == 0,
                        "\(v)-\(ec) mask \(mask)")
                    // A mirrored symbol reads as its transpose; read straight it does not decode.
                    if mask == v % 8 {
                        #expect(throws: QRSymbolDecoder.Failure.self) { try QRSymbolDecoder.decode(grid.transposed).get() }
                        #expect(try QRSymbolDecoder.decode(grid.transposed.transposed).get().content.bytes == payload)
                    }
                }
            }
        }
    }

    @Test("damaged symbols: errors up to capacity restored; doubtful modules as erasures restore more; past that nothing is read")
    func damagedSymbols() throws {
        var r = Rand(state: 5)
        let payload = Array("https://codesweep.example/erasures".utf8)
        let m = try QREncoder.encode(payload, ec: .M, minVersion: 5)  // 5-M: 2 blocks, 24 check codewords each
        let layout = QRBlockLayout(version: m.version, ec: .M)
        let bits = QRStructure.bitMap(version: m.version)
        let n = m.size
        // Modules of each codeword.
        var modulesOf = [[Int]](repeating: [], count: layout.totalCodewords)
        for i in 0..<(n * n) where bits[i] >= 0 { modulesOf[bits[i] >> 3].append(i) }
        // Codewords of block 0 (positions in the symbol's sequence).
        let block0 = layout.interleaving().enumerated().filter { $0.element.block == 0 }.map(\.offset)
        func damaged(_ count: Int, doubtful: Bool) -> QRModuleGrid {
            var g = QRModuleGrid(m)
            var chosen = Set<Int>()
            while chosen.count < count { chosen.insert(block0[r.below(block0.count)]) }
            for c in chosen {
                // Flip every module of the codeword; doubtful: say so (small magnitude).
                for i in modulesOf[c] { g.values[i] = (g.values[i] > 0 ? -1 : 1) * (doubtful ? 0.05 : 1) }
            }
            return g
        }
        // 12 errors (capacity of 24 checks) read; 13 do not read as this payload.
        #expect(try QRSymbolDecoder.decode(damaged(12, doubtful: false)).get().content.bytes == payload)
        #expect(throws: QRSymbolDecoder.Failure.self) { try QRSymbolDecoder.decode(damaged(13, doubtful: false)).get() }
        // 18 doubtful codewords: beyond errors-only capacity, within erasures (16 erased + 2 errors x 2 + reserve 4 <= 24).
        let eighteen = damaged(18, doubtful: true)
        var plain = QRSymbolDecoder.Options(); plain.useErasures = false
        #expect(throws: QRSymbolDecoder.Failure.blocks) { try QRSymbolDecoder.decode(eighteen, options: plain).get() }
        let read = try QRSymbolDecoder.decode(eighteen).get()
        #expect(read.content.bytes == payload && read.erasures >= 16)
        // 22 doubtful: past the reserve, refused rather than risked.
        #expect(throws: QRSymbolDecoder.Failure.self) { try QRSymbolDecoder.decode(damaged(22, doubtful: true)).get() }
    }

    @Test("random modules behind real function patterns never decode")
    func randomModulesNeverDecode() throws {
        var r = Rand(state: 99)
        var decoded = 0, formatPassed = 0
        for trial in 0..<400 {
            let v = 1 + trial % 12
            let base = try QREncoder.encode(Array("x".utf8), ec: .L, minVersion: v)
            let roles = QRStructure.roles(version: v)
            var g = QRModuleGrid(base)
            for i in 0..<(base.size * base.size) where roles[i] == .data || (trial % 2 == 0 && roles[i] == .format) {
                g.values[i] = r.below(2) == 0 ? 1 : -1
            }
            if QRSymbolDecoder.format(of: g) != nil { formatPassed += 1 }
            if case .success = QRSymbolDecoder.decode(g) { decoded += 1 }
        }
        #expect(decoded == 0)
        // The random format bits pass often (a 15-bit code with 32 words): format alone is no filter.
        #expect(formatPassed > 200)
    }
}
