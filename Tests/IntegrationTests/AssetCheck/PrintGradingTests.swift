import Foundation
import TestSupport
import Testing

/// `check`'s print rules measure what will be printed: a stretched code's narrow module, a
/// page's /UserUnit, an SVG's own size (or none), and a page the renderer could not resolve.
@Suite("Print grading")
struct PrintGradingTests {
    static let mm = PDFMaker.pointsPerMM

    /// A version-2 QR code (25 modules) whose modules are `across` mm wide and `down` mm high,
    /// drawn as rectangles at (20 mm, 20 mm) on an A4 page with `extra` in its dictionary.
    static func vectorCode(_ text: String, across: Double, down: Double, extra: String = "") throws -> PDFMaker {
        let m = try PDFMaker.qrMatrix(text, version: 2)
        var page = PDFMaker.Page(width: 595, height: 842, extra: extra)
        page.content = "0 g\n" + PDFMaker.vector(m, x: 20 * mm, y: 20 * mm, module: across * mm, pageHeight: 842, rowHeight: down / across)
        var pdf = PDFMaker()
        pdf.pages = [page]
        return pdf
    }

    static func check(_ args: [String]) throws -> ProcessResult { try run(codesweepBinary, ["check"] + args, check: false) }

    @Test func aStretchedCodeIsGradedOnItsNarrowModule() throws {
        let dir = try TempDir()
        // 0.90 mm across, 0.30 mm down: the mean of the sides makes 0.60 mm, over 0.396 mm.
        try Self.vectorCode("https://example.com/stretched", across: 0.9, down: 0.3).write(dir.file("vector.pdf"))
        // The same code as a picture of one pixel a module, drawn 3 times wider than high.
        let m = try PDFMaker.qrMatrix("https://example.com/stretched", version: 2)
        let raster = PDFMaker.raster(m)
        var page = PDFMaker.Page(width: 595, height: 842)
        page.images = [("Im0", raster.width, raster.height, "DeviceGray", raster.samples)]
        let w = Double(raster.width) * 0.9 * Self.mm, h = Double(raster.height) * 0.3 * Self.mm
        page.content = "q \(PDFMaker.fmt(w)) 0 0 \(PDFMaker.fmt(h)) \(PDFMaker.fmt(20 * Self.mm)) \(PDFMaker.fmt(700)) cm /Im0 Do Q\n"
        var image = PDFMaker()
        image.pages = [page]
        try image.write(dir.file("image.pdf"))
        // And as an SVG whose viewBox is square, drawn into a 3:1 size without keeping its aspect.
        let n = Double(m.count + 8)
        try Data(
            SVGMaker.code(m, size: "width=\"\(PDFMaker.fmt(n * 0.9))mm\" height=\"\(PDFMaker.fmt(n * 0.3))mm\" preserveAspectRatio=\"none\"").utf8
        ).write(to: URL(fileURLWithPath: dir.file("stretched.svg")))
        for name in ["vector.pdf", "image.pdf", "stretched.svg"] {
            let r = try Self.check([dir.file(name), "--json", "-"])
            #expect(r.status == 1, "\(name): \(r.stdout)\(r.stderr)")
            let json = try TestJSON.parse(r.stdout)
            let violations = json["images"]?.array?.first?["violations"]?.array ?? []
            let size = try #require(violations.first { $0["rule"]?.string == "print.module_size" }, "\(name): \(r.stdout)")
            let message = size["message"]?.string ?? ""
            #expect(message.contains("mm across and 0.3") && message.contains("the narrow 0.3"), "\(name): \(message)")
            #expect(message.contains("modules 0.9") || message.contains("modules 0.89") || message.contains("modules 0.91"), "\(name): \(message)")
        }
    }

