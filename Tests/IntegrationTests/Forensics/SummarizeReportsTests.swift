import Foundation
import Reporting
import TestSupport
import Testing

/// `summarize` on the reports a user has: a `--format json` one, several shards of either
/// format, a multi-kilobyte payload, a `vmess://` link. Real codes (qrencode) scanned by the real
/// binary.
@Suite("summarize reads several reports of either format")
struct SummarizeReportsTests {
    /// A vmess:// link as proxy apps share them: base64 of a JSON object, no host anywhere.
    static let vmess = "vmess://" + Data(#"{"v":"2","ps":"office","add":"10.0.0.7","port":"443","id":"9f1c"}"#.utf8).base64EncodedString()
    static let long = "https://example.com/?q=" + String(repeating: "A", count: 1977)  // 2,000 characters

    /// Two folders scanned into a jsonl report and a --format json report.
    static func makeReports() throws -> TempDir {
        let dir = try TempDir("summary")
        try dir.mkdir("one")
        try dir.mkdir("two")
        try Make.qr("https://example.com/a", to: dir.file("one/a.png"), scale: 4, margin: 4)
        try Make.qr(vmess, to: dir.file("one/proxy.png"), scale: 4, margin: 4)
        try Make.qr(long, to: dir.file("two/long.png"), scale: 4, margin: 4)
        try Make.qr("https://例え.jp/x", to: dir.file("two/idn.png"), scale: 4, margin: 4)
        try Make.qr("https://g\u{043E}ogle.com/login", to: dir.file("two/phish.png"), scale: 4, margin: 4)
        try Make.qr("https://example.com/a", to: dir.file("two/again.png"), scale: 4, margin: 4)
        for (folder, args) in [("one", ["-o", "one.jsonl"]), ("two", ["--format", "json", "-o", "two.json"])] {
            let r = try run(codesweepBinary, ["scan", "-q"] + args + [folder], currentDirectory: dir.path, check: false)
            #expect(r.status == 0, "\(r.stderr)")
        }
        return dir
    }

    static func summarize(_ args: [String], in dir: TempDir) throws -> ProcessResult {
        try run(codesweepBinary, ["summarize"] + args, currentDirectory: dir.path, check: false)
    }

    @Test("a --format json report, and a jsonl and a json report together, are summarized as one")
    func severalReportsOfEitherFormat() throws {
        let dir = try Self.makeReports()
        let json = try Self.summarize(["--json", "two.json"], in: dir)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try JSONReading.value(json.stdout)["files"]?.intValue == 4)

        let both = try Self.summarize(["--json", "one.jsonl", "two.json"], in: dir)
        #expect(both.status == 0, "\(both.stderr)")
        let s = try JSONReading.value(both.stdout)
        #expect(s["files"]?.intValue == 6 && s["codes"]?.intValue == 6 && s["unique_payloads"]?.intValue == 5)
        #expect(s["reports"]?.arrayValue?.compactMap(\.stringValue) == ["one.jsonl", "two.json"])
        let qr = try #require(s["by_symbology"]?["qr"]?["payloads"]?.arrayValue)
        let a = try #require(qr.first { $0["text"]?.stringValue == "https://example.com/a" })
        #expect(a["count"]?.intValue == 2 && a["first"]?.stringValue == "one/a.png" && a["last"]?.stringValue == "two/again.png")
        #expect(qr.contains { $0["text"]?.stringValue == Self.long }, "JSON holds the long payload whole")

        let text = try Self.summarize(["one.jsonl", "two.json"], in: dir)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("6 files in 2 reports, 6 with codes, 0 failed; 6 codes, 5 unique payloads\n"), "\(text.stdout)")
    }

    @Test("a vmess:// payload lists no URL host; IDN hosts are shown in Unicode with their punycode; a look-alike is marked")
    func hosts() throws {
        let dir = try Self.makeReports()
        let s = try JSONReading.value(try Self.summarize(["--json", "one.jsonl", "two.json"], in: dir).stdout)
        let hosts = try #require(s["by_host"]?.arrayValue)
        #expect(hosts.compactMap { $0["host"]?.stringValue }.sorted() == ["example.com", "xn--gogle-jye.com", "xn--r8jz45g.jp"], "\(hosts)")
        let idn = try #require(hosts.first { $0["host"]?.stringValue == "xn--r8jz45g.jp" })
        #expect(idn["unicode"]?.stringValue == "例え.jp" && idn["lookalike"] == .null)
        let phish = try #require(hosts.first { $0["host"]?.stringValue == "xn--gogle-jye.com" })
        #expect(phish["lookalike"]?.stringValue?.contains("mixes Latin and Cyrillic") == true)

        let text = try Self.summarize(["one.jsonl", "two.json"], in: dir).stdout
        let hostPart = try #require(text.range(of: "\nURL hosts: ")).lowerBound
        #expect(text[hostPart...].hasPrefix("\nURL hosts: 3\n") && !text[hostPart...].contains("eyJ"), "no base64 shown as a host: \(text)")
        #expect(text.contains("  例え.jp (xn--r8jz45g.jp): 1 code"), "\(text)")
        #expect(
            text.contains("  xn--gogle-jye.com (g\u{043E}ogle.com): 1 code")
                && text.contains("LOOK-ALIKE HOST: its label 'g\u{043E}ogle' mixes Latin and Cyrillic letters (it reads as google.com)"), "\(text)")
    }

    @Test("a 2,000-character payload is cut in the text summary, with a marker saying how long it is")
    func longPayloadIsCut() throws {
        let dir = try Self.makeReports()
        let text = try Self.summarize(["two.json"], in: dir).stdout
        #expect(!text.contains(String(repeating: "A", count: 300)), "not printed whole")
        let shown = "\"" + String(Self.long.prefix(200)) + "\"... [cut: 2000 characters (2000 bytes), the first 200 shown; --json has it whole]"
        #expect(text.contains(shown), "\(text)")
        #expect(text.utf8.count < 2000, "\(text.utf8.count) bytes")
    }

    @Test("usage: no report, '-' twice, a report that is not one; a path in two reports is counted twice with a warning")
    func usageAndOverlap() throws {
        let dir = try Self.makeReports()
        let none = try Self.summarize([], in: dir)
        #expect(none.status == 2 && none.stderr.contains("give one report or more"), "\(none.stderr)")
        let twice = try Self.summarize(["-", "-"], in: dir)
        #expect(twice.status == 2 && twice.stderr.contains("can be named once"), "\(twice.stderr)")
        try Data("not a report\n".utf8).write(to: URL(fileURLWithPath: dir.file("junk.jsonl")))
        let junk = try Self.summarize(["one.jsonl", "junk.jsonl"], in: dir)
        #expect(junk.status == 2 && junk.stderr.contains("junk.jsonl:1"), "\(junk.stderr)")
        let missing = try Self.summarize(["one.jsonl", "gone.jsonl"], in: dir)
        #expect(missing.status == 2 && missing.stderr.contains("gone.jsonl"), "\(missing.stderr)")

        let overlap = try Self.summarize(["one.jsonl", "one.jsonl"], in: dir)
        #expect(overlap.status == 0)
        #expect(overlap.stderr.contains("warning: 2 paths are in more than one report, counted each time"), "\(overlap.stderr)")
        #expect(overlap.stdout.hasPrefix("4 files in 2 reports"), "\(overlap.stdout)")
        // From standard input, in either format.
        let stdin = try run(
            codesweepBinary, ["summarize", "--json", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: dir.file("two.json"))), check: false)
        #expect(stdin.status == 0, "\(stdin.stderr)")
        #expect(try JSONReading.value(stdin.stdout)["files"]?.intValue == 4)
    }
}
