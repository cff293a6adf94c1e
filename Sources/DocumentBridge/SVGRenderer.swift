import Records

#if canImport(Glibc)
import Glibc
#endif

/// librsvg run as a separate program (`rsvg-convert`, librsvg2-bin), the SVG given on its
/// standard input: with no file name librsvg has no base to resolve a reference against, so it
/// loads nothing outside the file (no `file:`, `http:` or relative image, no XInclude; only
/// `data:` URLs inside it). Entities are expanded within libxml2's default limits (librsvg's
/// `--unlimited` is never passed): an entity bomb is refused as a parse error.
package final class SVGRenderer {
    let input: DocumentInput
    let deadline: Double
    let timeoutSeconds: Double
    /// The drawing's size in CSS pixels (1/96 inch) as librsvg computes it.
    package private(set) var widthPixels = 0.0
    package private(set) var heightPixels = 0.0
    /// Whether the root gives the drawing a size in absolute units (`SVGRootSize`): without
    /// one, the size above is the viewBox's in CSS pixels, not a print size.
    package let sized: Bool

    package init(_ bytes: [UInt8], timeoutSeconds: Double) throws(RecordError) {
        input = try DocumentInput(bytes)
        sized = SVGRootSize.isSized(bytes)
        self.timeoutSeconds = timeoutSeconds
        deadline = ChildProcess.now() + timeoutSeconds
        // The size: librsvg's own rendering to SVG (vector output, no pixels), whose root says it.
        let p = try start(["--format", "svg"])
        let head: [UInt8]
        do {
            head = try p.readAll(limit: 4096)
        } catch {
            throw PDFRenderer.failure(error, p, timeoutSeconds: timeoutSeconds)
        }
        guard let size = Self.size(String(decoding: head, as: UTF8.self)) else {
            do { _ = try p.wait() } catch { throw PDFRenderer.failure(error, p, timeoutSeconds: timeoutSeconds) }
            let why = p.reason
            throw RecordError(.corrupt, "librsvg cannot render it: \(why.isEmpty ? "no drawing size" : Self.explained(why))")
        }
        p.kill()
        (widthPixels, heightPixels) = size
        guard widthPixels > 0, heightPixels > 0 else { throw RecordError(.corrupt, "the SVG's drawing is empty (\(widthPixels) x \(heightPixels))") }
    }

    private func start(_ arguments: [String]) throws(RecordError) -> ChildProcess {
        // Each renderer reads standard input from the start (the descriptor's offset is shared).
        _ = lseek(input.fd, 0, SEEK_SET)
        return try ChildProcess("rsvg-convert", arguments, input: input, deadline: deadline)
    }

    /// libxml2 (which librsvg parses SVG with) stops at an attribute value of more than
    /// 10,000,000 bytes, and librsvg passes on only its last words, "Couldn't find end of Start
    /// Tag … column 10000152": said here as what it is, the limit and the attribute (most often
    /// the `data:` URI of an embedded picture), with libxml2's words after it.
    static let attributeLimit = 10_000_000

    static func explained(_ reason: String) -> String {
        guard reason.contains("Couldn't find end of Start Tag") || reason.contains("AttValue length too long"),
            let r = reason.range(of: "column "),
            let column = Int(reason[r.upperBound...].prefix { $0.isNumber }), column > attributeLimit
        else { return reason }
        return "an attribute value is longer than libxml2's limit of \(attributeLimit) bytes (10 MB), most likely the data: URI of "
            + "an embedded picture; librsvg reads no SVG with a longer one (libxml2: \(reason))"
    }

    /// The root element's width and height in `rsvg-convert --format svg`'s output.
    static func size(_ text: String) -> (Double, Double)? {
        guard let root = text.range(of: "<svg") else { return nil }
        let tag = text[root.upperBound...].prefix { $0 != ">" }
        func attribute(_ name: String) -> Double? {
            guard let r = tag.range(of: " \(name)=\"") else { return nil }
            let value = tag[r.upperBound...].prefix { $0 != "\"" }
            return Double(value.filter { $0.isNumber || $0 == "." })
        }
        guard let w = attribute("width"), let h = attribute("height") else { return nil }
        return (w, h)
    }

    /// The drawing rendered at `dpi` (96 is 1 CSS pixel a pixel) on white, as PNG bytes.
    package func render(dpi: Double) throws(RecordError) -> [UInt8] {
        let p = try start(["--format", "png", "--background-color", "white", "--zoom", PDFRenderer.number(dpi / 96)])
        do {
            let png = try p.readAll(limit: 1 << 30)
            let status = try p.wait()
            guard status == 0 else {
                let why = p.reason
                throw RecordError(.corrupt, "librsvg cannot render it: \(why.isEmpty ? "rsvg-convert exited with status \(status)" : Self.explained(why))")
            }
            return png
        } catch {
            throw PDFRenderer.failure(error, p, timeoutSeconds: timeoutSeconds)
        }
    }
}
