import Foundation
import TestSupport
import Testing
import ZlibBridge

/// `Zlib`, what generate's PNG writer is made of: a deflate stream python3's zlib inflates back to
/// the bytes, and CRC-32 as PNG files carry it.
@Suite("zlib: deflate and CRC-32")
struct ZlibTests {
    /// `stream` inflated by python3's zlib (a declared dependency of the tests), or its error.
    static func inflated(_ stream: [UInt8]) throws -> ProcessResult {
        try run(
            "/usr/bin/env", ["python3", "-c", "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"],
            stdin: Data(stream), check: false)
    }

    @Test("a compressed stream inflates back to the same bytes at every level; a truncated one does not")
    func roundTrip() throws {
        var r = Rand(state: 11)
        let bytes = (0..<20_000).map { i in i % 7 == 0 ? UInt8(r.below(256)) : UInt8(i % 31) }
        var sizes: [Int] = []
        for level: Int32 in [0, 1, 6, 9] {
            let stream = try #require(Zlib.compress(bytes, level: level))
            sizes.append(stream.count)
            let back = try Self.inflated(stream)
            #expect(back.status == 0 && [UInt8](back.stdoutBytes) == bytes, "level \(level): \(back.stderr)")
        }
        #expect(sizes[0] > bytes.count && sizes[3] < bytes.count / 2, "level 0 stores, level 9 compresses: \(sizes)")
        let truncated = try Self.inflated(Array(try #require(Zlib.compress(bytes)).dropLast(10)))
        #expect(truncated.status != 0 && truncated.stderr.contains("zlib.error"), "\(truncated.stderr)")
        let empty = try Self.inflated(try #require(Zlib.compress([])))
        #expect(empty.status == 0 && empty.stdoutBytes.isEmpty)
    }

    @Test("CRC-32: the check value of '123456789', and the CRC qrencode stored after a PNG's IHDR")
    func crc32() throws {
        #expect(Zlib.crc32(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(Zlib.crc32([][...]) == 0)
        let dir = try TempDir("zlib-crc")
        try Make.qr("crc", to: dir.file("q.png"))
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("q.png"))))
        // Signature (8), IHDR's length (4), then type and data (4 + 13), then its CRC (big-endian).
        let stored = png[29..<33].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(Zlib.crc32(png[12..<29]) == stored)
    }
}
