import CodeContent
import Forensics
import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

@testable import AssetCheck

/// The gate cannot pass by mistake (nothing checked, impossible grades), grades what phones read
/// (inverted codes, an exact 4-module margin), escapes payloads once, and normalises hosts the
/// way phones do before the deny list sees them. Images are made with qrencode and the real
/// ImageMagick and decoded by the real engine.
@Suite("Check gate")
struct CheckGateTests {
    /// Scans `dir` with the check's own runner (in process) and returns the records and measurements by file name.
    static func scan(_ dir: TempDir) async -> [String: (record: FileRecord, scans: [Scannability?])] {
        let runner = CheckRunner(
            rules: CheckRules(), context: PathContext(currentDirectory: dir.path), today: "2026-01-01",
            jobs: 2, isolation: .none)
        let (records, scans) = await runner.scan(paths: [dir.path])
        var out: [String: (FileRecord, [Scannability?])] = [:]
        for (r, s) in zip(records, scans) { out[URL(fileURLWithPath: r.path).lastPathComponent] = (r, s) }
        return out
    }

    static func check(_ args: [String], in dir: TempDir) throws -> ProcessResult {
        try run(codesweepBinary, ["check", "--isolation", "none"] + args, currentDirectory: dir.path, check: false)
    }

    // MARK: Nothing checked

