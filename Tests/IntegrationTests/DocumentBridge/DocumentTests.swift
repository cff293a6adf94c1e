import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import SweepCore

/// PDFs and SVGs made in the test (DocumentFixtures.swift, qrencode, zint, qpdf), scanned by
/// the binary as a user runs it (worker processes, the default): pages are frames, corners in
/// the page's rendering, failures per file.
@Suite("Documents")
struct DocumentTests {
    static let mm = PDFMaker.pointsPerMM

    /// Scans with the binary (extra flags first) and reads the records back with the record
    /// reader; every line also validates against docs/schema.
    static func scan(_ paths: [String], _ flags: [String] = []) throws -> (records: [FileRecord], result: ProcessResult) {
        let r = try run(codesweepBinary, ["scan", "--quiet"] + flags + paths, check: false)
        #expect(try SchemaCheck.problems(r.stdout, schema: "record.schema.json", lines: true) == [])
        return (try r.stdoutLines.map { try FileRecord.read(json: Array($0.utf8)) }, r)
    }

    static func qrPage(_ text: String, x: Double, y: Double, side: Double, width: Double = 595, height: Double = 842, rotate: Int = 0, version: Int = 0)
        throws -> PDFMaker.Page
    {
        let m = try PDFMaker.qrMatrix(text, version: version)
        let content = "0 g\n" + PDFMaker.vector(m, x: x, y: y, module: side / Double(m.count), pageHeight: height)
        return PDFMaker.Page(width: width, height: height, content: content, rotate: rotate)
    }

