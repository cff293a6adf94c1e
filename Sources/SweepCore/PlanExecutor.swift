/// Options that shape what a scan reports (a plain value, like zxing-cpp's ReaderOptions).
public struct ReaderOptions: Sendable, Equatable {
    public var symbologies: SymbologySet
    public var plan: ScanPlan
    /// Region of interest as fractions of the upright image; nil = whole image.
    public var roi: FractionalRect?
    /// Linear codes read on fewer scan lines than this are dropped (ZBar's quality 1 reads on
    /// photo noise are false).
    public var minLinearQuality: Int
    /// Minimum length of an Interleaved 2 of 5 payload (ZBar reads fragments of long ITF codes).
    public var minITFLength: Int

    /// What ZBar is asked for: the chosen symbologies, plus the EAN codes add-ons are paired
    /// with when add-ons are chosen (those hosts are reported only if chosen themselves).
    public var scanned: SymbologySet {
        symbologies.members.contains(where: \.isAddOn)
            ? SymbologySet(symbologies.members.union(Symbology.addOnHostsToScan)) : symbologies
    }

    public init(symbologies: SymbologySet = .standard, effort: Effort = .normal, roi: FractionalRect? = nil,
                minLinearQuality: Int = 2, minITFLength: Int = 6) {
        self.symbologies = symbologies
        self.plan = ScanPlan.forEffort(effort)
        self.roi = roi
        self.minLinearQuality = minLinearQuality
        self.minITFLength = minITFLength
    }
}

/// A decode function: scans one luma image for the given symbologies. The engine passes ZBar's.
public typealias SymbolDecoder = (LumaImage, Set<Symbology>) -> [RawSymbol]

/// Runs a scan plan over one upright frame and merges what the passes find.
public struct PlanExecutor {
    public let options: ReaderOptions
    public let decode: SymbolDecoder
    /// Called after each pass that ran (and once for the cheap look) with a one-line summary:
    /// pass name, milliseconds, symbols accepted. For tuning the plan (`CODESWEEP_TRACE=1`).
    public var trace: (@Sendable (String) -> Void)?

    public init(options: ReaderOptions, decode: @escaping SymbolDecoder) {
        self.options = options
        self.decode = decode
    }

    /// Views of the image a list of steps produces, each with the transform back to the input.
    struct View { var image: LumaImage; var toBase: AffineTransform }

