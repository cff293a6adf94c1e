import Foundation
import Imaging
import Readers
import Records

/// Weak EAN/UPC reads in large photos (`PlanSettings.linearConfirmBelow`): held aside by the
/// merger until a second view confirms them, and the cheap confirmation tried for each: the
/// decoder on crops around the read at other scales, or from other pixels, than its view's.
/// The held reads are the merger's (`CodeMerger.held`): the executor hands it over.
struct LinearConfirmation {
    let frame: FrameViews
    let options: ReaderOptions
    let trace: (@Sendable (String) -> Void)?
    /// The passes whose reads need no confirmation: on a clean digital frame, its own passes
    /// (those of the plan's digital list that no photo pass shares a name with). A drawn
    /// code's bars are what they are; the 300 EAN-13s of a label sheet, each read by zxing-cpp
    /// on 6 to 29 lines, waited for a confirmation no pass of the digital path gives.
    var sureOnDigital: Set<String> = []
    var settings: PlanSettings { options.plan.settings }

    /// The name reads from a confirmation crop carry when they are new codes.
    static let confirmationPass = "confirm-linear"

    /// Whether a read counts only once confirmed: a weak EAN/UPC read of a photo pass in a large frame.
    func needsConfirmation(_ code: DetectedCode) -> Bool {
        !sureOnDigital.contains(code.pass) && code.quality < settings.linearConfirmBelow && settings.linearConfirmSymbologies.contains(code.symbology)
            && frame.fullMegapixels >= settings.linearConfirmMegapixels
    }

    /// Takes one read of a pass into the frame's codes (`merged`); a read that needs
    /// confirmation is held, with the view it came from (`source`: the pass's steps) and that
    /// view's geometry.
    func take(_ code: DetectedCode, source: [PassStep], toFull: Homography, view: LumaImage, into merged: inout CodeMerger) {
        guard needsConfirmation(code) else { merged.add(code); return }
        var read = ReadView(toFull, at: Point(x: Double(view.width) / 2, y: Double(view.height) / 2))
        read.reducedDecode = frame.baseScale < 0.999
        read.filtered = source.contains { !$0.isResampling }
        if merged.hold(code, source: source.map(\.description).joined(separator: " → "), view: read) {
            trace?("hold \(code.symbology.rawValue) quality=\(code.quality) pass=\(code.pass)")
        }
    }

    /// The confirmation step, after a pass of a reader that `confirmsWeakReads` (ZBar), by it: each held read not tried yet gets crops around
    /// it at other scales or from other pixels than the view that read it, until one confirms
    /// it: full resolution (for a read in a reduced view; decoded now if the frame is not yet),
    /// the read's own scale made from full resolution (when those are other pixels than its
    /// view's), half the read's scale. Each crop is turned as the read's view was. Whatever a
    /// crop reads is taken like a pass's reads: the same code confirms the held one; another
    /// weak read there is held in turn (and not cropped again).
    func confirmHeld(_ symbols: Set<Symbology>, _ reader: ViewReader, _ merged: inout CodeMerger) {
        let wanted = symbols.intersection(settings.linearConfirmSymbologies)
        guard !wanted.isEmpty else { return }
        while let i = merged.held.firstIndex(where: { !$0.checked }) {
            merged.markChecked(i)
            let held = merged.held[i]
            // Sure reads of another symbology the full-resolution crop made over the held read.
            var overruled = false
            for (target, needsFull) in held.view.confirmationScales {
                if needsFull || target > frame.baseScale * 1.01 { frame.decodeFullResolution() }
                if needsFull && frame.baseScale < 0.999 { continue }
                guard let view = confirmationView(held, scale: target) else { continue }
                let source = "confirm(\(format(target)) of full)"
                let toFull = Homography(frame.baseToFull).concatenating(view.toBase)
                let start = ContinuousClock.now
                var read: [String] = []
                // At full resolution every linear symbology of the pass is read, to see what the
                // held read's bars are (the others' reads only overrule; they are not taken).
                let asked = target > 0.999 ? wanted.union(symbols.filter { !$0.isTwoDimensional }) : wanted
                for raw in reader.read(view.image, ViewRequest(asked)).symbols where options.accepts(raw, scanned: options.scanned) {
                    let code = DetectedCode(raw, in: view.image, toFull: toFull, frame: held.code.frame, pass: Self.confirmationPass)
                    read.append("\(raw.symbology.rawValue)/\(raw.quality)")
                    if target > 0.999 && CodeMerger.overrules(code, held.code) && code.quality >= settings.linearConfirmBelow { overruled = true }
                    guard wanted.contains(raw.symbology) else { continue }
                    if needsConfirmation(code) {
                        let crop = ReadView(toFull, at: Point(x: Double(view.image.width) / 2, y: Double(view.image.height) / 2))
                        merged.hold(code, source: source, view: crop, checked: true)
                    } else {
                        merged.add(code)
                    }
                }
                let confirmed = merged.codes.contains { CodeMerger.same($0, held.code) }
                trace?(
                    "confirm \(held.code.symbology.rawValue) quality=\(held.code.quality) pass=\(held.code.pass) at=\(format(target)) ms=\(ms(since: start)) size=\(view.image.width)x\(view.image.height) read=\(read.joined(separator: ",")) confirmed=\(confirmed)"
                )
                if confirmed { break }
            }
            // Unconfirmed where full resolution reads another code, surely, on its bars: a
            // misread of that code (ZBar's DataBar on an EAN-13's bars), which a later view
            // misreading it the same way must not confirm.
            if overruled, let j = merged.held.firstIndex(where: { $0.code == held.code }) {
                merged.refute(j)
                trace?("refuted \(held.code.symbology.rawValue) quality=\(held.code.quality) pass=\(held.code.pass)")
            }
        }
    }