    @Test func pagesAreFramesAndARotatedPageComesOutUpright() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        pdf.pages = [
            try Self.qrPage("page one", x: 72, y: 144, side: 144),
            PDFMaker.Page(width: 595, height: 842),
            try Self.qrPage("page three, turned", x: 72, y: 144, side: 144, rotate: 90),
        ]
        try pdf.write(dir.file("three.pdf"))
        let r = try #require(try Self.scan([dir.file("three.pdf")]).records.first)
        #expect(r.status == .ok, "\(r.error?.message ?? "")")
        #expect(r.format == .pdf && r.frames == 3 && r.pages.count == 3)
        #expect(r.codes.map(\.text) == ["page one", "page three, turned"])
        #expect(r.codes.map(\.frame) == [0, 2])
        let first = r.pages[0], third = r.pages[2]
        #expect(first.widthPoints == 595 && first.heightPoints == 842 && first.dpi == 150)
        #expect(third.widthPoints == 842 && third.heightPoints == 595, "a /Rotate 90 page is as wide as the portrait page is high")
        #expect(third.width > third.height)
        // Page one's corners, turned into points (x * 72 / dpi), are where the code was drawn.
        let k = 72 / first.dpi
        expectCorners(
            Quad(r.codes[0].corners.points.map { Point(x: $0.x * k, y: $0.y * k) }),
            near: [Point(x: 72, y: 144), Point(x: 216, y: 144), Point(x: 216, y: 288), Point(x: 72, y: 288)], tolerance: 2)
        // Upright as a reader sees it: the code drawn upright on a page turned 90° clockwise
        // reads with its top facing right.
        #expect(r.codes[1].orientation == 1)
        #expect(r.codes[1].corners.points.allSatisfy { $0.x <= Double(third.width) && $0.y <= Double(third.height) })
    }

    @Test func vectorAndRasterCodesTwoOnAPage() throws {
        let dir = try TempDir()
        let m = try PDFMaker.qrMatrix("raster, one pixel a module")
        let img = PDFMaker.raster(m)
        var page = try Self.qrPage("vector squares", x: 60, y: 100, side: 120)
        // The image (1 px a module, 4-module quiet zone) scaled to 150 x 150 points.
        page.content += "q 150 0 0 150 320 \(842 - 100 - 150) cm /Im1 Do Q\n"
        page.images = [("Im1", img.width, img.height, "DeviceGray", img.samples)]
        var pdf = PDFMaker()
        pdf.pages = [page]
        try pdf.write(dir.file("two.pdf"))
        let r = try #require(try Self.scan([dir.file("two.pdf")]).records.first)
        #expect(Set(r.codes.map(\.text)) == ["vector squares", "raster, one pixel a module"])
        #expect(r.codes.allSatisfy { $0.frame == 0 })
    }

    @Test func cmykDarkBlueOnPaleYellow() throws {
        let dir = try TempDir()
        let m = try PDFMaker.qrMatrix("cmyk blue on yellow")
        let content =
            "0 0 0.25 0 k 0 0 595 842 re f\n1 0.8 0 0.35 k\n" + PDFMaker.vector(m, x: 100, y: 100, module: 5, pageHeight: 842)
        var pdf = PDFMaker()
        pdf.pages = [PDFMaker.Page(width: 595, height: 842, content: content)]
        try pdf.write(dir.file("cmyk.pdf"))
        let r = try #require(try Self.scan([dir.file("cmyk.pdf")]).records.first)
        #expect(r.codes.map(\.text) == ["cmyk blue on yellow"])
    }

    /// An 8 mm version-7 code (45 modules of 0.18 mm: a pixel or less at 150 dpi) is read where
    /// its place is rendered again at a higher resolution.
    @Test func smallLabelCodeIsReadFromAHigherResolution() throws {
        let dir = try TempDir()
        let text = "label 8 mm, version 7: " + String(repeating: "0123456789", count: 5)
        var pdf = PDFMaker()
        pdf.pages = [try Self.qrPage(text, x: 200, y: 300, side: 8 * Self.mm, version: 7)]
        try pdf.write(dir.file("label.pdf"))
        let r = try #require(try Self.scan([dir.file("label.pdf")]).records.first)
        let code = try #require(r.codes.first, "\(r.warnings)")
        #expect(code.text == text)
        #expect(code.qr?.version == 7)
        #expect(code.pass.hasSuffix("dpi-") == false && code.pass.contains("dpi-"), "read in a place rendered again: \(code.pass)")
        // Corners in the first rendering's pixels: 8 mm at 150 dpi is 47 px.
        let xs = code.corners.points.map(\.x)
        #expect(abs((xs.max()! - xs.min()!) - 8 / 25.4 * 150) < 3)
    }

    @Test func passwordsEncryptedAndOwnerOnly() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        pdf.pages = [try Self.qrPage("behind a password", x: 72, y: 72, side: 144)]
        try pdf.write(dir.file("plain.pdf"))
        try run("/usr/bin/qpdf", ["--encrypt", "user-pw", "owner-pw", "256", "--", dir.file("plain.pdf"), dir.file("user.pdf")])
        try run("/usr/bin/qpdf", ["--encrypt", "", "owner-pw", "256", "--print=none", "--", dir.file("plain.pdf"), dir.file("owner.pdf")])
        let (records, result) = try Self.scan([dir.file("user.pdf"), dir.file("owner.pdf")])
        #expect(result.status == 1)
        #expect(records.count == 2)
        #expect(records[0].error?.kind == .encrypted, "\(records[0].error?.message ?? "")")
        #expect(records[0].error?.message.contains("password") == true)
        #expect(records[1].status == .ok)
        #expect(records[1].codes.map(\.text) == ["behind a password"])
    }

    @Test func brokenAndTruncatedPDFsAreCorruptWithPopplersReason() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        pdf.pages = [try Self.qrPage("cut short", x: 72, y: 72, side: 144)]
        let whole = pdf.data()
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir.file("truncated.pdf")))
        try Data("%PDF-1.7\nnot a PDF at all\n".utf8).write(to: URL(fileURLWithPath: dir.file("garbage.pdf")))
        let (records, _) = try Self.scan([dir.file("truncated.pdf"), dir.file("garbage.pdf")])
        for r in records {
            #expect(r.error?.kind == .corrupt, "\(r.path): \(String(describing: r.error))")
            #expect(r.error?.message.contains("Poppler") == true || r.error?.message.contains("pdftoppm") == true)
            #expect(r.error?.message.contains("Error") == true, "Poppler's own words: \(r.error?.message ?? "")")
        }
    }

    @Test func aHugePageIsRenderedSmallerAndSaysSo() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        // 200 x 200 inches; a code 40 inches wide.
        pdf.pages = [try Self.qrPage("poster", x: 720, y: 720, side: 2880, width: 14_400, height: 14_400)]
        try pdf.write(dir.file("poster.pdf"))
        let r = try #require(try Self.scan([dir.file("poster.pdf")]).records.first)
        let page = try #require(r.pages.first)
        #expect(page.dpi < 150)
        #expect(page.width * page.height <= 16_000_000)
        #expect(page.widthPoints == 14_400)
        #expect(r.warnings.contains { $0.contains("page 1 (200 x 200 in) was rendered at") && $0.contains("not 150") }, "\(r.warnings)")
        #expect(r.codes.map(\.text) == ["poster"])
    }

    /// --roi is the page's: the first reading and the places rendered again both keep to it.
    @Test func regionOfInterestAppliesToThePage() throws {
        let dir = try TempDir()
        let label = "right half, 8 mm: " + String(repeating: "0123456789", count: 5)
        var page = try Self.qrPage("left half", x: 60, y: 300, side: 144)
        let small = try PDFMaker.qrMatrix(label, version: 7)
        page.content += PDFMaker.vector(small, x: 400, y: 300, module: 8 * Self.mm / Double(small.count), pageHeight: 842)
        var pdf = PDFMaker()
        pdf.pages = [page]
        try pdf.write(dir.file("halves.pdf"))
        let whole = try #require(try Self.scan([dir.file("halves.pdf")]).records.first)
        #expect(Set(whole.codes.map(\.text)) == ["left half", label])
        let left = try #require(try Self.scan([dir.file("halves.pdf")], ["--roi", "0,0,0.5,1"]).records.first)
        #expect(left.codes.map(\.text) == ["left half"])
        let right = try #require(try Self.scan([dir.file("halves.pdf")], ["--roi", "0.5,0,0.5,1"]).records.first)
        #expect(right.codes.map(\.text) == [label], "the small code, read from its place rendered again")
    }
}
