import Imaging
import Records

/// How much of a document is rendered, and how finely.
public struct DocumentLimits: Sendable, Equatable, Codable {
    /// Pages read from one document at most (`--max-pages`); the rest are left with a warning.
    public var maxPages = 100
    /// Resolution of each page's first, whole-page rendering (pixels per inch).
    public var dpi = 150.0
    /// Pixels of a page's first rendering at most: a bigger page is rendered at a lower
    /// resolution (with a warning).
    public var maxPagePixels = 16_000_000
    /// Highest resolution a place that looks like a code but was not read is rendered again at.
    public var maxRegionDPI = 1200.0
    /// Pixels of one such rendering at most.
    public var maxRegionPixels = 16_000_000
    /// Pixels rendered from one document at most, all pages and places together: the pages past
    /// it are left with a warning.
    public var maxFilePixels = 2_000_000_000
    /// Seconds the renderers of one document may take together (the sweep's `--timeout`).
    public var timeoutSeconds = 60.0
    public init() {}
}

/// A PDF page as `pdfinfo` describes it: its crop box's size and `/Rotate`, with its
/// `/UserUnit` as qpdf reads it from the page's dictionary (nil: not known).
package struct PDFPageInfo: Sendable, Equatable {
    package var cropWidth: Double
    package var cropHeight: Double
    package var rotate: Int
    package var userUnit: Double? = 1
    /// The size a reader shows (turned by `/Rotate`), in points.
    package var width: Double { rotate % 180 == 0 ? cropWidth : cropHeight }
    package var height: Double { rotate % 180 == 0 ? cropHeight : cropWidth }
}

/// Poppler run as separate programs (`pdfinfo`, `pdftoppm` from poppler-utils): CodeSweep's
/// binary links no GPL code. One `PDFRenderer` per document, in the task scanning it.
package final class PDFRenderer {
    let input: DocumentInput
    let deadline: Double
    /// The document's whole time (`--timeout`), named when a renderer runs out of it.
    let timeoutSeconds: Double
    package let pageCount: Int
    package let pages: [PDFPageInfo]
    /// What pdfinfo said on standard error (a damaged page tree: "Loop in Pages tree").
    package let infoComplaints: String

    /// Opens the document with `pdfinfo` and reads the first `maxPages` pages' sizes. A PDF
    /// that needs a password to open is `encrypted`; one Poppler cannot open is `corrupt`
    /// with Poppler's reason.
    package init(_ bytes: [UInt8], maxPages: Int, timeoutSeconds: Double) throws(RecordError) {
        input = try DocumentInput(bytes)
        deadline = ChildProcess.now() + timeoutSeconds
        self.timeoutSeconds = timeoutSeconds
        let info = try ChildProcess("pdfinfo", ["-f", "1", "-l", String(max(1, maxPages)), "-box", "/dev/stdin"], input: input, deadline: deadline)
        let text: [UInt8]
        let status: Int32
        do {
            text = try info.readAll(limit: 64 << 20)
            status = try info.wait()
        } catch {
            throw Self.failure(error, info, timeoutSeconds: timeoutSeconds)
        }
        let reason = info.reason
        infoComplaints = reason
        guard status == 0 else {
            if reason.contains("Incorrect password") {
                throw RecordError(.encrypted, "the PDF is encrypted with a password needed to open it (Poppler: \(reason))")
            }
            throw RecordError(.corrupt, "Poppler cannot open it: \(reason.isEmpty ? "pdfinfo exited with status \(status)" : reason)")
        }
        let parsed = try PDFInfoText.pages(String(decoding: text, as: UTF8.self), maxPages: max(1, maxPages))
        pageCount = parsed.count
        guard pageCount > 0, !parsed.pages.isEmpty else {
            throw RecordError(.corrupt, "Poppler finds no pages in it\(reason.isEmpty ? "" : ": " + reason)")
        }
        let units = PDFUserUnits.read(input, pages: parsed.pages.count, deadline: deadline)
        userUnitProblem = units.problem
        pages = parsed.pages.enumerated().map { i, page in
            var page = page
            page.userUnit = units.values.map { i < $0.count ? $0[i] : nil } ?? nil
            return page
        }
    }

    /// Why the pages' /UserUnit is not known (qpdf missing or failing), for a warning.
    package private(set) var userUnitProblem: String?

    /// A renderer's failure as the file's error: a `RecordError` as it is, out of time or
    /// output as `timeout` or `corrupt` with the renderer's reason.
    static func failure(_ error: any Error, _ p: ChildProcess, timeoutSeconds: Double) -> RecordError {
        if let e = error as? RecordError { return e }
        guard let e = error as? ChildProcess.ReadFailure else { return RecordError(.internalError, "\(error)") }
        switch e {
        case .timedOut:
            return RecordError(
                .timeout,
                "\(p.program) ran past the document's time, \(NumberText.trimmed(timeoutSeconds, decimals: 1)) s (--timeout, for all of its renderers together); it was stopped"
            )
        case .endOfOutput:
            return RecordError(.corrupt, "\(p.program) failed: \(p.reason.isEmpty ? "its output ended early" : p.reason)")
        }
    }

    /// Pages `first...last` (from 1) rendered at `dpi` as grey images, one after another as
    /// Poppler finishes them.
    package func renderPages(_ first: Int, _ last: Int, dpi: Double) throws(RecordError) -> PageStream {
        let p = try ChildProcess(
            "pdftoppm", ["-gray", "-cropbox", "-r", Self.number(dpi), "-f", String(first), "-l", String(last), "/dev/stdin"],
            input: input, deadline: deadline)
        return PageStream(p, timeoutSeconds: timeoutSeconds)
    }

    /// A rectangle of page `page` (from 1), in pixels of a rendering at `dpi`, rendered alone.
    package func renderRegion(page: Int, dpi: Double, x: Int, y: Int, width: Int, height: Int) throws(RecordError) -> LumaImage {
        let p = try ChildProcess(
            "pdftoppm",
            [
                "-gray", "-cropbox", "-r", Self.number(dpi), "-f", String(page), "-l", String(page),
                "-x", String(x), "-y", String(y), "-W", String(width), "-H", String(height), "/dev/stdin",
            ], input: input, deadline: deadline)
        let stream = PageStream(p, timeoutSeconds: timeoutSeconds)
        guard let image = try stream.next() else { throw RecordError(.corrupt, "pdftoppm gave no image of page \(page)") }
        try stream.finish()
        return image
    }

    static func number(_ d: Double) -> String { NumberText.fixed(d, decimals: 3) }
}