    /// The crop around a held read at `scale` of full resolution (from the base as it is, shrunk
    /// by a whole factor where the scale is smaller), turned as the read's view was; nil when
    /// the base holds too little resolution for that scale or the crop is empty.
    func confirmationView(_ held: CodeMerger.Held, scale: Double) -> PassView? {
        let base = frame.base, baseScale = frame.baseScale
        guard scale <= baseScale * 1.01, let fullToBase = frame.baseToFull.inverted else { return nil }
        let q = held.code.corners.points
        let along = ((q[1].x - q[0].x) * (q[1].x - q[0].x) + (q[1].y - q[0].y) * (q[1].y - q[0].y)).squareRoot()
        let box = held.code.corners.transformed(by: fullToBase).boundingBox
        // ZBar's points may cover only part of the bars (read on a few lines, one way): room
        // for a whole code around them, at least 100 pixels of the view that read it.
        let length = max(along, 100 * held.view.pixelSize)
        let grow = max(Double(settings.cropMargin) * baseScale / scale, length * baseScale)
        let r = PixelRect(
            x: Int((box.minX - grow).rounded(.down)), y: Int((box.minY - grow).rounded(.down)),
            width: Int((box.maxX - box.minX + 2 * grow).rounded(.up)), height: Int((box.maxY - box.minY + 2 * grow).rounded(.up))
        )
        .clamped(width: base.width, height: base.height)
        guard r.width >= settings.minViewSide, r.height >= settings.minViewSide else { return nil }
        var image = base.cropped(r)
        var toBase = AffineTransform.translation(Double(r.x), Double(r.y))
        let factor = Int((baseScale / scale).rounded())
        if factor > 1 {
            image = image.downscaled(by: factor)
            toBase = toBase.concatenating(.unscale(1 / Double(factor)))
        }
        if abs(held.view.angle) > 2 {
            let (turned, back) = image.rotated(degrees: held.view.angle)
            image = turned
            toBase = toBase.concatenating(back)
        }
        guard image.width >= settings.minViewSide, image.height >= settings.minViewSide else { return nil }
        return PassView(image: image, toBase: Homography(toBase))
    }
}

/// Where a held read was read: the scale and turn of its view, for the confirmation crops.
package struct ReadView: Sendable, Equatable {
    /// Full-resolution pixels per pixel of the view.
    package var pixelSize: Double = 1
    /// The direction of the view's rows in the full frame (degrees, y down).
    package var angle: Double = 0
    /// The view came from a reduced decode (a JPEG's DCT-scaled first decode).
    package var reducedDecode = false
    /// The view went through a filter (sharpening, a threshold, ...), not only cut, shrunk and turned.
    package var filtered = false

    package init() {}

    /// The geometry of a view near one of its points, from its map to full resolution.
    init(_ toFull: Homography, at p: Point) {
        let o = toFull.apply(p), x = toFull.apply(Point(x: p.x + 1, y: p.y)), y = toFull.apply(Point(x: p.x, y: p.y + 1))
        let dx = Point(x: x.x - o.x, y: x.y - o.y), dy = Point(x: y.x - o.x, y: y.y - o.y)
        pixelSize = ((dx.x * dx.x + dx.y * dx.y).squareRoot() + (dy.x * dy.x + dy.y * dy.y).squareRoot()) / 2
        angle = atan2(dx.y, dx.x) * 180 / .pi
    }

    /// The scales (of full resolution) a confirmation crop is tried at, in order: full
    /// resolution for a read in a reduced view; the read's own scale, plain, when that is
    /// other pixels than its view's (it went through a filter, or came from a reduced decode:
    /// then only from the full-resolution decode, `needsFull`); half the read's scale.
    package var confirmationScales: [(scale: Double, needsFull: Bool)] {
        let own = 1 / pixelSize
        var out: [(scale: Double, needsFull: Bool)] = []
        func add(_ scale: Double, needsFull: Bool = false) {
            if !out.contains(where: { abs($0.scale - scale) < 0.01 }) { out.append((scale, needsFull)) }
        }
        if own < 0.75 { add(1) }
        if filtered { add(min(1, own)) } else if reducedDecode { add(own, needsFull: true) }
        add(own / 2)
        return out
    }
}

extension PassStep {
    /// Steps that only cut, shrink or turn the image (its pixels resampled, not filtered).
    var isResampling: Bool {
        switch self {
        case .fit, .downscale, .rotate, .tiles, .regions, .fineRegions, .smallRegions, .unexplainedRegions: true
        default: false
        }
    }
}
