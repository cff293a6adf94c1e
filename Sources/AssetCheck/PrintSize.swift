import Records

/// `check` at print size: a document's page knows its size (`FileRecord.pages`), so a code's
/// modules and quiet zone can be measured in millimetres as printed (docs/check.md, "Print size").
extension Evaluator {
    /// The symbologies the print rules apply to: matrix codes, whose X-dimension is the module.
    static let printRuled: Set<Symbology> = [.qr, .datamatrix, .aztec]

    /// A code's size on its page, measured along each axis of the symbol (a code drawn
    /// stretched has modules of two sizes): millimetres across and down the page.
    struct PrintedSize {
        /// The symbol's extent along the axis nearer the page's horizontal, and the other one.
        var across: Double, down: Double
        /// The module along each axis.
        var moduleAcross: Double, moduleDown: Double
        var modules: Int?
        /// The narrow module: the one graded.
        var module: Double { min(moduleAcross, moduleDown) }
        /// The mean of the two extents (a square code's width).
        var width: Double { (across + down) / 2 }
    }

    /// The code's modules and extent (mm) along each of its axes on its page, when the page's
    /// size is known: the mean of each pair of opposite sides of the corner quadrilateral over
    /// the modules per side (QR: 17 + 4 x version).
    static func printedSize(_ c: CodeResult, on page: PageRender, mmPerPixel: Double) -> PrintedSize? {
        let p = c.code.corners.points
        func d(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        // Sides 0-1 and 2-3 run along one axis of the symbol, 1-2 and 3-0 along the other.
        var first = (d(p[0], p[1]) + d(p[2], p[3])) / 2 * mmPerPixel
        var second = (d(p[1], p[2]) + d(p[3], p[0])) / 2 * mmPerPixel
        if abs(p[1].x - p[0].x) < abs(p[1].y - p[0].y) { swap(&first, &second) }
        if let modules = (c.code.qr?.version ?? c.scan?.version).map({ 17 + 4 * $0 }) ?? c.scan?.modulesPerSide {
            let n = Double(modules)
            return PrintedSize(across: first, down: second, moduleAcross: first / n, moduleDown: second / n, modules: modules)
        }
        if let px = c.scan?.modulePx {
            return PrintedSize(across: first, down: second, moduleAcross: px * mmPerPixel, moduleDown: px * mmPerPixel, modules: nil)
        }
        return nil
    }

    /// Millimetres a pixel of the page's rendering stands for as printed: the rendering's dpi
    /// and the page's /UserUnit; for an SVG without a size of its own, the rules'
    /// `svg_px_per_mm` (nil: it has no print size).
    /// A code's printed size where the page alone says its scale (not an SVG without a size):
    /// what `--baseline` compares and `check --json` writes.
    static func printedSize(_ c: CodeResult, on page: PageRender) -> PrintedSize? {
        page.unsized ? nil : printedSize(c, on: page, mmPerPixel: page.millimetresPerPixel)
    }

    func millimetresPerPixel(_ page: PageRender) -> Double? {
        guard page.unsized else { return page.millimetresPerPixel }
        return rules.print.svgPixelsPerMM.map { 96 / page.dpi / $0 }
    }

    /// `print.module_size` and `print.quiet_zone` for one code on a document's page.
    func printViolations(_ c: CodeResult, _ pages: [PageRender]) -> [Violation] {
        guard Self.printRuled.contains(c.code.symbology), let page = pages.first(where: { $0.page == c.code.frame }) else { return [] }
        let which = "the \(c.code.symbology.displayName) on page \(page.page + 1)"
        guard let mmPerPixel = millimetresPerPixel(page) else {
            guard rules.print.minModuleMM != nil || rules.print.minQuietZoneModules != nil else { return [] }
            return [
                Violation(
                    rule: rules.print.minModuleMM != nil ? "print.module_size" : "print.quiet_zone",
                    message:
                        "\(which): no print size (an SVG whose root gives no width and height in absolute units, only a viewBox or a percentage; "
                        + "or a PDF page whose /UserUnit could not be read: see the warnings)",
                    fix: "give the SVG's root width and height in mm, cm, in, pt or px, or set svg_px_per_mm in the rules (a PDF: install qpdf)",
                    code: c.index)
            ]
        }
        var v: [Violation] = []
        let mm = { (x: Double) in NumberText.trimmed(x, decimals: x < 1 ? 3 : 1) }
        let size = Self.printedSize(c, on: page, mmPerPixel: mmPerPixel)
        if let min = rules.print.minModuleMM {
            if let size, size.module < min {
                let needed = size.modules.map { " (\($0) modules of \(mm(min)) mm: at least \(mm(Double($0) * min)) mm each way)" } ?? ""
                // A code drawn stretched has two module sizes: both are said, the narrow one graded.
                let shape =
                    abs(size.moduleAcross - size.moduleDown) < 0.05 * size.module
                    ? "is \(mm(size.width)) mm wide: modules \(mm(size.module)) mm"
                    : "is \(mm(size.across)) mm wide and \(mm(size.down)) mm high: modules \(mm(size.moduleAcross)) mm across and "
                        + "\(mm(size.moduleDown)) mm down, the narrow \(mm(size.module)) mm"
                v.append(
                    Violation(
                        rule: "print.module_size", message: "\(which) \(shape), smaller than \(mm(min)) mm",
                        fix: "print the code larger\(needed), or put less data in it; min_module_mm sets the limit for this application",
                        code: c.index))
            } else if size == nil {
                v.append(
                    Violation(
                        rule: "print.module_size", message: "\(which): its module size could not be measured",
                        fix: "make the code's modules clear on the page, or set min_module_mm: off for these files", code: c.index))
            }
        }
        // Judged as shown, to a tenth of a module: a code drawn with exactly 4 modules measures
        // 3.96 when its corners are fitted a few hundredths of a module outside its edge.
        if let min = rules.print.minQuietZoneModules, let s = c.scan, !s.quietZoneAtLeast, let q = s.quietZoneModules, (q * 10).rounded() / 10 < min {
            let px = size.map { " (\(mm(q * $0.module)) mm)" } ?? ""
            v.append(
                Violation(
                    rule: "print.quiet_zone",
                    message:
                        "\(which) has a light margin of \(NumberText.trimmed(q, decimals: 1)) modules\(px) on its narrowest side, less than \(NumberText.trimmed(min)) modules",
                    fix: "keep \(NumberText.trimmed(min)) modules round the code free of text, lines and edges of the page", code: c.index))
        }
        return v
    }
}
