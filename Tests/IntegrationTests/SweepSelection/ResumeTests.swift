import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

@testable import CodeSweep

/// `--resume`: a report is resumed by one sweep at a time, with the settings it was written
/// with; a resumed run's exit status counts the earlier part's failures, and a run killed midway
/// then resumed gives exactly the records of an uninterrupted one.
@Suite("--resume: a lock, stored settings, every record once", .serialized)
struct ResumeTests: SweepRuns {
    @Test("Two sweeps resuming one file at once: one proceeds, the other exits 2; no line is written twice")
    func concurrentResumesAreRefused() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 5)
        try Self.addHangingFiles(images, "z-hang.png")
        let report = dir.file("report.jsonl")
        // The first sweep reaches the hanging file last and holds the lock until its timeout.
        let first = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "1", "--timeout", "5", "--resume", report, images])
        #expect(Self.waitForLines(report, 5) == 5)
        let second = try sh("exec \"$FAULTY\" scan -q --jobs 1 --timeout 5 --resume \"$1\" \"$2\"", [report, images])
        #expect(second.status == 2)
        #expect(second.stderr.contains("is locked by another codesweep sweep"), "\(second.stderr)")
        first.waitUntilExit()
        #expect(first.terminationStatus == 1)  // the hanging file is a timeout
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        let paths = try lines.map { try JSONReading.value(String($0))["path"]?.stringValue ?? "" }
        #expect(Set(paths).count == 6)
    }

    @Test("A resume with other record-changing settings exits 2 naming the setting; its exit status counts earlier failures")
    func resumeChecksSettingsAndEarlierFailures() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 3)
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: images + "/broken.png"))
        let report = dir.file("report.jsonl")
        let first = try sh("exec \"$CS\" scan -q --hash sha256 --resume \"$1\" \"$2\"", [report, images])
        #expect(first.status == 1, "\(first.stderr)")  // broken.png
        let written = try Data(contentsOf: URL(fileURLWithPath: report))
        #expect(try Self.records(String(decoding: written, as: UTF8.self)).count == 4)
        try run(Tools.qrencode, ["-s", "3", "-o", images + "/q100.png", "added later"])

        for (flags, named) in [
            ([] as [String], "--hash"), (["--hash", "md5"], "--hash"),
            (["--hash", "sha256", "--effort", "fast"], "--effort"),
            (["--hash", "sha256", "--symbologies", "qr"], "--symbologies"),
        ] {
            let r = try sh("exec \"$CS\" scan -q \"$@\"", ["--resume", report] + flags + [images])
            #expect(r.status == 2, "\(flags)")
            #expect(r.stderr.contains("cannot resume") && r.stderr.contains(named + ":"), "\(flags): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == written, "\(flags)")  // nothing appended
        }
        // The same settings: the new file is appended, and the earlier failure still counts.
        let same = try sh("exec \"$CS\" scan -q --hash sha256 --resume \"$1\" \"$2\"", [report, images])
        #expect(same.status == 1, "\(same.stderr)")
        let recs = try Self.records(try String(contentsOfFile: report, encoding: .utf8))
        #expect(recs.count == 5)
        #expect(recs.allSatisfy { $0["status"]?.stringValue == "error" || $0["hashes"]?["sha256"] != nil })
        // A report written with -o has no stored settings: what its records show is compared.
        let plain = dir.file("plain.jsonl")
        #expect(try sh("exec \"$CS\" scan -q -o \"$1\" \"$2/q000.png\"", [plain, images]).status == 0)
        let mixed = try sh("exec \"$CS\" scan -q --hash sha256 --resume \"$1\" \"$2\"", [plain, images])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("--hash:"), "\(mixed.stderr)")
    }

    @Test("SIGKILL midway, then --resume, gives exactly the records of an uninterrupted run")
    func killAndResume() throws {
        let dir = try TempDir("robust-resume")
        let images = dir.url.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Self.makeTree(images, count: 40)
        let full = dir.url.appendingPathComponent("full.jsonl")
        let partial = dir.url.appendingPathComponent("partial.jsonl")
        // The same settings for all three runs.
        #expect(try run(codesweepBinary, ["scan", "-q", "-o", full.path, images.path], check: false).status == 0)

        // Killed when its third record is on disk: the fourth file hangs its worker there (the
        // fault-injecting binary); the sweep is killed, the file then goes away.
        let hang = images.appendingPathComponent("img002z.png").path
        try Make.faultFrame(.hang, to: hang)
        let p = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "1", "-o", partial.path, images.path])
        try Self.waitForLines(partial, 3, while: p)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        try FileManager.default.removeItem(atPath: hang)
        let before = try String(contentsOf: partial, encoding: .utf8).split(separator: "\n")
        #expect(before.count == 3)
        let resumed = try run(codesweepBinary, ["scan", "-q", "--resume", partial.path, images.path], check: false)
        #expect(resumed.status == 0)
        let a = try String(contentsOf: full, encoding: .utf8).split(separator: "\n").sorted()
        let b = try String(contentsOf: partial, encoding: .utf8).split(separator: "\n").sorted()
        #expect(a.count == 40)
        let identical = a == b
        #expect(identical, "resumed: \(b.count) records; differing: \(Set(a).symmetricDifference(Set(b)).count)")
    }
}
