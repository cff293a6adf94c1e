import CMagickWand
import Imaging
import Records

#if canImport(Glibc)
import Glibc
#endif

/// One code to draw: its corners (upright full-resolution pixels, clockwise from the code's own
/// top-left) and a short label (already escaped for display; nil draws no label).
package struct AnnotationMark: Sendable, Equatable {
    package var corners: [Point]
    package var label: String?
    package init(corners: [Point], label: String?) { self.corners = corners; self.label = label }
}

/// The two formats annotated images and thumbnails are written in (the only coders the policy
/// lets ImageMagick write).
package enum PictureFormat: String, Sendable {
    case png, jpeg
    var coder: String { self == .png ? "PNG" : "JPEG" }
    package var fileExtension: String { self == .png ? "png" : "jpg" }
}

/// An encoded image: the file's bytes and its pixel size.
package struct EncodedPicture: Sendable {
    package var bytes: [UInt8]
    package var width: Int
    package var height: Int
    /// False when labels were asked for but could not be drawn (no usable font): outlines only.
    package var labelsDrawn: Bool
    /// Where each label was drawn (`LabelLayout`), in the order of the marks that have one.
    package var labels: [LabelBox] = []
    /// The first-corner dot's outer radius, in pixels.
    package var firstCornerRadius: Double = 0
}

