import Foundation
import TestSupport
import Testing

/// `check` gates documents with the same rules, and grades a code's print size on its page.
@Suite("Document check")
struct DocumentCheckTests {
    static func label(_ text: String, side mm: Double, page: Int, of pages: Int) throws -> PDFMaker {
        var pdf = PDFMaker()
        pdf.pages = Array(repeating: PDFMaker.Page(width: 595, height: 842), count: pages)
        pdf.pages[page] = try DocumentTests.qrPage(text, x: 100, y: 300, side: mm * PDFMaker.pointsPerMM)
        return pdf
    }

    @Test func printSizeFailsASmallCodeAndPassesALargeOne() throws {
        let dir = try TempDir()
        // 25 modules (version 2) 9 mm wide: 0.36 mm modules, under GS1's 0.396 mm.
        try Self.label("https://example.com/small", side: 9, page: 1, of: 2).write(dir.file("small.pdf"))
        try Self.label("https://example.com/large", side: 25, page: 0, of: 1).write(dir.file("large.pdf"))
        let small = try run(codesweepBinary, ["check", dir.file("small.pdf"), "--junit", "-"], check: false)
        #expect(small.status == 1)
        #expect(small.stdout.contains("<testcase name=\"\(dir.file("small.pdf"))\""))
        #expect(
            small.stdout.contains("the QR Code on page 2 is 9 mm wide: modules 0.3") && small.stdout.contains("mm, smaller than 0.396 mm"),
            "\(small.stdout)")
        #expect(small.stdout.contains("type=\"print.module_size\""))
        let large = try run(codesweepBinary, ["check", dir.file("large.pdf")], check: false)
        #expect(large.status == 0, "\(large.stdout)\(large.stderr)")
        // The rule can be turned off for an application that allows smaller modules.
        try Data("min_module_mm: off\n".utf8).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let off = try run(codesweepBinary, ["check", "--rules", dir.file("rules.yml"), dir.file("small.pdf")], check: false)
        #expect(off.status == 0, "\(off.stdout)\(off.stderr)")
    }

    @Test func anEncryptedPDFFailsTheGate() throws {
        let dir = try TempDir()
        try Self.label("https://example.com/locked", side: 25, page: 0, of: 1).write(dir.file("plain.pdf"))
        try run("/usr/bin/qpdf", ["--encrypt", "pw", "owner", "256", "--", dir.file("plain.pdf"), dir.file("locked.pdf")])
        let r = try run(codesweepBinary, ["check", dir.file("locked.pdf")], check: false)
        #expect(r.status == 2, "unreadable files end check with status 2")
        #expect(r.stdout.contains("encrypted"), "\(r.stdout)")
        #expect(r.stdout.contains("remove the PDF's open password"))
    }
}
