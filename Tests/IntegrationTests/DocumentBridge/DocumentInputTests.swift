import Foundation
import TestSupport
import Testing

@testable import SweepCore

/// Documents found by walking, many pages and --max-pages, SVG artwork (and what it may not
/// load), Data Matrix and PDF417 in a PDF, a renderer stopped at --timeout.
@Suite("Document input")
struct DocumentInputTests {
    static func blankPages(_ count: Int, lastCode: String?, content: String = "") throws -> PDFMaker {
        var pdf = PDFMaker()
        pdf.pages = Array(repeating: PDFMaker.Page(width: 144, height: 144, content: content), count: count)
        if let lastCode { pdf.pages[count - 1] = try DocumentTests.qrPage(lastCode, x: 18, y: 18, side: 108, width: 144, height: 144) }
        return pdf
    }

    /// Three times the default page limit, the code on the last page (the pages render at
    /// pdftoppm's pace: 2,000 of them cost this test 30 s for nothing more).
    @Test func manyBlankPagesAndACodeOnTheLast() throws {
        let dir = try TempDir()
        try Self.blankPages(300, lastCode: "the last page").write(dir.file("long.pdf"))
        let all = try #require(try DocumentTests.scan([dir.file("long.pdf")], ["--max-pages", "300"]).records.first)
        #expect(all.status == .ok, "\(all.error?.message ?? "")")
        #expect(all.frames == 300 && all.pages.count == 300)
        #expect(all.codes.map(\.text) == ["the last page"])
        #expect(all.codes.map(\.frame) == [299])
        #expect(all.warnings == [])
        // The default reads the first 100 and says so.
        let some = try #require(try DocumentTests.scan([dir.file("long.pdf")]).records.first)
        #expect(some.pages.count == 100 && some.codes.isEmpty)
        #expect(some.warnings.contains("read 100 of 300 pages (--max-pages 100)"), "\(some.warnings)")
    }

    @Test func documentsAreFoundByContentWhenWalking() throws {
        let dir = try TempDir()
        let root = dir.file("assets")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try DocumentTests.qrPage("flyer", x: 72, y: 72, side: 144).asDocument().write(root + "/flyer.pdf")
        // An Illustrator file saved with PDF compatibility: a PDF whatever its name.
        try DocumentTests.qrPage("artwork", x: 72, y: 72, side: 144).asDocument().write(root + "/artwork.ai")
        try DocumentTests.qrPage("no extension", x: 72, y: 72, side: 144).asDocument().write(root + "/noext")
        try run(Tools.qrencode, ["-t", "SVG", "-o", root + "/logo.svg", "svg art"])
        try Data("just notes\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        try Data("not really a pdf\n".utf8).write(to: URL(fileURLWithPath: root + "/broken.pdf"))
        let (records, _) = try DocumentTests.scan([root])
        let byName = Dictionary(uniqueKeysWithValues: records.map { (String($0.path.split(separator: "/").last!), $0) })
        #expect(Set(byName.keys) == ["flyer.pdf", "artwork.ai", "noext", "logo.svg", "broken.pdf"])
        #expect(byName["flyer.pdf"]?.codes.map(\.text) == ["flyer"])
        #expect(byName["artwork.ai"]?.format == .pdf && byName["artwork.ai"]?.codes.map(\.text) == ["artwork"])
        #expect(byName["noext"]?.codes.map(\.text) == ["no extension"])
        #expect(byName["logo.svg"]?.format == .svg && byName["logo.svg"]?.codes.map(\.text) == ["svg art"])
        #expect(byName["broken.pdf"]?.error?.kind == .notImage)
        // From standard input and --files-from too.
        let piped = try run(
            codesweepBinary, ["scan", "--quiet", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: root + "/flyer.pdf")), check: false)
        #expect(piped.stdout.contains("\"format\":\"pdf\"") && piped.stdout.contains("\"text\":\"flyer\""), "\(piped.stdout)\(piped.stderr)")
        try Data((root + "/logo.svg\n").utf8).write(to: URL(fileURLWithPath: dir.file("list.txt")))
        let listed = try DocumentTests.scan([], ["--files-from", dir.file("list.txt")]).records
        #expect(listed.map { $0.codes.map(\.text) } == [["svg art"]])
    }

