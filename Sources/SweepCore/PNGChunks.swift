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

    /// Compressed text chunks (zTXt, iTXt) of more than `maxBytes` as stored: what a scan
    /// drops before decoding, so a bomb costs nothing even without a worker's memory limit
    /// (`--isolation none`), while the small text chunks that carry a photo's XMP or EXIF
    /// (read for provenance) stay. Deflate inflates at most about 1,032 times, so 64 KiB
    /// stored is at most some 66 MB of text. Nothing to drop: the same array back.
    public static let maxCompressedText = 64 << 10
    public static func withoutLargeCompressedText(_ bytes: [UInt8], maxBytes: Int = maxCompressedText) -> [UInt8] {
        dropping(bytes) { type, length in length > maxBytes && type != Array("tEXt".utf8) && textTypes.contains(type) }
    }

    /// The PNG without the chunks `drop` names (by type and data length); other bytes kept
    /// exactly. The same array when nothing is dropped.
    static func dropping(_ bytes: [UInt8], where drop: ([UInt8], Int) -> Bool) -> [UInt8] {
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { return bytes }
        var any = false
        var j = 8
        while j + 12 <= bytes.count {
            let length = Int(bytes[j]) << 24 | Int(bytes[j + 1]) << 16 | Int(bytes[j + 2]) << 8 | Int(bytes[j + 3])
            guard j + 12 + length <= bytes.count else { break }
            if drop(Array(bytes[(j + 4)..<(j + 8)]), length) { any = true; break }
            j += 12 + length
        }
        if !any { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        out += signature
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let end = i + 12 + length
            guard length >= 0, end <= bytes.count else { break }
            if !drop(Array(bytes[(i + 4)..<(i + 8)]), length) { out += bytes[i..<end] }
            i = end
        }
        out += bytes[i...]
        return out
    }
}
