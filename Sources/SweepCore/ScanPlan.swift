/// One image transformation applied before a ZBar pass.
public enum PassStep: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Area-averaging downscale so the image holds at most this many megapixels (no-op if it already does).
    case fit(megapixels: Double)
    /// Area-averaging downscale by an integer factor.
    case downscale(Int)
    /// Bilinear upscale by an integer factor (tiny modules).
    case upscale(Int)
    case invert
    case contrastStretch
    /// Local-mean binarisation with the given radius (in pixels of the image at that point).
    case adaptiveThreshold(radius: Int)
    case sharpen
    /// Unsharp mask with a box blur of this radius and strength (blurred codes).
    case unsharp(radius: Int, amount: Double)
    /// Global black/white at Otsu's threshold.
    case binarize
    /// 3x3 median: the speckle of glare and noise left by a threshold removed.
    case median
    /// Rotation by degrees (counter-clockwise), for linear codes lying off-axis.
    case rotate(Double)
    /// Overlapping tiles: the image is cut into grid x grid tiles, each grown by `overlap` (a
    /// fraction of the tile size) on every side; each tile is scanned on its own.
    case tiles(grid: Int, overlap: Double)
    /// Crops around the places where the cheap look (TextureProbe) saw code-like texture, each
    /// scanned on its own: the expensive passes then cost what those places cost, not the photo.
    case regions
    /// Crops around the places with fine texture only (see `PassCondition.fineTexture`): those
    /// no bigger than `maxArea` of the frame (a small code), and bigger ones only where the cheap
    /// look saw a bar field in them (a linear code in a page of fine texture) or a QR code has
    /// been read in them (a sheet of small codes). A frame-wide fine texture (fabric, a field of
    /// tiny squares) with neither costs no full-resolution pass.
    case fineRegions(maxArea: Double)
    /// The code-like places no bigger than this fraction of the frame where the evidence says a
    /// code is: a bar field (a linear code) or a located QR code not read yet. Blocks of text and
    /// textured surfaces are bigger and are left out; small patches of texture (leaves, a
    /// checked cloth) with neither cost no full-resolution pass.
    case smallRegions(maxArea: Double)
    /// The code-like places no bigger than this fraction of the frame that no code read so far
    /// lies in: what ZBar did not explain (for the second decoder).
    case unexplainedRegions(maxArea: Double)
    /// One square view per QR code the locator found and no pass has read yet: the code warped
    /// through its perspective transform to `side` pixels (more for dense codes, to keep the
    /// source's detail) with `margin` x side of its surroundings on every side, so ZBar sees it
    /// flat, square and at a good module size. A wide margin keeps the quiet zone when the
    /// fourth corner (guessed where a version 1 code has no alignment pattern) falls short.
    /// (ZBar reads mirrored codes as they are.) Must be the first step of a pass.
    case located(side: Int, margin: Double)
    /// One clean rendering per located, unread QR code: its module grid sampled through the
    /// perspective transform, thresholded module by module and drawn anew (4 px modules, a
    /// 4-module quiet zone). With a `shift`, the best frame's grid is drawn four more times,
    /// sampled `shift` modules off centre towards each corner: a transform fitted to finder
    /// centres can sit a fraction of a module off across the code. Must be the first step of a pass.
    case locatedGrid(shift: Double)

    /// Crops the frame to places the cheap look found (the look must run first).
    public var isCrop: Bool {
        switch self {
        case .regions, .fineRegions, .smallRegions, .unexplainedRegions: true
        default: false
        }
    }

    /// Warps the located QR codes (the locator must run first).
    public var isLocated: Bool {
        switch self {
        case .located, .locatedGrid: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .fit(let mp): "fit(\(format(mp))MP)"
        case .downscale(let f): "downscale(1/\(f))"
        case .upscale(let f): "upscale(x\(f))"
        case .invert: "invert"
        case .contrastStretch: "contrast-stretch"
        case .adaptiveThreshold(let r): "adaptive-threshold(r=\(r))"
        case .sharpen: "sharpen"
        case .unsharp(let r, let a): "unsharp(r=\(r), x\(format(a)))"
        case .binarize: "binarize(otsu)"
        case .median: "median(3x3)"
        case .rotate(let d): "rotate(\(format(d))°)"
        case .tiles(let g, let o): "tiles(\(g)x\(g), overlap \(Int(o * 100))%)"
        case .regions: "code-like-regions"
        case .fineRegions(let a): "fine-texture-regions(<=\(format(a * 100))% or bars or read)"
        case .smallRegions(let a): "code-like-regions(<=\(format(a * 100))% with bars or located-qr)"
        case .unexplainedRegions(let a): "code-like-regions(<=\(format(a * 100))%, no code read in them)"
        case .located(let side, let margin): "located-qr(\(side)px, margin \(format(margin * 100))%)"
        case .locatedGrid(let shift): shift > 0 ? "located-qr-grid(shifted ±\(format(shift)) module)" : "located-qr-grid"
        }
    }
}

