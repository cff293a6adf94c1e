import CPNG
import Imaging

/// libpng, straight to grey: a PNG's bytes in, 8-bit luma out (alpha over white, Rec. 601 weights
/// as `RGBImage.luma`). Every PNG libpng's simplified API reads without a warning; an animated
/// PNG, and any file libpng warns about or refuses, is `declined` with the reason, for a decoder
/// that handles it (MagickWand). Every call makes its own reader; libpng's longjmp never leaves it.
package enum PNGDecoder {
    /// Why the direct path does not decode a file (the caller falls back).
    package struct Declined: Error, Sendable, Equatable {
        package var reason: String
    }

    /// The stored size, or why this path does not decode the file.
    package static func inspect(_ bytes: [UInt8]) throws(Declined) -> (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { b in cpng_inspect(b.baseAddress, b.count, &w, &h, &message, message.count) }
        if status != Int32(CPNG_OK) { throw Declined(reason: reason(message)) }
        return (Int(w), Int(h))
    }

    /// The whole image as grey, as stored (before any EXIF orientation).
    package static func decodeGrey(_ bytes: [UInt8]) throws(Declined) -> LumaImage {
        let (w, h) = try inspect(bytes)
        guard w > 0, h > 0 else { throw Declined(reason: "no pixels") }
        var out = [UInt8](repeating: 0, count: w * h)
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in cpng_decode_grey(b.baseAddress, b.count, o.baseAddress, o.count, &message, message.count) }
        }
        if status != Int32(CPNG_OK) { throw Declined(reason: reason(message)) }
        return LumaImage(width: w, height: h, pixels: out)
    }

    static func reason(_ message: [CChar]) -> String {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "libpng gave no reason" : text
    }
}
