import Records
import Reporting
import Testing

@testable import Imaging

/// Documents recognised by content: `%PDF-` within the first 1024 bytes, an `<svg` root after the prolog.
@Suite("Document sniffing")
struct DocumentFormatTests {
    static func sniff(_ text: String) -> ImageFormat? { ImageFormat.sniffDocument(Array(text.utf8)) }

    @Test func pdfSignatureAnywhereInTheFirstKilobyte() {
        #expect(Self.sniff("%PDF-1.7\n") == .pdf)
        // Illustrator and some generators put a header before it.
        #expect(Self.sniff(String(repeating: "x", count: 1000) + "%PDF-1.4") == .pdf)
        #expect(Self.sniff(String(repeating: "x", count: 1020) + "%PDF-1.4") == nil)
        #expect(Self.sniff("%PDF") == nil)
        #expect(ImageFormat.sniff(Array("%PDF-1.7".utf8)) == nil, "raster sniffing stays raster")
    }

    @Test func svgRootAfterAnyProlog() {
        #expect(Self.sniff("<svg xmlns=\"http://www.w3.org/2000/svg\"/>") == .svg)
        #expect(Self.sniff("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg>") == .svg)
        #expect(Self.sniff("<?xml version=\"1.0\"?><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\" [<!ENTITY a \">\">]>\n<svg>") == .svg)
        #expect(Self.sniff("<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\">") == .svg)
        #expect(Self.sniff("  \n\t<svg\n width=\"1\">") == .svg)
    }

    @Test func notSVG() {
        #expect(Self.sniff("<html><svg></svg></html>") == nil)
        #expect(Self.sniff("<svgfont>") == nil)
        #expect(Self.sniff("<!-- never closed <svg>") == nil)
        #expect(Self.sniff("text <svg>") == nil)
        #expect(Self.sniff("") == nil)
    }

    @Test func pageRenderRoundTripsThroughTheRecord() throws {
        var r = FileRecord(path: "a.pdf")
        r.format = .pdf
        r.pages = [PageRender(page: 0, widthPoints: 595.28, heightPoints: 841.89, dpi: 150, width: 1241, height: 1754)]
        r.error = RecordError(.encrypted, "needs a password")
        let back = try FileRecord.read(json: Array(r.json().serialized().utf8))
        #expect(back.pages == r.pages && back.format == .pdf && back.error == r.error)
    }
}
