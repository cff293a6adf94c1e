import Imaging
import Records

/// The cheap look at one frame and the bar-field tests, each taken once, on first use: the
/// texture probe (`TextureProbe.look`), the bar-field test per view size, and whether a settled
/// frame's full-frame pass has bars to look for. Made per `scan` call.
final class CheapLook {
    private let frame: FrameViews
    private let settings: PlanSettings
    private let trace: (@Sendable (String) -> Void)?
    /// The look, once taken.
    private(set) var taken: TextureProbe.Result?
    /// The bar-field test's answer per view size (megapixels), taken once; at 0, the frame as
    /// decoded (the sheet's test, `barFieldInBase`).
    private var barFields: [Double: Bool] = [:]
    /// Whether a settled frame's full-frame pass has bars to look for, per view size.
    private var settledBars: [Double: Bool] = [:]

    init(frame: FrameViews, settings: PlanSettings, trace: (@Sendable (String) -> Void)?) {
        self.frame = frame
        self.settings = settings
        self.trace = trace
    }

    /// The cheap look, taken once per frame on first use. It looks at the views the cheap
    /// passes use (cached), coarse to fine, and at the frame as decoded: big modules show as
    /// transitions only when shrunk, 2 px modules only at full size. Every scale adds the
    /// places it saw.
    func probe() -> TextureProbe.Result {
        if let taken { return taken }
        let start = ContinuousClock.now
        let base = frame.base
        var views: [LumaImage] = settings.probeScales.map { mp in
            mp.map { frame.fitted($0).image } ?? base
        }
        // In a small image (a screenshot, a crop) the megapixel budgets leave it at full
        // size, where modules of 4 px and more make too few transitions per block: look at
        // it halved and thirded too.
        if frame.fullMegapixels <= settings.probeSmallMegapixels {
            views += settings.probeSmallDivisors.filter { base.width / $0 >= 16 && base.height / $0 >= 16 }.map { base.downscaled(by: $0) }
        }
        let look = TextureProbe.look(views: views, base: base)
        taken = look
        trace?(
            "probe ms=\(ms(since: start)) busy=\(look.seen.joined(separator: ",")) code-like=\(look.codeLike) regions=\(look.regions.count) fine=\(look.fine.count) fine-bars=\(look.fineBars.filter { $0 }.count) region-bars=\(look.regionBars.filter { $0 }.count) area=\(Int(look.busyArea * 100))% places=\(look.places)"
        )
        return look
    }

    /// The bar-field test on the frame at `mp` megapixels, or halved (blurred bars show their
    /// edges when shrunk), taken once per size: every retry a frame may run asks it.
    func barField(_ mp: Double) -> Bool {
        if let seen = barFields[mp] { return seen }
        let start = ContinuousClock.now
        let view = frame.fitted(mp).image
        let seen =
            TextureProbe.hasBarField(view, in: .whole)
            || (view.width >= 64 && view.height >= 64 && TextureProbe.hasBarField(view.downscaled(by: 2), in: .whole))
        barFields[mp] = seen
        trace?("bar-field ms=\(ms(since: start)) at=\(NumberText.trimmed(mp, decimals: 2))MP seen=\(seen)")
        return seen
    }

    /// The bar-field test on the frame as decoded (the base as it is), taken once: whether a
    /// sheet where nothing was read yet holds bars (`SheetOfCodes.isSheet`).
    func barFieldInBase() -> Bool {
        if let seen = barFields[0] { return seen }
        let start = ContinuousClock.now
        let seen = TextureProbe.hasBarField(frame.base, in: .whole)
        barFields[0] = seen
        trace?("bar-field ms=\(ms(since: start)) at=base seen=\(seen)")
        return seen
    }

    /// Whether a full-frame pass over a settled frame (`LocatedQRCodes.settled`: it looks for
    /// bars only) has bars to look for: the bar-field test on the pass's view, halved and
    /// quartered (a code of 3 px a module and more shows as a field of edges only when shrunk).
    /// A pass whose view is not one fitted view of the whole frame (tiles, crops) is always run.
    /// Taken once per size. `codes`: the codes read so far (their bars are explained).
    func barsToLookFor(_ pass: ScanPass, codes: [DetectedCode]) -> Bool {
        guard pass.steps.count == 1, case .fit(let mp) = pass.steps[0] else { return true }
        if let seen = settledBars[mp] { return seen }
        let start = ContinuousClock.now
        let view = frame.fitted(mp).image
        let seen = hasBars(view, ignoring: Self.readBoxes(codes) { frame.fractions($0) })
        settledBars[mp] = seen
        trace?("settled-bars ms=\(ms(since: start)) at=\(NumberText.trimmed(mp, decimals: 2))MP seen=\(seen)")
        return seen
    }

    /// A settled sheet's full-resolution tiles (ZBar looks for bars only there): those where
    /// the bar-field test sees bars. A label sheet's Code 128s and EANs beside QR codes read
    /// show as bars; a photo's texture beside many QR codes (BoofCV's `lots`) mostly does not.
    func tilesWithBars(_ views: [PassView], codes: [DetectedCode]) -> [PassView] {
        let start = ContinuousClock.now
        guard let fullToBase = frame.baseToFull.inverted else { return views }
        let kept = views.filter { view in
            guard let baseToView = view.toBase.inverted else { return true }
            let toView = baseToView.concatenating(Homography(fullToBase))
            let w = Double(view.image.width), h = Double(view.image.height)
            return hasBars(
                view.image,
                ignoring: Self.readBoxes(codes) { $0.map(toView.apply).map { Point(x: $0.x / w, y: $0.y / h) } })
        }
        trace?("settled-tiles ms=\(ms(since: start)) tiles=\(views.count) with-bars=\(kept.count)")
        return kept
    }

    /// The boxes of the codes read, as fractions of a view (`toFraction` maps full-resolution
    /// points there), grown by a fifth of their size each way: they explain their bars (a QR
    /// code's timing patterns, a Code 128 read already).
    private static func readBoxes(_ codes: [DetectedCode], _ toFraction: ([Point]) -> [Point]) -> [FractionalBox] {
        codes.map { code in
            let p = toFraction(code.corners.points)
            let x0 = p.map(\.x).min()!, x1 = p.map(\.x).max()!, y0 = p.map(\.y).min()!, y1 = p.map(\.y).max()!
            let mx = (x1 - x0) / 5, my = (y1 - y0) / 5
            return FractionalBox(x0: x0 - mx, y0: y0 - my, x1: x1 + mx, y1: y1 + my)
        }
    }

    /// The bar-field test (loose, `settings.settledBarEdgeShare`) on `image` as it is, halved
    /// and quartered: bars of 3 px a module and more show as a field of edges only when shrunk.
    private func hasBars(_ image: LumaImage, ignoring read: [FractionalBox] = []) -> Bool {
        var view = image
        for level in 0..<3 {
            if level > 0 { view = view.downscaled(by: 2) }
            if TextureProbe.hasBarField(view, in: .whole, minEdgeShare: settings.settledBarEdgeShare, ignoring: read) { return true }
        }
        return false
    }
}
