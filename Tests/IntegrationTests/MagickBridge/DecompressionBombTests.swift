import AssetCheck
import CodeGenerate
import FileWalker
import Foundation
import Imaging
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

/// Multi-frame, zlib and zTXt bombs cost no more memory than a plain picture, in the workers
/// and outside them (report, scan --annotate, generate --logo, --isolation none): too_large with
/// the numbers, before decoding.
@Suite("Decompression bombs are refused before decoding", .serialized)
struct DecompressionBombTests: SweepRuns {
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

    /// Writes the bombs of issue 14 with python3's zlib (a declared dependency): a 4.6 KB GIF
    /// of 200 1x1 frames on a 10000x10000 screen, a TIFF of 300 deflated 2000x2000 pages, and a
    /// 116 KB PNG of 10950x10950 zeros.
    static let bombMaker = """
        import struct, zlib, sys
        d = sys.argv[1]
        g = bytearray(b'GIF89a' + struct.pack('<HH', 10000, 10000) + bytes([0x80, 0, 0, 0, 0, 0, 255, 255, 255]))
        for i in range(200):
            g += b'\\x21\\xf9\\x04\\x04\\x00\\x00\\x00\\x00' + b'\\x2c' + struct.pack('<HHHH', i % 100, i // 100, 1, 1) + b'\\x00\\x02\\x02\\x44\\x01\\x00'
        open(d + '/frames.gif', 'wb').write(g + b'\\x3b')
        w = h = 2000
        strip = zlib.compress(b'\\xff' * (w * h), 9)
        t = bytearray(b'II*\\x00\\x00\\x00\\x00\\x00')
        link = 4
        for p in range(300):
            off = len(t); t += strip
            if len(t) % 2: t += b'\\x00'
            struct.pack_into('<I', t, link, len(t))
            tags = [(256,4,w),(257,4,h),(258,3,8),(259,3,8),(262,3,1),(273,4,off),(277,3,1),(278,4,h),(279,4,len(strip))]
            t += struct.pack('<H', len(tags))
            for tag, typ, val in tags:
                t += struct.pack('<HHI', tag, typ, 1) + (struct.pack('<HH', val, 0) if typ == 3 else struct.pack('<I', val))
            link = len(t); t += b'\\x00\\x00\\x00\\x00'
        open(d + '/pages.tif', 'wb').write(t)
        def chunk(k, b): return struct.pack('>I', len(b)) + k + b + struct.pack('>I', zlib.crc32(k + b) & 0xffffffff)
        c = zlib.compressobj(9)
        row = bytes(10951)
        idat = b''.join(c.compress(row) for _ in range(10950)) + c.flush()
        open(d + '/zlib.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 10950, 10950, 8, 0, 0, 0, 0)) + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
        """

    @Test("Multi-frame and zlib bombs get too_large with the numbers, before decoding: peak RSS under 1 GB, no temp files left")
    func bombsAreRefusedBeforeDecoding() throws {
        let dir = try TempDir()
        let bombs = try dir.mkdir("bombs")
        try run("/usr/bin/env", ["python3", "-c", Self.bombMaker, bombs])
        let tmp = try dir.mkdir("tmp")
        let r = try sh("exec python3 -c \"$1\" \"$CS\" scan -q --jobs 1 \"$2\"", [Self.peakRSS, bombs], env: ["TMPDIR": tmp])
        #expect(r.status == 1, "\(r.stderr)")
        let recs = try Self.records(r.stdout)
        #expect(recs.count == 3)
        var byName: [String: JSONValue] = [:]
        for rec in recs { byName[URL(fileURLWithPath: rec["path"]?.stringValue ?? "").lastPathComponent] = rec }
        let gif = try #require(byName["frames.gif"]?["error"])
        #expect(gif["kind"]?.stringValue == "too_large")
        #expect(gif["message"]?.stringValue?.contains("10000x10000 screen") == true, "\(gif)")
        #expect(gif["message"]?.stringValue?.contains("budget is 64 megapixels") == true, "\(gif)")
        let tiff = try #require(byName["pages.tif"]?["error"])
        #expect(tiff["kind"]?.stringValue == "too_large")
        #expect(tiff["message"]?.stringValue?.contains("the first 64 frames (the file has more) of up to 4.0 megapixels") == true, "\(tiff)")
        let png = try #require(byName["zlib.png"]?["error"])
        #expect(png["kind"]?.stringValue == "too_large")
        #expect(png["message"]?.stringValue?.contains("10950x10950") == true, "\(png)")
        let peak = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak_rss_kib=") }.flatMap { Int($0.dropFirst(13)) }
        let kib = try #require(peak, "\(r.stderr)")
        #expect(kib < 1_000_000, "peak RSS \(kib) KiB")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test("a zTXt bomb costs report, scan --annotate and generate --logo no more than a plain PNG")
    func zTXtBomb() throws {
        let dir = try TempDir("bomb")
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
            let m = try Self.measured(args, cwd: dir.path)
            #expect(m.status == 0, "\(args[0]): \(m.stderr)")
            #expect(m.kib > 0 && m.kib < 300 << 10, "\(args[0]): peak RSS \(m.kib) KiB")
        }
        let page = try String(contentsOfFile: dir.file("bomb.html"), encoding: .utf8)
        #expect(page.contains("data:image/jpeg"), "the thumbnail is still made")
        #expect(FileManager.default.fileExists(atPath: dir.file("pictures/bomb.png.annotated.png")))
    }

    @Test("a zTXt bomb costs scan --isolation none (no worker limit) no more than a plain PNG; small text chunks stay")
    func zTXtBombInProcess() throws {
        let dir = try TempDir("bomb-none")
        let bomb = try Self.bomb(dir)
        let m = try Self.measured(["scan", "--isolation", "none", "-o", dir.file("none.jsonl"), bomb], cwd: dir.path)
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