    @Test func theUserUnitScalesThePage() throws {
        let dir = try TempDir()
        // 0.60 mm modules in a user space of half-points: 0.30 mm printed.
        try Self.vectorCode("https://example.com/half", across: 0.6, down: 0.6, extra: "/UserUnit 0.5").write(dir.file("half.pdf"))
        // 0.30 mm modules in a user space of double points: 0.60 mm printed.
        try Self.vectorCode("https://example.com/double", across: 0.3, down: 0.3, extra: "/UserUnit 2").write(dir.file("double.pdf"))
        let half = try Self.check([dir.file("half.pdf")])
        #expect(half.status == 1, "\(half.stdout)\(half.stderr)")
        #expect(
            half.stdout.contains("print.module_size: the QR Code on page 1 is 7.5 mm wide: modules 0.3")
                || half.stdout.contains("modules 0.299 mm") || half.stdout.contains("modules 0.298 mm"),
            "\(half.stdout)")
        let double = try Self.check([dir.file("double.pdf"), "-v"])
        #expect(double.status == 0, "\(double.stdout)\(double.stderr)")
        #expect(double.stdout.contains("PASS") && double.stdout.contains("https://example.com/double"), "\(double.stdout)")
        // The scan record says the unit.
        let scan = try run(codesweepBinary, ["scan", "--quiet", dir.file("half.pdf")], check: false)
        #expect(scan.stdout.contains("\"user_unit\":0.5"), "\(scan.stdout)")
        #expect(try SchemaCheck.problems(scan.stdout, schema: "record.schema.json", lines: true) == [])
    }

    @Test func aPageTooLargeToResolveFailsNamingWhatWasNotVerified() throws {
        let dir = try TempDir()
        // 200 x 200 inches: rendered at 20 dpi to stay within 16 MP; a 0.30 mm code is a pixel.
        var pdf = PDFMaker()
        let m = try PDFMaker.qrMatrix("https://example.com/poster", version: 2)
        pdf.pages = [PDFMaker.Page(width: 14400, height: 14400, content: "0 g\n" + PDFMaker.vector(m, x: 72, y: 72, module: 0.3 * Self.mm, pageHeight: 14400))]
        try pdf.write(dir.file("poster.pdf"))
        let r = try Self.check([dir.file("poster.pdf")])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("✗ unverified: page 1 (200 x 200 in) was rendered at 20 dpi"), "\(r.stdout)")
        #expect(r.stdout.contains("could not be verified"), "\(r.stdout)")
        // The scan's own warning reaches the summary too.
        #expect(r.stdout.contains("! warning: page 1 (200 x 200 in) was rendered at 20 dpi, not 150"), "\(r.stdout)")

        // --allow-unverified: a warning in every output, and a pass.
        let allowed = try Self.check([dir.file("poster.pdf"), "--allow-unverified", "--junit", dir.file("j.xml"), "--json", dir.file("c.json"), "--github"])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(allowed.stdout.contains("! warning: page 1 (200 x 200 in) was rendered at 20 dpi, where a module of 0.396 mm"), "\(allowed.stdout)")
        #expect(allowed.stdout.contains("::warning file=\(dir.file("poster.pdf")),title=codesweep warning::page 1 (200 x 200 in)"), "\(allowed.stdout)")
        let junit = try String(contentsOfFile: dir.file("j.xml"), encoding: .utf8)
        #expect(junit.contains("<system-out>warning: page 1 (200 x 200 in) was rendered at 20 dpi"), "\(junit)")
        let json = try TestJSON.parse(String(contentsOfFile: dir.file("c.json"), encoding: .utf8))
        let warnings = json["images"]?.array?.first?["warnings"]?.array?.compactMap(\.string) ?? []
        #expect(warnings.count == 2 && warnings.allSatisfy { $0.hasPrefix("page 1 (200 x 200 in) was rendered at 20 dpi") }, "\(warnings)")
        #expect(json["summary"]?["warnings"]?.int == 2)
    }

    @Test func aDegenerateRenderingFails() throws {
        let dir = try TempDir()
        var pdf = PDFMaker()
        pdf.pages = [PDFMaker.Page(width: 5_000_000, height: 5_000_000, content: "0 g 10 10 50 50 re f\n")]
        try pdf.write(dir.file("huge.pdf"))
        let r = try Self.check([dir.file("huge.pdf")])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("✗ unverified: page 1"), "\(r.stdout)")
    }

    @Test func anSVGWithoutASizeHasNoPrintSizeUnlessTheRulesGiveIt() throws {
        let dir = try TempDir()
        let m = try PDFMaker.qrMatrix("https://example.com/unsized", version: 2)
        // 37 modules of 10 units of viewBox, no width: librsvg sizes it 370 CSS px (98 mm).
        for (name, size) in [("percent.svg", "width=\"100%\" height=\"100%\""), ("none.svg", "")] {
            try Data(SVGMaker.code(m, unit: 10, size: size).utf8).write(to: URL(fileURLWithPath: dir.file(name)))
            let r = try Self.check([dir.file(name)])
            #expect(r.status == 1, "\(name): \(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("✗ print.module_size: the QR Code on page 1: no print size"), "\(name): \(r.stdout)")
            #expect(r.stdout.contains("! warning: the SVG gives no print size"), "\(name): \(r.stdout)")
        }
        // With the rules' scale: 10 px a millimetre makes 1 mm modules, a pass; 40 px a
        // millimetre 0.25 mm modules, a failure.
        try Data("svg_px_per_mm: 10\n".utf8).write(to: URL(fileURLWithPath: dir.file("large.yml")))
        try Data("svg_px_per_mm: 40\n".utf8).write(to: URL(fileURLWithPath: dir.file("small.yml")))
        let large = try Self.check(["--rules", dir.file("large.yml"), dir.file("none.svg")])
        #expect(large.status == 0, "\(large.stdout)\(large.stderr)")
        let small = try Self.check(["--rules", dir.file("small.yml"), dir.file("none.svg")])
        #expect(small.status == 1 && small.stdout.contains("modules 0.25 mm, smaller than 0.396 mm"), "\(small.stdout)\(small.stderr)")
        // An SVG sized in millimetres is graded as before.
        try Data(SVGMaker.code(m, size: "width=\"33mm\" height=\"33mm\"").utf8).write(to: URL(fileURLWithPath: dir.file("sized.svg")))
        let sized = try Self.check([dir.file("sized.svg")])
        #expect(sized.status == 0, "\(sized.stdout)\(sized.stderr)")
    }
}
