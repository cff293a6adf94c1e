import Imaging
import Records

/// A view of the image a list of steps produces, with the transform back to the base.
struct PassView { var image: LumaImage; var toBase: Homography }

/// The frame one scan works on and the views its passes make of it: the base image (the frame
/// as decoded, cut to the region of interest, possibly reduced), its map to full resolution, the
/// full-resolution decode (made once, when a pass needs more than the base has), and the views
/// made so far, cached by their steps. Made per `scan` call and dropped with it.
final class FrameViews {
    private let roi: FractionalRect?
    private let stepViews: StepViews
    private(set) var base: LumaImage
    /// The base's size relative to full resolution, and the map from its pixels to full resolution.
    private(set) var baseScale: Double
    private(set) var baseToFull: AffineTransform
    /// Decodes full resolution; nil once used (or when the frame already is).
    private var upgrade: (() -> LumaImage?)?
    let fullMegapixels: Double
    /// How many times the base was replaced by its full-resolution decode (0 or 1): what was read
    /// in the old base's views says nothing of the new one's (`ViewPass.alreadyRead`).
    private(set) var baseVersion = 0
    private var cache: [[PassStep]: [PassView]]

    /// The frame as decoded (`scale`: its size relative to full resolution), cut to the region
    /// of interest; nil when nothing of it is left.
    init?(_ frame: LumaImage, scale: Double, fullResolution: (() -> LumaImage?)?, options: ReaderOptions) {
        let settings = options.plan.settings
        roi = options.roi
        stepViews = StepViews(settings: settings)
        var (base, baseToFull) = Self.cutToRegion(frame, scale: scale, roi: roi)
        guard base.width >= 1, base.height >= 1 else { return nil }
        // A strip a few pixels high (a scan of one bar code line) or narrow: ZBar needs some
        // rows (columns) and a quiet zone, so repeat the lines and pad with white.
        if base.width < settings.thinBelow || base.height < settings.thinBelow {
            let (padded, back) = base.paddedThin(minSide: settings.thinPadTo)
            base = padded
            baseToFull = baseToFull.concatenating(back)
        }
        self.base = base
        self.baseScale = scale
        self.baseToFull = baseToFull
        upgrade = scale < 0.999 ? fullResolution : nil
        fullMegapixels = base.megapixels / (scale * scale)
        cache = [[]: [PassView(image: base, toBase: .identity)]]
    }

    /// The frame as the passes see it, cut to the region of interest when there is one (the one
    /// place the ROI is cropped, for the frame as decoded and for its full-resolution decode),
    /// and the map from its pixels to full resolution (`scale`: the frame's size relative to it).
    static func cutToRegion(_ frame: LumaImage, scale: Double, roi: FractionalRect?) -> (LumaImage, AffineTransform) {
        let toFull = AffineTransform.unscale(scale)
        guard let roi else { return (frame, toFull) }
        let r = roi.pixels(width: frame.width, height: frame.height)
        return (frame.cropped(r), toFull.concatenating(.translation(Double(r.x), Double(r.y))))
    }

    /// The views `steps` make of the base, each step applied to every view of the steps before
    /// it; `places(step)`, asked after the views before the step are made, says where a crop,
    /// warp or sheet-tile step cuts.
    func views(_ steps: [PassStep], places: (PassStep) -> StepViews.Places) -> [PassView] {
        if let hit = cache[steps] { return hit }
        let parent = views(Array(steps.dropLast()), places: places)
        let step = steps.last!
        let at = places(step)
        var out: [PassView] = []
        for v in parent {
            for child in stepViews.apply(step, to: v.image, places: at) {
                out.append(PassView(image: child.image, toBase: v.toBase.concatenating(child.toBase)))
            }
        }
        cache[steps] = out
        return out
    }

    /// The view of the whole frame fitted to `megapixels` (the base when it is no bigger).
    func fitted(_ megapixels: Double) -> PassView {
        views([.fit(megapixels: megapixels)]) { _ in StepViews.Places() }[0]
    }

    /// Forgets the views cut by located codes or sheet tiles: they depend on what is still unread.
    func forgetPlaceViews() {
        for key in cache.keys where key.contains(where: { $0.isLocated || $0 == .sheetTiles }) { cache[key] = nil }
    }

    /// Decodes full resolution (once) when `scale` of it is more than the base has.
    func upgrade(toScale scale: Double) {
        if scale > baseScale * 1.01 { decodeFullResolution() }
    }

    /// Decodes the frame at full resolution, once (nothing when it already is, or cannot be):
    /// everything from then on works on it.
    func decodeFullResolution() {
        guard let decodeFull = upgrade else { return }
        upgrade = nil
        guard let full = decodeFull(), full.width > 0 else { return }
        (base, baseToFull) = Self.cutToRegion(full, scale: 1, roi: roi)
        baseScale = 1
        cache = [[]: [PassView(image: base, toBase: .identity)]]
        baseVersion += 1
    }

    /// Full-resolution points as fractions of the base frame.
    func fractions(_ points: [Point]) -> [Point] {
        guard let fullToBase = baseToFull.inverted, base.width > 0, base.height > 0 else { return [] }
        return points.map { point in
            let p = fullToBase.apply(point)
            return Point(x: p.x / Double(base.width), y: p.y / Double(base.height))
        }
    }
}