    /// Scans one upright frame.
    /// - Parameters:
    ///   - frame: the frame as decoded, possibly reduced: `scale` is its size relative to full
    ///     resolution (JPEGs are decoded DCT-scaled when the cheap passes need no more).
    ///   - fullResolution: decodes the frame at full resolution; called at most once, and only
    ///     when a pass needs more resolution than `frame` has. Corners are always reported in
    ///     full-resolution pixels.
    public func scan(_ frame: LumaImage, frameIndex: Int = 0, scale: Double = 1,
                     fullResolution: (() -> LumaImage?)? = nil) -> [DetectedCode] {
        var base = frame
        var baseScale = scale
        var baseToFull = AffineTransform.unscale(scale)
        var upgrade = scale < 0.999 ? fullResolution : nil
        if let roi = options.roi {
            let r = roi.pixels(width: frame.width, height: frame.height)
            base = frame.cropped(r)
            baseToFull = baseToFull.concatenating(.translation(Double(r.x), Double(r.y)))
        }
        guard base.width >= 1, base.height >= 1 else { return [] }
        // A strip a few pixels high (a scan of one bar code line) or narrow: ZBar needs some
        // rows (columns) and a quiet zone, so repeat the lines and pad with white.
        if base.width < 16 || base.height < 16 {
            let (padded, back) = base.paddedThin(minSide: 32)
            base = padded
            baseToFull = baseToFull.concatenating(back)
        }
        let scanned = options.scanned
        var merged = CodeMerger()
        var cache: [[PassStep]: [View]] = [[]: [View(image: base, toBase: .identity)]]
        let fullMegapixels = base.megapixels / (baseScale * baseScale)
        var candidates: Bool? = nil
        /// Where the cheap look saw code-like texture, as fractions of the frame (`.regions` crops).
        var regions: [FractionalBox] = []
        var fineRegions: [FractionalBox] = []
        var busyArea = 0.0
        func hasCandidates() -> Bool {
            if let c = candidates { return c }
            let start = ContinuousClock.now
            // The look is taken on the views the cheap passes use (cached), coarse to fine, and
            // on the frame as decoded: big modules show as transitions only when shrunk, 2 px
            // modules only at full size. Every scale adds the places it saw.
            var c = false, seen: [String] = []
            var views: [LumaImage] = TextureProbe.scales.map { mp in
                mp.map { materialize([.fit(megapixels: $0)], cache: &cache, regions: [], fine: [])[0].image } ?? base
            }
            // In a small image (a screenshot, a crop) the megapixel budgets leave it at full
            // size, where modules of 4 px and more make too few transitions per block: look at
            // it halved and thirded too.
            if fullMegapixels <= 1 {
                views += [2, 3].filter { base.width / $0 >= 16 && base.height / $0 >= 16 }.map { base.downscaled(by: $0) }
            }
            var seenSizes = Set<Int>()
            var coarse: [(box: FractionalBox, count: Int)] = []
            for view in views where seenSizes.insert(view.width &* 65_536 &+ view.height).inserted {
                let look = TextureProbe.look(view)
                seen.append("\(view.width)x\(view.height):\(look.busy)")
                if look.busy >= TextureProbe.minBusyBlocks {
                    c = true
                    regions += look.regions
                }
                if view.width != base.width || view.height != base.height { coarse += zip(look.regions, look.counts).map { ($0, $1) } }
            }
            regions = FractionalBox.merged(regions)
            // A fine place inside a code-like one (a dense code: busy when shrunk in its middle,
            // fine only at its sharper edge) is widened to it, so the full-resolution crop
            // holds the whole code.
            fineRegions = FractionalBox.merged(TextureProbe.fineRegions(base, coarse: coarse).map { box in
                regions.filter { $0.overlaps(box) }.reduce(box) { $0.union($1) }
            })
            busyArea = FractionalBox.merged(regions, maxCount: .max, maxArea: 2).reduce(0) { $0 + $1.area }
            candidates = c
            trace?("probe ms=\(ms(since: start)) busy=\(seen.joined(separator: ",")) code-like=\(c) regions=\(regions.count) fine=\(fineRegions.count) area=\(Int(busyArea * 100))%")
            return c
        }
        /// The scale of full resolution a pass needs from its input.
        func neededScale(_ pass: ScanPass) -> Double {
            if case .fit(let mp)? = pass.steps.first { return min(1, (mp / fullMegapixels).squareRoot()) }
            if case .downscale(let f)? = pass.steps.first { return 1 / Double(f) }
            return 1
        }
        func holds(_ c: PassCondition) -> Bool {
            switch c {
            // An add-on alone is no find: it may be noise until its host code is read.
            case .nothingFound: merged.codes.allSatisfy(\.symbology.isAddOn)
            case .codeLike: hasCandidates()
            case .atLeast(let mp): fullMegapixels >= mp
            case .atMost(let mp): fullMegapixels <= mp
            case .under(let mp): fullMegapixels < mp
            case .fineTexture: { _ = hasCandidates(); return !fineRegions.isEmpty }()
            case .busyArea(let f): hasCandidates() && busyArea >= f
            case .noSureRead(let q): !merged.codes.contains { !$0.symbology.isAddOn && ($0.symbology.isTwoDimensional || $0.quality >= q) }
            }
        }
        for pass in options.plan.passes {
            if !pass.when.allSatisfy({ holds($0) }) { continue }
            let symbols = pass.symbols.filter(scanned)
            if symbols.isEmpty { continue }
            let crops = pass.steps.filter(\.isCrop)
            if !crops.isEmpty {
                _ = hasCandidates()
                // No place to crop: skip the pass before it costs a full-resolution decode.
                if crops.contains(where: { Self.places($0, regions: regions, fine: fineRegions).isEmpty }) { continue }
            }
            if neededScale(pass) > baseScale * 1.01, let decodeFull = upgrade {
                upgrade = nil
                if let full = decodeFull(), full.width > 0 {
                    // Everything below now works on the full-resolution frame.
                    base = full
                    baseScale = 1
                    baseToFull = .identity
                    if let roi = options.roi {
                        let r = roi.pixels(width: full.width, height: full.height)
                        base = full.cropped(r)
                        baseToFull = .translation(Double(r.x), Double(r.y))
                    }
                    cache = [[]: [View(image: base, toBase: .identity)]]
                }
            }
            let start = ContinuousClock.now
            let before = merged.codes.count
            var accepted = 0
            let views = materialize(pass.steps, cache: &cache, regions: regions, fine: fineRegions)
            for view in views where view.image.width >= 8 && view.image.height >= 8 {
                let toFull = baseToFull.concatenating(view.toBase)
                for raw in decode(view.image, symbols) where accept(raw, scanned: scanned) {
                    accepted += 1
                    merged.add(DetectedCode(symbology: raw.symbology, bytes: raw.bytes,
                                            corners: raw.corners.transformed(by: toFull), quality: raw.quality,
                                            orientation: raw.orientation, frame: frameIndex, pass: pass.name))
                }
            }
            trace?("pass \(pass.name) ms=\(ms(since: start)) read=\(accepted) new=\(merged.codes.count - before) size=\(base.width)x\(base.height)")
        }
        let wanted = options.symbologies.members
        return AddOnPairing.pairing(merged.codes).filter { wanted.contains($0.symbology) }
    }