/// Grey images (binary PGM) read one at a time from a renderer's output.
package final class PageStream {
    let process: ChildProcess
    /// The document's whole time, as given (not what was left of it when this renderer started):
    /// the message names the limit the user set.
    let timeoutSeconds: Double

    init(_ process: ChildProcess, timeoutSeconds: Double) {
        self.process = process
        self.timeoutSeconds = timeoutSeconds
    }

    /// The next page, or nil at the end of the output.
    package func next() throws(RecordError) -> LumaImage? {
        do {
            if try process.atEnd() { return nil }
            var header: [String] = []
            var word: [UInt8] = []
            while header.count < 4 {
                let c = try process.read(1).first!
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                    if !word.isEmpty { header.append(String(decoding: word, as: UTF8.self)); word = [] }
                } else {
                    word.append(c)
                    guard word.count < 16 else { break }
                }
            }
            guard header.count == 4, header[0] == "P5", let w = Int(header[1]), let h = Int(header[2]), header[3] == "255",
                w > 0, h > 0, w <= 1 << 17, h <= 1 << 17
            else {
                throw RecordError(.corrupt, "\(process.program) wrote something other than a grey image (\(header.joined(separator: " ")))")
            }
            return LumaImage(width: w, height: h, pixels: Array(try process.read(w * h)))
        } catch {
            throw PDFRenderer.failure(error, process, timeoutSeconds: timeoutSeconds)
        }
    }

    /// Waits for the renderer to exit; a failure status is an error with its reason.
    package func finish() throws(RecordError) {
        let status: Int32
        do { status = try process.wait() } catch { throw PDFRenderer.failure(error, process, timeoutSeconds: timeoutSeconds) }
        guard status == 0 else {
            let why = process.reason
            throw RecordError(.corrupt, "\(process.program) failed (status \(status))\(why.isEmpty ? "" : ": " + why)")
        }
    }

    /// Stops the renderer (pages not wanted any more).
    package func stop() { process.kill() }

    /// What the renderer said on standard error so far (Poppler's complaints about a damaged file).
    package var complaints: String { process.reason }
}
