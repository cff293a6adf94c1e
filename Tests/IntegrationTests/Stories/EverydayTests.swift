import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import Forensics

/// Everyday friction: a misspelt command, the progress line and end summary, an empty folder,
/// and `merge --root` written differently from the shards' scan.
@Suite("Everyday: did you mean, progress, no images, merge hint")
struct EverydayTests {
    static let commands = ["scan", "check", "symbologies", "plan", "summarize", "merge", "report"]

    @Test("did you mean: near misses of a command that are not files get a suggestion; paths and far words do not")
    func didYouMean() throws {
        func meant(_ w: String, exists: Bool = false) -> String? { DidYouMean.subcommand(for: w, commands: Self.commands) { _ in exists } }
        #expect(meant("summarise") == "summarize")
        #expect(meant("reprot") == "report")
        #expect(meant("scna") == "scan")
        #expect(meant("chekc") == "check")
        #expect(meant("summarise", exists: true) == nil, "an existing file of that name is scanned")
        #expect(meant("photos") == nil && meant("a.png") == nil && meant("--html") == nil && meant("dir/report") == nil)
        #expect(DidYouMean.distance("example.com", "exmaple.com") == 2)

        let dir = try TempDir()
        let r = try run(codesweepBinary, ["summarise", "x.jsonl"], currentDirectory: dir.path, check: false)
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean `codesweep summarize`?"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "nothing was scanned")
        let h = try run(codesweepBinary, ["reprot", "--html", "r.html"], currentDirectory: dir.path, check: false)
        #expect(h.status == 2 && h.stderr.contains("`codesweep report`") && !h.stderr.contains("--hash"), "\(h.stderr)")
        // A file of that name exists: it is scanned as before.
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file("reprot")))
        let file = try run(codesweepBinary, ["reprot"], currentDirectory: dir.path, check: false)
        #expect(file.stdout.contains("\"path\":\"reprot\""))
    }

    @Test("progress words: no '0 img/s', an ETA, singular counts, one line that fits the width")
    func progressWords() {
        #expect(ProgressLine.rate(files: 1, elapsed: 12) == "12 s/img")
        #expect(ProgressLine.rate(files: 5, elapsed: 2) == "2.5 img/s")
        #expect(ProgressLine.rate(files: 300, elapsed: 10) == "30 img/s")
        #expect(ProgressLine.rate(files: 0, elapsed: 3) == nil)
        #expect(ProgressLine.eta(done: 10, total: 100, elapsed: 5) == "ETA 45s")
        #expect(ProgressLine.eta(done: 1, total: 100, elapsed: 10) == "ETA 16m30s")
        #expect(ProgressLine.count(1, "code") == "1 code" && ProgressLine.count(2, "code") == "2 codes")
        let wide = ProgressLine.live(
            done: 12, total: 340, codes: 1, failed: 0, elapsed: 6, current: "photos/2024/holiday-" + String(repeating: "写真", count: 20) + ".jpg", width: 120)
        #expect(wide.hasPrefix("12/340 files, 1 code, 2 img/s, ETA 2m44s, …"), "\(wide)")
        #expect(wide.hasSuffix("写真.jpg") && ProgressLine.columns(wide) <= 119)
        for width in [20, 30, 40, 60] {
            let line = ProgressLine.live(done: 12, total: 340, codes: 7, failed: 2, elapsed: 600, current: "a/very/long/path/name.png", width: width)
            #expect(ProgressLine.columns(line) <= width - 1, "\(width): \(line)")
        }
        #expect(ProgressLine.failed(["a.png (corrupt)", "b.gif (timeout)"], total: 5) == "failed: a.png (corrupt), b.gif (timeout) and 3 more")
        // While the walk that counts the files runs, no total and no ETA.
        #expect(ProgressLine.live(done: 12, total: nil, codes: 1, failed: 0, elapsed: 6, current: nil, width: 120) == "12 files, 1 code, 2 img/s")
    }

    /// Under a pseudo-terminal 40 columns wide (util-linux `script`), every redraw of the live
    /// line fits on one line, and the end summary names the failed file.
    @Test("a real run on a 40-column terminal: each progress redraw fits; the end names failed files; an empty folder says so")
    func terminalRun() throws {
        let dir = try TempDir()
        try dir.mkdir("in")
        for i in 0..<4 { try Make.qr("https://www.example.com/\(i)", to: dir.file("in/code-\(i)-with-a-rather-long-file-name.png"), scale: 3, margin: 4) }
        try Data("not an image".utf8).write(to: dir.file("in/zz-broken.jpg").withURL)
        let command = "stty cols 40; '\(codesweepBinary)' scan -j 1 -o '\(dir.file("out.jsonl"))' '\(dir.file("in"))'"
        let r = try run("/usr/bin/script", ["-qec", command, "/dev/null"], check: false)
        let segments = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\r\u{1B}[K").dropFirst()
        #expect(!segments.isEmpty, "\(r.stdout)")
        let live = segments.dropLast()
        #expect(!live.isEmpty, "the first record always draws the live line")
        for s in live { #expect(!s.contains("\n") && ProgressLine.columns(s) <= 39, "\(s)") }
        #expect(!live.contains { $0.contains(" 0 img/s") })
        let end = try #require(segments.last)
        #expect(end.contains("5 files: 4 with codes") && end.contains("4 codes (4 unique)"), "\(end)")
        #expect(end.contains("failed: \(dir.file("in/zz-broken.jpg")) (not_image)"), "\(end)")

        try dir.mkdir("empty")
        let empty = try run(codesweepBinary, ["scan", dir.file("empty")], check: false)
        #expect(empty.stderr.contains("no images found in '\(dir.file("empty"))'"), "\(empty.stderr)")
        let filtered = try run(codesweepBinary, ["scan", "--include", "*.PNG", dir.file("in")], check: false)
        #expect(filtered.stderr.contains("matching --include '*.PNG' (globs are case-sensitive)"), "\(filtered.stderr)")
    }

    @Test("merge --root written differently from the shards' scan: the failure says how the names differ")
    func mergeRootHint() throws {
        #expect(
            ReportMerge.rootHint(missing: ["./case/a.png", "./case/b.png"], extra: ["case/a.png", "case/b.png"])?
                .contains("'./case/a.png' is 'case/a.png' there (and 1 more like it)") == true)
        #expect(ReportMerge.rootHint(missing: ["case/a.png"], extra: ["other/z.png"]) == nil, "unrelated files get no hint")

        let dir = try TempDir()
        try dir.mkdir("case")
        for i in 0..<3 { try Make.qr("m\(i)", to: dir.file("case/m\(i).png"), scale: 3, margin: 4) }
        for k in 0..<2 {
            let s = try run(codesweepBinary, ["scan", "-q", "--shard", "\(k)/2", "-o", "s\(k).jsonl", "case"], currentDirectory: dir.path, check: false)
            #expect(s.status == 0, "\(s.stderr)")
        }
        let bad = try run(codesweepBinary, ["merge", "--root", "./case", "s0.jsonl", "s1.jsonl"], currentDirectory: dir.path, check: false)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("3 missing, 3 not expected"))
        #expect(
            bad.stderr.contains("hint: the missing files are in the reports under other names: './case/m0.png' is 'case/m0.png' there (and 2 more like it)"),
            "\(bad.stderr)")
        #expect(bad.stderr.contains("give --root (and --include/--exclude) exactly as the shards were scanned"))
        let good = try run(codesweepBinary, ["merge", "--root", "case", "s0.jsonl", "s1.jsonl"], currentDirectory: dir.path, check: false)
        #expect(good.status == 0 && good.stdoutLines.count == 3, "\(good.stderr)")
    }
}

extension String {
    fileprivate var withURL: URL { URL(fileURLWithPath: self) }
}