    func ms(since start: ContinuousClock.Instant) -> Int {
        let d = start.duration(to: .now).components
        return Int(d.seconds * 1000 + d.attoseconds / 1_000_000_000_000_000)
    }

    func accept(_ raw: RawSymbol, scanned: SymbologySet) -> Bool {
        guard scanned.members.contains(raw.symbology) else { return false }
        if !raw.symbology.isTwoDimensional && raw.quality < options.minLinearQuality { return false }
        if raw.symbology == .itf && raw.bytes.count < options.minITFLength { return false }
        return true
    }

    func materialize(_ steps: [PassStep], cache: inout [[PassStep]: [View]], regions: [FractionalBox], fine: [FractionalBox]) -> [View] {
        if let hit = cache[steps] { return hit }
        let parent = materialize(Array(steps.dropLast()), cache: &cache, regions: regions, fine: fine)
        let step = steps.last!
        var out: [View] = []
        for v in parent {
            for child in apply(step, to: v.image, regions: regions, fine: fine) {
                out.append(View(image: child.image, toBase: v.toBase.concatenating(child.toBase)))
            }
        }
        cache[steps] = out
        return out
    }

    /// Pixels of context kept around a region crop on every side. ZBar's scanner settles its
    /// edge threshold along each line before it reads: a blurred 3 px-module QR cropped with a
    /// 30 px margin is not read, the same crop with 60 px more of the photo (or of white) is.
    public static let cropMargin = 64

    /// The places a crop step cuts out: code-like, the small code-like, or the fine ones.
    static func places(_ step: PassStep, regions: [FractionalBox], fine: [FractionalBox]) -> [FractionalBox] {
        switch step {
        case .regions: regions
        case .smallRegions(let maxArea): regions.filter { $0.area <= maxArea }
        case .fineRegions: fine
        default: []
        }
    }

