import AssetCheck
import CodeGenerate
import Foundation
import SweepCore
import TestSupport
import Testing
import UserInput

/// Issue 27, items 10-12: memory and time outside the workers.
@Suite("Trust: limits outside the workers", .serialized)
struct TrustLimitsTests {
    /// Runs codesweep under /usr/bin/time: exit status, stderr, peak RSS (KiB) and seconds.
    static func measured(_ args: [String], cwd: String) throws -> (status: Int32, stderr: String, kib: Int, seconds: Double) {
        let clock = ContinuousClock.now
        let r = try run("/usr/bin/time", ["-f", "RSS %M"] + [codesweepBinary] + args, currentDirectory: cwd, check: false)
        let d = clock.duration(to: .now)
        let kib = r.stderr.split(separator: "\n").last { $0.hasPrefix("RSS ") }.flatMap { Int($0.dropFirst(4)) } ?? -1
        return (r.status, r.stderr, kib, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }

    @Test("11: a 2 GB rules file, a 3 GB logo and a big payload file are refused from their size, at once")
    func hugeInputsAreRefused() throws {
        let dir = try TempDir("trust-huge")
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

    @Test("12: a rules, expectations or batch file of control bytes is refused in linear time, with a short message")
    func controlBytesAreRefusedFast() throws {
        let nuls = String(repeating: "\u{0}", count: 1_000_000)
        let mixed = String(String.UnicodeScalarView((0..<300_000).map { Unicode.Scalar(UInt8([1, 2, 3, 0x1B][$0 % 4])) }))
        for text in [nuls, mixed] {
            let clock = ContinuousClock.now
            #expect(throws: RulesFile.Error.self) { try RulesFile.parse(text, source: "r.yml") }
            #expect(throws: RulesFile.Error.self) { try RulesFile.parseExpectations(text, source: "e.yml", directory: "/") }
            #expect(throws: GenerateError.self) { try BatchList.parse(text, source: "b.yml") }
            #expect(clock.duration(to: .now) < .seconds(5))
            do { _ = try RulesFile.parse(text, source: "r.yml") } catch {
                #expect("\(error)".count < 400, "a short message")
                #expect("\(error)".contains("r.yml:1:1: a control character"), "\(error)")
            }
        }
        // The place of the first one; tabs and CRLF are fine.
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("min_codes: 1\r\nmax_codes:\t2\nurl: {schemes: [ht\u{7}tps]}\n") }
        do { _ = try RulesFile.parse("min_codes: 1\r\nurl: {schemes: [ht\u{7}tps]}\n", source: "r.yml") } catch {
            #expect("\(error)".hasPrefix("r.yml:2:19:"), "\(error)")
        }
        #expect(try RulesFile.parse("min_codes: 1\r\nmax_codes:\t2\n").maxCodes == 2)
    }
}

@Suite("Trust: decompression bombs outside the workers", .serialized)
struct TrustBombTests {
    /// A QR code PNG with a zTXt chunk of about 1 MB that inflates to 1 GiB, after IHDR.
    static func bomb(_ dir: TempDir) throws -> String {
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("plain.png"), "https://www.example.com/bomb"])
        let script = """
            import sys, zlib, struct
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            base = open(sys.argv[1], 'rb').read()
            c = zlib.compressobj(9); z = b''; block = bytes(64 << 20)
            for _ in range(16): z += c.compress(block)
            z += c.flush()
            open(sys.argv[2], 'wb').write(base[:33] + chunk(b'zTXt', b'Comment\\x00\\x00' + z) + base[33:])
            """
        try run("/usr/bin/python3", ["-c", script, dir.file("plain.png"), dir.file("bomb.png")])
        return dir.file("bomb.png")
    }

    @Test("10: a zTXt bomb costs report, scan --annotate and generate --logo no more than a plain PNG")
    func zTXtBomb() throws {
        let dir = try TempDir("trust-bomb")
        let bomb = try Self.bomb(dir)
        #expect(
            PNGChunks.withoutText(try Array(Data(contentsOf: URL(fileURLWithPath: bomb))))
                == Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("plain.png")))),
            "dropping the text chunk gives the plain PNG back, byte for byte")
        try run(codesweepBinary, ["scan", "-o", dir.file("bomb.jsonl"), bomb])
        let runs: [[String]] = [
            ["report", dir.file("bomb.jsonl"), "--html", dir.file("bomb.html")],
            ["scan", "--annotate", dir.file("pictures"), "-o", dir.file("again.jsonl"), bomb],
            ["generate", "-q", "--no-verify", "--logo", bomb, "https://www.example.com/", "-o", dir.file("logo.png")],
        ]
        for args in runs {
            let m = try TrustLimitsTests.measured(args, cwd: dir.path)
            #expect(m.status == 0, "\(args[0]): \(m.stderr)")
            #expect(m.kib > 0 && m.kib < 300 << 10, "\(args[0]): peak RSS \(m.kib) KiB")
        }
        let page = try String(contentsOfFile: dir.file("bomb.html"), encoding: .utf8)
        #expect(page.contains("data:image/jpeg"), "the thumbnail is still made")
        #expect(FileManager.default.fileExists(atPath: dir.file("pictures/bomb.png.annotated.png")))
    }
}

