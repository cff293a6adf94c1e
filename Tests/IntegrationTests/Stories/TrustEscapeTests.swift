import Foundation
import Reporting
import TestSupport
import Testing

@testable import AssetCheck

/// Issue 27, item 14: untrusted names reach CI logs and terminals only escaped.
@Suite("Trust: escaping")
struct TrustEscapeTests {
    @Test("14: GitHub ::error file= and title= carry no ESC, control bytes, DEL or U+202E")
    func githubProperties() {
        let evil = "ads/\u{1B}[31mred\u{7}\u{7F}\u{202E}gnp.exe\u{9B}.png"
        let report = CheckReport(
            images: [ImageResult(path: evil, violations: [Violation(rule: "url.scheme", message: "m", fix: "f")])],
            rulesSource: "flags", seconds: 0)
        let text = CheckOutput.github(report)
        #expect(!text.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(text.debugDescription)")
        #expect(text.hasPrefix("::error file=ads/\\x1b[31mred\\x07\\x7f\\u{202E}gnp.exe\\u{009B}.png,title=codesweep url.scheme::"), "\(text.debugDescription)")
        #expect(text.filter { $0 == "\n" }.count == 1)
    }

    @Test("14: generate prints batch names escaped: a newline in a name cannot forge a line")
    func generateNames() throws {
        let dir = try TempDir("trust-names-escape")
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
}
