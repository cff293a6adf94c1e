import CodeGenerate
import Foundation
import TestSupport
import Testing
import UserInput

@testable import AssetCheck

/// No input is read without a bound: report lines, path lists and resumed reports stop at a
/// documented limit naming the file, and a rules file, a logo or a payload file too large is refused
/// from its size, at once.
@Suite("Every input is read to a documented limit", .serialized)
struct StreamBoundsTests: SweepRuns {
    @Test("summarize, merge, report, scan --files-from and --resume stop at a documented limit, naming the file (2 GB address space)")
    func streamLimits() throws {
        let dir = try TempDir("limits")
        try Make.qr("https://www.example.com/", to: dir.file("a.png"))
        let cases: [(String, String)] = [
            ("summarize /dev/zero", "/dev/zero: a line longer than the limit of 64 MiB (67108864 bytes)"),
            ("summarize - < /dev/zero", "(standard input): a line longer than the limit of 64 MiB"),
            ("merge /dev/zero", "cannot read /dev/zero: line 1 is longer than the limit of 64 MiB (67108864 bytes)"),
            ("report /dev/zero --html p.html", "/dev/zero: a line longer than the limit of 64 MiB"),
            ("scan --files-from /dev/zero", "cannot read /dev/zero: it is larger than the limit of 256 MiB (268435456 bytes) for a list of paths"),
            ("merge r.jsonl --expect-from /dev/zero", "the limit of 256 MiB"),
        ]
        try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "a.png"], currentDirectory: dir.path)
        for (command, message) in cases {
            let r = try sh("cd \"$1\" && ulimit -v 2000000 && exec \"$2\" \(command)", [dir.path, codesweepBinary])
            #expect(r.status == 2, "\(command): \(r.status) \(r.stderr.suffix(500))")
            #expect(r.stderr.contains(message), "\(command): \(r.stderr.suffix(500))")
            #expect(!r.stderr.contains("Fatal error"), "\(command)")
        }
        // --resume: a report with no newline at all is read a line at a time, to the line limit.
        let fifo = dir.file("endless.jsonl")
        #expect(mkfifo(fifo, 0o644) == 0)
        let r = try sh(
            "cd \"$1\" && (head -c 1200000000 /dev/zero > endless.jsonl &) && ulimit -v 2000000 && exec \"$2\" scan -q --resume endless.jsonl a.png",
            [dir.path, codesweepBinary])
        #expect(r.status == 2 && r.stderr.contains("endless.jsonl: a line longer than the limit of 64 MiB"), "\(r.status) \(r.stderr.suffix(500))")
    }

    @Test("a 2 GB rules file, a 3 GB logo and a big payload file are refused from their size, at once")
    func hugeInputsAreRefused() throws {
        let dir = try TempDir("huge")
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("a.png"), "https://www.example.com/"])
        for (name, size) in [("rules.yml", 2 << 30), ("logo.png", 3 << 30), ("payload.txt", 1 << 20), ("list.csv", 1 << 30)] {
            #expect(
                truncate(dir.file(name), off_t(size)) == 0
                    || FileManager.default.createFile(atPath: dir.file(name), contents: nil) && truncate(dir.file(name), off_t(size)) == 0)
        }
        let runs: [[String]] = [
            ["check", "--rules", "rules.yml", "--isolation", "none", "a.png"],
            ["check", "--no-rules-file", "--expectations", "rules.yml", "--isolation", "none", "a.png"],
            ["generate", "--logo", "logo.png", "https://www.example.com/", "-o", "out.png"],
            ["generate", "--file", "payload.txt", "-o", "out.png"],
            ["generate", "--batch", "list.csv", "-o", "out"],
        ]
        for args in runs {
            let m = try Self.measured(args, cwd: dir.path)
            #expect(m.status == 2, "\(args): \(m.stderr)")
            #expect(m.stderr.contains("the limit is"), "\(args): \(m.stderr)")
            #expect(m.kib > 0 && m.kib < 1 << 20, "\(args): peak RSS \(m.kib) KiB")
            #expect(m.seconds < 5, "\(args): \(m.seconds) s")
        }
        // A pipe is read only to the limit too.
        let piped = try sh("head -c 200000 /dev/zero | \"$CS\" generate --file - -o \"$1\"", [dir.file("p.png")])
        #expect(piped.status == 2 && piped.stderr.contains("limit"), "\(piped.stderr)")
        #expect(throws: FileIO.InputRefusal.self) { try FileIO.readInput(dir.file("rules.yml"), limit: 1 << 20, what: "x") }
        #expect(try FileIO.readInput(dir.file("a.png"), limit: 1 << 20, what: "x").count > 0)
    }
}