func format(_ d: Double) -> String {
    d == d.rounded() ? String(Int(d)) : String(d)
}

/// One test deciding whether a pass runs, given what earlier passes found, what the cheap look
/// saw and the size of the image (after the ROI). A pass runs when all its conditions hold.
public enum PassCondition: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// No code has been found in this frame so far.
    case nothingFound
    /// The cheap look (TextureProbe) saw code-like texture.
    case codeLike
    /// The image holds at least this many megapixels.
    case atLeast(megapixels: Double)
    /// The image holds at most this many megapixels.
    case atMost(megapixels: Double)
    /// The image holds fewer than this many megapixels (the complement of `atLeast`).
    case under(megapixels: Double)
    /// The cheap look saw fine texture (busy at the finest scale it looked at) away from the
    /// places that are busy when shrunk too: modules too small for the reduced passes.
    case fineTexture
    /// The code-like places cover at least this fraction of the image (a crowded sheet).
    case busyArea(atLeast: Double)
    /// The code-like places cover less than this fraction of the image: texture in places (a
    /// code on a poster, a label), not everywhere (a page of text, a wall, a fabric).
    case busyAreaBelow(Double)
    /// No sure read so far: nothing, or only linear codes read on fewer scan lines than this
    /// (a weak read may be a misdecode, or another code than the one in the middle).
    case noSureRead(minQuality: Int)
    /// The QR locator (run on first use) found a code that no pass has read yet.
    case locatedUnread
    /// The QR locator found at least this many codes (a sheet of codes).
    case locatedAtLeast(Int)
    /// At least this many of the located codes have been read: they are codes, not a texture
    /// of finder-like squares that happen to line up.
    case locatedReadAtLeast(Int)

    public var description: String {
        switch self {
        case .nothingFound: "nothing-found"
        case .codeLike: "code-like-texture"
        case .atLeast(let mp): ">=\(format(mp))MP"
        case .atMost(let mp): "<=\(format(mp))MP"
        case .under(let mp): "<\(format(mp))MP"
        case .fineTexture: "fine-texture"
        case .busyArea(let f): "busy-area>=\(Int(f * 100))%"
        case .busyAreaBelow(let f): "busy-area<\(Int(f * 100))%"
        case .noSureRead(let q): "no-read-of-quality>=\(q)"
        case .locatedUnread: "located-qr-unread"
        case .locatedAtLeast(let n): "located-qr>=\(n)"
        case .locatedReadAtLeast(let n): "located-qr-read>=\(n)"
        }
    }
}

/// Which symbologies a pass looks for (intersected with the user's choice).
public enum PassSymbols: String, Sendable, Equatable, Codable {
    case all
    case linear = "1d"
    case twoDimensional = "2d"

    public func filter(_ set: SymbologySet) -> Set<Symbology> {
        switch self {
        case .all: set.members
        case .linear: set.members.filter { !$0.isTwoDimensional }
        case .twoDimensional: set.members.filter { $0.isTwoDimensional }
        }
    }
}