extension TrustBombTests {
    @Test("10: a zTXt bomb costs scan --isolation none (no worker limit) no more than a plain PNG; small text chunks stay")
    func zTXtBombInProcess() throws {
        let dir = try TempDir("trust-bomb-none")
        let bomb = try Self.bomb(dir)
        let m = try TrustLimitsTests.measured(["scan", "--isolation", "none", "-o", dir.file("none.jsonl"), bomb], cwd: dir.path)
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.kib > 0 && m.kib < 300 << 10, "peak RSS \(m.kib) KiB")
        let record = try String(contentsOfFile: dir.file("none.jsonl"), encoding: .utf8)
        #expect(record.contains("https://www.example.com/bomb"), "the code is still read")
        #expect(record.contains("compressed text chunks of"), "the record says what was not read: \(record)")
        // A small compressed chunk (a photo's XMP, say) is kept, and nothing to drop is the same array.
        let plain = try Array(Data(contentsOf: URL(fileURLWithPath: dir.file("plain.png"))))
        #expect(PNGChunks.withoutLargeCompressedText(plain) == plain)
        var small = Array(plain[0..<33])
        let body = Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0] + Array(repeating: UInt8(0x78), count: 100)
        small += [0, 0, 0, UInt8(body.count)] + Array("iTXt".utf8) + body + [0, 0, 0, 0]
        small += plain[33...]
        #expect(PNGChunks.withoutLargeCompressedText(small) == small, "a 0.1 KB iTXt chunk stays")
        #expect(PNGChunks.withoutLargeCompressedText(small, maxBytes: 50) == plain, "over the limit it goes, and only it")
        // Many chunks under the limit each count together: a bomb split into pieces goes too,
        // from the first piece past the limit on.
        var pieces = Array(plain[0..<33])
        for _ in 0..<3 { pieces += [0, 0, 0, UInt8(body.count)] + Array("zTXt".utf8) + body + [0, 0, 0, 0] }
        pieces += plain[33...]
        let twoKept = PNGChunks.withoutLargeCompressedText(pieces, maxBytes: 2 * body.count)
        #expect(twoKept.count == pieces.count - (12 + body.count), "the third piece is dropped, the first two stay")
    }
}

@Suite("Trust: a long thin strip", .serialized)
struct TrustStripTests {
    /// An uncompressed 8-bit grey TIFF (one strip), written by hand.
    static func tiff(width: Int, height: Int, pixel: (Int) -> UInt8) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let entries: [(tag: Int, type: Int, value: Int)] = [
            (256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1),
            (273, 4, 8 + 2 + 12 * 10 + 4), (277, 3, 1), (278, 4, height), (279, 4, width * height), (284, 3, 1),
        ]
        var out: [UInt8] = Array("II".utf8) + u16(42) + u32(8) + u16(entries.count)
        for e in entries { out += u16(e.tag) + u16(e.type) + u32(1) + (e.type == 3 ? u16(e.value) + u16(0) : u32(e.value)) }
        out += u32(0)
        out += (0..<(width * height)).map(pixel)
        return out
    }

    @Test("17: an 18080x45 strip is not turned onto canvases 170 times its size")
    func longStrip() throws {
        let dir = try TempDir("trust-strip")
        try dir.write("strip.tif", Self.tiff(width: 18080, height: 45) { _ in 255 })
        let m = try TrustLimitsTests.measured(["scan", "--isolation", "none", "--effort", "normal", "strip.tif"], cwd: dir.path)
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.kib > 0 && m.kib < 150 << 10, "peak RSS \(m.kib) KiB (turned views of the strip held 230 MB)")
    }
}
