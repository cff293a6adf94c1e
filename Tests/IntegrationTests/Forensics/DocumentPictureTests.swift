import Foundation
import TestSupport
import Testing

/// `--annotate` and `report --html` draw a document's pages: each rendered again at its record's
/// resolution, the codes outlined where their corners say.
@Suite("Document pictures")
struct DocumentPictureTests {
    @Test func annotatedPagesAndReportThumbnails() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        pdf.pages = [
            try DocumentTests.qrPage("first page", x: 72, y: 72, side: 144),
            PDFMaker.Page(width: 595, height: 842),
            try DocumentTests.qrPage("third page, turned", x: 72, y: 72, side: 144, rotate: 90),
        ]
        try pdf.write(dir.file("doc.pdf"))
        try run(Tools.qrencode, ["-t", "SVG", "-o", dir.file("art.svg"), "svg picture"])
        let scan = try run(
            codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "--annotate", "out", "doc.pdf", "art.svg"], currentDirectory: dir.path,
            check: false)
        #expect(scan.status == 0, "\(scan.stderr)")
        // Each page with codes: a picture of the page's rendering's size (the turned page is wide).
        let size = { (name: String) throws -> String in
            try run(Tools.convert, [dir.file("out/" + name), "-format", "%wx%h", "info:"]).stdout
        }
        #expect(try size("doc.pdf.annotated.png") == "1240x1754" || size("doc.pdf.annotated.png") == "1240x1755")
        let turned = try size("doc.pdf.frame2.annotated.png").split(separator: "x").map { Int($0)! }
        #expect(turned[0] > turned[1], "\(turned)")
        #expect(FileManager.default.fileExists(atPath: dir.file("out/art.svg.annotated.png")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("out/doc.pdf.frame1.annotated.png")))
        let report = try run(codesweepBinary, ["report", "r.jsonl", "--html", "r.html"], currentDirectory: dir.path, check: false)
        #expect(report.status == 0, "\(report.stdout)\(report.stderr)")
        let html = try String(contentsOfFile: dir.file("r.html"), encoding: .utf8)
        #expect(!html.contains("no longer an image") && !html.contains("could not be opened"))
        #expect(html.components(separatedBy: "data:image/jpeg;base64,").count - 1 >= 2, "a thumbnail for each document")
    }
}
