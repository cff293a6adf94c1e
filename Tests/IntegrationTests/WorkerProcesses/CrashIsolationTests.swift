import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

@testable import CodeSweep

/// Worker isolation: a worker that hangs, crashes or grows past `--max-memory` costs its file
/// (timeout, crash, too_large); the sweep goes on. Run with the fault-injecting binary.
@Suite("A worker that hangs, crashes or eats memory costs one file", .serialized)
struct CrashIsolationTests: SweepRuns {
    @Test("A worker that hangs or crashes costs one file; the sweep goes on and exits 1")
    func hangAndCrashAreIsolated() throws {
        let dir = try TempDir("robust-hooks")
        try Make.faultFrame(.hang, to: dir.url.appendingPathComponent("a-hang.png").path)
        try Make.faultFrame(.crash, to: dir.url.appendingPathComponent("b-crash.png").path)
        try Self.makeQR("after-the-crash", at: dir.url.appendingPathComponent("c-good.png"))
        let start = Date()
        let r = try run(faultInjectingBinary, ["scan", "-q", "--jobs", "1", "--timeout", "2", dir.path], check: false)
        #expect(r.status == 1)
        #expect(Date().timeIntervalSince(start) < 30)
        let recs = try Self.records(r.stdout)
        #expect(recs.count == 3)
        #expect(Self.kind(recs[0]) == "timeout")
        #expect(Self.kind(recs[1]) == "crash")
        #expect(recs[2]["status"]?.stringValue == "ok")
        #expect(recs[2]["codes"]?.arrayValue?.first?["text"]?.stringValue == "after-the-crash")
    }

    @Test("A worker that grows past --max-memory dies at the limit; the file is too_large and the sweep goes on")
    func workerMemoryLimit() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 1)
        try Make.faultFrame(.greedy, to: images + "/a-greedy.png")
        let r = try sh("exec python3 -c \"$1\" \"$FAULTY\" scan -q --jobs 1 --max-memory 256 \"$2\"", [Self.peakRSS, images])
        #expect(r.status == 1, "\(r.stderr)")
        let recs = try Self.records(r.stdout)
        #expect(recs.count == 2)
        #expect(recs.first?["error"]?["kind"]?.stringValue == "too_large", "\(recs.first.map { $0.serialized() } ?? "")")
        #expect(recs.first?["error"]?["message"]?.stringValue?.contains("256 MiB") == true)
        #expect(recs.last?["status"]?.stringValue == "ok")
        let peak = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak_rss_kib=") }.flatMap { Int($0.dropFirst(13)) }
        let kib = try #require(peak, "\(r.stderr)")
        #expect(kib < 512 * 1024, "peak RSS \(kib) KiB with a 256 MiB limit")
    }
}
