import AssetCheck
import CodeGenerate
import Foundation
import TestSupport
import Testing
import UserInput

/// A long thin strip (18080x45) is not turned onto canvases many times its size.
@Suite("A long thin strip is not blown up", .serialized)
struct LongStripTests: SweepRuns {
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

    @Test("an 18080x45 strip is not turned onto canvases 170 times its size")
    func longStrip() throws {
        let dir = try TempDir("strip")
        try dir.write("strip.tif", Self.tiff(width: 18080, height: 45) { _ in 255 })
        let m = try Self.measured(["scan", "--isolation", "none", "--effort", "normal", "strip.tif"], cwd: dir.path)
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.kib > 0 && m.kib < 150 << 10, "peak RSS \(m.kib) KiB (turned views of the strip held 230 MB)")
    }
}
