import DocumentBridge
import MagickBridge
import Records

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
        var rgba = [UInt8](repeating: 255, count: grey.pixelCount * 4)
        for (i, v) in grey.pixels.enumerated() {
            rgba[4 * i] = v; rgba[4 * i + 1] = v; rgba[4 * i + 2] = v
        }
        return try CodePicture.encodePNG(LogoPixels(width: grey.width, height: grey.height, rgba: rgba))
    }
}
