/// The pictures of a multi-picture JPEG (CIPA DC-007 "Multi-Picture Format": MPO files from
/// stereo cameras, phones' depth and gain maps), found by its MP index: an APP2 segment
/// "MPF\0" in the first picture's markers holding a TIFF-style IFD whose MP Entry tag (0xB002)
/// lists each picture's size and offset (from the MP header's TIFF header; 0 for the first).
/// A plain JPEG decoder stops at the first picture's end and never sees the others.
public enum JPEGPictures {
    /// The byte ranges of the pictures, in the index's order, or nil when `bytes` is not a
    /// JPEG with an MP index of two or more pictures. A picture whose range runs past the
    /// end or does not start with a JPEG's SOI marker makes the whole index nil (unreadable:
    /// the file is read as the plain JPEG it also is).
    public static func ranges(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard let base = mpHeader(bytes), let entries = mpEntries(bytes, base: base), entries.count >= 2 else { return nil }
        var ranges: [Range<Int>] = []
        for (k, e) in entries.enumerated() {
            let start = k == 0 ? 0 : base + e.offset
            guard e.size > 0, start >= 0, start <= bytes.count - 2, e.size <= bytes.count - start,
                bytes[start] == 0xFF, bytes[start + 1] == 0xD8
            else { return nil }
            ranges.append(start..<(start + e.size))
        }
        return ranges
    }

    /// Where the MP header's TIFF header starts: just after "MPF\0" in an APP2 segment before
    /// the first picture's scan.
    static func mpHeader(_ b: [UInt8]) -> Int? {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan, end of image
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if marker == 0xE2, length >= 2 + 4 + 8, Array(b[(i + 4)..<(i + 8)]) == Array("MPF\0".utf8) { return i + 8 }
            i += 2 + length
        }
        return nil
    }

    /// The MP Entry list: each picture's size and offset.
    static func mpEntries(_ b: [UInt8], base: Int) -> [(size: Int, offset: Int)]? {
        guard base + 8 <= b.count else { return nil }
        let little: Bool
        switch (b[base], b[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= b.count else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard let ifd = u32(base + 4), let count = u16(base + ifd) else { return nil }
        for k in 0..<min(count, 64) {
            let entry = base + ifd + 2 + 12 * k
            guard let tag = u16(entry), tag == 0xB002 else { continue }
            guard let bytes = u32(entry + 4), bytes % 16 == 0, bytes / 16 <= 4096, let at = u32(entry + 8) else { return nil }
            var list: [(size: Int, offset: Int)] = []
            for n in 0..<(bytes / 16) {
                guard let size = u32(base + at + 16 * n + 4), let offset = u32(base + at + 16 * n + 8) else { return nil }
                list.append((size, offset))
            }
            return list
        }
        return nil
    }
}
