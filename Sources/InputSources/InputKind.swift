import Imaging
import Records

/// What a file's (or a member's) bytes are, decided from its first bytes, never its name: the
/// one sniff every reader of bytes asks (the scanner, a container's members, the HTML report,
/// the annotator, `willRecord`).
public enum InputKind: Sendable, Equatable {
    /// A raster image (MagickWand and the direct decoders).
    case image(ImageFormat)
    /// A document rendered page by page (PDF, SVG).
    case document(ImageFormat)
    /// An archive, package or mail, whose members are items of their own.
    case container(ContainerKind)
    /// A video (frames over time).
    case video(VideoKind)
    /// Sound only (an `ftyp` file of an audio brand, M4A): nothing to read, said so.
    case audio(String)

    /// The raster or document format, when the bytes are one.
    public var imageFormat: ImageFormat? {
        switch self {
        case .image(let f), .document(let f): f
        default: nil
        }
    }
}

/// Containers by their signature (mail by its headers, EML having none). Compressed streams
/// (gzip, bzip2, xz, zstd) are named for their compression: libarchive decides what is inside
/// (a tarball, mostly), and the record gives the format it found.
public enum ContainerKind: String, Sendable, CaseIterable {
    case zip, tar, sevenZip = "7z", rar, iso9660, cpio, gzip, bzip2, xz, zstd, eml, mbox

    public var isMail: Bool { self == .eml || self == .mbox }
}

/// Videos by their signature (an `ftyp` box of a video brand, EBML, RIFF AVI, MPEG-TS packets).
public enum VideoKind: String, Sendable, CaseIterable {
    case mp4, mov, matroska, avi, mpegts
}

public enum InputSniff {
    /// How many first bytes `kind(of:)` looks at: an ISO 9660 image says so at byte 32769.
    public static let headBytes = 32_774

    /// The kind of input these first bytes (at least `headBytes` of them, or the whole input)
    /// start, or nil for none CodeSweep reads.
    public static func kind<C: Collection>(of head: C) -> InputKind? where C.Element == UInt8, C.Index == Int {
        let b = Array(head.prefix(headBytes))
        if let f = ImageFormat.sniff(b.prefix(32)) { return .image(f) }
        if let kind = ftyp(b) { return kind }
        // A container's signature at byte 0 wins over a document's `%PDF-`, which may lie
        // anywhere in the first 1024 bytes: a tarball or ZIP whose first member is a PDF.
        if let c = container(b) { return .container(c) }
        if let f = ImageFormat.sniffDocument(b.prefix(ImageFormat.documentSniffBytes)) { return .document(f) }
        if let v = video(b) { return .video(v) }
        if let m = MailSniff.kind(b) { return .container(m) }
        return nil
    }

    static func starts(_ b: [UInt8], _ sig: [UInt8], at offset: Int = 0) -> Bool {
        b.count >= offset + sig.count && b[offset..<(offset + sig.count)].elementsEqual(sig)
    }

    static func container(_ b: [UInt8]) -> ContainerKind? {
        // PK\3\4 (a member), PK\5\6 (an empty archive's end record), PK\7\8 (spanned).
        if starts(b, [0x50, 0x4B]) && b.count >= 4 && [[3, 4], [5, 6], [7, 8]].contains(Array(b[2..<4])) { return .zip }
        if starts(b, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return .sevenZip }
        if starts(b, Array("Rar!\u{1A}\u{07}".utf8)) { return .rar }
        if starts(b, [0x1F, 0x8B]) { return .gzip }
        if starts(b, Array("BZh".utf8)) && b.count > 3 && (0x31...0x39).contains(b[3]) { return .bzip2 }
        if starts(b, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if starts(b, [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        if starts(b, Array("ustar".utf8), at: 257) { return .tar }
        if starts(b, Array("070707".utf8)) || starts(b, Array("070701".utf8)) || starts(b, Array("070702".utf8)) || starts(b, [0xC7, 0x71])
            || starts(b, [0x71, 0xC7])
        {
            return .cpio
        }
        if starts(b, Array("CD001".utf8), at: 32769) { return .iso9660 }
        return nil
    }

    /// An ISO base media file (`ftyp` at byte 4): HEIC and AVIF pictures are images (their
    /// brands: `ImageFormat.sniff`), MP4/MOV/3GP brands videos, M4A/M4B/M4P sound. The major
    /// brand decides, then the compatible ones.
    static func ftyp(_ b: [UInt8]) -> InputKind? {
        guard starts(b, Array("ftyp".utf8), at: 4), b.count >= 12 else { return nil }
        let size = b.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        var brands = [String(decoding: b[8..<12], as: UTF8.self)]
        var at = 16
        while at + 4 <= min(b.count, max(size, 16)) {
            brands.append(String(decoding: b[at..<(at + 4)], as: UTF8.self))
            at += 4
        }
        let audio: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]
        let quicktime: Set<String> = ["qt  "]
        let video: Set<String> = [
            "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "M4VH", "M4VP", "3gp4", "3gp5", "3gp6", "3gp7",
            "3g2a", "3g2b", "3g2c", "dash", "mmp4", "MSNV", "XAVC", "f4v ", "av01", "hvc1",
        ]
        for brand in brands {
            if audio.contains(brand) { return .audio(brand.trimmingSpaces) }
            if quicktime.contains(brand) { return .video(.mov) }
            if video.contains(brand) { return .video(.mp4) }
        }
        return nil
    }

    static func video(_ b: [UInt8]) -> VideoKind? {
        if starts(b, [0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if starts(b, Array("RIFF".utf8)) && starts(b, Array("AVI ".utf8), at: 8) { return .avi }
        // MPEG-TS: a sync byte every 188 bytes (or 192, M2TS's timecode before each packet).
        for (first, step) in [(0, 188), (4, 192)] where b.count >= first + 3 * step + 1 {
            if (0..<4).allSatisfy({ b[first + $0 * step] == 0x47 }) { return .mpegts }
        }
        return nil
    }
}

extension String {
    var trimmingSpaces: String { String(self.reversed().drop { $0 == " " }.reversed()) }
}
