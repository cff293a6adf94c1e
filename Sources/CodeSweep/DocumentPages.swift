import DocumentBridge
import Imaging
import InputSources
import Records
import SweepCore

/// A PDF's pages as a source of frames: rendered grey by Poppler (consecutive pages at one
/// resolution from one pdftoppm run), each at `DocumentScanner.renderDPI`, within the
/// document's pixel budget; any rectangle of a page rendered again on request, which is how the
/// second look (`DocumentSecondLook`) gets its pixels.
final class PDFPages: ReadableFrames {
    let pdf: PDFRenderer
    let limits: DocumentLimits
    let wanted: Int
    /// Pixels the document may still render.
    private var budget: Int
    private var page = 0
    private var stream: PageStream?
    private var last = -1
    private var complaints = ""
    private var ended: [String] = []

    init(_ pdf: PDFRenderer, limits: DocumentLimits) {
        self.pdf = pdf; self.limits = limits
        wanted = min(pdf.pages.count, limits.maxPages)
        budget = limits.maxFilePixels
    }

    func next() throws(RecordError) -> SourceFrame? {
        if page > 0 && budget <= 0 && page < wanted {
            stream?.stop()
            stream = nil
            ended = ["read \(page) of \(pdf.pageCount) pages: the document's pixel budget (\(limits.maxFilePixels / 1_000_000) MP rendered) is spent"]
            return nil
        }
        if let s = stream, page > last {
            complaints = s.complaints
            stream = nil
            try s.finish()
        }
        guard page < wanted else {
            if pdf.pageCount > wanted && ended.isEmpty {
                ended = [DocumentScanner.unreadPagesWarning(wanted: wanted, pdf: pdf, maxPages: limits.maxPages)]
            }
            return nil
        }
        let dpi = DocumentScanner.renderDPI(pdf.pages[page], limits)
        if stream == nil {
            last = page
            while last + 1 < wanted && DocumentScanner.renderDPI(pdf.pages[last + 1], limits) == dpi { last += 1 }
            stream = try pdf.renderPages(page + 1, last + 1, dpi: dpi)
        }
        guard let image = try stream?.next() else {
            throw RecordError(.corrupt, "pdftoppm rendered \(page) of \(wanted) pages: \(stream?.complaints ?? "")")
        }
        let info = pdf.pages[page]
        let unit = info.userUnit ?? 1
        var notes: [String] = []
        if dpi / unit < limits.dpi {
            notes.append(DocumentScanner.reducedWarning(page: page, widthPoints: info.width * unit, heightPoints: info.height * unit, dpi: dpi / unit, limits))
        }
        let render = PageRender(
            page: page, widthPoints: info.width, heightPoints: info.height, dpi: dpi, width: image.width, height: image.height,
            userUnit: unit, unsized: info.userUnit == nil)
        if let warning = DocumentScanner.degenerateWarning(render) { notes.append(warning) }
        budget -= image.pixelCount
        defer { page += 1 }
        return SourceFrame(image, index: page, page: render, notes: notes)
    }

    /// Page `index` rendered at a resolution, whole or a rectangle of it.
    func pixels(of index: Int, _ request: PixelRequest) throws(RecordError) -> LumaImage? {
        guard case .rendering(let dpi, let region) = request else { return nil }
        if let r = region { return try pdf.renderRegion(page: index + 1, dpi: dpi, x: r.x, y: r.y, width: r.width, height: r.height) }
        let whole = try pdf.renderPages(index + 1, index + 1, dpi: dpi)
        defer { whole.stop() }
        return try whole.next()
    }

    var closingNotes: [String] { ended + (complaints.isEmpty ? [] : ["Poppler: " + complaints]) }