    func apply(_ step: PassStep, to img: LumaImage, regions: [FractionalBox], fine: [FractionalBox]) -> [View] {
        switch step {
        case .regions, .fineRegions, .smallRegions:
            return Self.places(step, regions: regions, fine: fine).map { box in
                let r = box.pixels(width: img.width, height: img.height)
                    .expanded(by: Self.cropMargin).clamped(width: img.width, height: img.height)
                return View(image: img.cropped(r), toBase: .translation(Double(r.x), Double(r.y)))
            }
        case .fit(let mp):
            let f = Int((img.megapixels / mp).squareRoot().rounded(.up))
            return f <= 1 ? [View(image: img, toBase: .identity)]
                : [View(image: img.downscaled(by: f), toBase: .unscale(1 / Double(f)))]
        case .downscale(let f):
            return [View(image: img.downscaled(by: f), toBase: .unscale(1 / Double(f)))]
        case .upscale(let f):
            // Never blow an image up past 16 MP: upscaling is for small images and crops.
            guard img.pixelCount * f * f <= 16_000_000 else { return [] }
            return [View(image: img.upscaled(by: f), toBase: .unscale(Double(f)))]
        case .invert:
            return [View(image: img.inverted(), toBase: .identity)]
        case .contrastStretch:
            return [View(image: img.contrastStretched(), toBase: .identity)]
        case .adaptiveThreshold(let r):
            return [View(image: img.adaptiveThresholded(radius: r), toBase: .identity)]
        case .sharpen:
            return [View(image: img.sharpened(), toBase: .identity)]
        case .unsharp(let r, let a):
            return [View(image: img.sharpened(radius: r, amount: a), toBase: .identity)]
        case .binarize:
            return [View(image: img.binarized(), toBase: .identity)]
        case .rotate(let deg):
            let (rot, back) = img.rotated(degrees: deg)
            return [View(image: rot, toBase: back)]
        case .tiles(let grid, let overlap):
            guard grid > 1 else { return [View(image: img, toBase: .identity)] }
            var views: [View] = []
            let tw = Double(img.width) / Double(grid), th = Double(img.height) / Double(grid)
            for ty in 0..<grid {
                for tx in 0..<grid {
                    let x0 = Int((Double(tx) * tw - overlap * tw).rounded(.down))
                    let y0 = Int((Double(ty) * th - overlap * th).rounded(.down))
                    let x1 = Int((Double(tx + 1) * tw + overlap * tw).rounded(.up))
                    let y1 = Int((Double(ty + 1) * th + overlap * th).rounded(.up))
                    let r = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).clamped(width: img.width, height: img.height)
                    views.append(View(image: img.cropped(r), toBase: .translation(Double(r.x), Double(r.y))))
                }
            }
            return views
        }
    }
}

/// Keeps one entry per code: the same symbology and payload at an overlapping place is the
/// same code, whichever pass (or tile) found it; the first pass to find it is kept.
public struct CodeMerger: Sendable {
    public private(set) var codes: [DetectedCode] = []
    public init() {}

    public mutating func add(_ code: DetectedCode) {
        for (i, existing) in codes.enumerated()
        where existing.frame == code.frame && existing.symbology == code.symbology && existing.bytes == code.bytes {
            let slack = max(4, diagonal(existing.corners) * 0.25)
            if existing.corners.overlaps(code.corners, slack: slack) {
                // A later pass at higher resolution may have better corners for a linear code
                // (more scan lines): keep the first pass's name, take the better quality.
                if !code.symbology.isTwoDimensional && code.quality > existing.quality {
                    codes[i].quality = code.quality
                }
                return
            }
        }
        codes.append(code)
    }

    func diagonal(_ q: Quad) -> Double {
        let b = q.boundingBox
        return ((b.maxX - b.minX) * (b.maxX - b.minX) + (b.maxY - b.minY) * (b.maxY - b.minY)).squareRoot()
    }
}

/// The cheap look: does a frame hold texture that could be a code (many sharp light/dark
/// transitions packed in blocks)? Smooth photos say no and skip the expensive passes.
public enum TextureProbe {
    /// The scales looked at (megapixels; nil = the image as is), coarse to fine.
    public static let scales: [Double?] = [0.75, 3, nil]
    /// Busy blocks (each with a busy neighbour) needed to call an image code-like.
    public static let minBusyBlocks = 4

