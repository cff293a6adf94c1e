import Imaging
import Records

#if canImport(Glibc)
import Glibc
#endif
/// What the steps of a pass make of an image: the views (crops, warps, scales, filters) and
/// the places the crop steps cut, each view with its transform back to the view it was made of.
struct StepViews {
    let settings: PlanSettings

    /// Where the crop and warp steps cut: the cheap look's places (fractions of the frame) and
    /// the located QR codes not read yet (in pixels of the base image).
    struct Places {
        var look = TextureProbe.Result()
        /// Centres of the 2D codes read so far, as fractions of the base frame.
        var read: [Point] = []
        /// Centres of the located QR codes not read yet, as fractions of the base frame.
        var unread: [Point] = []
        /// Centres of every code read so far (linear ones too), as fractions of the base frame.
        var explained: [Point] = []
        var located: [QRCandidate] = []
        /// A sheet's full-resolution tiles with texture no code read explains (base pixels).
        var tiles: [PixelRect] = []
    }

    /// The places a crop step cuts out: code-like, the small code-like with a bar field or an
    /// unread located code in them, the small code-like that no code read so far lies in (for
    /// the isolated reader), or the fine ones (a big fine place only where a bar field holds no
    /// code read so far, or on a sheet of codes).
    static func places(
        _ step: PassStep, look: TextureProbe.Result, read: [Point] = [], unread: [Point] = [],
        explained: [Point] = []
    ) -> [FractionalBox] {
        switch step {
        case .regions: look.regions
        case .smallRegions(let maxArea):
            look.regions.indices.filter { i in
                let box = look.regions[i], bars = i < look.regionBars.count && look.regionBars[i]
                return box.area <= maxArea && (bars || unread.contains { box.contains($0) })
            }.map { look.regions[$0] }
        case .unexplainedRegions(let maxArea): look.regions.filter { box in box.area <= maxArea && !explained.contains { box.contains($0) } }
        case .fineRegions(let maxArea):
            // A big fine place costs a full-resolution scan of much of the frame: only where it
            // holds bars and no code read so far (a fine bar code), or where it is a sheet of
            // codes (four or more read in it: its unlocated neighbours may need full resolution).
            // (Not for an unread located code: a field of finder-like squares is full of them.)
            zip(look.fine, look.fineBars).filter { box, bars in
                box.area <= maxArea || bars && !explained.contains { box.contains($0) } || read.filter { box.contains($0) }.count >= 4
            }.map(\.0)
        default: []
        }
    }

