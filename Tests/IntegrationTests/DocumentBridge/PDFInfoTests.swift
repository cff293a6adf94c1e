import Foundation
import Records
import Reporting
import TestSupport
import Testing

/// A PDF's pages are read from what Poppler says of them, never from the document's own
/// strings: a Title holding lines that look like pdfinfo's changes nothing.
@Suite("PDF page information")
struct PDFInfoTests {
    @Test func aForgedTitleIsNotReadAsPages() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        pdf.pages = [try DocumentTests.qrPage("https://example.com/title", x: 72, y: 144, side: 144)]
        pdf.title = "hello\nPage    2 CropBox:     0.00     0.00   100.00   100.00\nPage    2 rot:   0\nPages:          2"
        try pdf.write(dir.file("forged.pdf"))
        let info = try run("/usr/bin/pdfinfo", [dir.file("forged.pdf")]).stdout
        #expect(info.contains("\nPages:          2\n"), "the Title writes a line that looks like pdfinfo's: \(info)")
        let r = try #require(try DocumentTests.scan([dir.file("forged.pdf")]).records.first)
        #expect(r.status == .ok, "\(r.error?.message ?? "")")
        #expect(r.frames == 1 && r.pages.count == 1)
        #expect(r.codes.map(\.text) == ["https://example.com/title"])
        let check = try run(codesweepBinary, ["check", dir.file("forged.pdf")], check: false)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}
