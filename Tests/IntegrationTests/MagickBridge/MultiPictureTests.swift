import Foundation
import Records
import TestSupport
import Testing

/// A multi-picture JPEG (MPO, CIPA DC-007) is as many frames as its MP index lists pictures.
@Suite("Multi-picture JPEG")
struct MultiPictureTests {
    /// The bytes of a two-picture MPO: `first` with an APP2 MP index after its SOI marker,
    /// then `second` (both JPEGs), as a stereo camera writes them.
    static func mpo(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        func tag(_ id: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] { u16(id) + u16(type) + u32(count) + value }
        let segment = 2 + 4 + 8 + 2 + 3 * 12 + 4 + 32  // length field: itself, "MPF\0", TIFF header, IFD, entries
        let firstSize = first.count + 2 + segment
        let base = 2 + 4 + 4  // SOI, APP2 marker and length, "MPF\0": the TIFF header's offset
        var index: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8) + u16(3)
        index += tag(0xB000, 7, 4, Array("0100".utf8))
        index += tag(0xB001, 4, 1, u32(2))
        index += tag(0xB002, 7, 32, u32(8 + 2 + 3 * 12 + 4)) + u32(0)
        index += u32(0x2003_0000) + u32(firstSize) + u32(0) + u16(0) + u16(0)
        index += u32(0x0002_0002) + u32(second.count) + u32(firstSize - base) + u16(0) + u16(0)
        let app2: [UInt8] = [0xFF, 0xE2, UInt8(segment >> 8), UInt8(segment & 0xFF)] + Array("MPF\0".utf8) + index
        return Array(first[0..<2]) + app2 + Array(first[2...]) + second
    }

    @Test func everyPictureIsAFrame() throws {
        let dir = try TempDir()
        for (k, text) in ["left picture", "right picture"].enumerated() {
            try Make.qr(text, to: dir.file("\(k).png"), scale: 6, margin: 4)
            try Make.convert([dir.file("\(k).png"), "-quality", "95", dir.file("\(k).jpg")])
        }
        let pictures = try [0, 1].map { Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("\($0).jpg")))) }
        try Data(Self.mpo(pictures[0], pictures[1])).write(to: URL(fileURLWithPath: dir.file("stereo.mpo")))
        // exiftool reads the index as a multi-picture file's.
        let info = try run(Tools.exiftool, ["-s", "-NumberOfImages", "-MPImageLength", dir.file("stereo.mpo")]).stdout
        #expect(info.contains("NumberOfImages                  : 2"), "\(info)")
        let r = try #require(try DocumentTests.scan([dir.file("stereo.mpo")]).records.first)
        #expect(r.status == .ok && r.format == .jpeg, "\(r.error?.message ?? "")")
        #expect(r.frames == 2)
        #expect(r.codes.map(\.text) == ["left picture", "right picture"])
        #expect(r.codes.map(\.frame) == [0, 1])
        // A plain JPEG is one frame, as before.
        let plain = try #require(try DocumentTests.scan([dir.file("0.jpg")]).records.first)
        #expect(plain.frames == 1 && plain.codes.map(\.text) == ["left picture"])
    }
}
