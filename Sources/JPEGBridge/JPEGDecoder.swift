import CJPEG
import Imaging

/// libjpeg-turbo, straight to grey: a JPEG's bytes in, 8-bit luma (the file's Y channel) out, at
/// libjpeg's DCT scale for `1/denominator` (1...16: libjpeg-turbo decodes at the smallest M/8 at
/// least that, as it does for ImageMagick's `jpeg:size`), whole or a region. Baseline and progressive 8-bit
/// Huffman-coded JPEGs that are greyscale or YCbCr only; anything else, and any file libjpeg
/// warns about, is `declined` with the reason, for a decoder that handles it (MagickWand).
/// Every call makes its own decompressor; libjpeg's longjmp never leaves `cjpeg.c`.
package enum JPEGDecoder {
    /// What the header says.
    package struct Header: Sendable, Equatable {
        /// As stored, before EXIF orientation.
        package var width: Int
        package var height: Int
        package var progressive: Bool
        /// The size a decode at `1/denominator` gives.
        package var outputWidth: Int
        package var outputHeight: Int
    }

    /// Why the direct path does not decode a file (the caller falls back).
    package struct Declined: Error, Sendable, Equatable {
        package enum Kind: Sendable { case unsupported, error, warning, badArgument }
        package var kind: Kind
        package var reason: String
    }

    /// A region of the image at a scale, in that scale's pixels, as stored (before orientation).
    package struct Region: Sendable, Equatable {
        package var x: Int, y: Int, width: Int, height: Int
        package init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// libjpeg may allocate at most this much for one decode (a progressive file's coefficients
    /// are held whole: 2 bytes a sample); more → `declined`.
    package static let maxMemory = 512 << 20
    /// A progressive file with more scans than this is declined (each scan is another pass).
    package static let maxScans = 1000

    /// libjpeg-turbo's version as a string ("2.1.5").
    package static var version: String {
        let v = Int(cjpeg_version())
        return "\(v / 1_000_000).\(v / 1000 % 1000).\(v % 1000)"
    }

    /// Reads the header: whether the file is one this path decodes, and its size at `1/denominator`.
    package static func inspect(_ bytes: [UInt8], denominator: Int = 1) throws(Declined) -> Header {
        var h = cjpeg_header()
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { b in
            cjpeg_inspect(b.baseAddress, b.count, Int32(denominator), &h, &message, message.count)
        }
        if status != Int32(CJPEG_OK) { throw declined(status, message) }
        return Header(
            width: Int(h.width), height: Int(h.height), progressive: h.progressive != 0,
            outputWidth: Int(h.output_width), outputHeight: Int(h.output_height))
    }

    /// Decodes to grey at `1/denominator`: the whole image, or only `region` (in pixels of that
    /// scale, as stored). The pixels are the file's luma as libjpeg's IDCT gives it.
    package static func decodeGrey(_ bytes: [UInt8], denominator: Int = 1, region: Region? = nil) throws(Declined) -> LumaImage {
        let header = try inspect(bytes, denominator: denominator)
        let r = region ?? Region(x: 0, y: 0, width: header.outputWidth, height: header.outputHeight)
        guard r.width > 0, r.height > 0, r.x >= 0, r.y >= 0, r.x + r.width <= header.outputWidth, r.y + r.height <= header.outputHeight
        else {
            throw Declined(
                kind: .badArgument, reason: "region \(r.width)x\(r.height) at \(r.x),\(r.y) is outside the \(header.outputWidth)x\(header.outputHeight) image")
        }
        var message = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: r.width * r.height) { out, count in
            status = bytes.withUnsafeBufferPointer { b in
                cjpeg_decode_grey(
                    b.baseAddress, b.count, Int32(denominator), Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height),
                    out.baseAddress, out.count, maxMemory, Int32(maxScans), &message, message.count)
            }
            // Whatever the decoder left, the buffer is initialised (and dropped on failure).
            if status != Int32(CJPEG_OK) { out.initialize(repeating: 0) }
            count = out.count
        }
        if status != Int32(CJPEG_OK) { throw declined(status, message) }
        return LumaImage(width: r.width, height: r.height, pixels: pixels)
    }

    static func declined(_ status: Int32, _ message: [CChar]) -> Declined {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let kind: Declined.Kind
        switch status {
        case Int32(CJPEG_UNSUPPORTED): kind = .unsupported
        case Int32(CJPEG_WARNING): kind = .warning
        case Int32(CJPEG_BAD_ARGUMENT): kind = .badArgument
        default: kind = .error
        }
        return Declined(kind: kind, reason: text.isEmpty ? "libjpeg gave no reason" : text)
    }
}
