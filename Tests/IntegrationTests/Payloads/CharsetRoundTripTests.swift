import CodeSweep
import FileWalker
import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

/// Real QR codes made from raw byte files (qrencode 8-bit mode), decoded through FileScanner:
/// the exact bytes come back, and our charset reading gives back the original text.
@Suite("Charset round trip through real QR codes")
struct CharsetRoundTripTests {
    static func scan(_ png: String) throws -> FileRecord {
        let items = Walker().walk([png])
        guard case .file(let entry)? = items.first, let record = FileScanner.scan(entry, settings: ScanSettings()) else {
            throw ToolFailure("no record for \(png)")
        }
        return record
    }

    @Test(arguments: CharsetSamples.all.indices)
    func encodedTextRoundTrips(_ index: Int) throws {
        let sample = CharsetSamples.all[index]
        let temp = try TempDir("charset")
        let dir = temp.path
        let bytes = try Make.iconv(sample.text, to: sample.iconv)
        let png = dir + "/code.png"
        try Make.qr(bytes: bytes, to: png)
        let record = try Self.scan(png)
        #expect(record.error == nil)
        let code = try #require(record.codes.first)
        #expect(record.codes.count == 1)
        #expect(code.bytes == bytes, "ZBar must hand back the exact bytes")
        // Through the record's JSON, as every output writes it.
        let json = try TestJSON.parse(record.json().serialized())
        let c = try #require(json["codes"]?.array?.first)
        #expect(c["text"]?.string == sample.text)
        #expect(c["encoding"]?.string == sample.encoding)
        #expect(c["bytes_b64"]?.string.flatMap(Base64.decode) == bytes)
    }

    @Test func randomBinaryKeepsItsBytesAndHasNoText() throws {
        let temp = try TempDir("binary")
        let dir = temp.path
        var rng = SplitMix(seed: 7)
        let bytes = (0..<120).map { _ in UInt8(truncatingIfNeeded: rng.next()) } + [0x00, 0xFF, 0x1B]
        let png = dir + "/binary.png"
        try Make.qr(bytes: bytes, to: png)
        let record = try Self.scan(png)
        let code = try #require(record.codes.first)
        #expect(code.bytes == bytes)
        let c = try #require(try TestJSON.parse(record.json().serialized())["codes"]?.array?.first)
        #expect(c["text"]?.isNull == true)
        #expect(c["encoding"]?.string == "binary")
        #expect(c["bytes_b64"]?.string.flatMap(Base64.decode) == bytes)
    }

    /// ZBar in binary mode does not report ECI. With an ECI it knows (ISO-8859-x, Shift-JIS,
    /// UTF-8) it converts the bytes to UTF-8 itself, even in binary mode: the record keeps the
    /// symbol's own bytes, the grid decoder's, with the ECI in its details. With any other ECI
    /// (GB18030 = 29 here) ZBar hands over the raw bytes, which our detector then reads.
    @Test func eciCodesFromZint() throws {
        let zint = Tools.zint
        guard FileManager.default.isExecutableFile(atPath: zint) else {
            Issue.record("zint is not installed (Debian package zint)")
            return
        }
        let temp = try TempDir("eci")
        let dir = temp.path
        func make(_ bytes: [UInt8], eci: Int, _ name: String) throws -> DetectedCode {
            let raw = dir + "/\(name).bin", png = dir + "/\(name).png"
            try Data(bytes).write(to: URL(fileURLWithPath: raw))
            let r = try run(zint, ["-b", "58", "--eci=\(eci)", "--binary", "--scale=4", "-i", raw, "-o", png], check: false)
            #expect(r.status == 0, "\(r.stderr)")
            return try #require(try Self.scan(png).codes.first)
        }
        let latinBytes = try Make.iconv("café crème", to: "ISO-8859-1")
        let latin = try make(latinBytes, eci: 3, "latin1")
        #expect(latin.bytes == latinBytes && latin.qr?.eci == 3, "the symbol's own bytes, not ZBar's UTF-8 conversion")
        #expect(PayloadText.decode(latin.bytes, eci: latin.qr?.eci).text == "café crème")

        let gbText = "中文测试：扫描二维码，结果正确。"
        let gbBytes = try Make.iconv(gbText, to: "GB18030")
        let gb = try make(gbBytes, eci: 29, "gb")
        #expect(gb.bytes == gbBytes, "ZBar passes ECI 29 data through untouched")
        #expect(PayloadText.decode(gb.bytes) == PayloadText(text: gbText, encoding: "gb18030"))
    }

    @Test func cliCharsetOptionForcesTheReading() throws {
        let temp = try TempDir("forced")
        let dir = temp.path
        let bytes = try Make.iconv("中文测试", to: "GB18030")
        try Make.qr(bytes: bytes, to: dir + "/gb.png")
        let detected = try run(codesweepBinary, ["scan", "--quiet", dir], check: false)
        let forced = try run(codesweepBinary, ["scan", "--quiet", "--charset", "iso-8859-1", dir], check: false)
        let d = try TestJSON.parse(detected.stdout.trimmingCharacters(in: .newlines))["codes"]?.array?.first
        let f = try TestJSON.parse(forced.stdout.trimmingCharacters(in: .newlines))["codes"]?.array?.first
        #expect(d?["text"]?.string == "中文测试")
        #expect(d?["encoding"]?.string == "gb18030")
        #expect(f?["text"]?.string == "ÖÐÎÄ²âÊÔ")
        #expect(f?["encoding"]?.string == "iso-8859-1")
        #expect(d?["bytes_b64"]?.string != nil && d?["bytes_b64"]?.string == f?["bytes_b64"]?.string)
        let bad = try run(codesweepBinary, ["scan", "--charset", "no-such-charset", dir], check: false)
        #expect(bad.status == 64 || bad.status == 2, "unknown charset is a usage error: \(bad.status)")
    }
}
