import CAV
import Imaging

/// A decoded frame as 8-bit grey: the Y plane copied as it is (8-bit) or brought to 8 bits
/// (9 to 16-bit little-endian: shifted), libswscale to GRAY8 for any other pixel format; then
/// turned upright.
struct GreyPlane {
    private var scaler: OpaquePointer? = nil

    /// Which pixel formats have a plain luma plane to copy: plane 0, one sample per step, no
    /// palette, RGB, bitstream or hardware surface, host (little-endian) order.
    static func plainLuma(_ format: Int32) -> Bool {
        guard let desc = av_pix_fmt_desc_get(AVPixelFormat(rawValue: format)) else { return false }
        let excluded = UInt64(AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB)
        let luma = desc.pointee.comp.0
        guard desc.pointee.flags & excluded == 0, desc.pointee.nb_components >= 1, luma.plane == 0, luma.offset == 0, luma.shift == 0 else {
            return false
        }
        return (luma.depth == 8 && luma.step == 1) || (luma.depth > 8 && luma.depth <= 16 && luma.step == 2)
    }

    /// The frame's grey picture as coded, or an error message.
    mutating func grey(_ frame: UnsafePointer<AVFrame>) -> Result<LumaImage, VideoError> {
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        guard w > 0, h > 0, let plane = frame.pointee.data.0 else { return .failure(VideoError(.corrupt, "a frame without a picture")) }
        var pixels = [UInt8](repeating: 0, count: w * h)
        let stride = Int(frame.pointee.linesize.0)
        if Self.plainLuma(frame.pointee.format) {
            let depth = Int(av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format))!.pointee.comp.0.depth)
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let row = UnsafeRawPointer(plane + y * stride)  // a negative stride walks up
                    if depth == 8 {
                        (out.baseAddress! + y * w).update(from: row.assumingMemoryBound(to: UInt8.self), count: w)
                    } else {
                        let shift = UInt16(depth - 8), base = y * w
                        for x in 0..<w {
                            out[base + x] = UInt8(truncatingIfNeeded: UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)) >> shift)
                        }
                    }
                }
            }
            return .success(LumaImage(width: w, height: h, pixels: pixels))
        }
        let status = pixels.withUnsafeMutableBufferPointer { out in cav_frame_to_gray8(&scaler, frame, out.baseAddress, Int32(w)) }
        guard status == h else { return .failure(VideoError(.unsupported, "libswscale cannot make grey of this frame: \(avMessage(status))")) }
        return .success(LumaImage(width: w, height: h, pixels: pixels))
    }

    /// The picture turned `rotation` degrees clockwise (0, 90, 180, 270).
    static func upright(_ image: LumaImage, rotation: Int) -> LumaImage {
        switch rotation {
        case 90: return ExifOrientation.upright(image, orientation: 6)
        case 180: return ExifOrientation.upright(image, orientation: 3)
        case 270: return ExifOrientation.upright(image, orientation: 8)
        default: return image
        }
    }

    func free() {
        if let scaler { sws_freeContext(scaler) }
    }
}
