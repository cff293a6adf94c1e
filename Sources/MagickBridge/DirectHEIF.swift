import CMagickWand
import HEIFBridge
import Imaging
import Records

/// The direct path of `ImageLoader.load` for a HEIC or an AVIF: the ping already made (the
/// header checks, the frame count, orientation and EXIF/XMP metadata as MagickWand reads them;
/// its HEIC coder has libheif apply the file's irot/imir/clap and reports orientation 1, so an
/// EXIF orientation is not applied twice) and the pixels from libheif's luma plane (HEIFBridge),
/// transformed as the coder's. nil when libheif declines: the caller decodes with MagickWand.
extension ImageLoader {
    static func loadDirectHEIF(
        _ bytes: [UInt8], pinged wand: OpaquePointer, _ header: PingedFrames, format: ImageFormat, limits: LoadLimits, warnings: [String]
    ) -> LoadedImage? {
        // More than one frame, or something MagickWand warned about: its own decode keeps them.
        if header.framesRead > 1 || exception(wand) != nil || imageHasException(wand) {
            DecodeTrace.note("declined by libheif: the header read gave a warning or frames")
            return nil
        }
        let stored: LumaImage
        do {
            stored = try HEIFDecoder.decodeGrey(bytes, maxSide: limits.maxSide)
        } catch {
            DecodeTrace.note("declined by libheif: \(error.reason)")
            return nil
        }
        guard stored.width == header.storedWidth, stored.height == header.storedHeight else {
            DecodeTrace.note("declined by libheif: \(stored.width)x\(stored.height) where the ping said \(header.storedWidth)x\(header.storedHeight)")
            return nil
        }
        let orientation = Int(MagickGetImageOrientation(wand).rawValue)
        let o = (1...8).contains(orientation) ? orientation : 1
        let frame = ExifOrientation.upright(stored, orientation: o)
        return LoadedImage(
            format: format, width: frame.width, height: frame.height, orientation: o, frames: [frame], scale: 1,
            warnings: warnings, metadata: metadata(wand), decoder: .libheif)
    }
}
