import Foundation
import PNGBridge
import TestSupport
import Testing
import ZlibBridge

/// libpng straight to grey (`PNGDecoder`) on qrencode's PNGs: the stored size and every module's
/// grey, and the files it declines for MagickWand (an animated PNG, a truncated one).
@Suite("PNG decoding with libpng")
struct PNGDecoderTests {
    /// A qrencode PNG of `text` at `scale` px a module, `margin` modules of quiet zone, and its modules.
    static func code(_ text: String, scale: Int, margin: Int, in dir: TempDir) throws -> (bytes: [UInt8], modules: [[Bool]]) {
        try Make.qr(text, to: dir.file("q.png"), scale: scale, margin: margin)
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("q.png")))), try PDFMaker.qrMatrix(text))
    }

    @Test("a qrencode PNG decodes to its size, each dark module 0 and each light one 255, the quiet zone white")
    func qrencodePNGToGrey() throws {
        let dir = try TempDir("png-grey")
        let (scale, margin) = (3, 2)
        let (bytes, modules) = try Self.code("https://www.example.com/png", scale: scale, margin: margin, in: dir)
        let n = modules.count
        let side = (n + 2 * margin) * scale
        let size = try PNGDecoder.inspect(bytes)
        #expect(size.width == side && size.height == side)
        let image = try PNGDecoder.decodeGrey(bytes)
        #expect(image.width == side && image.height == side)
        for y in 0..<n {
            for x in 0..<n {
                let px = image.pixels[((y + margin) * scale + 1) * side + (x + margin) * scale + 1]
                #expect(px == (modules[y][x] ? 0 : 255), "module (\(x), \(y))")
            }
        }
        #expect(image.pixels.prefix(side * margin * scale).allSatisfy { $0 == 255 }, "the quiet zone above the code")
    }

    @Test("an animated PNG (an acTL chunk before the image data) and a truncated PNG are declined, with the reason")
    func declinesAnimatedAndTruncated() throws {
        let dir = try TempDir("png-declined")
        let (bytes, _) = try Self.code("animated", scale: 2, margin: 2, in: dir)
        // After the signature (8 bytes) and IHDR (25): acTL with 1 frame played forever.
        let body: [UInt8] = Array("acTL".utf8) + [0, 0, 0, 1, 0, 0, 0, 0]
        let crc = Zlib.crc32(body[...])
        let chunk: [UInt8] = [0, 0, 0, 8] + body + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        let animated = Array(bytes[..<33]) + chunk + Array(bytes[33...])
        #expect(throws: PNGDecoder.Declined.self) { try PNGDecoder.decodeGrey(animated) }
        do { _ = try PNGDecoder.inspect(animated) } catch { #expect(error.reason.contains("animated"), "\(error.reason)") }
        #expect(throws: PNGDecoder.Declined.self) { try PNGDecoder.decodeGrey(Array(bytes.prefix(bytes.count / 2))) }
        #expect(try PNGDecoder.decodeGrey(bytes).width > 0, "the file it was made from decodes")
    }
}
