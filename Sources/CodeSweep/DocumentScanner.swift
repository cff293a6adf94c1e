import DocumentBridge
import Imaging
import MagickBridge
import Records

/// Scans a document (PDF, SVG): each page rendered grey by Poppler or librsvg (separate
/// programs, DocumentBridge) is a frame read by the engine, then the places that look like codes
/// but were not read are rendered again at a higher resolution (`DocumentSecondLook`). A code's
/// `frame` is its page's index; its corners are in pixels of the page's first rendering, whose
/// resolution `FileRecord.pages` gives.
enum DocumentScanner {
    /// What one page's reading needs beyond the page: settings and the grader. No checkpoint
    /// is sent before the second decoder: a document that runs out of time is a `timeout`, not
    /// a partial record blaming the second decoder for a page still rendering.
    struct Context {
        var settings: ScanSettings
        var grader: CodeGrader?
        var limits: DocumentLimits { settings.documents }
    }

    /// Reads the document into `record`; a failure is its error.
    static func scan(_ bytes: [UInt8], format: ImageFormat, into record: inout FileRecord, _ context: Context) {
        do { try scanPages(bytes, format: format, into: &record, context) } catch { record.error = error }
    }

    static func scanPages(_ bytes: [UInt8], format: ImageFormat, into record: inout FileRecord, _ context: Context) throws(RecordError) {
        if context.settings.grade && context.grader == nil {
            throw RecordError(.internalError, "grading was asked for, but this process has no grader")
        }
        if format == .svg {
            try scanSVG(bytes, into: &record, context)
        } else {
            try scanPDF(bytes, into: &record, context)
        }
        record.frames = record.frames ?? record.pages.count
        if let first = record.pages.first { record.width = first.width; record.height = first.height }
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

    static func scanPDF(_ bytes: [UInt8], into record: inout FileRecord, _ context: Context) throws(RecordError) {
        let limits = context.limits
        let pdf = try PDFRenderer(bytes, maxPages: limits.maxPages, timeoutSeconds: limits.timeoutSeconds)
        record.frames = pdf.pageCount
        if let problem = pdf.userUnitProblem {
            record.warnings.append("the pages' /UserUnit could not be read (\(problem)): their print size is not known")
        } else if let bad = pdf.pages.firstIndex(where: { $0.userUnit == nil }) {
            record.warnings.append("page \(bad + 1)'s /UserUnit is not a positive number: its print size is not known")
        }
        let wanted = min(pdf.pages.count, limits.maxPages)
        var budget = limits.maxFilePixels
        var page = 0
        var complaints = ""
        defer { if !complaints.isEmpty { record.warnings.append("Poppler: " + complaints) } }
        while page < wanted {
            // Consecutive pages rendered at the same resolution come from one pdftoppm run.
            let dpi = renderDPI(pdf.pages[page], limits)
            var last = page
            while last + 1 < wanted
                && renderDPI(pdf.pages[last + 1], limits) == dpi
            {
                last += 1
            }
            let stream = try pdf.renderPages(page + 1, last + 1, dpi: dpi)
            while page <= last {
                guard let image = try stream.next() else {
                    throw RecordError(.corrupt, "pdftoppm rendered \(page) of \(wanted) pages: \(stream.complaints)")
                }
                let info = pdf.pages[page]
                let unit = info.userUnit ?? 1
                if dpi / unit < limits.dpi {
                    record.warnings.append(
                        reducedWarning(page: page, widthPoints: info.width * unit, heightPoints: info.height * unit, dpi: dpi / unit, limits))
                }
                let render = PageRender(
                    page: page, widthPoints: info.width, heightPoints: info.height, dpi: dpi, width: image.width, height: image.height,
                    userUnit: info.userUnit ?? 1, unsized: info.userUnit == nil)
                if let warning = degenerateWarning(render) { record.warnings.append(warning) }
                budget -= image.pixelCount
                var look = DocumentSecondLook(render: render, limits: limits, budget: budget) { rdpi, rect throws(RecordError) in
                    try pdf.renderRegion(page: page + 1, dpi: rdpi, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
                }
                try read(image, render, &look, into: &record, context)
                budget = look.budget
                page += 1
                if budget <= 0 && page < wanted {
                    stream.stop()
                    record.warnings.append(
                        "read \(page) of \(pdf.pageCount) pages: the document's pixel budget (\(limits.maxFilePixels / 1_000_000) MP rendered) is spent")
                    return
                }
            }
            complaints = stream.complaints
            try stream.finish()
        }
        if pdf.pageCount > wanted {
            record.warnings.append(unreadPagesWarning(wanted: wanted, pdf: pdf, maxPages: limits.maxPages))
        }
    }

    /// Why pages of the document were not read: `--max-pages`, or pages the document declares
    /// that Poppler could not find (a damaged or looping page tree), with Poppler's words.
    static func unreadPagesWarning(wanted: Int, pdf: PDFRenderer, maxPages: Int) -> String {
        if wanted >= maxPages { return "read \(wanted) of \(pdf.pageCount) pages (--max-pages \(maxPages))" }
        let why = pdf.infoComplaints.isEmpty ? "" : " (Poppler: \(pdf.infoComplaints))"
        return "read \(wanted) of the \(pdf.pageCount) pages the document declares: Poppler finds no page \(wanted + 1)"
            + " in its page tree, which is damaged\(why)"
    }

    static func scanSVG(_ bytes: [UInt8], into record: inout FileRecord, _ context: Context) throws(RecordError) {
        let limits = context.limits
        let svg = try SVGRenderer(bytes, timeoutSeconds: limits.timeoutSeconds)
        let w = svg.widthPixels * 0.75, h = svg.heightPixels * 0.75
        let dpi = firstDPI(widthPoints: w, heightPoints: h, limits)
        if dpi < limits.dpi { record.warnings.append(reducedWarning(page: 0, widthPoints: w, heightPoints: h, dpi: dpi, limits)) }
        let image = try decodePNG(try svg.render(dpi: dpi), context.settings)
        let render = PageRender(page: 0, widthPoints: w, heightPoints: h, dpi: dpi, width: image.width, height: image.height, unsized: !svg.sized)
        if !svg.sized {
            record.warnings.append(
                "the SVG gives no print size (its root's width and height are missing or relative, e.g. 100%): "
                    + "its size is the viewBox's in CSS pixels (\(NumberText.trimmed(svg.widthPixels)) x \(NumberText.trimmed(svg.heightPixels)))")
        }
        if let warning = degenerateWarning(render) { record.warnings.append(warning) }
        // librsvg renders no region alone: the place is cut from the whole drawing rendered again.
        var look = DocumentSecondLook(render: render, limits: limits, budget: limits.maxFilePixels - image.pixelCount) { rdpi, rect throws(RecordError) in
            let whole = try decodePNG(try svg.render(dpi: rdpi), context.settings)
            return whole.cropped(rect.clamped(width: whole.width, height: whole.height))
        }
        look.wholeRenderings = true
        try read(image, render, &look, into: &record, context)
    }

    /// Whether every pixel is within 24 grey levels of every other (no code is read at less).
    static func isFlat(_ image: LumaImage) -> Bool {
        var lo: UInt8 = 255, hi: UInt8 = 0
        for p in image.pixels {
            lo = min(lo, p); hi = max(hi, p)
            if hi &- lo >= 24 { return false }
        }
        return true
    }

    static func decodePNG(_ png: [UInt8], _ settings: ScanSettings) throws(RecordError) -> LumaImage {
        var limits = settings.limits
        limits.maxFrames = 1
        let loaded = try ImageLoader.load(png, format: .png, limits: limits)
        guard let frame = loaded.frames.first else { throw RecordError(.corrupt, "librsvg's rendering holds no image") }
        return frame
    }

    /// One page: the engine on the first rendering, the second look at what it did not read,
    /// the grader on the codes (on the first rendering, whose pixels the corners are in).
    static func read(
        _ image: LumaImage, _ render: PageRender, _ look: inout DocumentSecondLook, into record: inout FileRecord, _ context: Context
    ) throws(RecordError) {
        let index = render.page
        record.pages.append(render)
        // A page without contrast anywhere (a blank page) holds no code: the engine is spared it.
        guard !isFlat(image) else { return }
        let result = BarcodeReader.read(ReadFrame(image, index: index), context.settings.reader)
        var codes = result.codes
        codes += try look.read(image, after: codes, reader: context.settings.reader, frameIndex: index)
        record.warnings += look.warnings.filter { !record.warnings.contains($0) }
        for failure in result.decoderFailures + look.decoderFailures {
            let warning = "second decoder: " + failure + "; ZBar's codes are complete"
            if !record.warnings.contains(warning) { record.warnings.append(warning) }
        }
        let failedReaders = result.failedReaders + look.failedReaders.filter { !result.failedReaders.contains($0) }
        if !failedReaders.isEmpty { record.failedDecoder = failedReaders.joined(separator: ",") }
        if context.settings.grade, let grader = context.grader {
            if record.measurements.count < record.codes.count {
                record.measurements += Array(repeating: nil, count: record.codes.count - record.measurements.count)
            }
            record.measurements += codes.map { grader.measure($0, image) }
        }
        record.codes += codes
    }
}
