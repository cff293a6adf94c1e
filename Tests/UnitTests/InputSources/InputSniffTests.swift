import Imaging
import InputSources
import Testing

/// The one sniff (`InputSniff`): every kind from its first bytes, never a name; an `ftyp` file
/// told apart by its brands; mail by its header fields; a container's signature before a
/// document's `%PDF-`, which may lie anywhere in the first 1024 bytes.
@Suite("InputSniff: what bytes are")
struct InputSniffTests {
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        let size = 8 + body.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + body + [0, 0, 0, 8] + Array("free".utf8)
    }

    @Test("Images and documents keep their formats")
    func imagesAndDocuments() {
        #expect(InputSniff.kind(of: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40)) == .image(.jpeg))
        #expect(InputSniff.kind(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40)) == .image(.png))
        #expect(InputSniff.kind(of: Array("%PDF-1.7\n".utf8)) == .document(.pdf))
        #expect(InputSniff.kind(of: Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == .document(.svg))
        #expect(InputSniff.kind(of: Array("hello, plain text\n".utf8)) == nil)
        #expect(InputSniff.kind(of: [UInt8]()) == nil)
    }

    @Test("An ftyp file: HEIC and AVIF pictures, MP4 and QuickTime videos, M4A sound")
    func ftypBrands() {
        #expect(InputSniff.kind(of: Self.ftyp("heic", ["mif1", "heic"])) == .image(.heic))
        #expect(InputSniff.kind(of: Self.ftyp("mif1", ["heic"])) == .image(.heic))
        #expect(InputSniff.kind(of: Self.ftyp("avif", ["mif1"])) == .image(.avif))
        #expect(InputSniff.kind(of: Self.ftyp("isom", ["isom", "iso2", "avc1", "mp41"])) == .video(.mp4))
        #expect(InputSniff.kind(of: Self.ftyp("mp42", ["mp42", "isom"])) == .video(.mp4))
        #expect(InputSniff.kind(of: Self.ftyp("qt  ", ["qt  "])) == .video(.mov))
        #expect(InputSniff.kind(of: Self.ftyp("M4A ", ["M4A ", "mp42", "isom"])) == .audio("M4A"))
        #expect(InputSniff.kind(of: Self.ftyp("zzzz", ["yyyy"])) == nil)
    }

    @Test("Containers by signature, a tarball by its ustar magic, an ISO at byte 32769")
    func containers() {
        let pad = [UInt8](repeating: 0, count: 600)
        #expect(InputSniff.kind(of: Array("PK\u{3}\u{4}".utf8) + pad) == .container(.zip))
        #expect(InputSniff.kind(of: Array("PK\u{5}\u{6}".utf8) + pad) == .container(.zip))
        #expect(InputSniff.kind(of: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C] + pad) == .container(.sevenZip))
        #expect(InputSniff.kind(of: Array("Rar!\u{1A}\u{07}\u{01}\u{00}".utf8) + pad) == .container(.rar))
        #expect(InputSniff.kind(of: [0x1F, 0x8B, 8, 0] + pad) == .container(.gzip))
        #expect(InputSniff.kind(of: Array("BZh9".utf8) + pad) == .container(.bzip2))
        #expect(InputSniff.kind(of: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00] + pad) == .container(.xz))
        #expect(InputSniff.kind(of: [0x28, 0xB5, 0x2F, 0xFD] + pad) == .container(.zstd))
        #expect(InputSniff.kind(of: Array("070701".utf8) + pad) == .container(.cpio))
        var tar = [UInt8](repeating: 0, count: 1024)
        tar.replaceSubrange(257..<262, with: Array("ustar".utf8))
        #expect(InputSniff.kind(of: tar) == .container(.tar))
        // A tarball whose first member is a PDF: the tarball, not the PDF.
        tar.replaceSubrange(512..<521, with: Array("%PDF-1.4\n".utf8))
        #expect(InputSniff.kind(of: tar) == .container(.tar))
        var iso = [UInt8](repeating: 0, count: InputSniff.headBytes)
        iso.replaceSubrange(32769..<32774, with: Array("CD001".utf8))
        #expect(InputSniff.kind(of: iso) == .container(.iso9660))
    }

    @Test("Mail by its header fields (EML has no signature), an MBOX by its From line")
    func mail() {
        let eml = Array("Return-Path: <a@example.com>\r\nFrom: A <a@example.com>\r\nTo: b@example.com\r\nSubject: codes\r\n\r\nbody\r\n".utf8)
        #expect(InputSniff.kind(of: eml) == .container(.eml))
        let mbox = Array("From a@example.com Mon Jan  1 00:00:00 2024\nFrom: a@example.com\nSubject: x\n\nbody\n".utf8)
        #expect(InputSniff.kind(of: mbox) == .container(.mbox))
        // One known field is not a mail; a text with a colon is not either.
        #expect(InputSniff.kind(of: Array("Subject: notes\n\nNot a mail.\n".utf8)) == nil)
        #expect(InputSniff.kind(of: Array("Dear reader: this\nis: prose\n".utf8)) == nil)
        #expect(InputSniff.kind(of: Array("From the start, a story.\nIt goes on.\n".utf8)) == nil)
    }

    @Test("Videos by their signature: Matroska/WebM, AVI, MPEG-TS packets")
    func videos() {
        let pad = [UInt8](repeating: 0, count: 1000)
        #expect(InputSniff.kind(of: [0x1A, 0x45, 0xDF, 0xA3] + pad) == .video(.matroska))
        #expect(InputSniff.kind(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8) + pad) == .video(.avi))
        var ts = [UInt8](repeating: 0xFF, count: 188 * 5)
        for k in 0..<5 { ts[k * 188] = 0x47 }
        #expect(InputSniff.kind(of: ts) == .video(.mpegts))
        ts[188] = 0
        #expect(InputSniff.kind(of: ts) == nil)
    }
}