    func lookAgain(at frame: SourceFrame, after codes: [DetectedCode], reader: ReaderOptions) throws(RecordError) -> ReadResult? {
        guard let render = frame.page else { return nil }
        var look = DocumentSecondLook(render: render, limits: limits, budget: budget) { [unowned self] dpi, rect throws(RecordError) in
            try self.rendering(of: render.page, dpi: dpi, region: rect)
        }
        defer { budget = look.budget }
        return try look.result(frame.image, after: codes, reader: reader)
    }
}

/// An SVG as a source of one frame: its drawing rendered by librsvg at
/// `DocumentScanner.firstDPI`; librsvg renders no region alone, so a rectangle on request is cut
/// from the whole drawing rendered again.
final class SVGPages: ReadableFrames {
    let svg: SVGRenderer
    let settings: ScanSettings
    private var given = false

    init(_ svg: SVGRenderer, settings: ScanSettings) {
        self.svg = svg; self.settings = settings
    }

    var limits: DocumentLimits { settings.documents }

    func next() throws(RecordError) -> SourceFrame? {
        guard !given else { return nil }
        given = true
        let w = svg.widthPixels * 0.75, h = svg.heightPixels * 0.75
        let dpi = DocumentScanner.firstDPI(widthPoints: w, heightPoints: h, limits)
        var notes: [String] = []
        if dpi < limits.dpi { notes.append(DocumentScanner.reducedWarning(page: 0, widthPoints: w, heightPoints: h, dpi: dpi, limits)) }
        let image = try DocumentScanner.decodePNG(try svg.render(dpi: dpi), settings)
        let render = PageRender(page: 0, widthPoints: w, heightPoints: h, dpi: dpi, width: image.width, height: image.height, unsized: !svg.sized)
        if !svg.sized {
            notes.append(
                "the SVG gives no print size (its root's width and height are missing or relative, e.g. 100%): "
                    + "its size is the viewBox's in CSS pixels (\(NumberText.trimmed(svg.widthPixels)) x \(NumberText.trimmed(svg.heightPixels)))")
        }
        if let warning = DocumentScanner.degenerateWarning(render) { notes.append(warning) }
        return SourceFrame(image, index: 0, page: render, notes: notes)
    }

    func pixels(of index: Int, _ request: PixelRequest) throws(RecordError) -> LumaImage? {
        guard index == 0, case .rendering(let dpi, let region) = request else { return nil }
        let whole = try DocumentScanner.decodePNG(try svg.render(dpi: dpi), settings)
        return region.map { whole.cropped($0.clamped(width: whole.width, height: whole.height)) } ?? whole
    }

    func lookAgain(at frame: SourceFrame, after codes: [DetectedCode], reader: ReaderOptions) throws(RecordError) -> ReadResult? {
        guard let render = frame.page else { return nil }
        var look = DocumentSecondLook(render: render, limits: limits, budget: limits.maxFilePixels - frame.image.pixelCount) {
            [unowned self] dpi, rect throws(RecordError) in
            try self.rendering(of: 0, dpi: dpi, region: rect)
        }
        look.wholeRenderings = true
        return try look.result(frame.image, after: codes, reader: reader)
    }
}

extension ReadableFrames {
    /// A rendering of a page on request, which a document source always gives.
    func rendering(of page: Int, dpi: Double, region: PixelRect?) throws(RecordError) -> LumaImage {
        guard let image = try pixels(of: page, .rendering(dpi: dpi, region: region)) else {
            throw RecordError(.corrupt, "page \(page + 1) gave no rendering at \(NumberText.trimmed(dpi)) dpi")
        }
        return image
    }
}

extension DocumentSecondLook {
    /// The second look at a page as a read of its own: the codes found in its places, and what
    /// rendering and reading them had to say.
    mutating func result(_ image: LumaImage, after codes: [DetectedCode], reader: ReaderOptions) throws(RecordError) -> ReadResult {
        let found = try read(image, after: codes, reader: reader, frameIndex: render.page)
        var result = ReadResult(codes: found, readerFailures: readerFailures, warnings: warnings)
        result.failedReaders = failedReaders
        return result
    }
}