/// How much of the image's resolution a pass needs from its source. A JPEG is first decoded
/// reduced (DCT scaling) when the cheap passes need no more; a pass that needs more makes the
/// executor decode the frame at full resolution (once) before it runs.
public enum SourceResolution: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Enough pixels for a view of this many megapixels (a `fit` pass).
    case megapixels(Double)
    /// This fraction of full resolution on each side (a `downscale` pass).
    case fraction(Double)
    /// Enough that the smallest located, unread QR code has modules of at least this many
    /// pixels, up to full resolution (the `located` warps sample their source).
    case locatedModules(atLeast: Double)
    /// Full resolution.
    case full

    /// What a pass's first step needs: a fit or downscale needs what it keeps, a warp of the
    /// located codes what keeps their modules sampled well, anything else the whole image.
    public init(steps: [PassStep]) {
        switch steps.first {
        case .fit(let mp)?: self = .megapixels(mp)
        case .downscale(let f)?: self = .fraction(1 / Double(f))
        case .located?, .locatedGrid?: self = .locatedModules(atLeast: 2.5)
        default: self = .full
        }
    }

    public var description: String {
        switch self {
        case .megapixels(let mp): "\(format(mp))MP"
        case .fraction(let f): "1/\(format((1 / f).rounded())) of full"
        case .locatedModules(let px): "located modules >=\(format(px))px"
        case .full: "full"
        }
    }
}

public struct ScanPass: Sendable, Equatable, Codable {
    public var name: String
    public var steps: [PassStep]
    /// All must hold for the pass to run; empty = always.
    public var when: [PassCondition]
    public var symbols: PassSymbols
    /// The resolution the pass needs from its source (by default what its first step needs).
    public var source: SourceResolution
    /// The decoder the pass runs: ZBar, or the second decoder (zxing-cpp) for the symbologies
    /// ZBar lacks. A pass only ever looks for its decoder's symbologies.
    public var decoder: DecodingEngine
    public init(_ name: String, _ steps: [PassStep], when: [PassCondition] = [], symbols: PassSymbols = .all,
                source: SourceResolution? = nil, decoder: DecodingEngine = .zbar) {
        self.name = name; self.steps = steps; self.when = when; self.symbols = symbols
        self.source = source ?? SourceResolution(steps: steps)
        self.decoder = decoder
    }
}

/// The rules of a plan that are not passes: how a frame is prepared, what the cheap look and
/// the locator look at, and the limits of the steps. Printed by `codesweep plan` with the passes.
public struct PlanSettings: Sendable, Equatable, Codable {
    /// A frame narrower or lower than `thinBelow` pixels (a scan of one bar code line) has its
    /// lines repeated and is padded with white to `thinPadTo`: ZBar needs rows and a quiet zone.
    public var thinBelow = 16
    public var thinPadTo = 32
    /// The cheap look (TextureProbe) looks at these scales (megapixels; nil = as decoded),
    /// coarse to fine; an image of at most `probeSmallMegapixels` is also looked at divided by
    /// each of `probeSmallDivisors` (big modules make too few transitions at full size).
    public var probeScales: [Double?] = [0.75, 3, nil]
    public var probeSmallMegapixels = 1.0
    public var probeSmallDivisors = [2, 3]
    /// The QR locator works on the frame reduced to at most this many megapixels.
    public var locatorMegapixels = 4.0
    /// At most this many located codes a frame are kept, best timing-pattern score first: fine
    /// pixel noise makes hundreds of finder-like triples, each warped and decoded by every
    /// located pass, while a sheet of 60 codes has about 70 candidates.
    public var maxLocatedCodes = 128
    /// A frame with more than `noisyLocatedAbove` located codes whose median finder match is
    /// under `noisyFinderMatch` is pixel noise or the data of one big code (finder-like runs
    /// everywhere, triples of them passing the timing test): only the codes that match their
    /// finders at least `noisyKeepFinderMatch` are kept. On a sheet of codes the median is 1.0.
    public var noisyLocatedAbove = 24
    public var noisyFinderMatch = 0.7
    public var noisyKeepFinderMatch = 0.8
    /// Pixels of context kept around a region crop on every side. ZBar's scanner settles its
    /// edge threshold along each line before it reads: a blurred 3 px-module QR cropped with a
    /// 30 px margin is not read, the same crop with 60 px more of the photo (or of white) is.
    public var cropMargin = 64
    /// A located code's warp has at least `locatedModulePixels.lowerBound` and at most
    /// `.upperBound` pixels a module (more when the source has more, so a dense code keeps its detail).
    public var locatedModulePixels: ClosedRange<Double> = 4...8
    /// No upscale step makes an image bigger than this (upscaling is for small images and crops).
    public var maxUpscaledPixels = 16_000_000
    /// Views smaller than this on a side are not decoded.
    public var minViewSide = 8
    /// An add-on (EAN-2/EAN-5) read alone is no find for `nothing-found` and `no-read-of-quality`
    /// (it may be noise until its host code is read); add-ons are paired with their hosts at the end.
    public var addOnAloneCounts = false

