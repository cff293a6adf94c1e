import Foundation
import TestSupport
import Testing

@testable import Forensics

/// `merge` as a new user met it (issue 28 item 3): with several shard reports the path hint
/// went missing, and "expected N" counted the documents the scan skipped.
@Suite("New user: merge of several shards")
struct NewUserMergeTests {
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
}