/// Pictures of what was found: annotated upright copies and thumbnails.
/// Every wand is created and destroyed inside the call, in the calling task.
package enum Annotator {
    /// Colours (also used by tests to find the outline).
    package static let outlineColor = "#FF00FF"
    package static let firstCornerColor = "#00E000"
    package static let cornerColor = "#FF00FF"

    /// A TrueType font file for labels, or nil (labels are then left out). CODESWEEP_FONT
    /// overrides; otherwise the first DejaVu/Liberation/Noto sans found in the usual Debian places.
    /// A file path is given to FreeType directly, so no font configuration (type.xml,
    /// fontconfig) and no Ghostscript delegate is involved.
    package static let fontPath: String? = {
        var candidates: [String] = []
        if let env = getenv("CODESWEEP_FONT") { candidates.append(String(cString: env)) }
        candidates += [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
            "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
            "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        ]
        var st = stat()
        return candidates.first { !$0.isEmpty && stat($0, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG }
    }()

    /// Draws each mark on frame `frame` of the image, upright (EXIF orientation applied), and
    /// returns it encoded. `expectedSize` (the record's upright size) guards against a file that
    /// changed since it was scanned: corners would land in the wrong place.
    package static func annotate(
        _ bytes: [UInt8], format: ImageFormat, frame: Int = 0, marks: [AnnotationMark],
        as output: PictureFormat, expectedSize: (width: Int, height: Int)? = nil,
        font: String? = Annotator.fontPath,
        limits: LoadLimits = LoadLimits()
    ) throws(RecordError) -> EncodedPicture {
        try withUprightFrame(bytes, format: format, frame: frame, limits: limits) { (wand) throws(RecordError) -> EncodedPicture in
            let w = Int(MagickGetImageWidth(wand)), h = Int(MagickGetImageHeight(wand))
            if let e = expectedSize, e.width != w || e.height != h {
                throw RecordError(.corrupt, "image is \(w)x\(h) now but was \(e.width)x\(e.height) when scanned")
            }
            let side = Double(min(w, h))
            let stroke = max(2, (side / 250).rounded())
            let dot = max(3, stroke * 1.8)
            guard drawOutlines(wand, marks: marks, stroke: stroke, dot: dot) else {
                throw RecordError(.internalError, "cannot draw outlines: \(ImageLoader.exception(wand)?.message ?? "no reason given")")
            }
            var labelsDrawn = true
            var boxes: [LabelBox] = []
            if marks.contains(where: { $0.label?.isEmpty == false }) {
                if let font {
                    // The gap clears the first corner's dot (its white rim is 2.2 dots wide).
                    let drawn = drawLabels(
                        wand, marks: marks, font: font, size: max(12, (side / 40).rounded()),
                        width: w, height: h, dotRadius: dot * 2.2, gap: dot * 2.2 + 3)
                    labelsDrawn = drawn != nil
                    boxes = drawn ?? []
                    MagickClearException(wand)
                } else {
                    labelsDrawn = false
                }
            }
            let encoded = try encode(wand, as: output)
            var picture = EncodedPicture(bytes: encoded, width: w, height: h, labelsDrawn: labelsDrawn)
            picture.labels = boxes
            picture.firstCornerRadius = dot * 2.2
            return picture
        }
    }

    /// Frame 0, upright, scaled down to fit `maxSide` (never up), encoded. Also returns nothing
    /// of the original but its pixels: metadata is stripped.
    package static func thumbnail(
        _ bytes: [UInt8], format: ImageFormat, frame: Int = 0, maxSide: Int, as output: PictureFormat = .jpeg,
        limits: LoadLimits = LoadLimits()
    ) throws(RecordError) -> EncodedPicture {
        try withUprightFrame(bytes, format: format, frame: frame, limits: limits) { (wand) throws(RecordError) -> EncodedPicture in
            let w = Int(MagickGetImageWidth(wand)), h = Int(MagickGetImageHeight(wand))
            let s = min(1, Double(maxSide) / Double(max(w, h)))
            let tw = max(1, Int((Double(w) * s).rounded())), th = max(1, Int((Double(h) * s).rounded()))
            if tw != w || th != h {
                guard MagickThumbnailImage(wand, tw, th) == MagickTrue else {
                    throw RecordError(.internalError, "cannot scale: \(ImageLoader.exception(wand)?.message ?? "no reason given")")
                }
            }
            let encoded = try encode(wand, as: output, quality: 80)
            return EncodedPicture(bytes: encoded, width: tw, height: th, labelsDrawn: false)
        }
    }

    // MARK: - Loading

    /// Decodes the image with the same checks as ImageLoader (header size before any pixel,
    /// explicit coder), picks one frame, makes it upright sRGB without alpha, and hands the
    /// one-image wand to `body`. The wand never leaves this call.
    /// This runs in the coordinator, which has no memory limit of its own: a PNG's text chunks
    /// are dropped first (a zTXt chunk inflating to gigabytes would be inflated whole).
    static func withUprightFrame<T>(
        _ file: [UInt8], format: ImageFormat, frame: Int, limits: LoadLimits,
        _ body: (OpaquePointer) throws(RecordError) -> T
    ) throws(RecordError) -> T {
        let bytes = format == .png ? PNGChunks.withoutText(file) : file
        MagickEnvironment.start()
        guard !bytes.isEmpty else { throw RecordError(.empty, "file is empty") }
        if let (w, h) = ImageHeader.declaredSize(bytes, format: format),
            w * h > limits.maxPixels || max(w, h) > limits.maxSide || w == 0 || h == 0
        {
            throw RecordError(.tooLarge, "\(format.rawValue) header declares \(w)x\(h) pixels")
        }
        guard let wand = NewMagickWand() else { throw RecordError(.internalError, "cannot create MagickWand") }
        defer { DestroyMagickWand(wand) }
        _ = MagickSetFormat(wand, format.magickCoder)
        try pingFrames(wand, bytes, format: format, upTo: frame, limits: limits)
        ClearMagickWand(wand)
        _ = MagickSetFormat(wand, format.magickCoder)
        _ = MagickSetFilename(wand, "[0-\(frame)]")
        let ok = bytes.withUnsafeBytes { MagickReadImageBlob(wand, $0.baseAddress, $0.count) }
        guard ok == MagickTrue else {
            throw ImageLoader.classify(ImageLoader.exception(wand), format: format, fallback: "cannot decode image")
        }
        MagickClearException(wand)
        var work = wand
        var coalesced: OpaquePointer? = nil
        if format == .gif && MagickGetNumberImages(wand) > 1 {
            coalesced = MagickCoalesceImages(wand)
            if let c = coalesced { work = c }
        }
        defer { if let c = coalesced { DestroyMagickWand(c) } }
        guard frame < Int(MagickGetNumberImages(work)), MagickSetIteratorIndex(work, frame) == MagickTrue,
            let one = MagickGetImage(work)
        else {
            throw RecordError(.corrupt, "image has no frame \(frame)")
        }
        defer { DestroyMagickWand(one) }
        if MagickGetImageColorspace(one) == CMYKColorspace {
            _ = MagickTransformImageColorspace(one, sRGBColorspace)
        }
        if MagickGetImageAlphaChannel(one) == MagickTrue {
            let white = NewPixelWand()
            defer { if let white { DestroyPixelWand(white) } }
            _ = PixelSetColor(white, "white")
            _ = MagickSetImageBackgroundColor(one, white)
            _ = MagickSetImageAlphaChannel(one, RemoveAlphaChannel)
        }
        // Gray or palette images would turn coloured marks grey: draw on true colour.
        _ = MagickSetImageType(one, TrueColorType)
        let orientation = Int(MagickGetImageOrientation(one).rawValue)
        if (2...8).contains(orientation) { _ = MagickAutoOrientImage(one) }
        // No EXIF orientation (or other metadata) in what is written: it is upright already.
        _ = MagickStripImage(one)
        _ = MagickSetImageOrientation(one, TopLeftOrientation)
        _ = MagickSetImagePage(one, 0, 0, 0, 0)
        return try body(one)
    }

    /// Pings frames 0...`frame` (a GIF frame is composed on those before it) and checks them
    /// against the same per-file budget as ImageLoader's: this runs in the coordinator.
    static func pingFrames(_ wand: OpaquePointer, _ bytes: [UInt8], format: ImageFormat, upTo frame: Int, limits: LoadLimits) throws(RecordError) {
        guard frame >= 0 else { throw RecordError(.corrupt, "image has no frame \(frame)") }
        _ = MagickSetFilename(wand, "[0-\(frame)]")
        let pinged = bytes.withUnsafeBytes { MagickPingImageBlob(wand, $0.baseAddress, $0.count) }
        guard pinged == MagickTrue else {
            throw ImageLoader.classify(ImageLoader.exception(wand), format: format, fallback: "cannot read image header")
        }
        let count = Int(MagickGetNumberImages(wand))
        guard frame < count else { throw RecordError(.corrupt, "image has no frame \(frame)") }
        MagickResetIterator(wand)
        var total = 0, canvas = 0
        for i in 0..<count {
            _ = MagickSetIteratorIndex(wand, i)
            let w = Int(MagickGetImageWidth(wand)), h = Int(MagickGetImageHeight(wand))
            if w * h > limits.maxPixels || max(w, h) > limits.maxSide {
                throw RecordError(.tooLarge, "frame \(i) is \(w)x\(h) pixels")
            }
            total += w * h
            var pw = 0, ph = 0, px = 0, py = 0
            if MagickGetImagePage(wand, &pw, &ph, &px, &py) == MagickTrue { canvas = max(canvas, pw * ph, w * h) }
        }
        if format == .gif && count > 1 { total += count * canvas }
        if total > limits.maxTotalPixels {
            throw RecordError(
                .tooLarge,
                "decoding frames 0...\(frame) would take \(ImageLoader.megapixels(total)) megapixels; the budget is \(ImageLoader.megapixels(limits.maxTotalPixels)) megapixels per file"
            )
        }
    }

    static func encode(_ wand: OpaquePointer, as output: PictureFormat, quality: Int = 90) throws(RecordError) -> [UInt8] {
        // Both: the wand's own format (copied from the reading wand) also decides the coder.
        _ = MagickSetFormat(wand, output.coder)
        _ = MagickSetImageFormat(wand, output.coder)
        if output == .jpeg { _ = MagickSetImageCompressionQuality(wand, quality) }
        var length = 0
        guard let blob = MagickGetImageBlob(wand, &length), length > 0 else {
            throw RecordError(.internalError, "cannot encode \(output.rawValue): \(ImageLoader.exception(wand)?.message ?? "no reason given")")
        }
        defer { MagickRelinquishMemory(blob) }
        return Array(UnsafeBufferPointer(start: blob, count: length))
    }

    // MARK: - Drawing

    static func withPixel<T>(_ color: String, _ body: (OpaquePointer?) -> T) -> T {
        let p = NewPixelWand()
        defer { if let p { DestroyPixelWand(p) } }
        _ = PixelSetColor(p, color)
        return body(p)
    }

    /// The polygon through the four corners, a dot on each corner and a larger ring-and-dot on
    /// the first (the code's own top-left).
    static func drawOutlines(_ wand: OpaquePointer, marks: [AnnotationMark], stroke: Double, dot: Double) -> Bool {
        guard let dw = NewDrawingWand() else { return false }
        defer { DestroyDrawingWand(dw) }
        withPixel("none") { none in
            withPixel(outlineColor) { outline in
                DrawSetFillColor(dw, none)
                DrawSetStrokeColor(dw, outline)
            }
        }
        DrawSetStrokeWidth(dw, stroke)
        DrawSetStrokeAntialias(dw, MagickFalse)
        DrawSetStrokeLineJoin(dw, RoundJoin)
        for m in marks where m.corners.count >= 2 {
            let pts = m.corners.map { PointInfo(x: $0.x, y: $0.y) }
            pts.withUnsafeBufferPointer { DrawPolygon(dw, pts.count, $0.baseAddress) }
        }
        withPixel("none") { DrawSetStrokeColor(dw, $0) }
        for m in marks {
            for (i, c) in m.corners.enumerated() {
                if i == 0 {
                    // First corner: a green disc with a white rim, clearly unlike the others.
                    withPixel("white") { DrawSetFillColor(dw, $0) }
                    DrawCircle(dw, c.x, c.y, c.x + dot * 2.2, c.y)
                    withPixel(firstCornerColor) { DrawSetFillColor(dw, $0) }
                    DrawCircle(dw, c.x, c.y, c.x + dot * 1.6, c.y)
                } else {
                    withPixel(cornerColor) { DrawSetFillColor(dw, $0) }
                    DrawCircle(dw, c.x, c.y, c.x + dot, c.y)
                }
            }
        }
        return MagickDrawImage(wand, dw) == MagickTrue
    }

    /// Labels white on a dark band, placed by `LabelLayout` (above each code's box, else below
    /// or further off, never over another label, a code or a first-corner dot).
    /// MagickAnnotateImage passes the text to AnnotateImage as is: unlike DrawAnnotation, the
    /// payload is never pasted into MVG and parsed again. Returns where the labels went, or nil
    /// if the font fails.
    static func drawLabels(
        _ wand: OpaquePointer, marks: [AnnotationMark], font: String, size: Double,
        width: Int, height: Int, dotRadius: Double, gap: Double
    ) -> [LabelBox]? {
        guard let dw = NewDrawingWand() else { return nil }
        defer { DestroyDrawingWand(dw) }
        guard DrawSetFont(dw, font) == MagickTrue else { return nil }
        DrawSetFontSize(dw, size)
        withPixel("white") { DrawSetFillColor(dw, $0) }
        withPixel("#000000C0") { DrawSetTextUnderColor(dw, $0) }
        DrawSetTextAntialias(dw, MagickTrue)
        DrawSetGravity(dw, NorthWestGravity)
        var sizes: [(width: Double, height: Double)?] = []
        for m in marks {
            guard let label = m.label, !label.isEmpty, !m.corners.isEmpty else { sizes.append(nil); continue }
            guard let metrics = MagickQueryFontMetrics(wand, dw, label) else { return nil }
            // [4] text width, [5] text height.
            sizes.append((metrics[4], metrics[5]))
            MagickRelinquishMemory(metrics)
        }
        let places = LabelLayout.place(
            codes: marks.map(\.corners), sizes: sizes, pictureWidth: Double(width), pictureHeight: Double(height),
            dotRadius: dotRadius, gap: gap)
        var drawn: [LabelBox] = []
        for (m, place) in zip(marks, places) {
            guard let label = m.label, let place else { continue }
            if MagickAnnotateImage(wand, dw, place.x, place.y, 0, label) != MagickTrue { return nil }
            drawn.append(place)
        }
        return drawn
    }
}
