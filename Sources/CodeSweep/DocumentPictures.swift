import DocumentBridge
import Imaging
import InputSources
import MagickBridge
import Records
import VideoBridge

/// A document's page as a picture, for `--annotate` and `report --html`: rendered again at the
/// resolution its record gives (`PageRender.dpi`), so the codes' corners fall where they were
/// read, and handed over as PNG bytes the picture code decodes like any PNG.
package enum DocumentPictures {
    package static func pagePNG(_ bytes: [UInt8], format: ImageFormat, page: PageRender, timeoutSeconds: Double = 60) throws(RecordError) -> [UInt8] {
        if format == .svg { return try SVGRenderer(bytes, timeoutSeconds: timeoutSeconds).render(dpi: page.dpi) }
        let pdf = try PDFRenderer(bytes, maxPages: page.page + 1, timeoutSeconds: timeoutSeconds)
        let stream = try pdf.renderPages(page.page + 1, page.page + 1, dpi: page.dpi)
        guard let grey = try stream.next() else { throw RecordError(.corrupt, "Poppler rendered no page \(page.page + 1)") }
        stream.stop()
        return try greyPNG(grey)
    }

    /// A grey picture as PNG bytes.
    package static func greyPNG(_ grey: LumaImage) throws(RecordError) -> [UInt8] {
        var rgba = [UInt8](repeating: 255, count: grey.pixelCount * 4)
        for (i, v) in grey.pixels.enumerated() {
            rgba[4 * i] = v; rgba[4 * i + 1] = v; rgba[4 * i + 2] = v
        }
        return try CodePicture.encodePNG(LogoPixels(width: grey.width, height: grey.height, rgba: rgba))
    }
}

/// A recorded frame as picture bytes a picture decoder reads, for `--annotate` and
/// `report --html`: the item's bytes read again (`FileBytes`), and for a document its page
/// rendered again at its record's resolution. The one place Forensics gets a frame's pixels.
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
        if case .video = InputSniff.kind(of: bytes) { return try videoFrame(record, bytes, frame) }
        guard let format = InputSniff.kind(of: bytes)?.imageFormat else { throw RecordError(.notImage, "no longer an image") }
        guard format.isDocument else { return Picture(bytes: bytes, format: format, frame: frame) }
        guard let page = record.pages.first(where: { $0.page == frame }) else { throw RecordError(.notImage, "page \(frame + 1) was not read") }
        return Picture(bytes: try DocumentPictures.pagePNG(bytes, format: format, page: page), format: .png, frame: 0, size: (page.width, page.height))
    }

    package static func picture(of record: FileRecord, frame: Int, at path: [UInt8]? = nil) throws(RecordError) -> Picture {
        try picture(of: record, bytes: try bytes(of: record, at: path), frame: frame)
    }
}

extension FramePictures {
    /// A video's sample `frame` (the one a code read best in), decoded again from the video's
    /// bytes: the first frame at or after its time on the sampling grid.
    static func videoFrame(_ record: FileRecord, _ bytes: [UInt8], _ frame: Int) throws(RecordError) -> Picture {
        let interval = record.video?.interval ?? 0.25
        let reader: VideoReader
        do { reader = try VideoReader(bytes: bytes, maxSeconds: Double(frame + 1) * interval + 1) } catch {
            throw RecordError(.corrupt, error.message)
        }
        guard let sample = reader.next(after: Double(frame) * interval - interval - 0.001, interval: interval) else {
            throw RecordError(.corrupt, "the video has no frame at \(NumberText.trimmed(Double(frame) * interval)) s")
        }
        return Picture(bytes: try DocumentPictures.greyPNG(sample.image), format: .png, frame: 0, size: (sample.image.width, sample.image.height))
    }
}
