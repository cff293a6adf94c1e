import CMagickWand
import Imaging
import PNGBridge
import Records

/// The direct path of `ImageLoader.load` for a PNG (a screenshot, most often): the ping already
/// made (the header checks, the frame count, EXIF orientation and XMP/EXIF metadata as MagickWand
/// reads them from the chunks) and the pixels from libpng, straight to grey. nil when libpng
/// declines (an animated PNG, a warning, broken data): the caller decodes with MagickWand.
extension ImageLoader {
    static func loadDirectPNG(_ bytes: [UInt8], pinged wand: OpaquePointer, _ header: PingedFrames, warnings: [String]) -> LoadedImage? {
        // More than one frame, or something MagickWand warned about: its own decode keeps them.
        if header.framesRead > 1 || exception(wand) != nil || imageHasException(wand) {
            DecodeTrace.note("declined by libpng: the header read gave a warning or frames")
            return nil
        }
        let stored: LumaImage
        do {
            stored = try PNGDecoder.decodeGrey(bytes)
        } catch {
            DecodeTrace.note("declined by libpng: \(error.reason)")
            return nil
        }
        guard stored.width == header.storedWidth, stored.height == header.storedHeight else {
            DecodeTrace.note("declined by libpng: \(stored.width)x\(stored.height) where the ping said \(header.storedWidth)x\(header.storedHeight)")
            return nil
        }
        let orientation = Int(MagickGetImageOrientation(wand).rawValue)
        let o = (1...8).contains(orientation) ? orientation : 1
        let frame = ExifOrientation.upright(stored, orientation: o)
        return LoadedImage(
            format: .png, width: frame.width, height: frame.height, orientation: o, frames: [frame], scale: 1,
            warnings: warnings, metadata: metadata(wand), decoder: .libpng)
    }
}
