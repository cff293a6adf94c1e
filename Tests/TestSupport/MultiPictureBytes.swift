/// Multi-picture JPEG files (CIPA DC-007, MPO) put together from JPEGs, as a stereo camera
/// writes them: the first picture with an APP2 "MPF" index after its SOI marker, then the others.
package enum MultiPictureBytes {
    /// The bytes of a two-picture MPO of `first` and `second`. `secondOffset` replaces the
    /// second picture's offset in the index (a damaged index).
    package static func mpo(_ first: [UInt8], _ second: [UInt8], secondOffset: Int? = nil) -> [UInt8] {
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
        index += u32(0x0002_0002) + u32(second.count) + u32(secondOffset ?? firstSize - base) + u16(0) + u16(0)
        let app2: [UInt8] = [0xFF, 0xE2, UInt8(segment >> 8), UInt8(segment & 0xFF)] + Array("MPF\0".utf8) + index
        return Array(first[0..<2]) + app2 + Array(first[2...]) + second
    }
}
