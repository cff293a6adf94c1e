import FileWalker
import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import CodeSweep

/// Hostile files (truncated, lying headers, a FIFO, a link loop, ...) and a file deleted after
/// the walk listed it each get an error record of the right kind; nothing hangs.
@Suite("Hostile and vanishing files get clear error records", .serialized)
struct HostileFileTests: SweepRuns {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
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

    @Test("a file deleted after its folder was listed is not_found, not unreadable")
    func deletedAfterListing() throws {
        let dir = try TempDir("gone")
        try dir.mkdir("d/sub")
        for name in ["a.png", "b.png"] { try dir.write("d/" + name, [1]) }
        var walk = Walker().items([Array(dir.file("d").utf8)])
        guard case .file(let first)? = walk.next() else { Issue.record("no first item"); return }
        #expect(first.path.hasSuffix("/a.png"))
        // The folder's names were read; now b.png and sub go.
        try FileManager.default.removeItem(atPath: dir.file("d/b.png"))
        try FileManager.default.removeItem(atPath: dir.file("d/sub"))
        var kinds: [String: ErrorKind] = [:]
        while let item = walk.next() {
            if case .failure(let path, _, let error) = item { kinds[(path as NSString).lastPathComponent] = error.kind }
        }
        #expect(kinds == ["b.png": .notFound, "sub": .notFound], "\(kinds)")
    }
}
