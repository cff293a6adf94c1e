import QRSymbol
import TestSupport
import Testing

/// The QR symbol module's reading half: format and version information with bit errors,
/// Reed-Solomon with errors and erasures at and just past capacity, segments. (Every version x
/// level x mask decoded from libqrencode's modules: the integration tests' QRSymbolEncoderTests.)
@Suite("QRSymbol")
struct QRSymbolTests {
    @Test("format information: ISO's example, every format with 0-3 bit errors decodes to itself, 4 errors never to a wrong format at distance <= 3")
    func formatInformation() {
        // Annex C: M, mask 101 → 100000011001110.
        #expect(QRFormat(ec: .M, mask: 5).codeword == 0b1000000_11001110)
        var r = Rand(state: 7)
        for (f, code) in QRFormat.all {
            #expect(QRFormat.decode(code) == (f, 0))
            for errors in 1...3 {
                for _ in 0..<20 {
                    let bits = r.flipping(errors, of: 15, in: code)
                    let d = QRFormat.decode(bits)
                    #expect(d.format == f && d.distance == errors)
                }
            }
            // Four errors: the nearest format may be another one, but never at distance <= 3 from
            // a word four away from ours unless codewords were 7 apart (they are): never wrong and sure.
            for _ in 0..<20 {
                let bits = r.flipping(4, of: 15, in: code)
                let d = QRFormat.decode(bits)
                #expect(d.format == f || d.distance >= 3)
            }
        }
        // Codewords are at least 7 apart.
        for (i, a) in QRFormat.all.enumerated() {
            for b in QRFormat.all[(i + 1)...] { #expect((a.codeword ^ b.codeword).nonzeroBitCount >= 7) }
        }
    }

    @Test("version information: ISO's example, versions 7-40 with 0-4 bit errors")
    func versionInformation() {
        // Annex D: version 7 → 000111110010010100.
        #expect(QRVersionInformation.codeword(7) == 0b00_01111100_10010100)
        var r = Rand(state: 11)
        for v in 7...40 {
            let code = QRVersionInformation.codeword(v)
            for errors in 0...4 {
                for _ in 0..<10 {
                    let bits = r.flipping(errors, of: 18, in: code)
                    let d = QRVersionInformation.decode(bits)
                    // Codewords are 8 apart: up to 3 errors always decode, 4 never decode wrongly.
                    if errors <= 3 { #expect(d.version == v && d.distance == errors) } else { #expect(d.version == v || d.distance >= 4) }
                }
            }
        }
    }

    @Test("Reed-Solomon: e errors and f erasures restored while 2e + f <= checks; one past capacity fails or is caught")
    func reedSolomonErrorsAndErasures() {
        var r = Rand(state: 3)
        for (k, ec) in [(16, 10), (19, 7), (55, 30), (116, 30), (13, 22), (100, 24)] {
            let rs = ReedSolomonEncoder(degree: ec)
            for trial in 0..<30 {
                let data = (0..<k).map { _ in UInt8(r.below(256)) }
                let codeword = data + rs.errorCorrection(data)
                let n = codeword.count
                let f = trial % 3 == 0 ? 0 : r.below(ec + 1)
                let e = (ec - f) / 2
                var places = Set<Int>()
                while places.count < e + f { places.insert(r.below(n)) }
                let list = Array(places)
                let erasures = Array(list.prefix(f)), errors = Array(list.dropFirst(f))
                var received = codeword
                for p in errors { received[p] ^= UInt8(1 + r.below(255)) }
                for p in erasures where r.below(2) == 0 { received[p] ^= UInt8(1 + r.below(255)) }
                var block = received
                let outcome = ReedSolomonDecoder.decode(&block, ecCount: ec, erasures: erasures)
                #expect(outcome != nil, "n=\(n) ec=\(ec) e=\(e) f=\(f)")
                #expect(block == codeword)
                #expect(outcome?.errors == e)
                // One error more than capacity: never returned as the original, and any block
                // returned is a codeword (the syndromes are checked again).
                if e + f + 1 <= n, 2 * (e + 1) + f > ec {
                    var extra = received
                    var p = r.below(n)
                    while places.contains(p) { p = r.below(n) }
                    extra[p] ^= UInt8(1 + r.below(255))
                    var copy = extra
                    if ReedSolomonDecoder.decode(&copy, ecCount: ec, erasures: erasures) != nil {
                        #expect(copy != codeword)
                        var again = copy
                        #expect(ReedSolomonDecoder.decode(&again, ecCount: ec)?.corrected == [])
                    } else {
                        #expect(copy == extra)
                    }
                }
            }
        }
    }

    @Test("Reed-Solomon: the reserve keeps checks back; a clean block needs nothing")
    func reedSolomonReserve() {
        let rs = ReedSolomonEncoder(degree: 10)
        let data: [UInt8] = Array(0..<16)
        let codeword = data + rs.errorCorrection(data)
        var clean = codeword
        #expect(ReedSolomonDecoder.decode(&clean, ecCount: 10)?.corrected == [])
        var five = codeword
        for p in [0, 3, 7, 11, 20] { five[p] ^= 0x5A }
        var copy = five
        #expect(ReedSolomonDecoder.decode(&copy, ecCount: 10, reserve: 2) == nil)
        #expect(copy == five)
        #expect(ReedSolomonDecoder.decode(&copy, ecCount: 10)?.corrected.sorted() == [0, 3, 7, 11, 20])
        #expect(copy == codeword)
    }

    /// Bits written most significant first.
    struct Bits {
        var out: [UInt8] = []
        var count = 0
        mutating func put(_ v: Int, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) {
                if count % 8 == 0 { out.append(0) }
                if v >> i & 1 == 1 { out[count / 8] |= 0x80 >> UInt8(count % 8) }
                count += 1
            }
        }
    }

    @Test("segments: numeric, alphanumeric, byte, kanji, ECI, FNC1 and structured append")
    func segments() throws {
        var b = Bits()
        b.put(0b0011, 4); b.put(1, 4); b.put(2, 4); b.put(0xA5, 8)  // structured append 2 of 3
        b.put(0b0111, 4); b.put(26, 8)  // ECI 26 (UTF-8)
        b.put(0b0001, 4); b.put(8, 10); b.put(12, 10); b.put(345, 10); b.put(67, 7)  // "01234567"
        b.put(0b0010, 4); b.put(5, 9); b.put(17 * 45 + 14, 11); b.put(21 * 45 + 21, 11); b.put(24, 6)  // "HELLO"
        b.put(0b0100, 4); b.put(2, 8); b.put(0xC3, 8); b.put(0xA9, 8)  // "é" in UTF-8
        b.put(0b1000, 4); b.put(1, 8); b.put(0x0D9F, 13)  // 点 (Shift JIS 0x935F)
        b.put(0, 4)
        let c = try #require(QRSegments.parse(b.out + [0xEC, 0x11], version: 5))
        #expect(c.bytes == Array("01234567HELLO".utf8) + [0xC3, 0xA9, 0x93, 0x5F])
        #expect(c.eci == 26)
        #expect(c.structuredAppend == QRContent.StructuredAppend(index: 1, total: 3, parity: 0xA5))
        #expect(c.modes == ["eci", "numeric", "alphanumeric", "byte", "kanji"])
        // GS1: FNC1 first; "%" in alphanumeric is GS, "%%" a "%", left to right: "1%%%2" is "1", "%", GS, "2".
        var g = Bits()
        g.put(0b0101, 4); g.put(0b0010, 4); g.put(5, 9)
        let pct = 38, one = 1, two = 2
        g.put(one * 45 + pct, 11); g.put(pct * 45 + pct, 11); g.put(two, 6)
        g.put(0, 4)
        let gs = try #require(QRSegments.parse(g.out, version: 1))
        #expect(gs.fnc1 == .gs1 && gs.bytes == [0x31, 0x25, 0x1D, 0x32])
        // Malformed: a count past the data, a numeric group out of range, an unknown mode.
        var long = Bits(); long.put(0b0100, 4); long.put(200, 8); long.put(0x41, 8)
        #expect(QRSegments.parse(long.out, version: 1) == nil)
        var bad = Bits(); bad.put(0b0001, 4); bad.put(3, 10); bad.put(1000, 10)
        #expect(QRSegments.parse(bad.out, version: 1) == nil)
        var unknown = Bits(); unknown.put(0b1111, 4); unknown.put(0, 12)
        #expect(QRSegments.parse(unknown.out, version: 1) == nil)
        // Count field widths change at versions 10 and 27.
        var wide = Bits(); wide.put(0b0100, 4); wide.put(1, 16); wide.put(0x41, 8); wide.put(0, 4)
        #expect(QRSegments.parse(wide.out, version: 10)?.bytes == [0x41])
        #expect(QRSegments.parse(wide.out, version: 9)?.bytes != [0x41])
    }
}
