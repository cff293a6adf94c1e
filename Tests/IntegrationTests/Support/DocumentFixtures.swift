import Foundation
import TestSupport

/// PDFs written by hand (the file format's objects, cross-reference table and trailer as
/// text), with codes drawn as vector squares or as 1-px-a-module images from the module
/// matrices qrencode and zint print; the tests' documents are made here, not downloaded.
struct PDFMaker {
    struct Page {
        var width: Double
        var height: Double
        var content = ""
        var rotate = 0
        /// More entries of the page's dictionary, as written (e.g. "/UserUnit 0.5").
        var extra = ""
        /// Image XObjects: name → (width, height, colour space, samples).
        var images: [(name: String, width: Int, height: Int, space: String, samples: [UInt8])] = []
    }

    var pages: [Page] = []
    /// The document information dictionary's Title, written as a PDF literal string.
    var title: String?

    /// The document's bytes.
    func data() -> Data {
        var objects: [Data] = [Data(), Data()]
        var kids: [Int] = []
        for page in pages {
            var xobjects: [String] = []
            for image in page.images {
                var dict = "<< /Type /XObject /Subtype /Image /Width \(image.width) /Height \(image.height) "
                dict += "/ColorSpace /\(image.space) /BitsPerComponent 8 /Interpolate false /Length \(image.samples.count) >>\nstream\n"
                objects.append(Data(dict.utf8) + Data(image.samples) + Data("\nendstream".utf8))
                xobjects.append("/\(image.name) \(objects.count) 0 R")
            }
            let content = Data(page.content.utf8)
            objects.append(Data("<< /Length \(content.count) >>\nstream\n".utf8) + content + Data("\nendstream".utf8))
            let contentID = objects.count
            let resources = xobjects.isEmpty ? "" : "/Resources << /XObject << \(xobjects.joined(separator: " ")) >> >> "
            let rotate = page.rotate == 0 ? "" : "/Rotate \(page.rotate) "
            objects.append(
                Data(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Contents \(contentID) 0 R \(resources)\(rotate)\(page.extra) >>"
                        .utf8))
            kids.append(objects.count)
        }
        objects[0] = Data("<< /Type /Catalog /Pages 2 0 R >>".utf8)
        objects[1] = Data("<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>".utf8)
        if let title { objects.append(Data("<< /Title (\(title)) >>".utf8)) }
        let info = title == nil ? "" : "/Info \(objects.count) 0 R "
        var out = Data("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(i + 1) 0 obj\n".utf8) + o + Data("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for o in offsets { out += Data((String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n").utf8) }
        out += Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R \(info)>>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    func write(_ path: String) throws { try data().write(to: URL(fileURLWithPath: path)) }

    /// A QR code's modules (true = dark), no quiet zone, from qrencode (`version` 0: the smallest).
    static func qrMatrix(_ text: String, version: Int = 0, level: String = "M") throws -> [[Bool]] {
        let out = try run(Tools.qrencode, ["-t", "ASCII", "-m", "0", "-l", level, "-v", String(version), "-o", "-", text]).stdout
        return out.split(separator: "\n").filter { !$0.isEmpty }.map { line in
            stride(from: 0, to: line.count, by: 2).map { line[line.index(line.startIndex, offsetBy: $0)] == "#" }
        }
    }

    /// A zint symbol's modules (one pixel a module at --scale=0.5, read back as a plain PGM by
    /// ImageMagick), e.g. type 71 Data Matrix, 55 PDF417 (whose rows are 3 modules high).
    static func zintMatrix(type: Int, _ data: String, in dir: TempDir) throws -> [[Bool]] {
        let png = dir.file("zint-\(type).png")
        try run(Tools.zint, ["-b", String(type), "--scale=0.5", "-d", data, "-o", png])
        let words = try run(Tools.convert, [png, "-depth", "8", "-compress", "none", "pgm:-"]).stdout
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let w = Int(words[1])!, h = Int(words[2])!
        let values = words[4...].map { Int($0)! }
        return (0..<h).map { r in (0..<w).map { c in values[r * w + c] < 128 } }
    }

    /// Content drawing `matrix` as filled squares, its top-left corner at (x, y) points from the
    /// page's top-left, `module` points a module (`rowHeight` modules a row, for PDF417), in
    /// the current fill colour.
    static func vector(_ matrix: [[Bool]], x: Double, y: Double, module: Double, pageHeight: Double, rowHeight: Double = 1) -> String {
        var s = ""
        for (r, row) in matrix.enumerated() {
            for (c, dark) in row.enumerated() where dark {
                let top = pageHeight - y - Double(r + 1) * module * rowHeight
                s += "\(fmt(x + Double(c) * module)) \(fmt(top)) \(fmt(module)) \(fmt(module * rowHeight)) re\n"
            }
        }
        return s + "f\n"
    }

    /// Grey samples of `matrix` with a `quiet`-module light margin: one pixel a module.
    static func raster(_ matrix: [[Bool]], quiet: Int = 4) -> (width: Int, height: Int, samples: [UInt8]) {
        let n = matrix.count, w = matrix[0].count + 2 * quiet, h = n + 2 * quiet
        var px = [UInt8](repeating: 255, count: w * h)
        for (r, row) in matrix.enumerated() { for (c, dark) in row.enumerated() where dark { px[(r + quiet) * w + c + quiet] = 0 } }
        return (w, h, px)
    }

    static func fmt(_ d: Double) -> String { String(format: "%.4f", d) }

    static let pointsPerMM = 72 / 25.4
}

/// SVGs written as text: a code's modules as squares of `unit` in a viewBox of the matrix with
/// a quiet zone, the root's size attributes as given.
enum SVGMaker {
    /// `size`: the root's attributes besides viewBox (e.g. `width="29.7mm" height="9.9mm"`).
    static func code(_ matrix: [[Bool]], quiet: Int = 4, unit: Int = 1, size: String) -> String {
        let n = (matrix.count + 2 * quiet) * unit
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n) \(n)\" \(size)>\n"
        s += "<rect width=\"\(n)\" height=\"\(n)\" fill=\"white\"/>\n<path fill=\"black\" shape-rendering=\"crispEdges\" d=\""
        for (r, row) in matrix.enumerated() {
            for (c, dark) in row.enumerated() where dark { s += "M\((c + quiet) * unit) \((r + quiet) * unit)h\(unit)v\(unit)h-\(unit)z" }
        }
        return s + "\"/>\n</svg>\n"
    }
}
