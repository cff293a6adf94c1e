import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import Forensics

/// `merge` checked against a walk: when `--root` is written differently from the shards' scan,
/// the failure says how the names differ (from any number of shards, in any order), `expected N`
/// counts only the files the scan sweeps, and single counts are singular.
@Suite("merge says how the reports differ from the walk, in plain counts")
struct MergeMessageTests {
    /// 120 images and 30 documents scanned as `case` in two shards, merged with `--root ./case`:
    /// the hint is printed although the file that goes first in the walk is in the shard given
    /// second (its twin lies past the first 50 lines of the reports), and the expected count is
    /// the images', not the images' and the documents'.
    @Test("merge --root ./case s0 s1 for shards scanned as case/: the hint, and 'expected' without the skipped documents")
    func hintWithSeveralShards() throws {
        let dir = try TempDir("merge-shards")
        try dir.mkdir("case")
        try Make.convert(["-size", "24x24", "xc:white", dir.file("blank.png")])
        let blank = try Data(contentsOf: URL(fileURLWithPath: dir.file("blank.png")))
        for i in 0..<120 { try blank.write(to: URL(fileURLWithPath: dir.file(String(format: "case/f-%03d.png", i)))) }
        for i in 0..<30 { try Data("document \(i)\n".utf8).write(to: URL(fileURLWithPath: dir.file(String(format: "case/d-%03d.txt", i)))) }
        var lines: [[String]] = []
        for k in 0..<2 {
            let s = try run(
                codesweepBinary, ["scan", "-q", "--isolation", "none", "--shard", "\(k)/2", "-o", "s\(k).jsonl", "case"],
                currentDirectory: dir.path, check: false)
            #expect(s.status == 0, "\(s.stderr)")
            lines.append(try String(contentsOfFile: dir.file("s\(k).jsonl"), encoding: .utf8).split(separator: "\n").map(String.init))
        }
        #expect(lines[0].count + lines[1].count == 120, "the documents are not scanned")
        // The report holding the walk's first file goes second.
        let firstIn = lines[0].contains { $0.contains("\"path\":\"case/f-000.png\"") } ? 0 : 1
        let order = firstIn == 0 ? ["s1.jsonl", "s0.jsonl"] : ["s0.jsonl", "s1.jsonl"]
        #expect(lines[1 - firstIn].count >= 50, "the first report has more lines than the old hint looked at")

        let bad = try run(codesweepBinary, ["merge", "--root", "./case"] + order, currentDirectory: dir.path, check: false)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("expected 120 files, the reports hold 120 distinct files (120 missing, 120 not expected)"), "\(bad.stderr)")
        #expect(
            bad.stderr.contains(
                "hint: the missing files are in the reports under other names: './case/f-000.png' is 'case/f-000.png' there (and 119 more like it)"),
            "\(bad.stderr)")
        let good = try run(codesweepBinary, ["merge", "--root", "case"] + order, currentDirectory: dir.path, check: false)
        #expect(good.status == 0 && good.stdoutLines.count == 120, "\(good.stderr)")
        #expect(good.stderr.contains("120 records from 2 reports"), "\(good.stderr)")

        // The hint is found from any order of the reports' lines.
        let missing = (0..<60).map { String(format: "./case/f-%03d.png", $0) }
        let extra = (0..<60).reversed().map { String(format: "case/f-%03d.png", $0) }
        #expect(ReportMerge.rootHint(missing: missing, extra: extra)?.contains("'./case/f-000.png' is 'case/f-000.png' there (and 59 more like it)") == true)
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

    @Test("merge of one report says '1 report', of one record '1 record'")
    func mergeCountsSingular() throws {
        let dir = try TempDir("merge-words")
        try Make.qr("one", to: dir.file("q.png"), scale: 4, margin: 4)
        let s = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", "-o", "r.jsonl", "q.png"], currentDirectory: dir.path, check: false)
        #expect(s.status == 0, "\(s.stderr)")
        let m = try run(codesweepBinary, ["merge", "r.jsonl"], currentDirectory: dir.path, check: false)
        #expect(m.status == 0 && m.stderr.contains("codesweep merge: 1 record from 1 report\n"), "\(m.stderr)")
    }
}
