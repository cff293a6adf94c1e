import Foundation
import Records
import TestSupport
import Testing

/// A document that fails, or is read only in part, says the real cause: the time the user gave,
/// a damaged page tree (not --max-pages), libxml2's limit on an attribute (not its parser's last
/// words).
@Suite("Document messages")
struct DocumentMessageTests {
    @Test("a renderer out of time names --timeout as given, not what was left of it")
    func timeoutNamesTheLimitGiven() throws {
        let dir = try TempDir()
        try DocumentInputTests.blankPages(1777, lastCode: nil, content: "0 g 20 20 4 30 re 30 20 4 30 re 40 20 4 30 re f").write(dir.file("slow.pdf"))
        // In-process, the renderer's own deadline is what stops it (with worker processes the
        // pool may stop the worker first, with its own words).
        let (records, _) = try DocumentTests.scan([dir.file("slow.pdf")], ["--max-pages", "1777", "--timeout", "2", "--isolation", "none"])
        let error = try #require(records.first?.error)
        #expect(error.kind == .timeout)
        // "pdftoppm took longer than 1.985985652999943 s; it was stopped (see --timeout)" before.
        #expect(error.message.contains("pdftoppm ran past the document's time, 2 s (--timeout"), "\(error.message)")
        #expect(!error.message.contains("1.9"), "\(error.message)")
    }

    /// A page tree whose second kid is a /Pages node pointing back at the root: Poppler finds 1
    /// of the 3 pages /Count declares and says "Loop in Pages tree".
    @Test("a page-tree loop is said as such, not blamed on --max-pages")
    func pageTreeLoop() throws {
        let dir = try TempDir()
        let m = try PDFMaker.qrMatrix("https://example.com/loop")
        let content = "0 g\n" + PDFMaker.vector(m, x: 18, y: 18, module: 108 / Double(m.count), pageHeight: 144)
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 3 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 144 144] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 2 >>",
        ]
        var pdf = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { pdf += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
        pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        try Data(pdf.utf8).write(to: URL(fileURLWithPath: dir.file("loop.pdf")))
        let r = try #require(try DocumentTests.scan([dir.file("loop.pdf")]).records.first)
        #expect(r.codes.map(\.text) == ["https://example.com/loop"])
        let warning = r.warnings.joined(separator: "\n")
        #expect(!warning.contains("--max-pages"), "\(warning)")
        #expect(warning.contains("read 1 of the 3 pages the document declares") && warning.contains("Loop in Pages tree"), "\(warning)")
    }

    @Test("a 60 MB data: URI names libxml2's 10 MB limit on an attribute, not 'Couldn't find end of Start Tag' alone")
    func hugeDataURI() throws {
        let dir = try TempDir()
        var svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"100\" height=\"100\">".utf8)
        svg += Data("<image width=\"10\" height=\"10\" xlink:href=\"data:image/png;base64,".utf8)
        svg += Data(repeating: UInt8(ascii: "A"), count: 60_000_000)
        svg += Data("\"/></svg>".utf8)
        try svg.write(to: URL(fileURLWithPath: dir.file("big.svg")))
        let (records, _) = try DocumentTests.scan([dir.file("big.svg")])
        let error = try #require(records.first?.error)
        #expect(error.kind == .corrupt)
        #expect(error.message.contains("longer than libxml2's limit of 10000000 bytes") && error.message.contains("data: URI"), "\(error.message)")
    }
}
