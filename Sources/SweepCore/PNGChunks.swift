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
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        out += signature
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let end = i + 12 + length
            guard length >= 0, end <= bytes.count else { break }
            if !textTypes.contains(Array(bytes[(i + 4)..<(i + 8)])) { out += bytes[i..<end] }
            i = end
        }
        out += bytes[i...]
        return out
    }
}
