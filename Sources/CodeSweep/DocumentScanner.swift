import DocumentBridge
import Imaging
import MagickBridge
import Records

/// Scans a document (PDF, SVG): each page rendered grey by Poppler or librsvg (separate
/// programs, DocumentBridge) is a frame of its source (`PDFPages`, `SVGPages`), read by the frame
/// loop, then the places that look like codes but were not read are rendered again at a higher
/// resolution (`DocumentSecondLook`). A code's `frame` is its page's index; its corners are in
/// pixels of the page's first rendering, whose resolution `FileRecord.pages` gives. No
/// checkpoint is sent before the isolated reader: a document that runs out of time is a
/// `timeout`, not a partial record blaming the isolated reader for a page still rendering.
enum DocumentScanner {
    /// Reads the document into `record`; a failure is its error (the pages read before it stay).
    static func scan(_ bytes: [UInt8], format: ImageFormat, into record: inout FileRecord, settings: ScanSettings, grader: CodeGrader?) {
        var loop = FrameLoop(settings, grader: grader)
        loop.skipsFlat = true
        do {
            if format == .svg {
                loop.run(SVGPages(try SVGRenderer(bytes, timeoutSeconds: settings.documents.timeoutSeconds), settings: settings), into: &record)
            } else {
                let pages = try openPDF(bytes, into: &record, settings.documents)
                loop.run(pages, into: &record)
            }
        } catch {
            record.error = error
        }
        guard record.error == nil else { return }
        record.frames = record.frames ?? record.pages.count
        if let first = record.pages.first { record.width = first.width; record.height = first.height }
    }

    /// The PDF's pages, its page count and its /UserUnit problems in the record.
    static func openPDF(_ bytes: [UInt8], into record: inout FileRecord, _ limits: DocumentLimits) throws(RecordError) -> PDFPages {
        let pdf = try PDFRenderer(bytes, maxPages: limits.maxPages, timeoutSeconds: limits.timeoutSeconds)
        record.frames = pdf.pageCount
        if let problem = pdf.userUnitProblem {
            record.warnings.append("the pages' /UserUnit could not be read (\(problem)): their print size is not known")
        } else if let bad = pdf.pages.firstIndex(where: { $0.userUnit == nil }) {
            record.warnings.append("page \(bad + 1)'s /UserUnit is not a positive number: its print size is not known")
        }
        return PDFPages(pdf, limits: limits)
    }

    /// The resolution a page is first rendered at: `limits.dpi`, lower when the page would
    /// exceed `maxPagePixels` or 32768 pixels a side.
    static func firstDPI(widthPoints w: Double, heightPoints h: Double, _ limits: DocumentLimits) -> Double {
        var dpi = limits.dpi
        let pixels = w / 72 * h / 72 * dpi * dpi
        if pixels > Double(limits.maxPagePixels) { dpi *= (Double(limits.maxPagePixels) / pixels).squareRoot() }
        let side = max(w, h) / 72 * dpi
        if side > 32_000 { dpi *= 32_000 / side }
        return max(1, (dpi * 1000).rounded(.down) / 1000)
    }

    /// A PDF page's resolution in its own user units: `firstDPI` of its printed size (its
    /// /UserUnit applied), so a page of double-size units is rendered at 300 dpi of them.
    static func renderDPI(_ page: PDFPageInfo, _ limits: DocumentLimits) -> Double {
        let unit = page.userUnit ?? 1
        return firstDPI(widthPoints: page.width * unit, heightPoints: page.height * unit, limits) * unit
    }

    static func reducedWarning(page: Int, widthPoints w: Double, heightPoints h: Double, dpi: Double, _ limits: DocumentLimits) -> String {
        "page \(page + 1) (\(NumberText.trimmed(w / 72, decimals: 1)) x \(NumberText.trimmed(h / 72, decimals: 1)) in) was rendered at "
            + "\(NumberText.trimmed(dpi, decimals: 1)) dpi, not \(NumberText.trimmed(limits.dpi)), to stay within "
            + "\(limits.maxPagePixels / 1_000_000) MP a page: codes with small modules on it may be missed"
    }

    /// Said of a degenerate rendering (`PageRender.isDegenerate`).
    static func degenerateWarning(_ r: PageRender) -> String? {
        guard r.isDegenerate else { return nil }
        return "page \(r.page + 1) (\(NumberText.trimmed(r.widthPoints)) x \(NumberText.trimmed(r.heightPoints)) pt) was rendered as \(r.width) x "
            + "\(r.height) pixels at \(NumberText.trimmed(r.dpi, decimals: 1)) dpi: a degenerate rendering, codes on it were not looked for"
    }

    /// Why pages of the document were not read: `--max-pages`, or pages the document declares
    /// that Poppler could not find (a damaged or looping page tree), with Poppler's words.
    static func unreadPagesWarning(wanted: Int, pdf: PDFRenderer, maxPages: Int) -> String {
        if wanted >= maxPages { return "read \(wanted) of \(pdf.pageCount) pages (--max-pages \(maxPages))" }
        let why = pdf.infoComplaints.isEmpty ? "" : " (Poppler: \(pdf.infoComplaints))"
        return "read \(wanted) of the \(pdf.pageCount) pages the document declares: Poppler finds no page \(wanted + 1)"
            + " in its page tree, which is damaged\(why)"
    }

    static func decodePNG(_ png: [UInt8], _ settings: ScanSettings) throws(RecordError) -> LumaImage {
        var limits = settings.limits
        limits.maxFrames = 1
        let loaded = try ImageLoader.load(png, format: .png, limits: limits)
        guard let frame = loaded.frames.first else { throw RecordError(.corrupt, "librsvg's rendering holds no image") }
        return frame
    }
}
