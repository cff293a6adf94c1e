import Foundation
import Payloads
import TestSupport
import Testing

@Suite("Charset detection on bytes")
struct CharsetDetectionTests {
    @Test(arguments: CharsetSamples.all.indices)
    func legacyCharsetIsDetected(_ index: Int) throws {
        let sample = CharsetSamples.all[index]
        let bytes = try Make.iconv(sample.text, to: sample.iconv)
        #expect(String(validating: bytes, as: UTF8.self) == nil, "sample must not be valid UTF-8")
        let decoded = PayloadText.decode(bytes)
        #expect(decoded.encoding == sample.encoding, "candidates: \(CharsetDetector.candidates(bytes).map { ($0.charset.rawValue, $0.score) })")
        #expect(decoded.text == sample.text)
    }

    /// Short payloads, where validity alone cannot decide (two hanzi are also two Hangul
    /// syllables and two Big5 characters), and typical structured payloads.
    @Test(arguments: [
        ("北京", "GB18030", "gb18030"), ("你好", "GB18030", "gb18030"), ("你好", "BIG5", "big5"), ("電話", "BIG5", "big5"),
        ("안녕", "EUC-KR", "euc-kr"), ("한국", "EUC-KR", "euc-kr"), ("東京", "CP932", "shift_jis"), ("ﾃｽﾄ", "CP932", "shift_jis"),
        ("BEGIN:VCARD\nVERSION:3.0\nN:山田;太郎\nORG:株式会社サンプル\nTEL:03-1234-5678\nEND:VCARD", "CP932", "shift_jis"),
        ("MECARD:N:鈴木,一郎;TEL:09012345678;;", "CP932", "shift_jis"),
        ("WIFI:S:Café Zoë;T:WPA;P:façade;;", "ISO-8859-1", "iso-8859-1"), ("£5", "ISO-8859-1", "iso-8859-1"),
        ("Größe", "ISO-8859-1", "iso-8859-1"), ("àéèùâêîôûç", "ISO-8859-1", "iso-8859-1"),
    ])
    func shortAndStructuredPayloads(_ text: String, _ iconv: String, _ encoding: String) throws {
        let bytes = try Make.iconv(text, to: iconv)
        let decoded = PayloadText.decode(bytes)
        #expect(
            decoded == PayloadText(text: text, encoding: encoding), "candidates: \(CharsetDetector.candidates(bytes).map { ($0.charset.rawValue, $0.score) })")
    }

    @Test func utf8WithAndWithoutBOM() {
        let text = "Grüße, 世界 😀"
        #expect(PayloadText.decode(Array(text.utf8)) == PayloadText(text: text, encoding: "utf-8"))
        #expect(PayloadText.decode([0xEF, 0xBB, 0xBF] + Array(text.utf8)) == PayloadText(text: text, encoding: "utf-8"))
        #expect(PayloadText.decode(Array("https://example.com/?q=1".utf8)).encoding == "utf-8")
    }

    @Test func utf16WithBOM() throws {
        let text = "Grüße 世界"
        let be = try Make.iconv(text, to: "UTF-16BE")
        let le = try Make.iconv(text, to: "UTF-16LE")
        #expect(PayloadText.decode([0xFE, 0xFF] + be) == PayloadText(text: text, encoding: "utf-16be"))
        #expect(PayloadText.decode([0xFF, 0xFE] + le) == PayloadText(text: text, encoding: "utf-16le"))
    }

    @Test func binaryIsNotText() {
        var rng = SplitMix(seed: 42)
        for length in [4, 16, 64, 300] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(PayloadText.decode(bytes) == PayloadText(text: nil, encoding: "binary"), "\(bytes)")
        }
        // High bytes only, no controls: valid as several charsets, plausible as none.
        let highNoise: [UInt8] = [0x81, 0x30, 0x81, 0x30, 0xFE, 0x40, 0x95, 0x7E, 0xA1, 0x40, 0x88, 0x40]
        #expect(PayloadText.decode(highNoise).encoding == "binary")
        #expect(PayloadText.decode([0x00, 0x01, 0x02, 0x03]).text == nil)
        #expect(PayloadText.decode(Array("a\u{0}b".utf8)).encoding == "binary")
    }

    @Test func forcedCharsetWins() throws {
        let gb = try Make.iconv("中文", to: "GB18030")
        #expect(PayloadText.decode(gb, forcedCharset: "gbk") == PayloadText(text: "中文", encoding: "gb18030"))
        #expect(PayloadText.decode(gb, forcedCharset: "latin1") == PayloadText(text: "ÖÐÎÄ", encoding: "iso-8859-1"))
        #expect(PayloadText.decode(gb, forcedCharset: "binary") == PayloadText(text: nil, encoding: "binary"))
        // Invalid bytes in the forced charset become U+FFFD; the rest is kept.
        #expect(PayloadText.decode([0x41, 0xFF, 0x42], forcedCharset: "utf-8") == PayloadText(text: "A\u{FFFD}B", encoding: "utf-8"))
        // Any charset iconv knows.
        #expect(PayloadText.decode([0x80], forcedCharset: "windows-1252") == PayloadText(text: "€", encoding: "windows-1252"))
        #expect(PayloadText.isSupportedCharset("shift-jis"))
        #expect(!PayloadText.isSupportedCharset("no-such-charset"))
    }

    @Test func eciNamesTheCharsetWhenGiven() throws {
        let latin1 = try Make.iconv("café", to: "ISO-8859-1")
        #expect(PayloadText.decode(latin1, eci: 3) == PayloadText(text: "café", encoding: "iso-8859-1"))
        let sjis = try Make.iconv("ｶﾀｶﾅ", to: "CP932")  // ambiguous alone; ECI settles it
        #expect(PayloadText.decode(sjis, eci: 20) == PayloadText(text: "ｶﾀｶﾅ", encoding: "shift_jis"))
        let greek = try Make.iconv("Ελλάδα", to: "ISO-8859-7")
        #expect(PayloadText.decode(greek, eci: 9) == PayloadText(text: "Ελλάδα", encoding: "iso-8859-7"))
        // Bytes invalid in the ECI charset fall back to detection.
        #expect(PayloadText.decode(Array("ok".utf8), eci: 26).encoding == "utf-8")
    }
}