    @Test("a check that finds no image exits 2: empty folder, --include matching nothing, paths: matching nothing")
    func nothingChecked() throws {
        let dir = try TempDir()
        try dir.mkdir("empty")
        try dir.mkdir("assets")
        try Make.qr("https://www.example.com/a", to: dir.file("assets/poster.png"), scale: 4, margin: 4)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir.file("assets/notes.txt")))

        let empty = try Self.check(["--no-rules-file", "empty"], in: dir)
        #expect(empty.status == 2, "\(empty.stdout)\(empty.stderr)")
        #expect(empty.stderr.contains("no image was checked"))
        #expect(!empty.stdout.contains("PASSED"))

        let upper = try Self.check(["--no-rules-file", "--include", "*.PNG", "assets"], in: dir)
        #expect(upper.status == 2)
        #expect(upper.stderr.contains("matching include '*.PNG'") && upper.stderr.contains("case-sensitive"))

        // Every glob list that can leave nothing is named: iinclude, exclude, iexclude too.
        let globs = try Self.check(["--no-rules-file", "--iinclude", "*.jpeg", "--exclude", "assets/poster.png", "--iexclude", "*.GIF", "assets"], in: dir)
        #expect(globs.status == 2)
        #expect(globs.stderr.contains("matching iinclude '*.jpeg' once exclude 'assets/poster.png' and iexclude '*.GIF' left files out"), "\(globs.stderr)")
        #expect(!globs.stderr.contains("case-sensitive"))

        try Data("paths: [empty]\n".utf8).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let fromRules = try Self.check(["--rules", "rules.yml"], in: dir)
        #expect(fromRules.status == 2 && fromRules.stderr.contains("no image was checked"))

        // The same folder with an image passes: the guard is about nothing checked, nothing else.
        let some = try Self.check(["--no-rules-file", "--include", "*.png", "assets"], in: dir)
        #expect(some.status == 0, "\(some.stdout)\(some.stderr)")
        #expect(some.stdout.contains("PASSED: 1 image"))
    }

    @Test("a missing folder in paths: is an error whose fix is about the path, not about re-exporting")
    func missingPath() throws {
        let dir = try TempDir()
        try Data("paths: [posters]\n".utf8).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let r = try Self.check(["--rules", "rules.yml"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout.contains("nothing exists at this path"), "\(r.stdout)")
        #expect(!r.stdout.contains("re-export"))
        #expect(Evaluator.unreadableFix(.corrupt).contains("re-export the file as PNG"))
    }

    // MARK: Grades

    @Test("grades outside A-D are refused, by flag and by rules file, in the words --help uses")
    func gradeWording() throws {
        for bad in ["E", "F", "0", "G", "5"] { #expect(Grade(minimum: bad) == nil, "\(bad)") }
        #expect(Grade(minimum: "a") == .A && Grade(minimum: "1") == .D && Grade(minimum: "C") == .C)
        let dir = try TempDir()
        try dir.mkdir("assets")
        try Make.qr("https://www.example.com/a", to: dir.file("assets/poster.png"), scale: 4, margin: 4)

        let help = try run(codesweepBinary, ["check", "--help"], check: false)
        let helpText = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // ArgumentParser wraps lines
        #expect(helpText.contains("Lowest scannability grade accepted: \(Grade.minimumChoices)"))
        let flag = try Self.check(["--no-rules-file", "--min-grade", "E", "assets"], in: dir)
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("--min-grade takes \(Grade.minimumChoices), not 'E'"), "\(flag.stderr)")
        try Data("min_grade: F\n".utf8).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let file = try Self.check(["--rules", "rules.yml", "assets"], in: dir)
        #expect(file.status == 2)
        #expect(file.stderr.contains("min_grade takes \(Grade.minimumChoices), not 'F'"), "\(file.stderr)")
    }

    @Test("qrencode's 4-module margin grades A at 6 and 8 px modules; 3, 2 and 1 modules grade B, C, D")
    func quietZoneGrades() async throws {
        let dir = try TempDir()
        for (s, m) in [(6, 4), (8, 4), (6, 3), (6, 2), (6, 1)] {
            try Make.qr("https://www.example.com/quiet", to: dir.file("s\(s)m\(m).png"), scale: s, margin: m)
        }
        let scanned = await Self.scan(dir)
        func measured(_ name: String) throws -> Scannability {
            let s = try #require(scanned[name]?.scans.first ?? nil, "\(name) was not measured")
            return s
        }
        for name in ["s6m4.png", "s8m4.png"] {
            let s = try measured(name)
            let qz = try #require(s.quietZoneModules)
            #expect(s.quietZonePx >= 4 * Double(name == "s6m4.png" ? 6 : 8) - 0.5, "\(name): \(s.summary)")
            #expect(qz > 3.9 && qz < 4.3, "\(name): \(s.summary)")
            #expect(s.grades.first { $0.parameter == "quiet zone" }?.grade == .A, "\(name): \(s.summary)")
            #expect(s.grade == .A, "\(name): \(s.summary)")
        }
        #expect(try measured("s6m3.png").grades.first { $0.parameter == "quiet zone" }?.grade == .B)
        #expect(try measured("s6m2.png").grades.first { $0.parameter == "quiet zone" }?.grade == .C)
        #expect(try measured("s6m1.png").grades.first { $0.parameter == "quiet zone" }?.grade == .D)
    }

    @Test("a light-on-dark QR code is graded by reading it inverted, noted, and passes a C gate")
    func invertedCode() async throws {
        let dir = try TempDir()
        let qr = dir.file("qr.png")
        try Make.qr("https://www.example.com/night", to: qr, scale: 6, margin: 4)
        try dir.mkdir("assets")
        try Make.convert([
            "-size", "420x300", "xc:#1b1b2a", "(", qr, "-negate", ")", "-gravity", "center", "-composite",
            dir.file("assets/night.png"),
        ])
        let scanned = await Self.scan(
            try {
                let d = try TempDir()
                try FileManager.default.copyItem(atPath: dir.file("assets/night.png"), toPath: d.file("night.png"))
                return d
            }())
        let entry = try #require(scanned["night.png"])
        #expect(entry.record.codes.count == 1, "the scan reads the inverted code")
        let s = try #require(entry.scans.first ?? nil)
        #expect(s.inverted && s.readsAsIs)
        #expect(s.notes == ["inverted (light on dark): some older scanner apps cannot read it"])
        #expect(s.grade >= .C, "\(s.summary)")
        #expect(s.summary.contains("inverted (light on dark)"))

        let r = try Self.check(["--no-rules-file", "--min-grade", "C", "-v", "assets"], in: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("inverted (light on dark): some older scanner apps cannot read it"))
    }

    // MARK: Wording and escaping

    @Test("the margins say what was done to the code: shown N× smaller, blurred by σ, faded to N % of its contrast")
    func marginWording() {
        let s = Scannability(
            modulePx: 6, modulesPerSide: 25, version: 2, quietZonePx: 24, quietZoneModules: 4, contrast: 0.9,
            readsAsIs: true, scaleMargin: 4, blurMargin: 0.35, contrastMargin: 0.12, grades: [])
        #expect(s.summary.contains("still reads shown 4× smaller, blurred by σ 0.35 module and faded to 12 % of its contrast"))
        #expect(!s.summary.contains("reads shrunk"))
        let weak = Scannability(modulePx: 2, quietZonePx: 8, contrast: 0.9, readsAsIs: true, scaleMargin: 1, blurMargin: 0, contrastMargin: 1, grades: [])
        #expect(weak.margins == "still reads at its own size only (not smaller), not blurred and at its full contrast only")
    }

    /// A QR code whose payload holds a newline, a backslash and a right-to-left override, checked
    /// for real: every output shows them escaped exactly once, by TerminalText.
    @Test("payloads are escaped once, by TerminalText, in the summary, JUnit, annotations and JSON")
    func escapedOnce() throws {
        let dir = try TempDir()
        try dir.mkdir("assets")
        let payload = "BEGIN:VCARD\nN:w0rd\\;x\u{202E}gnp.exe"
        try Make.qr(payload, to: dir.file("assets/card.png"), scale: 4, margin: 4)
        let shown = "\"BEGIN:VCARD\\nN:w0rd\\\\;x\\u{202E}gnp.exe\""  // as printed: \n, \\, \u{202E}
        #expect(TerminalText.escape("\"" + payload + "\"") == shown)

        let r = try Self.check(["--no-rules-file", "--junit", "junit.xml", "--json", "check.json", "--github", "assets"], in: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("code 1: QR Code " + shown), "\(r.stdout)")
        #expect(r.stdout.contains("is not a URL"))
        #expect(!r.stdout.contains("\\\\\\\\") && !r.stdout.contains("\\\\u{") && !r.stdout.contains("\u{202E}"))
        let annotation = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("::error") })
        #expect(annotation.contains(shown), "\(annotation)")

        let junit = try String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)
        #expect(junit.contains(CheckOutput.xml(shown)) && !junit.contains("\u{202E}"))
        let json = try JSONReading.value(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("check.json")))))
        let message = try #require(json["images"]?[0]?["violations"]?[0]?["message"]?.stringValue)
        #expect(message.contains(shown), "\(message)")
        #expect(json["images"]?[0]?["codes"]?[0]?["text"]?.stringValue == payload, "the code's text field stays exact")
    }

    // MARK: Hosts

    @Test("URLHost: percent-decoding, full-width and case, punycode both ways, trailing dot, IPv4 forms")
    func hostNormalisation() throws {
        func host(_ s: String) -> String? { if case .success(let h) = URLHost.parse(s) { h.ascii } else { nil } }
        #expect(host("st%61ging.example.com") == "staging.example.com")
        #expect(host("ＳＴＡＧＩＮＧ．example．com") == "staging.example.com")
        #expect(host("Staging.Example.COM.") == "staging.example.com")
        #expect(host("st\u{00AD}aging.example.com") == "staging.example.com")
        #expect(host("bücher.example") == "xn--bcher-kva.example")
        #expect(host("XN--BCHER-KVA.example") == "xn--bcher-kva.example")
        #expect(host("münchen.de") == "xn--mnchen-3ya.de")
        #expect(host("xn--a.example") == nil, "invalid punycode fails the host")
        #expect(host("0x7f.1") == "127.0.0.1")
        #expect(host("0177.0.0.1") == "127.0.0.1")
        #expect(host("2130706433") == "127.0.0.1")
        #expect(host("127.1") == "127.0.0.1")
        #expect(host("256.0.0.1") == nil)
        #expect(host("exa%2Fmple.com") == nil, "a decoded '/' is not a host")
        #expect(Punycode.decode("bcher-kva").map { String(String.UnicodeScalarView($0.compactMap(Unicode.Scalar.init))) } == "bücher")
        #expect(Punycode.encode(Array("ليهمابتكلموشعربي؟".unicodeScalars.map(\.value))) == "egbpdaj6bu4bxfgehfvwxn")

        // The one host parser: summarize and report agree with check.
        #expect(PayloadSummary.urlHost("https://st%61ging.example.com/x") == "staging.example.com")
        #expect(DisplayText.urlHost("https://ＳＴＡＧＩＮＧ.example.com/x") == "staging.example.com")
        #expect(try URLParts.parse("https://st%61ging.example.com/x").host == "staging.example.com")
    }

    @Test("deny_hosts blocks percent-encoded, full-width, punycode and look-alike forms of a denied host")
    func denyBypasses() async throws {
        let dir = try TempDir()
        let payloads = [
            "percent": "https://st%61ging.example.com/spring",
            "fullwidth": "https://ｓｔａｇｉｎｇ.example.com/spring",
            "punycode": "https://xn--stging-4nf.example.com/spring",  // "stаging" with a Cyrillic а
            "dot": "https://STAGING.example.com./spring",
            "ipv4": "https://0x7f.1/spring",
            "good": "https://www.example.com/spring",
        ]
        for (name, p) in payloads { try Make.qr(p, to: dir.file(name + ".png"), scale: 4, margin: 4) }
        let scanned = await Self.scan(dir)
        var rules = CheckRules()
        rules.url.denyHosts = ["staging.*", "127.0.0.1"]
        let evaluator = try Evaluator(rules: rules, context: PathContext(currentDirectory: dir.path), today: "2026-01-01")
        for name in payloads.keys {
            let entry = try #require(scanned[name + ".png"])
            #expect(entry.record.codes.map { PayloadText.decode($0.bytes).text } == [payloads[name]!])
            let result = evaluator.evaluate(entry.record, scans: entry.scans)
            #expect(result.rules == (name == "good" ? [] : ["url.deny_hosts"]), "\(name): \(result.violations.map(\.message))")
        }
        let percent = evaluator.evaluate(try #require(scanned["percent.png"]).record, scans: [])
        #expect(percent.violations[0].message.contains("points to staging.example.com, written 'st%61ging.example.com'"))
        let lookalike = evaluator.evaluate(try #require(scanned["punycode.png"]).record, scans: [])
        #expect(lookalike.violations[0].message.contains("look-alike letters"))
        #expect(
            !Wildcard.hostMatches("staging.*", try #require(try URLParts.parse(payloads["punycode"]!).parsedHost)),
            "a look-alike matches a deny list only, never an allow list")
    }
}
