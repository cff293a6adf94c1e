import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

@testable import CodeSweep

/// SIGINT, SIGTERM and kill -9: the sweep exits 130 promptly with every finished record
/// written, no file is recorded as a crash, and no worker outlives its sweep. Run with the
/// fault-injecting binary, whose workers hang on chosen pictures.
@Suite("Interrupts and the workers' lifetime", .serialized)
struct InterruptTests: SweepRuns {
    /// The fields of /proc/PID/stat after the command's name (state, parent, ...); nil when the
    /// process is gone.
    static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// Alive: the process exists and is not a zombie (a dead child not yet reaped).
    static func alive(_ pid: pid_t) -> Bool {
        guard let state = statFields(pid)?.first else { return false }
        return state != "Z" && state != "X"
    }

    /// The worker processes of `parent` (children whose command is `codesweep __worker`).
    static func workers(of parent: pid_t) -> [pid_t] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        return pids.filter { pid in
            guard let fields = statFields(pid), fields.count > 1, pid_t(fields[1]) == parent else { return false }
            let cmd = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return String(decoding: cmd, as: UTF8.self).contains("__worker")
        }
    }

    /// `images` QR pictures and the pictures `hanging` (named to sort after them), swept by the
    /// fault-injecting binary with two workers until the images' records are written: the sweep,
    /// its report, its two workers (in the hanging files, or one idle) and the folder (kept while
    /// the test holds it).
    static func heldSweep(images count: Int, hanging: [String], timeout: Int) throws -> (sweep: Process, out: String, workers: [pid_t], dir: TempDir) {
        let dir = try TempDir()
        let images = try makeImages(dir, "images", count: count)
        for name in hanging { try Make.faultFrame(.hang, to: images + "/" + name) }
        let out = dir.file("out.jsonl")
        let p = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "2", "--timeout", "\(timeout)", "-o", out, images])
        #expect(waitForLines(out, count) == count)
        let workers = Self.workers(of: p.processIdentifier)
        #expect(workers.count == 2)
        return (p, out, workers, dir)
    }

    @Test("SIGINT while a worker hangs: exit 130 within 3 s, every finished record written")
    func sigintDuringAHangingFile() throws {
        // The five images are done; the last file hangs.
        let (p, out, workers, dir) = try Self.heldSweep(images: 5, hanging: ["z-hang.png"], timeout: 60)
        defer { _ = dir }
        let sent = Date()
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        #expect(p.terminationStatus == 130)
        #expect(took < 3, "took \(took) s")
        let recs = try Self.records(try String(contentsOfFile: out, encoding: .utf8))
        #expect(recs.count == 5)
        #expect(recs.allSatisfy { $0["status"]?.stringValue == "ok" })
        for w in workers { #expect(!Self.alive(w), "worker \(w)") }
    }

    @Test("SIGTERM to the sweep and its workers at once (scancel, a systemd stop): exit 130, no file recorded as a crash")
    func sigtermToEveryProcess() throws {
        // The five images are done; a worker is in the hanging file.
        let (p, out, workers, dir) = try Self.heldSweep(images: 5, hanging: ["z-hang.png"], timeout: 60)
        defer { _ = dir }
        // As a scheduler stops a job: every process of it gets the signal, here the workers first.
        for w in workers { kill(w, SIGTERM) }
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let recs = try Self.records(try String(contentsOfFile: out, encoding: .utf8))
        // The hanging file was not finished: unrecorded (--resume scans it), not a crash record.
        #expect(recs.count == 5, "\(recs.map { $0.serialized() })")
        #expect(recs.allSatisfy { $0["status"]?.stringValue == "ok" })
        let end = Date().addingTimeInterval(2)
        while Date() < end && workers.contains(where: Self.alive) { usleep(20_000) }
        for w in workers { #expect(!Self.alive(w), "worker \(w)") }
    }

    @Test("kill -9 of the sweep leaves no worker alive after 2 s, hung or idle")
    func workersDieWithTheSweep() throws {
        // Both workers are now in the hanging files.
        let (p, _, workers, dir) = try Self.heldSweep(images: 3, hanging: ["y-hang.png", "z-hang.png"], timeout: 600)
        defer { _ = dir }
        #expect(workers.allSatisfy(Self.alive))
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let end = Date().addingTimeInterval(2)
        while Date() < end && workers.contains(where: Self.alive) { usleep(20_000) }
        for w in workers {
            #expect(!Self.alive(w), "worker \(w) still alive 2 s after its sweep was killed")
            if Self.alive(w) { kill(w, SIGKILL) }
        }
    }

    @Test("SIGINT stops cleanly: exit 130 and every line of the output is a complete record")
    func sigintLeavesValidOutput() throws {
        let dir = try TempDir("robust-sigint")
        try Self.makeTree(dir.url, count: 30)
        let out = dir.url.appendingPathComponent("out.jsonl")
        // Held once two records are on disk (the third file hangs its worker in the
        // fault-injecting binary), then interrupted.
        try Make.faultFrame(.hang, to: dir.url.appendingPathComponent("img001z.png").path)
        let p = try start(faultInjectingBinary, ["scan", "-q", "-o", out.path, dir.path])
        try Self.waitForLines(out, 2, while: p)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let recs = try Self.records(text)
        // The two, and the files already in flight when the signal came (jobs x 16 at most).
        #expect(recs.count >= 2 && recs.count < 30, "\(recs.count)")
        for r in recs { #expect((try? FileRecord.read(json: Array(r.serialized().utf8))) != nil, "\(r.serialized())") }
    }
}
