import Records
import Reporting

/// `check` at print size: a document's page knows its size (`FileRecord.pages`), so a code's
/// modules and quiet zone can be measured in millimetres as printed (docs/check.md, "Print size").
extension Evaluator {
    /// The symbologies the print rules apply to: matrix codes, whose X-dimension is the module.
    static let printRuled: Set<Symbology> = [.qr, .datamatrix, .aztec]

    /// The code's module size (mm) and width (mm) on its page, when the page's size is known.
    static func printedSize(_ c: CodeResult, on page: PageRender) -> (module: Double, width: Double, modules: Int?)? {
        let mmPerPixel = 25.4 / page.dpi
        let p = c.code.corners.points
        func d(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        let side = (d(p[0], p[1]) + d(p[1], p[2]) + d(p[2], p[3]) + d(p[3], p[0])) / 4 * mmPerPixel
        if let version = c.code.qr?.version ?? c.scan?.version {
            let modules = 17 + 4 * version
            return (side / Double(modules), side, modules)
        }
        if let modules = c.scan?.modulesPerSide { return (side / Double(modules), side, modules) }
        if let px = c.scan?.modulePx { return (px * mmPerPixel, side, nil) }
        return nil
    }

    /// `print.module_size` and `print.quiet_zone` for one code on a document's page.
    func printViolations(_ c: CodeResult, _ pages: [PageRender]) -> [Violation] {
        guard Self.printRuled.contains(c.code.symbology), let page = pages.first(where: { $0.page == c.code.frame }) else { return [] }
        var v: [Violation] = []
        let mm = { (x: Double) in NumberText.trimmed(x, decimals: x < 1 ? 3 : 1) }
        let which = "the \(c.code.symbology.displayName) on page \(page.page + 1)"
        let size = Self.printedSize(c, on: page)
        if let min = rules.print.minModuleMM {
            if let size, size.module < min {
                let needed = size.modules.map { " (\($0) modules of \(mm(min)) mm: at least \(mm(Double($0) * min)) mm wide)" } ?? ""
                v.append(
                    Violation(
                        rule: "print.module_size",
                        message: "\(which) is \(mm(size.width)) mm wide: modules \(mm(size.module)) mm, smaller than \(mm(min)) mm",
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