    @Test func svgLoadsNothingOutsideTheFile() throws {
        let dir = try TempDir()
        let art = dir.file("art")
        try FileManager.default.createDirectory(atPath: art + "/sub", withIntermediateDirectories: true)
        // The QR image outside the SVG's folder, beside it and inside it.
        try Make.qr("outside the file", to: dir.file("code.png"), scale: 4, margin: 4)
        try FileManager.default.copyItem(atPath: dir.file("code.png"), toPath: art + "/sub/code.png")
        let png = try Data(contentsOf: URL(fileURLWithPath: dir.file("code.png")))
        func svg(_ href: String) -> String {
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"300\" height=\"300\">"
                + "<rect width=\"300\" height=\"300\" fill=\"white\"/><image xlink:href=\"\(href)\" x=\"20\" y=\"20\" width=\"260\" height=\"260\"/></svg>"
        }
        let cases = [
            "absolute.svg": "file://" + dir.file("code.png"), "relative.svg": "../../code.png", "below.svg": "code.png",
            "plain-path.svg": dir.file("code.png"), "embedded.svg": "data:image/png;base64," + png.base64EncodedString(),
        ]
        for (name, href) in cases { try Data(svg(href).utf8).write(to: URL(fileURLWithPath: art + "/sub/" + name)) }
        try Data(
            ("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xi=\"http://www.w3.org/2001/XInclude\" width=\"300\" height=\"100\">"
                + "<text x=\"10\" y=\"50\"><xi:include href=\"/etc/hostname\" parse=\"text\"/></text></svg>").utf8
        ).write(to: URL(fileURLWithPath: art + "/sub/xinclude.svg"))
        let (records, _) = try DocumentTests.scan([art + "/sub"])
        for r in records where r.path.hasSuffix(".svg") {
            #expect(r.status == .ok, "\(r.path): \(r.error?.message ?? "")")
            if r.path.hasSuffix("embedded.svg") {
                #expect(r.codes.map(\.text) == ["outside the file"], "the control: a data: URL inside the file is drawn")
            } else {
                #expect(r.codes.isEmpty, "\(r.path) loaded a file: \(r.codes.map(\.text))")
            }
        }
        #expect(records.filter { $0.path.hasSuffix(".svg") }.count == 6)
    }

    @Test func svgEntityBombCostsOneFile() throws {
        let dir = try TempDir()
        var doctype = "<!ENTITY a0 \"lollollollollollollollollol\">\n"
        for i in 1...9 { doctype += "<!ENTITY a\(i) \"\(String(repeating: "&a\(i - 1);", count: 10))\">\n" }
        let bomb =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n\(doctype)]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><text y=\"50\">&a9;</text></svg>"
        try Data(bomb.utf8).write(to: URL(fileURLWithPath: dir.file("bomb.svg")))
        try run(Tools.qrencode, ["-t", "SVG", "-o", dir.file("fine.svg"), "after the bomb"])
        let started = Date()
        let (records, _) = try DocumentTests.scan([dir.file("bomb.svg"), dir.file("fine.svg")], ["--timeout", "20"])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(records.count == 2)
        #expect(records[0].format == .svg && records[0].error?.kind == .corrupt, "\(String(describing: records[0].error))")
        #expect(records[0].error?.message.contains("entity") == true)
        #expect(records[1].codes.map(\.text) == ["after the bomb"])
    }

    @Test func dataMatrixAndPDF417InAPDF() throws {
        let dir = try TempDir()
        let dm = try PDFMaker.zintMatrix(type: 71, "data matrix in a pdf", in: dir)
        let pdf417 = try PDFMaker.zintMatrix(type: 55, "pdf417 in a pdf", in: dir)
        let content =
            "0 g\n" + PDFMaker.vector(dm, x: 72, y: 72, module: 4, pageHeight: 842)
            + PDFMaker.vector(pdf417, x: 72, y: 400, module: 1.5, pageHeight: 842)
        var pdf = PDFMaker()
        pdf.pages = [PDFMaker.Page(width: 595, height: 842, content: content)]
        try pdf.write(dir.file("ticket.pdf"))
        let r = try #require(try DocumentTests.scan([dir.file("ticket.pdf")]).records.first)
        #expect(Set(r.codes.map(\.text)) == ["data matrix in a pdf", "pdf417 in a pdf"])
        #expect(Set(r.codes.map(\.symbology)) == [.datamatrix, .pdf417])
    }

    /// A document still rendering at --timeout costs its file, and its renderer goes with the worker.
    @Test func timeoutStopsTheRenderer() throws {
        let dir = try TempDir()
        // Pages with a little text-like hatching: each goes through the engine.
        try Self.blankPages(1777, lastCode: nil, content: "0 g 20 20 4 30 re 30 20 4 30 re 40 20 4 30 re f").write(dir.file("slow.pdf"))
        let (records, _) = try DocumentTests.scan([dir.file("slow.pdf")], ["--max-pages", "1777", "--timeout", "1"])
        #expect(records.first?.error?.kind == .timeout, "\(String(describing: records.first?.error))")
        usleep(300_000)
        let running = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let cmd = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            let args = cmd.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return args.first?.hasSuffix("pdftoppm") == true && args.contains("1777")
        }
        #expect(running == [], "pdftoppm outlived its worker")
    }
}

extension PDFMaker.Page {
    func asDocument() -> PDFMaker {
        var pdf = PDFMaker()
        pdf.pages = [self]
        return pdf
    }
}
