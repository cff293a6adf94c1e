import CMagickWand
import Imaging
import JPEGBridge
import Records

#if canImport(Glibc)
import Glibc
#endif

/// Which decoder turns a JPEG's, a PNG's, a WebP's or a HEIC's (AVIF's) pixels into luma.
package enum JPEGPath: Sendable {
    /// libjpeg-turbo (JPEGBridge), libpng (PNGBridge), libwebp (WebPBridge) or libheif
    /// (HEIFBridge) straight to grey where it can, MagickWand where it declines.
    case direct
    /// MagickWand for every JPEG, PNG, WebP and HEIC (decode to RGB, luma in Swift): what
    /// CodeSweep did before the direct paths, kept for comparison (`CODESWEEP_JPEG_DECODER=imagemagick`).
    case imageMagick

    /// `.imageMagick` when the environment says `CODESWEEP_JPEG_DECODER=imagemagick`, else `.direct`.
    package static let standard: JPEGPath = {
        guard let v = getenv("CODESWEEP_JPEG_DECODER") else { return .direct }
        return String(cString: v).lowercased() == "imagemagick" ? .imageMagick : .direct
    }()
}

/// The direct path of `ImageLoader.load` for a JPEG: the ping already made (header checks,
/// orientation, EXIF/XMP metadata, as MagickWand reads them from the file's markers) and the
/// pixels from libjpeg-turbo, decoded to grey at the DCT scale MagickWand would have used. nil
/// when the direct decoder declines (the caller decodes with MagickWand, as before).
extension ImageLoader {
    static func loadDirect(
        _ bytes: [UInt8], pinged wand: OpaquePointer, _ header: PingedFrames, divisor: Int, warnings: [String]
    ) -> LoadedImage? {
        // Something in the markers MagickWand warned about: its decode keeps the warning.
        if exception(wand) != nil || imageHasException(wand) {
            DecodeTrace.note("declined by libjpeg-turbo: the header read gave a warning")
            return nil
        }
        let denominator = jpegScaleDenominator(header, divisor: divisor)
        let stored: LumaImage
        do {
            stored = try JPEGDecoder.decodeGrey(bytes, denominator: denominator)
        } catch {
            DecodeTrace.note("declined by libjpeg-turbo: \(error.reason)")
            return nil
        }
        let orientation = Int(MagickGetImageOrientation(wand).rawValue)
        let o = (1...8).contains(orientation) ? orientation : 1
        let metadata = metadata(wand)
        let frame = ExifOrientation.upright(stored, orientation: o)
        var scale = header.storedWidth > 0 ? Double(stored.width) / Double(header.storedWidth) : 1
        var (width, height) = ExifOrientation.uprightSize(width: header.storedWidth, height: header.storedHeight, orientation: o)
        if scale > 0.999 { scale = 1; width = frame.width; height = frame.height }
        return LoadedImage(
            format: .jpeg, width: width, height: height, orientation: o, frames: [frame], scale: scale,
            warnings: warnings, metadata: metadata, decoder: .libjpegTurbo)
    }

    /// Whether the wand's first image carries an exception (a decoder's warning).
    static func imageHasException(_ wand: OpaquePointer) -> Bool {
        guard let image = GetImageFromMagickWand(wand) else { return false }
        return image.pointee.exception.severity != UndefinedException
    }
}

/// `CODESWEEP_TRACE=1`: one line per decode to stderr (decoder, size, scale), so a run shows
/// how often a file was decoded and at which scales; and why the direct path declined a JPEG.
package enum DecodeTrace {
    static let tracing = getenv("CODESWEEP_TRACE") != nil

    static func note(_ line: String) {
        guard tracing else { return }
        let text = Array("trace \(line)\n".utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    static func decoded(_ image: LoadedImage) {
        guard tracing, let first = image.frames.first else { return }
        note("decode \(image.decoder.rawValue) \(first.width)x\(first.height) scale=\(NumberText.fixed(image.scale, decimals: 4))")
    }
}
