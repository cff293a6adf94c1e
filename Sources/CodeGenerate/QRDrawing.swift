import Imaging
import QRSymbol
import Records
import Reporting

/// The module matrix drawn: as pixels or as one SVG path. No files, no C.

/// Where the modules go in pixels: whole pixels a module (crisp edges, no resampling), the quiet
/// zone in modules, and any pixels left over from a requested `--size` added to the margin.
package struct QRLayout: Sendable, Equatable {
    package var modules: Int
    package var modulePx: Int
    package var marginModules: Int
    /// Extra light pixels on the left/top (and right/bottom: `side` minus the rest) to reach a requested size.
    package var padPx: Int
    package var side: Int

    package init(modules: Int, modulePx: Int, marginModules: Int) {
        self.modules = modules; self.modulePx = modulePx; self.marginModules = marginModules
        padPx = 0
        side = (modules + 2 * marginModules) * modulePx
    }

    package struct TooSmall: Error, CustomStringConvertible, Equatable {
        package var description: String
    }

    /// The largest whole module size that fits `sizePx` with the margin; the picture is exactly
    /// `sizePx` wide, the remainder split into the margin.
    package init(modules: Int, fitting sizePx: Int, marginModules: Int) throws(TooSmall) {
        let cells = modules + 2 * marginModules
        let m = sizePx / cells
        guard m >= 1 else {
            throw TooSmall(
                description:
                    "--size \(sizePx) is too small: the code needs \(cells) modules across (\(modules) + 2 × \(marginModules) margin), at least 1 px each")
        }
        self.init(modules: modules, modulePx: m, marginModules: marginModules)
        padPx = (sizePx - cells * m) / 2
        side = sizePx
    }

    /// Pixel origin of module (0, 0).
    package var originPx: Int { padPx + marginModules * modulePx }

    /// The matrix in two colours.
    package func render(_ matrix: QRMatrix, foreground: RGBColor, background: RGBColor) -> RGBImage {
        var img = RGBImage(width: side, height: side, fill: background)
        let o = originPx
        for (x, y, run) in matrix.darkRuns() {
            img.fill(PixelRect(x: o + x * modulePx, y: o + y * modulePx, width: run * modulePx, height: modulePx), foreground)
        }
        return img
    }
}

/// SVG: one path for all dark modules (horizontal runs as rectangles, in module units, so the
/// geometry is exact at any size), on a background rectangle.
package enum QRSVG {
    package static func path(_ matrix: QRMatrix, margin: Int) -> String {
        var d = ""
        for (x, y, run) in matrix.darkRuns() { d += "M\(x + margin) \(y + margin)h\(run)v1h-\(run)z" }
        return d
    }

    /// A whole document. `sidePx` sets width/height (the viewBox is in modules); `logo`, when
    /// given, is a PNG drawn on a plate (`plate` in modules, rounded with radius `plateRadius`).
    package static func document(
        _ matrix: QRMatrix, margin: Int, sidePx: Int, foreground: RGBColor, background: RGBColor,
        logo: (png: [UInt8], plate: ModuleRect, inset: Double, radius: Double)? = nil
    ) -> String {
        let cells = matrix.size + 2 * margin
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(sidePx)" height="\(sidePx)" viewBox="0 0 \(cells) \(cells)" shape-rendering="crispEdges" stroke="none">
            <rect width="\(cells)" height="\(cells)" stroke="none" fill="\(background.hex)"/>
            <path stroke="none" fill="\(foreground.hex)" d="\(path(matrix, margin: margin))"/>

            """
        if let logo {
            let p = logo.plate
            s +=
                "<rect x=\"\(p.x + margin)\" y=\"\(p.y + margin)\" width=\"\(p.width)\" height=\"\(p.height)\" rx=\"\(fmt(logo.radius))\" stroke=\"none\" fill=\"\(background.hex)\"/>\n"
            s +=
                "<image x=\"\(fmt(Double(p.x + margin) + logo.inset))\" y=\"\(fmt(Double(p.y + margin) + logo.inset))\" width=\"\(fmt(Double(p.width) - 2 * logo.inset))\" height=\"\(fmt(Double(p.height) - 2 * logo.inset))\" href=\"data:image/png;base64,\(Base64.encode(logo.png))\"/>\n"
        }
        return s + "</svg>\n"
    }

    static func fmt(_ d: Double) -> String { NumberText.trimmed(d, decimals: 3) }
}

/// A rectangle in module coordinates of the symbol (no quiet zone).
package struct ModuleRect: Sendable, Equatable {
    package var x: Int, y: Int, width: Int, height: Int
    package init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    package func contains(_ px: Int, _ py: Int) -> Bool { px >= x && py >= y && px < x + width && py < y + height }
}