    public init() {}

    public var listing: [String] {
        [
            "thin frames: under \(thinBelow) px on a side, lines repeated and padded with white to \(thinPadTo) px",
            "cheap look: at \(probeScales.map { $0.map { "\(format($0))MP" } ?? "as decoded" }.joined(separator: ", "))"
                + "; at most \(format(probeSmallMegapixels))MP also divided by \(probeSmallDivisors.map(String.init).joined(separator: ", "))",
            "QR locator: on the frame at <=\(format(locatorMegapixels))MP, at most \(maxLocatedCodes) codes kept (best timing pattern first)",
            "noisy frames: over \(noisyLocatedAbove) located codes with a median finder match under \(format(noisyFinderMatch)): only those matching \(format(noisyKeepFinderMatch)) or more kept",
            "crops: \(cropMargin) px of context on every side",
            "located warps: \(format(locatedModulePixels.lowerBound))-\(format(locatedModulePixels.upperBound)) px a module",
            "upscale: never past \(format(Double(maxUpscaledPixels) / 1_000_000))MP",
            "views: under \(minViewSide) px on a side not decoded",
            "add-ons: \(addOnAloneCounts ? "count as finds alone" : "no find alone (paired with their host code at the end)")",
        ]
    }
}

public enum Effort: String, Sendable, CaseIterable, Codable {
    case fast, normal, thorough
}

/// An ordered list of passes. The plan is data: printed by `codesweep plan`, tuned from the
/// recall and speed benchmarks.
public struct ScanPlan: Sendable, Equatable, Codable {
    public var effort: Effort
    public var passes: [ScanPass]
    public var settings: PlanSettings
    public init(effort: Effort, passes: [ScanPass], settings: PlanSettings = PlanSettings()) {
        self.effort = effort; self.passes = passes; self.settings = settings
    }

