import Foundation
import TestSupport
import Testing

@testable import ZXingBridge

/// Issue 27, item 13: zxing-cpp 1.4's Aztec decoder reads past the end of the data bits on
/// some codes; the bytes are taken from the data bits instead.
@Suite("Trust: Aztec bytes")
struct TrustAztecTests {
    /// Bits (MSB first) from (value, width) pairs, padded with 1s to whole bytes.
    static func bits(_ fields: [(Int, Int)]) -> ([UInt8], Int) {
        var bitList: [Bool] = []
        for (v, w) in fields { for i in stride(from: w - 1, through: 0, by: -1) { bitList.append((v >> i) & 1 == 1) } }
        let count = bitList.count
        while bitList.count % 8 != 0 { bitList.append(true) }
        var out: [UInt8] = []
        for i in stride(from: 0, to: bitList.count, by: 8) { out.append(bitList[i..<i + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }) }
        return (out, count)
    }

    @Test("the high-level decoding: modes, shifts, binary shift (long), and bits that end inside a binary shift")
    func highLevel() {
        // "hello": L/L h e l l o.
        let hello = Self.bits([(28, 5), (9, 5), (6, 5), (13, 5), (13, 5), (16, 5)])
        #expect(AztecBits.decode(hello.0, bitCount: hello.1) == Array("hello".utf8))
        // 996 zero bytes in one binary shift (5 + 5 + 11 bits of header), then 11 bits of padding 1s.
        var fields: [(Int, Int)] = [(31, 5), (0, 5), (996 - 31, 11)]
        fields += Array(repeating: (0, 8), count: 996)
        fields.append((0x7FF, 11))
        let padded = Self.bits(fields)
        #expect(padded.1 == 8000)
        #expect(AztecBits.decode(padded.0, bitCount: padded.1) == [UInt8](repeating: 0, count: 996))
        // A binary shift longer than the bits left stops where the bits end.
        let short = Self.bits([(31, 5), (5, 5), (0x41, 8), (0x42, 8)])
        #expect(AztecBits.decode(short.0, bitCount: short.1) == Array("AB".utf8))
        // D/L 3 U/S B/S(1) 'x' then "IT": after the bytes the mode is Upper (zxing-cpp's dlusbs.png).
        let dlusbs = Self.bits([(30, 5), (5, 4), (15, 4), (31, 5), (1, 5), (0x78, 8), (10, 5), (21, 5)])
        #expect(AztecBits.decode(dlusbs.0, bitCount: dlusbs.1) == Array("3xIT".utf8))
        // FLG(n) and structured append are left to zxing-cpp.
        let flg = Self.bits([(0, 5), (0, 5), (0, 3), (2, 5)])
        #expect(AztecBits.decode(flg.0, bitCount: flg.1) == nil)
        let sa = Self.bits([(29, 5), (29, 5), (1, 5), (2, 5), (1, 5), (2, 5), (3, 5)])
        #expect(AztecBits.decode(sa.0, bitCount: sa.1) == nil)
    }

    @Test("13: zxing-cpp's padding_bs.png reads as its 996 zero bytes, the same ten times")
    func paddingBS() throws {
        // A copy of zxing-cpp's test image kept in the repository (Tests/Fixtures/zxing-cpp).
        let path = PackageRoot.path + "/Tests/Fixtures/zxing-cpp/padding_bs.png"
        #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        var seen: Set<[UInt8]> = []
        for _ in 0..<10 {
            let r = try run(codesweepBinary, ["scan", "--isolation", "none", "--symbologies", "aztec", path])
            let json = try TestJSON.parse(r.stdout)
            let b64 = try #require(json["codes"]?.array?.first?["bytes_b64"]?.string)
            seen.insert(Array(try #require(Data(base64Encoded: b64))))
        }
        #expect(seen == [[UInt8](repeating: 0, count: 996)], "\(seen.map(\.count))")
    }
}
