import DocumentBridge
import Imaging
import InputSources
import MagickBridge
import Records
import VideoBridge

/// A recorded frame as picture bytes a picture decoder reads, for `--annotate` and
/// `report --html`: the item's bytes read again (`FileBytes`); a picture's as they are (its
/// colours drawn on), a document's page or a video's sample asked of its frame source again
/// (`PDFPages`, `SVGPages`, `VideoSamples`) at its record's resolution and time, as grey PNG.
/// The one place Forensics gets a frame's pixels.
package enum FramePictures {
    /// The picture: its bytes, their raster format and the frame within them; or why there is none.
    package struct Picture {
        package var bytes: [UInt8]
        package var format: ImageFormat
        package var frame: Int
        /// The size the frame's pixels have in the record (a document page's rendering), when known.
        package var size: (width: Int, height: Int)?
    }

    /// The message of a file whose size is not its record's.
    package static let changed = "file changed since the scan"

    /// The item's bytes read again, checked against its record (the size it had when scanned).
    /// A member's are found again in its container (and the containers around it) by index.
    package static func bytes(of record: FileRecord, at path: [UInt8]? = nil) throws(RecordError) -> [UInt8] {
        var bytes = try FileBytes.read(path ?? record.pathBytes, limit: 1 << 30)
        for link in record.member { bytes = try ContainerScanner.memberBytes(bytes, link, ContainerSettings()) }
        if let size = record.size, size != bytes.count { throw RecordError(.unreadable, changed) }
        return bytes
    }

    /// Frame `frame` of the item whose bytes these are.
    package static func picture(of record: FileRecord, bytes: [UInt8], frame: Int) throws(RecordError) -> Picture {
        switch InputSniff.kind(of: bytes) {
        case .image(let format)?:
            return Picture(bytes: bytes, format: format, frame: frame)
        case .document(let format)?:
            guard let page = record.pages.first(where: { $0.page == frame }) else { throw RecordError(.notImage, "page \(frame + 1) was not read") }
            var settings = ScanSettings()
            settings.documents.maxPages = frame + 1
            let pages: any ReadableFrames
            if format == .svg {
                pages = SVGPages(try SVGRenderer(bytes, timeoutSeconds: settings.documents.timeoutSeconds), settings: settings)
            } else {
                var scratch = FileRecord(path: "")
                pages = try DocumentScanner.openPDF(bytes, into: &scratch, settings.documents)
            }
            return try grey(try pages.rendering(of: frame, dpi: page.dpi, region: nil))
        case .video?:
            let samples = try VideoSamples(.bytes(bytes), interval: record.video?.interval ?? 0.25, from: frame)
            guard let sample = samples.next() else { throw RecordError(.corrupt, "the video has no sample \(frame)") }
            return try grey(sample.image)
        default:
            throw RecordError(.notImage, "no longer an image")
        }
    }

    /// A grey frame as a PNG picture of its own size.
    static func grey(_ image: LumaImage) throws(RecordError) -> Picture {
        Picture(bytes: try greyPNG(image), format: .png, frame: 0, size: (image.width, image.height))
    }

    /// A grey picture as PNG bytes.
    package static func greyPNG(_ grey: LumaImage) throws(RecordError) -> [UInt8] {
        var rgba = [UInt8](repeating: 255, count: grey.pixelCount * 4)
        for (i, v) in grey.pixels.enumerated() {
            rgba[4 * i] = v; rgba[4 * i + 1] = v; rgba[4 * i + 2] = v
        }
        return try CodePicture.encodePNG(LogoPixels(width: grey.width, height: grey.height, rgba: rgba))
    }

    package static func picture(of record: FileRecord, frame: Int, at path: [UInt8]? = nil) throws(RecordError) -> Picture {
        try picture(of: record, bytes: try bytes(of: record, at: path), frame: frame)
    }
}
