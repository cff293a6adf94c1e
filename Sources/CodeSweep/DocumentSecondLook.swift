import DocumentBridge
import Imaging
import Records
import SweepCore

/// The second look at a rendered page: the places the cheap look (`TextureProbe`) finds
/// code-like, or finely textured (modules of a pixel or two), and where nothing was read, are
/// rendered again at 4 and then 8 times the page's resolution (at most `maxRegionDPI` and
/// `maxRegionPixels`) and read there; corners come back to the page's first rendering.
struct DocumentSecondLook {
    let render: PageRender
    let limits: DocumentLimits
    /// Pixels the document may still render.
    var budget: Int
    /// Renders a rectangle of the page, in pixels of a rendering at the given resolution.
    let renderRegion: (Double, PixelRect) throws(RecordError) -> LumaImage
    /// Each rendering is of the whole page (SVG): count its pixels so, not the place's.
    var wholeRenderings = false
    private(set) var readerFailures: [String] = []
    /// The readers that failed (`ReadResult.failedReaders`), each once.
    private(set) var failedReaders: [String] = []
    /// Places that could not be rendered again (the page's first reading stands).
    private(set) var warnings: [String] = []

    /// Places looked at again on one page at most (the biggest first are skipped: a place over a
    /// quarter of the page is text or a picture, read well enough at the first resolution).
    static let maxPlaces = 8
    static let maxPlaceArea = 0.25

    init(
        render: PageRender, limits: DocumentLimits, budget: Int,
        renderRegion: @escaping (Double, PixelRect) throws(RecordError) -> LumaImage
    ) {
        self.render = render; self.limits = limits; self.budget = budget; self.renderRegion = renderRegion
    }

    /// The places of `image` worth a second look, given the codes read on it.
    static func places(_ image: LumaImage, read codes: [DetectedCode]) -> [FractionalBox] {
        let look = TextureProbe.look(views: [image], base: image)
        let boxes = FractionalBox.merged(look.regions + look.fine, maxCount: .max, maxArea: 2)
        let w = Double(image.width), h = Double(image.height)
        return boxes.filter { box in
            guard box.area <= maxPlaceArea else { return false }
            // A place that is mostly a code read already.
            return !codes.contains { code in
                let xs = code.corners.points.map { $0.x / w }, ys = code.corners.points.map { $0.y / h }
                let read = FractionalBox(x0: xs.min()!, y0: ys.min()!, x1: xs.max()!, y1: ys.max()!)
                let common = FractionalBox(x0: max(read.x0, box.x0), y0: max(read.y0, box.y0), x1: min(read.x1, box.x1), y1: min(read.y1, box.y1))
                return common.area >= 0.3 * box.area
            }
        }
        .sorted { $0.area < $1.area }
        .prefix(maxPlaces).map { $0 }
    }

    /// The codes read in the places rendered again (none already in `codes`).
    mutating func read(_ image: LumaImage, after codes: [DetectedCode], reader: ReaderOptions, frameIndex: Int) throws(RecordError) -> [DetectedCode] {
        var found: [DetectedCode] = []
        // With --roi, only places within it, and the place's rendering read whole (the region of
        // interest is the page's, not the place's).
        let roi = reader.roi.map { FractionalBox(x0: $0.x, y0: $0.y, x1: $0.x + $0.width, y1: $0.y + $0.height) }
        var reader = reader
        reader.roi = nil
        for box in Self.places(image, read: codes) where roi.map({ $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 }) ?? true {
            // The place with a margin of a tenth of its size (at least 8 px) for the quiet zone.
            let p = box.pixels(width: image.width, height: image.height)
            let m = max(8, max(p.width, p.height) / 10)
            let rect = PixelRect(x: p.x - m, y: p.y - m, width: p.width + 2 * m, height: p.height + 2 * m)
                .clamped(width: image.width, height: image.height)
            for factor in [4.0, 8.0] {
                let dpi = scaleDPI(factor, rect)
                guard dpi > render.dpi * (factor == 4 ? 1.5 : 4.5) else { break }
                let k = dpi / render.dpi
                let scaled = PixelRect(
                    x: Int((Double(rect.x) * k).rounded(.down)), y: Int((Double(rect.y) * k).rounded(.down)),
                    width: Int((Double(rect.width) * k).rounded(.up)), height: Int((Double(rect.height) * k).rounded(.up)))
                let cost = wholeRenderings ? Int(Double(render.width * render.height) * k * k) : scaled.width * scaled.height
                guard cost <= budget else { return found }
                budget -= cost
                let region: LumaImage
                do { region = try renderRegion(dpi, scaled) } catch {
                    // Out of time is the file's end; any other failure costs this place only.
                    if error.kind == .timeout { throw error }
                    warnings.append("page \(render.page + 1): a place could not be rendered again at \(Int(dpi.rounded())) dpi: \(error.message)")
                    break
                }
                let result = BarcodeReader.read(ReadFrame(region, index: frameIndex), reader)
                readerFailures += result.readerFailures.filter { !readerFailures.contains($0) }
                failedReaders += result.failedReaders.filter { !failedReaders.contains($0) }
                let new = result.codes.map { c in
                    var c = c
                    c.corners = Quad(
                        c.corners.points.map { Point(x: (Double(scaled.x) + $0.x) / k, y: (Double(scaled.y) + $0.y) / k) })
                    c.pass = "\(Int(dpi.rounded()))dpi-" + c.pass
                    return c
                }.filter { c in !(codes + found).contains { $0.symbology == c.symbology && $0.bytes == c.bytes && $0.corners.overlaps(c.corners) } }
                found += new
                if !result.codes.isEmpty { break }
            }
        }
        return found
    }

    /// The resolution a place is rendered again at: `factor` times the page's, within
    /// `maxRegionDPI` and `maxRegionPixels`.
    func scaleDPI(_ factor: Double, _ rect: PixelRect) -> Double {
        var dpi = min(render.dpi * factor, limits.maxRegionDPI)
        // What is rendered: the place, or the whole page where only whole renderings are made.
        let area = wholeRenderings ? render.width * render.height : rect.width * rect.height
        let pixels = Double(area) * (dpi / render.dpi) * (dpi / render.dpi)
        if pixels > Double(limits.maxRegionPixels) { dpi *= (Double(limits.maxRegionPixels) / pixels).squareRoot() }
        return (dpi * 1000).rounded(.down) / 1000
    }
}
