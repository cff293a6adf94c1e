import QREncodeBridge
import QRSymbol
import Testing

/// `QREncoder`, libqrencode through its C API: the matrix it returns is a symbol QRSymbol's decoder
/// reads back (bytes, ECI designator, level, version), and a payload past version 40 is refused.
@Suite("QR encoding with libqrencode")
struct QREncoderTests {
    @Test("a UTF-8 payload under ECI 26 at level Q reads back from the modules with its bytes, designator and level")
    func encodedSymbolReadsBack() throws {
        let payload = Array("café https://www.example.com/é".utf8)
        let m = try QREncoder.encode(payload, ec: .Q, eci: 26)
        #expect(m.size == 17 + 4 * m.version && m.ec == .Q)
        let decoded = try QRSymbolDecoder.decode(QRModuleGrid(m)).get()
        #expect(decoded.content.bytes == payload && decoded.content.eci == 26)
        #expect(decoded.ec == .Q && decoded.version == m.version && decoded.corrected == 0)
        // A version asked for is a version at least that large.
        #expect(try QREncoder.encode(payload, ec: .Q, minVersion: 12).version == 12)
    }

    @Test("version 40 holds maxBytes bytes at each level; one more is refused, and so is an empty payload")
    func capacity() throws {
        for ec in QRErrorCorrection.allCases {
            let n = QREncoder.maxBytes(ec)
            #expect(try QREncoder.encode([UInt8](repeating: 0xA5, count: n), ec: ec).version == 40, "\(ec)")
            #expect(throws: QREncoder.Failure.self) { try QREncoder.encode([UInt8](repeating: 0xA5, count: n + 1), ec: ec) }
        }
        #expect(throws: QREncoder.Failure.self) { try QREncoder.encode([], ec: .M) }
    }
}
