import CHeif
import Imaging

/// libheif, straight to grey: a HEIC's or an AVIF's bytes in, the primary image's luma plane out
/// as 8-bit grey (alpha over white), decoded as 4:2:0 YCbCr (the coded planes of most files).
/// libheif applies the file's transformations (irot, imir, clap) as it does by default, and as
/// MagickWand's HEIC coder has it do. A plane of more than 8 bits is scaled to 8; studio-range
/// luma (the nclx profile's full_range_flag 0) is stretched to full range. Declined, with the
/// reason, for a decoder that handles it (MagickWand): anything libheif refuses, premultiplied
/// alpha, and planes that are not luma (YCgCo, ICtCp). Every call makes its own context and frees
/// it, with every image, before returning.
package enum HEIFDecoder {
    /// Why this path does not decode a file (the caller falls back).
    package struct Declined: Error, Sendable, Equatable {
        package var reason: String
    }

    /// The primary image as grey, upright as libheif transforms it. `maxSide`: libheif's own
    /// limit on a side, beside the checks the caller made from the header.
    package static func decodeGrey(_ bytes: [UInt8], maxSide: Int) throws(Declined) -> LumaImage {
        guard !bytes.isEmpty, let context = heif_context_alloc() else { throw Declined(reason: "no HEIF data") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: maxSide))
        let decoded: Result<LumaImage, Declined> = bytes.withUnsafeBytes { raw in
            var error = heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil)
            guard error.code == heif_error_Ok else { return .failure(declined("libheif cannot read the file", error)) }
            var handle: OpaquePointer? = nil
            error = heif_context_get_primary_image_handle(context, &handle)
            guard error.code == heif_error_Ok, let handle else { return .failure(declined("no primary image", error)) }
            defer { heif_image_handle_release(handle) }
            if heif_image_handle_has_alpha_channel(handle) != 0 && heif_image_handle_is_premultiplied_alpha(handle) != 0 {
                return .failure(Declined(reason: "premultiplied alpha"))
            }
            var image: OpaquePointer? = nil
            // 4:2:0 YCbCr: the coded planes as they are for most files (undefined would ask for RGB).
            error = heif_decode_image(handle, &image, heif_colorspace_YCbCr, heif_chroma_420, nil)
            guard error.code == heif_error_Ok, let image else { return .failure(declined("libheif cannot decode the image", error)) }
            defer { heif_image_release(image) }
            do throws(Declined) { return .success(try grey(image, handle)) } catch { return .failure(error) }
        }
        return try decoded.get()
    }

    /// The decoded image's luma, over white where it has alpha.
    static func grey(_ image: OpaquePointer, _ handle: OpaquePointer) throws(Declined) -> LumaImage {
        let colorspace = heif_image_get_colorspace(image)
        guard colorspace == heif_colorspace_YCbCr || colorspace == heif_colorspace_monochrome else {
            throw Declined(reason: "decoded as colorspace \(colorspace.rawValue), not YCbCr or monochrome")
        }
        let studio = try studioRange(image, handle)
        let luma = try Plane(image, heif_channel_Y)
        var out = luma.grey(studio: studio)
        if heif_image_has_channel(image, heif_channel_Alpha) != 0 {
            let alpha = try Plane(image, heif_channel_Alpha)
            guard alpha.width == luma.width, alpha.height == luma.height else {
                throw Declined(reason: "alpha plane of \(alpha.width)x\(alpha.height) beside luma of \(luma.width)x\(luma.height)")
            }
            let a = alpha.grey(studio: false)
            out.withUnsafeMutableBufferPointer { g in
                a.withUnsafeBufferPointer { a in
                    for i in 0..<g.count where a[i] != 255 {
                        let t = UInt32(a[i])
                        // Over white, rounded as MagickWand's alpha removal composes (PNGBridge's rule).
                        g[i] = UInt8((UInt32(g[i]) * t + 255 * (255 - t) + 127) / 255)
                    }
                }
            }
        }
        return LumaImage(width: luma.width, height: luma.height, pixels: out)
    }

    /// Whether the luma is studio range, as the decoded image's nclx profile says, else the
    /// file's (its colr box; none: full range, as libheif's colour conversion assumes); declines a
    /// matrix whose first plane is not luma.
    static func studioRange(_ image: OpaquePointer, _ handle: OpaquePointer) throws(Declined) -> Bool {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>? = nil
        if heif_image_get_nclx_color_profile(image, &nclx).code != heif_error_Ok {
            nclx = nil
            if heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok { nclx = nil }
        }
        guard let profile = nclx else { return false }
        defer { heif_nclx_color_profile_free(profile) }
        let matrix = profile.pointee.matrix_coefficients
        if matrix == heif_matrix_coefficients_RGB_GBR || matrix == heif_matrix_coefficients_YCgCo || matrix == heif_matrix_coefficients_ICtCp {
            throw Declined(reason: "matrix coefficients \(matrix.rawValue): the first plane is not luma")
        }
        return profile.pointee.full_range_flag == 0
    }

    /// One plane of a decoded image: 8 bits a sample, or 16 (little-endian, as libheif stores
    /// more than 8 bits) holding `bits`.
    struct Plane {
        let base: UnsafePointer<UInt8>
        let stride: Int, width: Int, height: Int, bits: Int

        init(_ image: OpaquePointer, _ channel: heif_channel) throws(Declined) {
            var stride: Int32 = 0
            width = Int(heif_image_get_width(image, channel))
            height = Int(heif_image_get_height(image, channel))
            bits = Int(heif_image_get_bits_per_pixel_range(image, channel))
            guard width > 0, height > 0, (1...16).contains(bits), let p = heif_image_get_plane_readonly(image, channel, &stride) else {
                throw Declined(reason: "no plane \(channel.rawValue) of 1 to 16 bits")
            }
            guard Int(stride) >= width * (bits > 8 ? 2 : 1) else { throw Declined(reason: "plane \(channel.rawValue)'s rows are too short") }
            base = p
            self.stride = Int(stride)
        }

        /// The samples as 8-bit grey: scaled from `bits` to 8, studio range stretched to full.
        func grey(studio: Bool) -> [UInt8] {
            let top = (1 << bits) - 1
            let table: [UInt8] = (0...top).map { v in
                guard studio && bits >= 8 else { return UInt8((v * 255 + top / 2) / top) }
                let low = 16 << (bits - 8), span = 219 << (bits - 8)
                return UInt8(max(0, min(255, ((v - low) * 255 + span / 2) / span)))
            }
            var out = [UInt8](repeating: 0, count: width * height)
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in
                    for y in 0..<height {
                        let row = base + y * stride
                        if bits > 8 {
                            for x in 0..<width {
                                let v = Int(row[2 * x]) | Int(row[2 * x + 1]) << 8
                                o[y * width + x] = t[min(v, top)]
                            }
                        } else {
                            for x in 0..<width { o[y * width + x] = t[min(Int(row[x]), top)] }
                        }
                    }
                }
            }
            return out
        }
    }

    static func declined(_ what: String, _ error: heif_error) -> Declined {
        let message = error.message.map { String(cString: $0) } ?? ""
        return Declined(reason: message.isEmpty ? "\(what) (error \(error.code.rawValue))" : "\(what): \(message)")
    }
}
