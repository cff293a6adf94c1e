import FileWalker
import Foundation
import Records
import Reporting
import SweepCore
import TestSupport
import Testing

@testable import CodeSweep

/// Isolation, hostile inputs, interruption and resume: the sweep never crashes, never hangs,
/// never loses a finished record. Everything runs the real `codesweep` binary on files made here.
@Suite("Robustness", .serialized)
struct RobustnessTests {
    static func makeQR(_ text: String, at url: URL, scale: Int = 4) throws {
        let r = try run(Tools.qrencode, ["-s", String(scale), "-o", url.path, text], check: false)
        #expect(r.status == 0)
    }

    static func records(_ text: String) throws -> [JSONValue] { try JSONL.values(text) }

    static func kind(_ r: JSONValue) -> String? { r["error"]?["kind"]?.stringValue }

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

    @Test("Hostile files get clear error records by kind; nothing hangs on a FIFO or a link loop")
    func hostileCorpus() throws {
        let dir = try TempDir("robust-hostile")
        let good = dir.url.appendingPathComponent("good.png")
        try Self.makeQR("good", at: good)
        let png = try Data(contentsOf: good)
        try png.prefix(png.count / 2).write(to: dir.url.appendingPathComponent("truncated.png"))
        try Data().write(to: dir.url.appendingPathComponent("empty.jpg"))
        try Data("push graphic-context\nviewbox 0 0 10 10\npop graphic-context\n".utf8).write(to: dir.url.appendingPathComponent("mvg.jpg"))
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(to: dir.url.appendingPathComponent("svg.jpg"))
        // A PNG whose header declares 100000x100000 pixels (valid CRC), refused before decoding.
        var ihdr = Data("IHDR".utf8)
        for v in [UInt32(100_000), UInt32(100_000)] { withUnsafeBytes(of: v.bigEndian) { ihdr.append(contentsOf: $0) } }
        ihdr.append(contentsOf: [8, 0, 0, 0, 0])
        var bomb = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        bomb.append(ihdr)
        withUnsafeBytes(of: Self.crc32(Array(ihdr)).bigEndian) { bomb.append(contentsOf: $0) }
        try bomb.write(to: dir.url.appendingPathComponent("bomb.png"))
        #expect(mkfifo(dir.url.appendingPathComponent("fifo.png").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("loop").path, withDestinationPath: ".")
        // A file name that is not UTF-8: kept exactly in path_b64 and found again from it.
        let badName: [UInt8] = Array(dir.path.utf8) + Array("/name-".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let fd = open(String(decoding: badName, as: UTF8.self), O_WRONLY)  // must not exist under the lossy name
        #expect(fd < 0)
        let cpath = badName.map { CChar(bitPattern: $0) } + [0]
        let wfd = creat(cpath, 0o644)
        #expect(wfd >= 0)
        png.withUnsafeBytes { _ = write(wfd, $0.baseAddress, $0.count) }
        close(wfd)

        let r = try run(codesweepBinary, ["scan", "-q", "--follow-symlinks", "--timeout", "20", dir.path], check: false)
        #expect(r.status == 1)
        let recs = try Self.records(r.stdout)
        var byName: [String: JSONValue] = [:]
        for rec in recs { byName[URL(fileURLWithPath: rec["path"]!.stringValue!).lastPathComponent] = rec }
        #expect(Self.kind(byName["truncated.png"]!) == "truncated")
        #expect(Self.kind(byName["empty.jpg"]!) == "empty")
        #expect(Self.kind(byName["mvg.jpg"]!) == "not_image")
        // An SVG (by its content, whatever its name) goes to librsvg, never to ImageMagick.
        #expect(Self.kind(byName["svg.jpg"]!) == "corrupt" && byName["svg.jpg"]?["format"]?.stringValue == "svg")
        #expect(Self.kind(byName["bomb.png"]!) == "too_large")
        #expect(byName["fifo.png"] == nil)  // found by walking: skipped, never opened
        #expect(byName["good.png"]?["codes"]?.arrayValue?.count == 1)
        #expect(recs.count == 7)  // the loop is walked once, the FIFO skipped
        let odd = try #require(recs.first { $0["path_b64"] != nil })
        let exact = try #require(Base64.decode(odd["path_b64"]!.stringValue!))
        #expect(exact == badName)
        #expect(odd["codes"]?.arrayValue?.first?["text"]?.stringValue == "good")

        // Named explicitly, a FIFO is reported, still without being opened (this would block).
        let fifo = try run(codesweepBinary, ["scan", "-q", dir.url.appendingPathComponent("fifo.png").path], check: false)
        #expect(fifo.status == 1)
        #expect(Self.kind(try Self.records(fifo.stdout)[0]) == "not_regular_file")
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func makeTree(_ dir: URL, count: Int) throws {
        for i in 0..<count {
            try makeQR("resume-\(i)", at: dir.appendingPathComponent(String(format: "img%03d.png", i)), scale: 3)
        }
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

    /// Waits until `file` holds `count` lines while `process` runs (the sweep holds there, in a
    /// file that hangs its worker); fails if the process ends first or after two minutes.
    static func waitForLines(_ file: URL, _ count: Int, while process: Process) throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if ((try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n").count ?? 0) >= count { return }
            try #require(process.isRunning, "the sweep ended before its record \(count)")
            usleep(5_000)
        }
        Issue.record("no \(count) records after two minutes")
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

    @Test("Declared sizes are read from headers without decoding")
    func headerSizes() throws {
        let dir = try TempDir("robust-headers")
        for (ext, format) in [("png", ImageFormat.png), ("jpg", .jpeg), ("gif", .gif), ("bmp", .bmp), ("webp", .webp)] {
            let f = dir.url.appendingPathComponent("x.\(ext)")
            #expect(try run(Tools.convert, ["-size", "123x45", "xc:gray", f.path], check: false).status == 0)
            let bytes = Array(try Data(contentsOf: f))
            #expect(ImageFormat.sniff(bytes) == format)
            let size = try #require(ImageHeader.declaredSize(bytes, format: format))
            #expect(size.width == 123 && size.height == 45, "\(ext)")
            #expect(!ImageHeader.looksTruncated(bytes, format: format))
        }
    }
}
