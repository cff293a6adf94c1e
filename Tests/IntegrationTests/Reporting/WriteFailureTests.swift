import CodeGenerate
import FileWalker
import Foundation
import MagickBridge
import Records
import TestSupport
import Testing
import UserInput

@testable import Reporting

/// A full device: the sweep ends with exit 2 naming the output, and every file a command
/// replaces (generate's code and manifest, report --html, check --junit and --json) is left as it
/// was (`SafeFile`: temporary file, fsync, rename). Written on a small file system of its own.
@Suite("A failed write is loud and leaves the previous output intact", .serialized)
struct WriteFailureTests: SweepRuns {
    @Test("A full device ends the sweep with exit 2 naming the output: jsonl keeps whole lines, json leaves the old report, csv, annotate")
    func writeErrorsEndTheSweep() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 40)

        // To stdout: /dev/full fails every write.
        for format in ["jsonl", "json", "csv", "text"] {
            let r = try sh("exec \"$CS\" scan -q --format \"$1\" \"$2\" > /dev/full", [format, images])
            #expect(r.status == 2, "\(format): \(r.stderr)")
            #expect(r.stderr.contains("cannot write to standard output: No space left on device"), "\(format): \(r.stderr)")
        }

        // Other commands' stdout too.
        for command in ["symbologies", "plan"] {
            let r = try sh("exec \"$CS\" \"$1\" > /dev/full", [command])
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("cannot write to standard output"), "\(command): \(r.stderr)")
        }

        // A closed stdout: EBADF, not a report written into whatever was opened next.
        let closed = try sh("exec \"$CS\" scan -q \"$1\" >&-", [images])
        #expect(closed.status == 2)
        #expect(closed.stderr.contains("cannot write to standard output: Bad file descriptor"), "\(closed.stderr)")

        guard let mnt = try SmallFileSystem.mount(dir, kib: 64) else {
            Issue.record("cannot mount a tmpfs (not root?): only the /dev/full half of this test ran")
            return
        }
        defer { SmallFileSystem.unmount(mnt) }

        // An earlier good json report, then a full disk: exit 2, the old report untouched,
        // no temporary file left.
        let report = mnt + "/report.json"
        let first = try sh("exec \"$CS\" scan -q --format json -o \"$1\" \"$2\"", [report, images + "/q000.png"])
        #expect(first.status == 0, "\(first.stderr)")
        let good = try Data(contentsOf: URL(fileURLWithPath: report))
        try SmallFileSystem.fill(mnt, leaving: 8192)
        let json = try sh("exec \"$CS\" scan -q --format json -o \"$1\" \"$2\"", [report, images])
        #expect(json.status == 2)
        #expect(json.stderr.contains("cannot write to '\(report)'") && json.stderr.contains("No space left on device"), "\(json.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == good)
        #expect(try JSONReading.value(String(decoding: good, as: UTF8.self))["files"]?.arrayValue?.count == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: mnt).sorted()
        #expect(left == ["filler", "report.json"], "\(left)")

        // jsonl: exit 2, every line written is a complete record, fewer than all of them.
        let jsonl = mnt + "/report.jsonl"
        let lines = try sh("exec \"$CS\" scan -q -o \"$1\" \"$2\"", [jsonl, images])
        #expect(lines.status == 2)
        #expect(lines.stderr.contains("cannot write to '\(jsonl)': No space left on device"), "\(lines.stderr)")
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        #expect(text.isEmpty || text.hasSuffix("\n"))
        let recs = try Self.records(text)
        #expect(recs.count >= 5 && recs.count < 40, "\(recs.count) records")
        for r in recs { #expect((try? FileRecord.read(json: Array(r.serialized().utf8))) != nil, "\(r.serialized())") }
        try FileManager.default.removeItem(atPath: jsonl)

        // csv: exit 2, the file ends with a whole row.
        let csv = mnt + "/codes.csv"
        let c = try sh("exec \"$CS\" scan -q --format csv -o \"$1\" \"$2\"", [csv, images])
        #expect(c.status == 2)
        #expect(c.stderr.contains("cannot write to '\(csv)': No space left on device"), "\(c.stderr)")
        let rows = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(rows.hasSuffix("\r\n"))
        try FileManager.default.removeItem(atPath: csv)

        // --annotate into the full file system: the pictures cannot all be written, exit 2.
        let pictures = mnt + "/pictures"
        let a = try sh("exec \"$CS\" scan -q --annotate \"$1\" \"$2\" > /dev/null", [pictures, images])
        #expect(a.status == 2, "\(a.stderr)")
        #expect(a.stderr.contains("--annotate: cannot"), "\(a.stderr)")
    }

    @Test("a full disk leaves generate's previous outputs (code and manifest) as they were")
    func generateOnFullDisk() throws {
        let dir = try TempDir("generate-full")
        guard let mnt = try SmallFileSystem.mount(dir, kib: 200) else {
            Issue.record("mounting a tmpfs needs root; this test must run as root (CI does)")
            return
        }
        defer { SmallFileSystem.unmount(mnt) }
        try run(codesweepBinary, ["generate", "-q", "-o", mnt + "/code.png", "https://www.example.com/a"])
        try dir.write("list.csv", Array("name,payload\none,https://www.example.com/1\n".utf8))
        try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", mnt + "/batch/"])
        let before = ["code.png", "batch/one.png", "batch/expected.yml"].map { Self.bytes(mnt + "/" + $0) }
        try SmallFileSystem.fill(mnt, leaving: 0)
        let single = try run(
            codesweepBinary, ["generate", "-q", "-o", mnt + "/code.png", "https://www.example.com/" + String(repeating: "b", count: 600)], check: false)
        #expect(single.status == 2 && single.stderr.contains("No space left"), "\(single.stderr)")
        try dir.write("list.csv", Array("name,payload\none,https://www.example.com/\(String(repeating: "c", count: 600))\n".utf8))
        let batch = try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", mnt + "/batch/"], check: false)
        #expect(batch.status == 2, "\(batch.stderr)")
        #expect(["code.png", "batch/one.png", "batch/expected.yml"].map { Self.bytes(mnt + "/" + $0) } == before)
        let left = try FileManager.default.subpathsOfDirectory(atPath: mnt).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("on a full disk, generate, report --html, check --junit and --json leave the previous file intact")
    func fullDiskKeepsThePreviousFile() throws {
        let dir = try TempDir("full")
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("a.png"), "https://www.example.com/a"])
        try run(codesweepBinary, ["scan", "-o", dir.file("a.jsonl"), dir.file("a.png")])
        guard let mnt = try SmallFileSystem.mount(dir, kib: 256) else {
            Issue.record("cannot mount a tmpfs (not root?)"); return
        }
        defer { SmallFileSystem.unmount(mnt) }
        let old = Data("the previous file\n".utf8)
        let targets = ["code.png", "page.html", "junit.xml", "check.json"]
        for t in targets { try old.write(to: URL(fileURLWithPath: mnt + "/" + t)) }
        try SmallFileSystem.fill(mnt, leaving: 0)
        let runs: [(String, [String])] = [
            ("code.png", ["generate", "-q", "https://www.example.com/a", "-o", mnt + "/code.png"]),
            ("page.html", ["report", dir.file("a.jsonl"), "--html", mnt + "/page.html"]),
            ("junit.xml", ["check", "--no-rules-file", "--isolation", "none", "--junit", mnt + "/junit.xml", dir.file("a.png")]),
            ("check.json", ["check", "--no-rules-file", "--isolation", "none", "--json", mnt + "/check.json", dir.file("a.png")]),
        ]
        for (target, args) in runs {
            let r = try run(codesweepBinary, args, check: false)
            #expect(r.status == 2, "\(target): \(r.stderr)")
            #expect(r.stderr.contains("No space left on device"), "\(target): \(r.stderr)")
            #expect(Self.bytes(mnt + "/" + target) == old, "\(target) must be left as it was")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: mnt).sorted()
        #expect(left == (targets + ["filler"]).sorted(), "no temporary file left: \(left)")
    }
}