    /// Busy blocks (each with a busy neighbour) and the boxes around groups of them, as
    /// fractions of the image, grown to take in the code's quiet zone and its flat parts
    /// (finder patterns, wide bars) that are not busy themselves.
    public static func look(_ img: LumaImage, fine: Bool = false) -> (busy: Int, regions: [FractionalBox], counts: [Int]) {
        let (mask, bw, bh) = fine ? busyMask(img, minTransitions: 40, minFar: 24) : busyMask(img)
        guard bw > 0, bh > 0 else { return (0, [], []) }
        var seen = [Bool](repeating: false, count: bw * bh)
        var busy = 0
        var regions: [FractionalBox] = []
        var counts: [Int] = []
        var stack: [Int] = []
        for start in 0..<(bw * bh) where mask[start] && !seen[start] {
            // One 8-connected group of busy blocks.
            seen[start] = true
            stack = [start]
            var count = 0, x0 = bw, y0 = bh, x1 = 0, y1 = 0
            while let i = stack.popLast() {
                count += 1
                let x = i % bw, y = i / bw
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < bw, ny < bh else { continue }
                        let j = ny * bw + nx
                        if mask[j] && !seen[j] { seen[j] = true; stack.append(j) }
                    }
                }
            }
            guard count >= 2 else { continue } // a lone busy block is noise or a speck
            busy += count
            counts.append(count)
            let grow = max(3.0, 0.35 * Double(max(x1 - x0, y1 - y0) + 1))
            regions.append(FractionalBox(x0: (Double(x0) - grow) * 8 / Double(img.width),
                                         y0: (Double(y0) - grow) * 8 / Double(img.height),
                                         x1: (Double(x1 + 1) + grow) * 8 / Double(img.width),
                                         y1: (Double(y1 + 1) + grow) * 8 / Double(img.height)))
        }
        return (busy, regions, counts)
    }

    /// Fine texture: places busy at the finest scale (`finest`, looked at with the fine
    /// variant) with little busy there when shrunk (`coarse`: the groups the coarser looks found,
    /// with their block counts). Text and photo detail are busy at every scale; modules of
    /// 1-1.5 px only at the finest.
    public static func fineRegions(_ finest: LumaImage, coarse: [(box: FractionalBox, count: Int)]) -> [FractionalBox] {
        let fine = look(finest, fine: true)
        return FractionalBox.merged(zip(fine.regions, fine.counts).filter { box, count in
            let shrunk = coarse.filter { $0.box.overlaps(box) }.reduce(0) { $0 + $1.count }
            return count >= 2 && count >= 4 * shrunk
        }.map(\.0))
    }

    public static func busyBlockCount(_ img: LumaImage, minContrast: Int32 = 24) -> Int {
        look(img).busy
    }

    /// Number of 8x8 blocks that look like part of a code: enough contrast (at least
    /// `minContrast` levels, low-contrast prints included), many sharp transitions in both
    /// directions relative to the block's own range, and two-tone (most pixels far from the
    /// middle of the range; sensor noise and smooth gradients are not).
    /// The fine variant (more transitions, less two-tone) finds modules of 1-1.5 px, which
    /// the decoder's own resampling has already blurred towards grey.
    static func busyMask(_ img: LumaImage, minContrast: Int32 = 24, minTransitions: Int = 20, minFar: Int = 40) -> (mask: [Bool], bw: Int, bh: Int) {
        let w = img.width, h = img.height
        guard w >= 16, h >= 16 else { return ([], 0, 0) }
        let bw = (w - 1) / 8, bh = (h - 1) / 8
        var mask = [Bool](repeating: false, count: bw * bh)
        img.pixels.withUnsafeBufferPointer { p in
            var by = 0
            while by + 8 < h {
                var bx = 0
                while bx + 8 < w {
                    var lo: Int32 = 255, hi: Int32 = 0
                    for y in by..<(by + 8) { for x in bx..<(bx + 8) { let v = Int32(p[y * w + x]); lo = min(lo, v); hi = max(hi, v) } }
                    let t = (hi - lo) / 4
                    if hi - lo >= minContrast {
                        var hx = 0, vy = 0, far = 0
                        let mid = (hi + lo) / 2, band = (hi - lo) / 4
                        for y in by..<(by + 8) {
                            for x in bx..<(bx + 8) {
                                let v = Int32(p[y * w + x])
                                if abs(v - Int32(p[y * w + x + 1])) > t { hx += 1 }
                                if abs(v - Int32(p[(y + 1) * w + x])) > t { vy += 1 }
                                if abs(v - mid) > band { far += 1 }
                            }
                        }
                        if hx + vy >= minTransitions && (hx >= 6 || vy >= 6) && far >= minFar { mask[(by / 8) * bw + bx / 8] = true }
                    }
                    bx += 8
                }
                by += 8
            }
        }
        return (mask, bw, bh)
    }
}
