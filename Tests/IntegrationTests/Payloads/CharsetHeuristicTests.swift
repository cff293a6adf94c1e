import Foundation
import Payloads
import TestSupport
import Testing

/// Payload text as a user's other tools show it. The codes are made with qrencode from bytes
/// made by iconv (independent of the code under test); zbarimg (Debian's zbar-tools, installed by
/// scripts/install-deps.sh) is the peer the reading is compared with.
@Suite("Charsets of look-alike links and fill patterns; look-alike hosts")
struct CharsetHeuristicTests {
    /// "google" with a Cyrillic о (U+043E): Shift_JIS writes that letter as 84 80.
    static let lookalikeURL = "https://g\u{043E}ogle.com/login"

    /// zbarimg's reading of one image, payload only.
    static func zbar(_ path: String) throws -> String {
        try run(Tools.zbarimg, ["-q", "--raw", path], check: false).stdout
    }

    /// The record's codes as the scan wrote them: (encoding, text).
    static func scanned(_ path: String) throws -> [(encoding: String, text: String?)] {
        let r = try run(codesweepBinary, ["scan", "-q", path], check: false)
        let records = try TestJSON.lines(r.stdout)
        return (records.first?["codes"]?.array ?? []).map { ($0["encoding"]?.string ?? "?", $0["text"]?.string) }
    }

    @Test("a URL with a Cyrillic letter in Shift_JIS is read as that text (as zbarimg reads it), and check calls it a look-alike host, not binary")
    func cyrillicLookalikeInShiftJIS() throws {
        let dir = try TempDir()
        let bytes = try Make.iconv(Self.lookalikeURL, to: "CP932")
        #expect(bytes.count == Self.lookalikeURL.unicodeScalars.count + 1 && bytes.contains(0x84) && bytes.contains(0x80), "\(bytes)")
        try Make.qr(bytes: bytes, to: dir.file("phish.png"))
        #expect(try Self.zbar(dir.file("phish.png")) == Self.lookalikeURL + "\n", "the peer's reading")

        let codes = try Self.scanned(dir.file("phish.png"))
        #expect(codes.count == 1)
        #expect(codes.first?.encoding == "shift_jis")
        #expect(codes.first?.text == Self.lookalikeURL)

        let r = try run(codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--json", "-", dir.file("phish.png")], check: false)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let image = try #require(try TestJSON.parse(r.stdout)["images"]?.array?.first)
        let violations = image["violations"]?.array ?? []
        let rules = violations.compactMap { $0["rule"]?.string }
        #expect(rules.contains("url.lookalike_host"), "\(rules)")
        #expect(!rules.contains("url.valid"), "not 'binary data, not a link': \(violations)")
        let message = violations.first { $0["rule"]?.string == "url.lookalike_host" }?["message"]?.string ?? ""
        #expect(
            message.contains("xn--") && message.contains("g\u{043E}ogle") && message.contains("Latin and Cyrillic") && message.contains("reads as google.com"),
            "\(message)")

        // Yours after all: an allow-list entry naming the host (Unicode or punycode) lets it pass;
        // a wildcard entry does not.
        let named = try run(
            codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--allow-host", "g\u{043E}ogle.com", dir.file("phish.png")], check: false)
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
        let wildcard = try run(
            codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--allow-host", "*.com", dir.file("phish.png")], check: false)
        #expect(wildcard.status == 1 && wildcard.stdout.contains("url.lookalike_host"), "\(wildcard.stdout)\(wildcard.stderr)")

        // The same link in plain ASCII passes the same check.
        try Make.qr(bytes: Array("https://google.com/login".utf8), to: dir.file("real.png"))
        let plain = try run(codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", dir.file("real.png")], check: false)
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
    }

    @Test("'Hist' and a run of 0xF3 is ISO-8859-1 (byte mode's default charset, zxing-cpp's reading), not Big5 or GB18030", arguments: [131, 132])
    func fillPatternIsLatin1(_ count: Int) throws {
        let dir = try TempDir()
        let bytes = Array("Hist".utf8) + [UInt8](repeating: 0xF3, count: count)
        try Make.qr(bytes: bytes, to: dir.file("hist.png"))
        let codes = try Self.scanned(dir.file("hist.png"))
        #expect(codes.count == 1)
        #expect(codes.first?.encoding == "iso-8859-1", "candidates: \(CharsetDetector.candidates(bytes).map { ($0.charset.rawValue, $0.score) })")
        #expect(codes.first?.text == "Hist" + String(repeating: "ó", count: count))
    }

    @Test("real CJK text that repeats characters is still read in its charset")
    func repeatedButVariedTextStaysCJK() throws {
        for (text, iconv, encoding) in [("哈哈哈，我们的学生的老师的朋友", "GB18030", "gb18030"), ("東京東京東京の日本語テキスト", "CP932", "shift_jis")] {
            let bytes = try Make.iconv(text, to: iconv)
            #expect(PayloadText.decode(bytes) == PayloadText(text: text, encoding: encoding))
        }
    }

    @Test("look-alike hosts: mixed scripts, whole-script Cyrillic under an ASCII top-level domain, IPA letters; real IDNs are not")
    func lookalikeHosts() throws {
        func look(_ host: String) -> HostLookalike? {
            guard case .success(let h) = URLHost.parse(host) else { return nil }
            return h.lookalike
        }
        #expect(look("g\u{043E}ogle.com")?.kind == .mixedScript)
        #expect(look("g\u{043E}ogle.com")?.readsAs == "google.com")
        #expect(look("\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com")?.kind == .wholeScript)  // аррӏе
        #expect(look("xn--80ak6aa92e.com")?.kind == .wholeScript, "the same, written in punycode")
        #expect(look("\u{0261}oogle.com")?.kind == .latinLookalike)  // ɡoogle
        #expect(look("pay\u{03C1}al.com")?.scripts == ["Latin", "Greek"])
        for fine in ["example.com", "bücher.de", "例え.jp", "пример.рф", "\u{0441}\u{0435}\u{0440}.рф", "münchen.de", "xn--r8jz45g.jp", "192.168.0.1"] {
            #expect(look(fine) == nil, "\(fine)")
        }
    }
}
