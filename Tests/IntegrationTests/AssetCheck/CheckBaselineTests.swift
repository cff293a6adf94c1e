import Foundation
import TestSupport
import Testing

/// `check --baseline`: a folder of assets scanned (`check --json`), then edited: one payload
/// changed, one code removed, one added, one shrunk below print size. Each change is named, with
/// its file, in the summary, the JSON report, JUnit and the GitHub annotations; the unchanged
/// folder passes.
@Suite("Check against a baseline")
struct CheckBaselineTests {
    static let spring = "https://www.example.com/spring"
    static let summer = "https://www.example.com/summer"
    static let flyer = "https://www.example.com/flyer"
    static let banner = "https://www.example.com/banner"
    static let extra = "https://www.example.com/banner-extra"
    static let label = "https://www.example.com/label"

    /// The assets as in the base revision, or as edited.
    static func assets(in dir: TempDir, edited: Bool) throws {
        // Drawn in a folder of their own (the helper leaves each code's PNG beside its poster),
        // then moved into the assets.
        try dir.mkdir("assets")
        let a = URL(fileURLWithPath: try dir.mkdir("drawn"))
        try CheckFixtures.poster(a.appendingPathComponent("poster.png"), payload: edited ? summer : spring)
        try CheckFixtures.poster(a.appendingPathComponent("flyer.png"), payload: edited ? nil : flyer)
        var second: [String] = []
        if edited {
            let qr = dir.file("extra.qr.png")
            try run(Tools.qrencode, ["-l", "M", "-m", "4", "-s", "4", "-o", qr, extra])
            second = [qr, "-gravity", "West", "-geometry", "+24+28", "-composite"]
        }
        try CheckFixtures.poster(a.appendingPathComponent("banner.png"), payload: banner, width: 640, extra: second)
        for name in ["poster.png", "flyer.png", "banner.png"] {
            guard rename(dir.file("drawn/\(name)"), dir.file("assets/\(name)")) == 0 else { throw ToolFailure("cannot move \(name) into assets") }
        }
        // 20 mm wide (version 3, 29 modules: 0.69 mm), then 9 mm (0.31 mm, under GS1's 0.396 mm).
        try DocumentCheckTests.label(label, side: edited ? 9 : 20, page: 0, of: 1).write(dir.file("assets/label.pdf"))
    }

    static func check(_ dir: TempDir, _ arguments: [String]) throws -> ProcessResult {
        try run(codesweepBinary, ["check", "--no-rules-file"] + arguments + ["assets"], currentDirectory: dir.path, check: false)
    }

    @Test("an unchanged folder passes; the edited one fails naming each change in text, JSON, JUnit and GitHub outputs")
    func namesEachChange() throws {
        let dir = try TempDir("baseline")
        try Self.assets(in: dir, edited: false)
        let base = try Self.check(dir, ["--json", "base.json"])
        #expect(base.status == 0, "\(base.stdout)\(base.stderr)")
        let same = try Self.check(dir, ["--baseline", "base.json"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("Against the baseline base.json: no code added, removed or changed"), "\(same.stdout)")

        try Self.assets(in: dir, edited: true)
        let text = try Self.check(dir, ["--baseline", "base.json"])
        #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
        let s = text.stdout
        #expect(s.contains("1 added, 1 removed, 2 changed"), "\(s)")
        #expect(s.contains("✗ baseline.changed: code 1 changed: payload \"\(Self.spring)\" → \"\(Self.summer)\""), "\(s)")
        #expect(s.contains("✗ baseline.removed: the baseline's code 1 (QR Code \"\(Self.flyer)\") is gone"), "\(s)")
        #expect(
            s.contains("• baseline.added: code 2 (QR Code \"\(Self.extra)\") is new")
                || s.contains("• baseline.added: code 1 (QR Code \"\(Self.extra)\") is new"), "\(s)")
        #expect(s.contains("printed module 0.69") && s.contains(" mm → 0.3"), "\(s)")
        for file in ["assets/poster.png", "assets/flyer.png", "assets/banner.png", "assets/label.pdf"] { #expect(s.contains(file)) }
        // The failing ones are problems of their images, with a fix.
        #expect(s.contains("FAIL   assets/flyer.png"), "\(s)")

        let json = try Self.check(dir, ["--baseline", "base.json", "--json", "-"])
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let baseline = try #require(report["baseline"] as? [String: Any])
        let summary = try #require(baseline["summary"] as? [String: Int])
        #expect(summary["added"] == 1 && summary["removed"] == 1 && summary["changed"] == 2, "\(summary)")
        let files = try #require(baseline["files"] as? [[String: Any]])
        var rules: [String: [String]] = [:]
        for f in files { rules[f["path"] as! String] = (f["changes"] as! [[String: Any]]).map { $0["rule"] as! String } }
        #expect(rules["assets/poster.png"] == ["baseline.changed"])
        #expect(rules["assets/flyer.png"] == ["baseline.removed"])
        #expect(rules["assets/banner.png"] == ["baseline.added"])
        #expect(rules["assets/label.pdf"].map { ["baseline.changed", "baseline.grade-drop"].contains($0.first!) } == true, "\(rules)")
        let labelChange = try #require((files.first { $0["path"] as? String == "assets/label.pdf" }?["changes"] as? [[String: Any]])?.first)
        #expect(
            (labelChange["differences"] as? [String])?.contains { $0.hasPrefix("printed module 0.69") && $0.contains(" mm → 0.3") } == true, "\(labelChange)")

        let junit = try Self.check(dir, ["--baseline", "base.json", "--junit", "-"])
        #expect(junit.status == 1)
        let x = junit.stdout
        #expect(x.contains("<testcase name=\"assets/poster.png\"") && x.contains("type=\"baseline.changed\""), "\(x)")
        #expect(x.contains("<testcase name=\"assets/flyer.png\"") && x.contains("baseline.removed"))
        #expect(x.contains("printed module 0.69") && x.contains(" mm → 0.3"))
        #expect(x.contains("baseline.added: code") && x.contains(Self.extra), "the added code is in the suite's output")
        // ... and in the banner's own test case, which passes.
        let bannerStart = try #require(x.range(of: "<testcase name=\"assets/banner.png\""))
        let bannerCase = x[bannerStart.lowerBound...]
        let bannerEnd = try #require(bannerCase.range(of: "</testcase>"))
        #expect(
            bannerCase[..<bannerEnd.lowerBound].contains("• baseline.added: code 1 (QR Code &quot;\(Self.extra)&quot;) is new"), "\(bannerCase.prefix(2000))")

