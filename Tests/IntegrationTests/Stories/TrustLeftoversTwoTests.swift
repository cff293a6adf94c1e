import Foundation
import Reporting
import SweepCore
import TestSupport
import Testing

@testable import AssetCheck

/// Issue 40, item 9: the smaller leftovers.
@Suite("Trust: leftovers, second round", .serialized)
struct TrustLeftoversTwoTests {
    @Test("9: zero-width, joiner, soft hyphen, word joiner, tag and every other format character is escaped")
    func formatCharacters() throws {
        for u in [0x200B, 0x200C, 0x200D, 0x2060, 0x00AD, 0xE0000, 0xE0001, 0xE0041, 0xE007F, 0x2061, 0x2064, 0x180E, 0x0600, 0x110BD, 0x1D173, 0xFFF9] {
            let s = Unicode.Scalar(UInt32(u))!
            #expect(TerminalText.isUnsafe(s), "U+\(String(u, radix: 16))")
            #expect(!TerminalText.escape("a\(s)b").unicodeScalars.contains(s), "U+\(String(u, radix: 16))")
        }
        #expect(TerminalText.escape("pay\u{200C}pal\u{E0041}") == "pay\\u{200C}pal\\u{E0041}")
        // Through a real scan's text output and summarize.
        let dir = try TempDir("trust-format-chars")
        let payload = "https://pay\u{200D}pal.example/\u{2060}x\u{00AD}y\u{E0067}"
        try Make.qr(payload, to: dir.file("a.png"))
        let text = try run(codesweepBinary, ["scan", "--format", "text", "a.png"], currentDirectory: dir.path)
        try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "a.png"], currentDirectory: dir.path)
        let summary = try run(codesweepBinary, ["summarize", "r.jsonl"], currentDirectory: dir.path)
        for out in [text.stdout, summary.stdout] {
            #expect(out.contains("pay\\u{200D}pal.example/\\u{2060}x\\u{00AD}y\\u{E0067}"), "\(out)")
            #expect(!out.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(out.debugDescription)")
        }
    }

    @Test("9: JUnit testcase names escape bidi overrides like every other output")
    func junitNames() {
        let report = CheckReport(images: [ImageResult(path: "ads/\u{202E}gnp.exe", violations: [])], rulesSource: "flags", seconds: 0)
        let xml = CheckOutput.junit(report, timestamp: "2026-01-01T00:00:00Z")
        #expect(xml.contains("testcase name=\"ads/\\u{202E}gnp.exe\""), "\(xml)")
        #expect(!xml.unicodeScalars.contains("\u{202E}"))
    }

    @Test("9: --raw error lines and merge messages escape a path once")
    func escapedOnce() throws {
        let dir = try TempDir("trust-once")
        let name = "esc\u{1B}.png"
        try dir.write(name, Array("not an image".utf8))
        let raw = try run(codesweepBinary, ["scan", "--raw", name], currentDirectory: dir.path, check: false)
        #expect(raw.stderr.contains("codesweep: error: esc\\x1b.png: "), "\(raw.stderr)")
        #expect(!raw.stderr.contains("esc\\\\x1b"), "\(raw.stderr)")
        try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", name], currentDirectory: dir.path, check: false)
        let merge = try run(codesweepBinary, ["merge", "r.jsonl", "r.jsonl"], currentDirectory: dir.path, check: false)
        #expect(merge.status == 1 && merge.stderr.contains("duplicated: esc\\x1b.png is in r.jsonl:1"), "\(merge.stderr)")
        #expect(!merge.stderr.contains("esc\\\\x1b"), "\(merge.stderr)")
    }

    @Test("9: localhost in a deny list also covers 0.0.0.0, https://0/ and [::]; evil.example.. is evil.example")
    func denyHosts() throws {
        let local = TrustGateTests.rules { $0.url.denyHosts = ["localhost"] }
        for payload in ["https://0.0.0.0/", "https://0/", "https://[::]/", "https://[::ffff:0.0.0.0]/", "https://0x0/", "https://127.1/"] {
            #expect(try TrustGateTests.violations(payload, local) == ["url.deny_hosts"], "\(payload)")
        }
        let loopback = TrustGateTests.rules { $0.url.denyHosts = ["127.0.0.1"] }
        #expect(try TrustGateTests.violations("https://0/", loopback) == ["url.deny_hosts"])
        #expect(try TrustGateTests.violations("https://0.0.0.1/", local).isEmpty)
        let evil = TrustGateTests.rules { $0.url.denyHosts = ["evil.example"] }
        for payload in ["https://evil.example../", "https://evil.example../x", "https://EVIL.example./"] {
            #expect(try TrustGateTests.violations(payload, evil) == ["url.deny_hosts"], "\(payload)")
        }
        #expect(try TrustGateTests.violations("https://evil.example.../x", evil) == ["url.valid"], "an empty label: no host a browser opens")
        let sub = TrustGateTests.rules { $0.url.denyHosts = ["*.evil.example"] }
        #expect(try TrustGateTests.violations("https://a.evil.example../", sub) == ["url.deny_hosts"])
    }

    @Test("9: CSV neutralises a formula behind white space, NBSP, U+3000, LF or in full-width forms, and breaks workflow commands")
    func csvFormulas() throws {
        for cell in [" =1+1", "\u{A0}=1", "\u{3000}+1", "\n=1", "\r\n-1", "\t@x", "＝1+1", "＋1", "－1", "＠SUM(A1)", "  \u{3000}＝1"] {
            #expect(CSVSink.neutralised(cell) == "'" + cell, "\(cell.debugDescription)")
        }
        for cell in ["a=1", "1-2", "x ＝ 1", ""] { #expect(CSVSink.neutralised(cell) == cell, "\(cell.debugDescription)") }
        #expect(CSVSink.neutralised("::error::x") == "'::error::x")
        #expect(CSVSink.neutralised("a\n  ::warning::x") == "a\n  '::warning::x")
        #expect(CSVSink.neutralised("see ##[add-mask]x") == "see #'#[add-mask]x")
        // Through a real scan.
        let dir = try TempDir("trust-csv")
        try Make.qr("\u{3000}=HYPERLINK(\"http://evil.example\")", to: dir.file("a.png"))
        let csv = try run(codesweepBinary, ["scan", "--format", "csv", "a.png"], currentDirectory: dir.path)
        #expect(csv.stdout.contains(",\"'\u{3000}=HYPERLINK(\"\"http://evil.example\"\")\","), "\(csv.stdout)")
    }
}
