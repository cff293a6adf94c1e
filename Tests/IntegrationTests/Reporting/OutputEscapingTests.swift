import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

@testable import AssetCheck

/// Names and payloads come from anyone: every control, bidi and format character is escaped
/// (exactly once) before it reaches a terminal, stderr, a text summary or a JUnit report.
@Suite("Names and payloads reach terminals and reports escaped, once", .serialized)
struct OutputEscapingTests {
    @Test("zero-width, joiner, soft hyphen, word joiner, tag and every other format character is escaped")
    func formatCharacters() throws {
        for u in [0x200B, 0x200C, 0x200D, 0x2060, 0x00AD, 0xE0000, 0xE0001, 0xE0041, 0xE007F, 0x2061, 0x2064, 0x180E, 0x0600, 0x110BD, 0x1D173, 0xFFF9] {
            let s = Unicode.Scalar(UInt32(u))!
            #expect(TerminalText.isUnsafe(s), "U+\(String(u, radix: 16))")
            #expect(!TerminalText.escape("a\(s)b").unicodeScalars.contains(s), "U+\(String(u, radix: 16))")
        }
        #expect(TerminalText.escape("pay\u{200C}pal\u{E0041}") == "pay\\u{200C}pal\\u{E0041}")
        // Through a real scan's text output and summarize.
        let dir = try TempDir("format-chars")
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

    @Test("JUnit testcase names escape bidi overrides like every other output")
    func junitNames() {
        let report = CheckReport(images: [ImageResult(path: "ads/\u{202E}gnp.exe", violations: [])], rulesSource: "flags", seconds: 0)
        let xml = CheckOutput.junit(report, timestamp: "2026-01-01T00:00:00Z")
        #expect(xml.contains("testcase name=\"ads/\\u{202E}gnp.exe\""), "\(xml)")
        #expect(!xml.unicodeScalars.contains("\u{202E}"))
    }

    @Test("--raw error lines and merge messages escape a path once")
    func escapedOnce() throws {
        let dir = try TempDir("once")
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

    @Test("generate prints batch names escaped: a newline in a name cannot forge a line")
    func generateNames() throws {
        let dir = try TempDir("names-escape")
        let list =
            "- name: \"a\\nmade forged.png: version 1-M\"\n  payload: https://www.example.com/a\n- name: \"b\\u001b[2Jx\"\n  payload: https://www.example.com/b\n"
        try dir.write("list.yml", Array(list.utf8))
        let r = try run(codesweepBinary, ["generate", "--batch", dir.file("list.yml"), "-o", dir.file("out")], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("made forged") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("made ") && $0.contains("a\\nmade forged.png") }, "\(lines)")
        #expect(!r.stderr.contains("\u{1B}"), "\(r.stderr.debugDescription)")
    }

    @Test("No raw terminal escape reaches stderr: --annotate messages with a file name holding ESC, a YAML error echoing one")
    func stderrIsEscaped() throws {
        let dir = try TempDir()
        let input = try dir.mkdir("in")
        try run(Tools.qrencode, ["-s", "6", "-m", "4", "-o", input + "/red\u{1B}[31m.png", "escape test"])
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: dir.file("bogus.ttf")))
        let a = try sh(
            "exec \"$CS\" scan -q --annotate \"$1\" \"$2\" > /dev/null", [dir.file("out"), input],
            env: ["CODESWEEP_FONT": dir.file("bogus.ttf")])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stderr.contains("red\\x1b[31m.png: no usable font"), "\(a.stderr)")
        #expect(!a.stderr.utf8.contains(0x1B))

        try Data("url:\n  scheme: [https\n  \u{1B}]0;owned\u{07}\u{1B}[2J: [\n".utf8).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let y = try sh("exec \"$CS\" check --rules \"$1\" \"$2\"", [dir.file("rules.yml"), input])
        #expect(y.status == 2, "\(y.stderr)")
        #expect(y.stderr.contains("rules.yml"), "\(y.stderr)")
        #expect(!y.stderr.utf8.contains(0x1B) && !y.stderr.utf8.contains(0x07), "\(y.stderr)")
    }
}
