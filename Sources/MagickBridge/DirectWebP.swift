import CMagickWand
import Imaging
import Records
import WebPBridge

/// The direct path of `ImageLoader.load` for a WebP: libwebp straight to grey (WebPBridge), and
/// no MagickWand ping, which for a WebP decodes the whole picture (ImageMagick 6's WebP coder
/// decodes to learn the size). What the ping says comes from the file's headers instead: the
/// size (the header check made, the budget checked as after a ping), one frame, orientation 1
/// (the coder reads none). A file whose extended header flags an EXIF or XMP chunk is pinged as
/// before, for its orientation, metadata and warnings as MagickWand reads them. nil when libwebp
/// declines (an animated WebP, a broken or truncated file): the caller pings and decodes with
/// MagickWand, as before.
extension ImageLoader {
    static func loadDirectWebP(
        _ bytes: [UInt8], wand: OpaquePointer, limits: LoadLimits, minMegapixels: Double?, reduceToFit: Bool
    ) throws(RecordError) -> LoadedImage? {
        let features: WebPDecoder.Features
        do {
            features = try WebPDecoder.inspect(bytes)
        } catch {
            DecodeTrace.note("declined by libwebp: \(error.reason)")
            return nil
        }
        let (w, h) = (features.width, features.height)
        if features.animated {
            DecodeTrace.note("declined by libwebp: an animated WebP: its frames are read by MagickWand")
            return nil
        }
        guard let declared = ImageHeader.declaredSize(bytes, format: .webp), declared == (w, h) else {
            DecodeTrace.note("declined by libwebp: \(w)x\(h) where the header declares another size")
            return nil
        }
        var header = PingedFrames(
            count: 1, framesRead: 1, biggest: w * h, total: w * h, canvasWidth: 0, canvasHeight: 0, storedWidth: w, storedHeight: h)
        var orientation = 1
        var metadata: ImageMetadata? = nil
        if features.hasMetadata {
            header = try ping(wand, bytes, format: .webp, limits: limits)
            let fits = header.framesRead == 1 && header.storedWidth == w && header.storedHeight == h
            if !fits || exception(wand) != nil || imageHasException(wand) {
                DecodeTrace.note("declined by libwebp: the header read gave a warning, frames or another size")
                ClearMagickWand(wand)
                _ = MagickSetFormat(wand, ImageFormat.webp.magickCoder)
                return nil
            }
            let o = Int(MagickGetImageOrientation(wand).rawValue)
            orientation = (1...8).contains(o) ? o : 1
            metadata = Self.metadata(wand)
        }
        var warnings: [String] = []
        _ = try chooseDecodeSize(header, format: .webp, limits: limits, minMegapixels: minMegapixels, reduceToFit: reduceToFit, notes: &warnings)
        let stored: LumaImage
        do {
            stored = try WebPDecoder.decodeGrey(bytes)
        } catch {
            DecodeTrace.note("declined by libwebp: \(error.reason)")
            ClearMagickWand(wand)
            _ = MagickSetFormat(wand, ImageFormat.webp.magickCoder)
            return nil
        }
        let frame = ExifOrientation.upright(stored, orientation: orientation)
        return LoadedImage(
            format: .webp, width: frame.width, height: frame.height, orientation: orientation, frames: [frame], scale: 1,
            warnings: warnings, metadata: metadata, decoder: .libwebp)
    }
}
