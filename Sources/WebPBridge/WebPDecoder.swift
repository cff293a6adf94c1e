import CWebP
import Imaging

/// libwebp, straight to grey: a WebP's bytes in, 8-bit luma out (alpha over white). The picture is
/// decoded to RGB (RGBA with alpha; libwebp's default fancy upsampling, as MagickWand's WebP coder
/// asks for) and weighed as `RGBImage.luma`: the grey MagickWand's path gives, to the pixel. A
/// lossy picture's own luma plane (`MODE_YUV`, `MODE_YUVA` with its alpha; studio range stretched
/// as libwebp's RGB conversion does grey) is the other `LossySource`. An animated WebP, and any
/// file libwebp does not decode (broken, truncated), is `declined` with the reason, for a decoder
/// that handles it (MagickWand). Every call makes its own decoder and frees it before returning.
package enum WebPDecoder {
    /// Why this path does not decode a file (the caller falls back).
    package struct Declined: Error, Sendable, Equatable {
        package var reason: String
    }

    /// What the headers say (libwebp's `WebPGetFeatures`, and the extended header's flags).
    package struct Features: Sendable, Equatable {
        package var width: Int
        package var height: Int
        package var hasAlpha: Bool
        package var animated: Bool
        package var lossless: Bool
        /// The extended header (VP8X) says the file holds an EXIF or an XMP chunk.
        package var hasMetadata: Bool
    }

    /// The headers, or why this path does not decode the file.
    package static func inspect(_ bytes: [UInt8]) throws(Declined) -> Features {
        guard bytes.count >= 20 else { throw Declined(reason: "no WebP data") }
        let riff = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        if riff + 8 > bytes.count {
            throw Declined(reason: "the file ends early: its RIFF header declares \(riff + 8) bytes, the file has \(bytes.count)")
        }
        var f = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &f) }
        guard status == VP8_STATUS_OK else { throw Declined(reason: "libwebp cannot read the header: \(describe(status))") }
        let extended = bytes[12..<16].elementsEqual("VP8X".utf8)
        return Features(
            width: Int(f.width), height: Int(f.height), hasAlpha: f.has_alpha != 0, animated: f.has_animation != 0,
            lossless: f.format == 2, hasMetadata: extended && bytes[20] & 0x0C != 0)
    }

    /// Where a lossy picture's grey comes from.
    package enum LossySource: Sendable {
        /// Its RGB, weighed: MagickWand's grey to the pixel (the loader's).
        case rgb
        /// Its luma plane: 15-30 % less decoding time (libwebp alone, the zxing-cpp corpus's 509
        /// WebPs), a grey within a level of the RGB's, which moved 3 of those files' codes
        /// (a Codabar and two add-ons, borderline reads), so the loader does not use it.
        case lumaPlane
    }

    /// The whole picture as grey, alpha composed over white; a lossless picture always from RGB.
    package static func decodeGrey(_ bytes: [UInt8], lossy: LossySource = .rgb) throws(Declined) -> LumaImage {
        let f = try inspect(bytes)
        if f.animated { throw Declined(reason: "an animated WebP: its frames are read elsewhere") }
        guard f.width > 0, f.height > 0 else { throw Declined(reason: "no pixels") }
        return f.lossless || lossy == .rgb ? try decodeRGB(bytes, f) : try decodeLumaPlane(bytes, f)
    }

    /// A lossy picture's luma plane (and alpha plane), decoded into buffers of ours.
    static func decodeLumaPlane(_ bytes: [UInt8], _ f: Features) throws(Declined) -> LumaImage {
        let (w, h) = (f.width, f.height)
        let chroma = ((w + 1) / 2) * ((h + 1) / 2)
        var luma = [UInt8](repeating: 0, count: w * h)
        var u = [UInt8](repeating: 0, count: chroma), v = [UInt8](repeating: 0, count: chroma)
        var alpha = [UInt8](repeating: 255, count: f.hasAlpha ? w * h : 0)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw Declined(reason: "libwebp's decoder version does not match") }
        config.output.colorspace = f.hasAlpha ? MODE_YUVA : MODE_YUV
        config.output.is_external_memory = 1
        let status = bytes.withUnsafeBufferPointer { data in
            luma.withUnsafeMutableBufferPointer { y in
                u.withUnsafeMutableBufferPointer { u in
                    v.withUnsafeMutableBufferPointer { v in
                        alpha.withUnsafeMutableBufferPointer { a in
                            config.output.u.YUVA.y = y.baseAddress
                            config.output.u.YUVA.y_stride = Int32(w)
                            config.output.u.YUVA.y_size = y.count
                            config.output.u.YUVA.u = u.baseAddress
                            config.output.u.YUVA.v = v.baseAddress
                            config.output.u.YUVA.u_stride = Int32((w + 1) / 2)
                            config.output.u.YUVA.v_stride = Int32((w + 1) / 2)
                            config.output.u.YUVA.u_size = u.count
                            config.output.u.YUVA.v_size = v.count
                            config.output.u.YUVA.a = f.hasAlpha ? a.baseAddress : nil
                            config.output.u.YUVA.a_stride = f.hasAlpha ? Int32(w) : 0
                            config.output.u.YUVA.a_size = a.count
                            return WebPDecode(data.baseAddress, data.count, &config)
                        }
                    }
                }
            }
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw Declined(reason: "libwebp cannot decode the picture: \(describe(status))") }
        let full = fullRange
        luma.withUnsafeMutableBufferPointer { y in
            full.withUnsafeBufferPointer { table in
                if f.hasAlpha {
                    alpha.withUnsafeBufferPointer { a in
                        for i in 0..<y.count { y[i] = overWhite(table[Int(y[i])], a[i]) }
                    }
                } else {
                    for i in 0..<y.count { y[i] = table[Int(y[i])] }
                }
            }
        }
        return LumaImage(width: w, height: h, pixels: luma)
    }

    /// The picture as RGB (RGBA with alpha), decoded into a buffer of ours, weighed to grey.
    static func decodeRGB(_ bytes: [UInt8], _ f: Features) throws(Declined) -> LumaImage {
        let (w, h) = (f.width, f.height)
        let channels = f.hasAlpha ? 4 : 3
        var rgb = [UInt8](repeating: 0, count: w * h * channels)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw Declined(reason: "libwebp's decoder version does not match") }
        config.output.colorspace = f.hasAlpha ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        let status = bytes.withUnsafeBufferPointer { data in
            rgb.withUnsafeMutableBufferPointer { out in
                config.output.u.RGBA.rgba = out.baseAddress
                config.output.u.RGBA.stride = Int32(w * channels)
                config.output.u.RGBA.size = out.count
                return WebPDecode(data.baseAddress, data.count, &config)
            }
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw Declined(reason: "libwebp cannot decode the picture: \(describe(status))") }
        var grey = [UInt8](repeating: 0, count: w * h)
        rgb.withUnsafeBufferPointer { p in
            grey.withUnsafeMutableBufferPointer { g in
                var j = 0
                for i in 0..<g.count {
                    let a = channels == 4 ? p[j + 3] : 255
                    g[i] = weighed(p[j], p[j + 1], p[j + 2], a)
                    j += channels
                }
            }
        }
        return LumaImage(width: w, height: h, pixels: grey)
    }

    /// Studio-range luma (16...235) to the grey libwebp's RGB conversion gives it with neutral
    /// chroma: `VP8YUVToR` with v = 128, in its own fixed point (14 bits, clipped to 0...255).
    static let fullRange: [UInt8] = (0..<256).map { y in
        let v = ((y * 19077) >> 8) - 1160
        return v < 0 ? 0 : v >= 256 << 6 ? 255 : UInt8(v >> 6)
    }

    /// Grey over white, rounded as MagickWand's alpha removal composes (PNGBridge's rule).
    @inline(__always) static func overWhite(_ grey: UInt8, _ alpha: UInt8) -> UInt8 {
        if alpha == 255 { return grey }
        let a = UInt32(alpha)
        return UInt8((UInt32(grey) * a + 255 * (255 - a) + 127) / 255)
    }

    /// Rec. 601 grey of an RGBA pixel over white, as `RGBImage.luma` after MagickWand removes alpha.
    @inline(__always) static func weighed(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ alpha: UInt8) -> UInt8 {
        var (r, g, b) = (UInt32(r), UInt32(g), UInt32(b))
        if alpha != 255 {
            let a = UInt32(alpha)
            r = (r * a + 255 * (255 - a) + 127) / 255
            g = (g * a + 255 * (255 - a) + 127) / 255
            b = (b * a + 255 * (255 - a) + 127) / 255
        }
        return UInt8((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "broken bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "the data ends early"
        default: "status \(status.rawValue)"
        }
    }
}