    /// The crops of `.locatedCrop`: each outline's bounding box grown by `margin` x its longer
    /// side on every side, within the image; none for an outline that lies within an earlier
    /// crop (it is read there) or that is not finite.
    package static func locatedCrops(_ outlines: [Quad], margin: Double, width: Int, height: Int) -> [PixelRect] {
        var cut: [PixelRect] = []
        let w = Double(width), h = Double(height)
        for outline in outlines {
            guard outline.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            let b = outline.boundingBox
            let inside = cut.contains { r in
                b.minX >= Double(r.x) && b.minY >= Double(r.y) && b.maxX <= Double(r.x + r.width) && b.maxY <= Double(r.y + r.height)
            }
            if inside { continue }
            // Clamped as doubles first: a wild outline must not overflow an Int.
            let pad = max(b.maxX - b.minX, b.maxY - b.minY) * margin
            let x0 = Int(min(w, max(0, b.minX - pad))), y0 = Int(min(h, max(0, b.minY - pad)))
            let x1 = Int(min(w, max(0, (b.maxX + pad).rounded(.up)))), y1 = Int(min(h, max(0, (b.maxY + pad).rounded(.up))))
            guard x1 > x0, y1 > y0 else { continue }
            cut.append(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
        return cut
    }

    func apply(_ step: PassStep, to img: LumaImage, places: Places) -> [PassView] {
        func affine(_ image: LumaImage, _ t: AffineTransform) -> PassView { PassView(image: image, toBase: Homography(t)) }
        switch step {
        case .regions, .fineRegions, .smallRegions, .unexplainedRegions:
            return Self.places(step, look: places.look, read: places.read, unread: places.unread, explained: places.explained).map { box in
                let r = box.pixels(width: img.width, height: img.height)
                    .expanded(by: settings.cropMargin).clamped(width: img.width, height: img.height)
                return affine(img.cropped(r), .translation(Double(r.x), Double(r.y)))
            }
        case .located(let side, let margin):
            return places.located.map { c in
                // No fewer pixels a module than the source has (within the plan's range), so a dense code keeps its detail.
                let perModule = min(settings.locatedModulePixels.upperBound, max(settings.locatedModulePixels.lowerBound, c.moduleSize))
                let s = max(side, Int(perModule.rounded()) * c.dimension)
                let (image, back) = img.rectified(c.toImage, dimension: c.dimension, side: s, margin: Int(Double(s) * margin))
                return PassView(image: image, toBase: back)
            }
        case .locatedGrid(let shift):
            // The best frame's grid, then the next-best frames' (another version, another corner);
            // shifted: the best frame's grid sampled off centre towards each corner.
            return places.located.flatMap { c in
                let frames = shift > 0 ? [(c.dimension, c.toImage)] : [(c.dimension, c.toImage)] + c.otherFrames
                let offsets = shift > 0 ? [(-shift, -shift), (shift, -shift), (-shift, shift), (shift, shift)] : [(0.0, 0.0)]
                return frames.flatMap { frame in
                    offsets.map { dx, dy in
                        let (image, back) = img.sampledGrid(frame.1, dimension: frame.0, modulePixels: 4, quiet: 4, offset: Point(x: dx, y: dy))
                        return PassView(image: image, toBase: back)
                    }
                }
            }
        case .locatedCrop(let margin):
            return Self.locatedCrops(places.located.map(\.corners), margin: margin, width: img.width, height: img.height).map { r in
                affine(img.cropped(r), .translation(Double(r.x), Double(r.y)))
            }
        case .fit(let mp):
            let f = Int((img.megapixels / mp).squareRoot().rounded(.up))
            return f <= 1
                ? [PassView(image: img, toBase: .identity)]
                : [affine(img.downscaled(by: f), .unscale(1 / Double(f)))]
        case .downscale(let f):
            return [affine(img.downscaled(by: f), .unscale(1 / Double(f)))]
        case .upscale(let f):
            // Never blow an image up past the plan's cap: upscaling is for small images and crops.
            guard img.pixelCount * f * f <= settings.maxUpscaledPixels else { return [] }
            return [affine(img.upscaled(by: f), .unscale(Double(f)))]
        case .invert:
            return [PassView(image: img.inverted(), toBase: .identity)]
        case .contrastStretch:
            return [PassView(image: img.contrastStretched(), toBase: .identity)]
        case .adaptiveThreshold(let r):
            return [PassView(image: img.adaptiveThresholded(radius: r), toBase: .identity)]
        case .sharpen:
            return [PassView(image: img.sharpened(), toBase: .identity)]
        case .unsharp(let r, let a):
            return [PassView(image: img.sharpened(radius: r, amount: a), toBase: .identity)]
        case .binarize:
            return [PassView(image: img.binarized(), toBase: .identity)]
        case .median:
            return [PassView(image: img.median3(), toBase: .identity)]
        case .rotate(let deg):
            // A long thin strip turned makes a canvas far larger than itself (18080x45 at 30
            // degrees: 142 MP for 0.8): no turned view past 4 times the view's pixels.
            let a = deg * .pi / 180, w = Double(img.width), h = Double(img.height)
            let c = abs(cos(a)), s = abs(sin(a))
            let turned: Double = (w * c + h * s) * (w * s + h * c)
            guard turned <= 4 * w * h else { return [] }
            let (rot, back) = img.rotated(degrees: deg)
            return [affine(rot, back)]
        case .tiles(let grid, let overlap):
            return Self.tiles(img, grid: grid, overlap: overlap)
        case .sheetTiles:
            return places.tiles.map { tile in
                let r = tile.clamped(width: img.width, height: img.height)
                return affine(img.cropped(r), .translation(Double(r.x), Double(r.y)))
            }
        }
    }

    /// A grid x grid tiling of the view, each tile grown by `overlap` of a tile on every side.
    static func tiles(_ img: LumaImage, grid: Int, overlap: Double) -> [PassView] {
        guard grid > 1 else { return [PassView(image: img, toBase: .identity)] }
        var views: [PassView] = []
        let tw = Double(img.width) / Double(grid), th = Double(img.height) / Double(grid)
        for ty in 0..<grid {
            for tx in 0..<grid {
                let x0 = Int((Double(tx) * tw - overlap * tw).rounded(.down))
                let y0 = Int((Double(ty) * th - overlap * th).rounded(.down))
                let x1 = Int((Double(tx + 1) * tw + overlap * tw).rounded(.up))
                let y1 = Int((Double(ty + 1) * th + overlap * th).rounded(.up))
                let r = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).clamped(width: img.width, height: img.height)
                views.append(PassView(image: img.cropped(r), toBase: Homography(.translation(Double(r.x), Double(r.y)))))
            }
        }
        return views
    }
}