    /// The plans, tuned with `make bench-recall` (hard set + zxing-cpp corpus, see bench/).
    /// Costs on a 12 MP photo (one core): fit3 ~0.2 s, full ~1-2 s, tiles3 ~1.5-2.5 s; the
    /// cheap look ~10 ms. Most photos hold no code, so the full-resolution and retry passes run
    /// only where the cheap look saw code-like texture.
    public static func forEffort(_ effort: Effort) -> ScanPlan {
        switch effort {
        case .fast:
            // One pass at 1 MP: a 12 MP JPEG is decoded at half size (DCT scaling) and averaged
            // down once more; finds modules of about 6 px and more at full size. (At 0.7 MP the
            // decode is 1/4 size and 40 % cheaper, but two thirds of the benchmark's codes are lost.)
            return ScanPlan(effort: .fast, passes: [
                ScanPass("fit1", [.fit(megapixels: 1)]),
            ])
        case .normal:
            let small: [PassCondition] = [.atMost(megapixels: 1), .noSureRead(minQuality: 40)]
            return ScanPlan(effort: .normal, passes: [
                // A photo (4 MP and more) is scanned at 3 MP only if the cheap look saw code-like
                // texture at some scale: a smooth photo, the common case in a library, costs the
                // look and the 0.75 MP pass. Smaller images are always scanned.
                ScanPass("fit3", [.fit(megapixels: 3)], when: [.under(megapixels: 4)]),
                ScanPass("fit3-textured", [.fit(megapixels: 3)], when: [.atLeast(megapixels: 4), .codeLike]),
                // Where the QR locator found a code no pass has read: each one warped flat and
                // square for ZBar; with a wide margin (a fourth corner guessed short); contrast-
                // stretched and thresholded at three block sizes, the speckle of glare and noise
                // then removed by a median (dark codes in glare, damaged codes); the module grid
                // drawn anew. Each pass warps only the codes still unread, so a photo whose codes
                // the 3 MP pass read costs the locator and nothing more.
                ScanPass("located", [.located(side: 300, margin: 0.25)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-wide", [.located(side: 240, margin: 0.6)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-threshold", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 15)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-threshold-median", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 15), .median], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-threshold8-median", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 8), .median], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-threshold30-median", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 30), .median], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-grid", [.locatedGrid(shift: 0)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                ScanPass("located-grid-shifted", [.locatedGrid(shift: 0.25)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
                // Small modules (2-3 px in a 12 MP photo) need full resolution; they look busy
                // only at the finest scale, so only those places are decoded at full size.
                ScanPass("fine-full", [.fineRegions(maxArea: 0.15)], when: [.atLeast(megapixels: 4), .fineTexture]),
                // Huge modules (a code filling the frame) need a smaller image.
                ScanPass("fit0.75", [.fit(megapixels: 0.75)], when: [.nothingFound]),
                // Modules of about 3 px under camera blur are busy already when shrunk (so not
                // "fine") but read only at full size: the code-like places, decoded there.
                ScanPass("regions-full", [.smallRegions(maxArea: 0.02)], when: [.atLeast(megapixels: 4), .codeLike, .nothingFound]),
                // Small images (thumbnails, crops, web images): every retry is cheap there, so
                // they get the retries a photo only gets where the probe saw code-like texture.
                // Chosen one by one by what each pass alone adds on the zxing-cpp corpus.
                // Big modules: the fit passes leave a small image as it is.
                ScanPass("half", [.downscale(2)], when: small),
                ScanPass("third", [.downscale(3)], when: small),
                ScanPass("quarter", [.downscale(4)], when: small),
                // Tiny modules and missing quiet zones.
                ScanPass("upscale2", [.upscale(2)], when: small),
                // Blur: bars smeared into grey, lifted back out and cut at one level.
                ScanPass("sharpen", [.sharpen], when: small),
                ScanPass("upscale2-sharpen-binarize", [.upscale(2), .sharpen, .binarize], when: small),
                ScanPass("unsharp3-binarize", [.unsharp(radius: 3, amount: 3), .binarize], when: small),
                ScanPass("unsharp5", [.unsharp(radius: 5, amount: 3)], when: small),
                ScanPass("upscale2-unsharp3", [.upscale(2), .unsharp(radius: 3, amount: 3)], when: small),
                ScanPass("upscale4-binarize", [.upscale(4), .binarize], when: [.atMost(megapixels: 0.25), .noSureRead(minQuality: 40)]),
                ScanPass("upscale2-threshold", [.upscale(2), .adaptiveThreshold(radius: 12)], when: small),
                ScanPass("stretch-sharpen", [.contrastStretch, .sharpen], when: small),
                ScanPass("rotate45", [.rotate(45)], when: small),
                // Inverted and low-contrast codes: retried on the code-like places. In a photo
                // (4 MP and more) only where the texture is in places, not everywhere (a page of
                // text, a wall, a fabric: there each retry would be a whole 3 MP scan).
                ScanPass("invert", [.fit(megapixels: 3), .regions, .invert], when: [.under(megapixels: 4), .codeLike, .nothingFound], symbols: .twoDimensional),
                ScanPass("invert-photo", [.fit(megapixels: 3), .regions, .invert], when: [.atLeast(megapixels: 4), .codeLike, .nothingFound, .busyAreaBelow(0.5)], symbols: .twoDimensional),
                ScanPass("invert-full", [.fineRegions(maxArea: 0.15), .invert], when: [.atLeast(megapixels: 4), .fineTexture, .nothingFound], symbols: .twoDimensional),
                ScanPass("sharpen-full", [.fineRegions(maxArea: 0.15), .sharpen], when: [.atLeast(megapixels: 4), .fineTexture, .nothingFound]),
                ScanPass("upscale2-sharpen-full", [.fineRegions(maxArea: 0.15), .upscale(2), .sharpen], when: [.atLeast(megapixels: 4), .fineTexture, .nothingFound]),
                ScanPass("threshold", [.fit(megapixels: 3), .regions, .adaptiveThreshold(radius: 12)], when: [.under(megapixels: 4), .codeLike, .nothingFound]),
                ScanPass("threshold-photo", [.fit(megapixels: 3), .regions, .adaptiveThreshold(radius: 12)], when: [.atLeast(megapixels: 4), .codeLike, .nothingFound, .busyAreaBelow(0.5)]),
                // Crowded sheets: whatever was found, look again tile by tile.
                // Only on a sheet of codes (the locator found eight or more, and four of them
                // were read) with one still unread: a page of text, a fabric or a field of
                // finder-like squares is busy too, and tiling it at full resolution costs more
                // than all else.
                ScanPass("tiles3", [.tiles(grid: 3, overlap: 0.15)], when: [.atLeast(megapixels: 2), .busyArea(atLeast: 0.3), .locatedAtLeast(8), .locatedReadAtLeast(4), .locatedUnread]),
                // Linear codes at a slant. Where texture is everywhere (text, a wall, a fabric)
                // the whole frame is "code-like": rotated at 1 MP there, not at 3 MP.
                ScanPass("rotate30", [.fit(megapixels: 3), .regions, .rotate(30)], when: [.codeLike, .nothingFound, .busyAreaBelow(0.5)], symbols: .linear),
                ScanPass("rotate-30", [.fit(megapixels: 3), .regions, .rotate(-30)], when: [.codeLike, .nothingFound, .busyAreaBelow(0.5)], symbols: .linear),
                ScanPass("rotate30-1mp", [.fit(megapixels: 1), .rotate(30)], when: [.nothingFound, .busyArea(atLeast: 0.5)], symbols: .linear),
                ScanPass("rotate-30-1mp", [.fit(megapixels: 1), .rotate(-30)], when: [.nothingFound, .busyArea(atLeast: 0.5)], symbols: .linear),
            ] + secondDecoderPasses)
        case .thorough:
            return ScanPlan(effort: .thorough, passes: [
                ScanPass("full", []),
                ScanPass("half", [.downscale(2)]),
                ScanPass("quarter", [.downscale(4)]),
                ScanPass("eighth", [.downscale(8)]),
                ScanPass("upscale2", [.upscale(2)]),
                ScanPass("upscale3", [.upscale(3)]),
                ScanPass("invert", [.invert], symbols: .twoDimensional),
                ScanPass("invert-half", [.downscale(2), .invert], symbols: .twoDimensional),
                ScanPass("stretch", [.contrastStretch]),
                ScanPass("threshold", [.adaptiveThreshold(radius: 16)]),
                ScanPass("threshold-half", [.downscale(2), .adaptiveThreshold(radius: 10)]),
                ScanPass("sharpen", [.sharpen]),
                ScanPass("tiles3", [.tiles(grid: 3, overlap: 0.15)]),
                ScanPass("tiles5", [.tiles(grid: 5, overlap: 0.2)]),
                ScanPass("rotate15", [.downscale(2), .rotate(15)], symbols: .linear),
                ScanPass("rotate-15", [.downscale(2), .rotate(-15)], symbols: .linear),
                ScanPass("rotate30", [.downscale(2), .rotate(30)], symbols: .linear),
                ScanPass("rotate-30", [.downscale(2), .rotate(-30)], symbols: .linear),
                ScanPass("rotate45", [.downscale(2), .rotate(45)], symbols: .linear),
                ScanPass("rotate-45", [.downscale(2), .rotate(-45)], symbols: .linear),
                // The second decoder (zxing-cpp: Data Matrix, PDF417, Aztec), after ZBar: full size and halved.
                ScanPass("zxing-full", [], symbols: .twoDimensional, decoder: .zxing),
                ScanPass("zxing-half", [.downscale(2)], symbols: .twoDimensional, decoder: .zxing),
            ])
        }
    }

    /// The second decoder (zxing-cpp: Data Matrix, PDF417, Aztec) in `normal`: last, after every
    /// ZBar pass (a worker reports ZBar's codes before it first calls it, so a crash inside it
    /// loses none of them), and only where it pays: an image under 4 MP on its 3 MP view (the
    /// first full view); then every image on the code-like places of that view that no code read
    /// so far explains, each cropped around its place (zxing-cpp 1.4's Aztec and Data Matrix
    /// detectors start from the middle of the image: a code off-centre in a screenshot is read
    /// only in a crop; and on a textured photo the whole 3 MP view cost 80-200 ms, a fifth of
    /// ZBar's pass there, the places cost what they cover). No second-decoder pass decodes a photo
    /// at full resolution: in `normal` that is spent only where the QR locator or the bar-field
    /// test says a code is, and neither sees these symbologies (`thorough` reads the full frame).
    /// (`fast` runs ZBar alone: its cost is the goal there.)
    public static let secondDecoderPasses: [ScanPass] = [
        ScanPass("zxing-fit3", [.fit(megapixels: 3)], when: [.under(megapixels: 4)], symbols: .twoDimensional, decoder: .zxing),
        ScanPass("zxing-places", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 0.5)], when: [.codeLike],
                 symbols: .twoDimensional, decoder: .zxing),
        // Small images (up to 1 MP) where nothing was read: inverted (light on dark), doubled
        // (tiny modules), halved (big blurred ones). Each added reads on the zxing-cpp corpus
        // (aztec 26 → 30, datamatrix 80 → 83 of the codes; sharpen, median, Otsu and local
        // thresholds and a 45° turn added none).
        // Turned places (under 4 MP): zxing-cpp 1.4 reads a PDF417 only within about 5° of
        // upright and an Aztec only within about 10°; each place turned back by 20° both ways.
        ScanPass("zxing-places-rotate20", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 1), .rotate(20)], when: [.codeLike, .under(megapixels: 4)],
                 symbols: .twoDimensional, decoder: .zxing),
        ScanPass("zxing-places-rotate-20", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 1), .rotate(-20)], when: [.codeLike, .under(megapixels: 4)],
                 symbols: .twoDimensional, decoder: .zxing),
        ScanPass("zxing-invert", [.invert], when: [.atMost(megapixels: 1), .nothingFound], symbols: .twoDimensional, decoder: .zxing),
        ScanPass("zxing-upscale2", [.upscale(2)], when: [.atMost(megapixels: 1), .nothingFound], symbols: .twoDimensional, decoder: .zxing),
        ScanPass("zxing-half", [.downscale(2)], when: [.atMost(megapixels: 1), .nothingFound], symbols: .twoDimensional, decoder: .zxing),
    ]

    /// A readable listing, one pass per line.
    public var listing: String {
        var lines = ["effort \(effort.rawValue): \(passes.count) pass\(passes.count == 1 ? "" : "es")"]
        for (i, p) in passes.enumerated() {
            let steps = p.steps.isEmpty ? "full resolution" : p.steps.map(\.description).joined(separator: " → ")
            lines.append("  \(i + 1). \(p.name): \(steps) → \(p.decoder.rawValue)[\(p.symbols.rawValue)]   when: \(p.when.isEmpty ? "always" : p.when.map(\.description).joined(separator: " and "))   source: \(p.source)")
        }
        lines.append("settings:")
        lines += settings.listing.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
