import Records

/// How a file's format is recognised (the formats themselves: `Records/ImageFormat.swift`).
extension ImageFormat {
    /// Recognises the format from at least the first 32 bytes of a file.
    public static func sniff<C: Collection>(_ head: C) -> ImageFormat? where C.Element == UInt8 {
        let b = Array(head.prefix(32))
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + sig.count && Array(b[offset..<(offset + sig.count)]) == sig
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && b.count >= 18 { return .bmp }
        if starts(Array("ftyp".utf8), at: 4) && b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if ["avif", "avis"].contains(brand) { return .avif }
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return .heic }
        }
        return nil
    }

    /// Whether a file name's extension suggests an image (used to stay quiet about skipped
    /// non-images found by walking; decoding still trusts only the magic bytes).
    public static let knownExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "gif", "webp", "heic", "heif", "avif", "tif", "tiff", "bmp", "dib",
    ]
}
