import Foundation
import MagickBridge
import Records
import TestSupport
import Testing

/// A file ImageMagick reads no pixels from says why, in the decoder's words.
@Suite("Load messages")
struct LoadMessageTests {
    /// A JPEG whose frame header (SOF1, extended sequential) declares 12-bit samples: libjpeg
    /// built for 8 bits refuses it at the header, and ImageMagick's ping leaves a 0x0 image.
    static func twelveBitJPEG(in dir: TempDir) throws -> [UInt8] {
        try run(Tools.convert, ["-size", "64x48", "xc:gray50", "-quality", "90", dir.file("eight.jpg")])
        var b = Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("eight.jpg"))))
        var i = 2
        while i + 4 < b.count, b[i] == 0xFF {
            let marker = b[i + 1], length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if marker == 0xC0 || marker == 0xC1 {
                b[i + 1] = 0xC1
                b[i + 4] = 12
                return b
            }
            i += 2 + length
        }
        throw ToolFailure("no frame header in the JPEG convert wrote")
    }

    @Test("a 12-bit JPEG says 'Unsupported JPEG data precision 12', not 'jpeg header declares 0x0 pixels'")
    func twelveBitJPEG() throws {
        let dir = try TempDir()
        let bytes = try Self.twelveBitJPEG(in: dir)
        let error = #expect(throws: RecordError.self) { try ImageLoader.load(bytes, format: .jpeg) }
        #expect(error?.message.contains("Unsupported JPEG data precision 12") == true, "\(String(describing: error))")
        #expect(error?.message.contains("0x0") == false, "\(String(describing: error))")
        // The same through the binary, as a user sees it.
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("twelve.jpg")))
        let r = try run(codesweepBinary, ["scan", "-q", dir.file("twelve.jpg")], check: false)
        #expect(r.status == 1 && r.stdout.contains("Unsupported JPEG data precision 12"), "\(r.stdout)")
    }
}