        let github = try Self.check(dir, ["--baseline", "base.json", "--github"])
        let lines = github.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("::error file=assets/poster.png,title=codesweep baseline.changed (code 1)::") && $0.contains(Self.summer) })
        #expect(lines.contains { $0.hasPrefix("::error file=assets/flyer.png,title=codesweep baseline.removed::") })
        #expect(lines.contains { $0.hasPrefix("::notice file=assets/banner.png,title=codesweep baseline.added (code ") })
        #expect(lines.contains { $0.hasPrefix("::error file=assets/label.pdf,title=codesweep baseline.") && $0.contains("→ 0.3") }, "\(github.stdout)")

        // --fail-on picks what fails: only additions, then nothing fails of the baseline's changes
        // but the print rule (the label's code is under 0.396 mm).
        let added = try Self.check(dir, ["--baseline", "base.json", "--fail-on", "added", "--github"])
        #expect(added.stdout.contains("::error file=assets/banner.png,title=codesweep baseline.added"))
        #expect(!added.stdout.contains("::error file=assets/flyer.png"))
    }

    @Test("a scan report is a baseline too (payloads and print sizes, no grades); bad baselines and flags exit 2")
    func scanBaselineAndUsage() throws {
        let dir = try TempDir("baseline-scan")
        try Self.assets(in: dir, edited: false)
        try run(codesweepBinary, ["scan", "-o", dir.file("base.jsonl"), "assets"], currentDirectory: dir.path)
        let same = try Self.check(dir, ["--baseline", "base.jsonl"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("grades not compared"))
        try Self.assets(in: dir, edited: true)
        let changed = try Self.check(dir, ["--baseline", "base.jsonl", "--fail-on", "removed"])
        #expect(changed.status == 1 && changed.stdout.contains("✗ baseline.removed") && changed.stdout.contains("• baseline.changed"), "\(changed.stdout)")
        // grade-drop asked of a baseline with no grades would check nothing.
        let drop = try Self.check(dir, ["--baseline", "base.jsonl", "--fail-on", "grade-drop"])
        #expect(drop.status == 2 && drop.stderr.contains("holds no grades"), "\(drop.stderr)")
        try Data("not a report\n".utf8).write(to: URL(fileURLWithPath: dir.file("bad.jsonl")))
        let bad = try Self.check(dir, ["--baseline", "bad.jsonl"])
        #expect(bad.status == 2 && bad.stderr.contains("neither a `codesweep check --json` report nor a scan report"), "\(bad.stderr)")
        let empty = try Self.check(dir, ["--baseline", "/dev/null"])
        #expect(empty.status == 2 && empty.stderr.contains("holds no file record"), "\(empty.stderr)")
        let typo = try Self.check(dir, ["--baseline", "base.jsonl", "--fail-on", "remove"])
        #expect(typo.status == 2 && typo.stderr.contains("--fail-on takes"), "\(typo.stderr)")
        let alone = try Self.check(dir, ["--fail-on", "removed"])
        #expect(alone.status == 2 && alone.stderr.contains("--fail-on needs --baseline"), "\(alone.stderr)")
        let over = try Self.check(dir, ["--baseline", "base.jsonl", "--json", "base.jsonl"])
        #expect(over.status == 2, "\(over.stderr)")
    }
}
