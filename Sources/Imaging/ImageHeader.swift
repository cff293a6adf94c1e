import Records

/// Dimensions a file declares in its header, read without decoding anything, so that a
/// decompression bomb is refused before any decoder allocates for it.
public enum ImageHeader {
    /// (width, height) as declared, or nil when this format's header is not parsed here (TIFF:
    /// ImageMagick's ping reads it cheaply) or is too short. For HEIC/AVIF, the largest 'ispe'
    /// box near the start of the file.
    public static func declaredSize(_ b: [UInt8], format: ImageFormat) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int? { i + 2 <= b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : nil }
        func be32(_ i: Int) -> Int? { i + 4 <= b.count ? Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) : nil }
        func le16(_ i: Int) -> Int? { i + 2 <= b.count ? Int(b[i]) | Int(b[i + 1]) << 8 : nil }
        func le24(_ i: Int) -> Int? { i + 3 <= b.count ? Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 : nil }
        func le32s(_ i: Int) -> Int? {
            guard i + 4 <= b.count else { return nil }
            return Int(Int32(bitPattern: UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24))
        }
        switch format {
        case .png:
            // The first chunk must be IHDR; anything else is not a size (the decoder then
            // reports the file as corrupt).
            guard b.count >= 24, b[12..<16].elementsEqual(Array("IHDR".utf8)),
                let w = be32(16), let h = be32(20)
            else { return nil }
            return (w, h)
        case .gif:
            guard let w = le16(6), let h = le16(8) else { return nil }
            return (w, h)
        case .bmp:
            guard let w = le32s(18), let h = le32s(22) else { return nil }
            return (abs(w), abs(h))
        case .webp:
            guard b.count >= 30 else { return nil }
            let chunk = String(decoding: b[12..<16], as: UTF8.self)
            switch chunk {
            case "VP8X":
                guard let w = le24(24), let h = le24(27) else { return nil }
                return (w + 1, h + 1)
            case "VP8L":
                guard b.count >= 25 else { return nil }
                let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
                return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
            case "VP8 ":
                guard let w = le16(26), let h = le16(28) else { return nil }
                return (w & 0x3FFF, h & 0x3FFF)
            default: return nil
            }
        case .jpeg:
            var i = 2
            while i + 4 <= b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }  // fill byte
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                guard let len = be16(i + 2), len >= 2 else { return nil }
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard let h = be16(i + 5), let w = be16(i + 7) else { return nil }
                    return (w, h)
                }
                if marker == 0xDA || marker == 0xD9 { return nil }  // scan data before any frame header
                i += 2 + len
            }
            return nil
        case .pdf, .svg:
            return nil  // documents are rendered, not decoded
        case .heic, .avif:
            // Image spatial extents ('ispe' property boxes, 20 bytes each) near the start of
            // the file: the largest one declared (a grid image's covers all its tiles; the
            // others are tiles and thumbnails). libheif refuses huge sizes without saying why.
            var best: (Int, Int)? = nil
            var i = 4
            let end = min(b.count, 1 << 20) - 16
            while i < end {
                if b[i] == 0x69, b[i + 1] == 0x73, b[i + 2] == 0x70, b[i + 3] == 0x65, be32(i - 4) == 20,
                    let w = be32(i + 8), let h = be32(i + 12)
                {
                    if best == nil || w * h > best!.0 * best!.1 { best = (w, h) }
                    i += 16
                } else {
                    i += 1
                }
            }
            return best
        case .tiff:
            return nil
        }
    }
}

extension ImageHeader {
    /// Whether the file visibly stops early: a PNG without its IEND chunk, a JPEG without its
    /// end-of-image marker, a GIF without its trailer.
    public static func looksTruncated(_ b: [UInt8], format: ImageFormat) -> Bool {
        switch format {
        case .png: return !b.suffix(12).starts(with: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44])
        case .jpeg:
            // Some writers pad after EOI: look for FF D9 near the end.
            let tail = b.suffix(64)
            return !zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        case .gif: return !b.suffix(16).contains(0x3B)
        default: return false
        }
    }
}

/// ImageMagick messages end with "`FILENAME' @ error/coder.c/Function/line": keep the reason.
public func cleanMagickMessage(_ text: String) -> String {
    var s = Substring(text)
    var i = s.startIndex
    while i < s.endIndex {
        let next = s.index(after: i)
        if s[i] == " " && next < s.endIndex && s[next] == "`" { s = s[..<i]; break }
        i = next
    }
    while let l = s.last, l == " " || l == "." || l == "\n" { s.removeLast() }
    return String(s)
}
