/// PNG chunk surgery on untrusted bytes, before a decoder sees them.
public enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Text chunks: tEXt, and zTXt and iTXt, whose compressed text a decoder inflates whole into
    /// memory (a 1 MB zTXt chunk can inflate to 1 GiB: the coordinator has no memory limit).
    static let textTypes: Set<[UInt8]> = [Array("tEXt".utf8), Array("zTXt".utf8), Array("iTXt".utf8)]

    /// The PNG without its text chunks (tEXt, zTXt, iTXt), which carry no pixels. Other bytes
    /// are kept exactly (each chunk's CRC covers only itself). Not a PNG, or a chunk whose
    /// length runs past the end: the rest is kept as it is, for the decoder to judge.
    public static func withoutText(_ bytes: [UInt8]) -> [UInt8] {
        dropping(bytes) { type, _ in textTypes.contains(type) }
    }

    /// Compressed text chunks (zTXt, iTXt) past `maxBytes` stored, counted together in file
    /// order: what a scan drops before decoding, so a bomb (one chunk or many) costs nothing
    /// even without a worker's memory limit (`--isolation none`), while the small text chunks
    /// that carry a photo's XMP or EXIF (read for provenance) stay. Deflate inflates at most
    /// about 1,032 times, so 64 KiB stored is at most some 66 MB of text in all. Nothing to
    /// drop: the same array back.
    public static let maxCompressedText = 64 << 10
    public static func withoutLargeCompressedText(_ bytes: [UInt8], maxBytes: Int = maxCompressedText) -> [UInt8] {
        var kept = 0
        return dropping(bytes) { type, length in
            guard type != Array("tEXt".utf8), textTypes.contains(type) else { return false }
            if kept + length > maxBytes { return true }
            kept += length
            return false
        }
    }

    /// The PNG without the chunks `drop` names (by type and data length; asked once per chunk,
    /// in file order); other bytes kept exactly (each chunk's CRC covers only itself). Not a
    /// PNG, or a chunk whose length runs past the end: the rest is kept as it is, for the
    /// decoder to judge. The same array when nothing is dropped.
    static func dropping(_ bytes: [UInt8], where drop: ([UInt8], Int) -> Bool) -> [UInt8] {
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { return bytes }
        var kept: [Range<Int>] = []
        var any = false
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let end = i + 12 + length
            guard end <= bytes.count else { break }
            if drop(Array(bytes[(i + 4)..<(i + 8)]), length) { any = true } else { kept.append(i..<end) }
            i = end
        }
        guard any else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        out += signature
        for r in kept { out += bytes[r] }
        out += bytes[i...]
        return out
    }
}
