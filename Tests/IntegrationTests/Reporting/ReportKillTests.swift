import Foundation
import TestSupport
import Testing

/// `kill -9` in the middle of a sweep: jsonl keeps only complete lines; json never replaces the
/// target with half a document.
@Suite("Reports survive kill -9", .serialized)
struct ReportKillTests {
    /// `count` QR images in `temp`/images; the reports go beside that folder.
    static func makeImages(_ temp: TempDir, count: Int) throws -> String {
        let dir = try temp.mkdir("images")
        for i in 0..<count {
            let payload = "record \(i) " + String(repeating: "x", count: i % 50) + " \"quoted\", \u{1B} \n end"
            try Make.qr(bytes: Array(payload.utf8), to: dir + String(format: "/img%04d.png", i), moduleSize: 12)
        }
        return dir
    }

    /// Starts the fault-injecting CLI on `dir` with one worker, held after the third record by a
    /// picture that hangs its worker (removed again after the kill), waits until `ready` says
    /// so, then SIGKILLs it. Returns false when the run ended before the kill.
    static func runAndKill(_ args: [String], dir: String, ready: () -> Bool) throws -> Bool {
        let hang = dir + "/img0002z.png"
        try Make.faultFrame(.hang, to: hang)
        defer { try? FileManager.default.removeItem(atPath: hang) }
        let p = try start(faultInjectingBinary, ["scan", "--jobs", "1"] + args + [dir])
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning && !ready() && Date() < deadline { usleep(2_000) }
        let killed = p.isRunning
        if killed { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        #expect(!killed || p.terminationReason == .uncaughtSignal)
        return killed
    }

    static func lineCount(_ path: String) -> Int {
        guard let d = FileManager.default.contents(atPath: path) else { return 0 }
        return d.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    @Test func jsonlHasOnlyCompleteLinesAfterKill9() throws {
        let count = 300
        let temp = try TempDir("kill")
        let dir = try Self.makeImages(temp, count: count)
        let out = dir + ".jsonl"
        let killed = try Self.runAndKill(["--quiet", "-o", out], dir: dir) {
            Self.lineCount(out) >= 3
        }
        let data = try #require(FileManager.default.contents(atPath: out))
        #expect(killed, "the sweep ended before the kill")
        #expect(data.last == 0x0A, "the file ends with a complete line")
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 3)
        for (i, line) in lines.enumerated() {
            let rec = try TestJSON.parse(String(line))
            #expect(rec["path"]?.string == dir + String(format: "/img%04d.png", i), "records stay in order")
            #expect(rec["codes"]?.array?.first?["text"]?.string?.hasPrefix("record \(i) ") == true)
        }
    }

    @Test func jsonTargetIsUntouchedByAKilledRun() throws {
        let temp = try TempDir("kill")
        let dir = try Self.makeImages(temp, count: 120)
        let target = dir + ".json"
        let previous = Data("{\"previous\":\"complete report\"}\n".utf8)
        try previous.write(to: URL(fileURLWithPath: target))
        let parent = (dir as NSString).deletingLastPathComponent
        let tempPrefix = "." + (target as NSString).lastPathComponent + ".codesweep-"
        func tempFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix(tempPrefix) }
        }
        let killed = try Self.runAndKill(["--quiet", "--format", "json", "-o", target], dir: dir) {
            tempFiles().contains { Self.lineCount(parent + "/" + $0) >= 3 }
        }
        #expect(killed)
        #expect(FileManager.default.contents(atPath: target) == previous, "a killed run leaves the old report in place")
        for t in tempFiles() { try? FileManager.default.removeItem(atPath: parent + "/" + t) }
        // A run that finishes replaces it with a complete document.
        let r = try run(codesweepBinary, ["scan", "--quiet", "--format", "json", "-o", target, dir], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try TestJSON.parse(String(contentsOfFile: target, encoding: .utf8))
        #expect(doc["files"]?.array?.count == 120)
        #expect(tempFiles() == [])
    }
}
