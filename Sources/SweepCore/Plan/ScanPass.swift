import Readers
import Records

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
    /// lies in: what ZBar did not explain (for the isolated reader).
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
    /// One crop per located, unread QR code: its outline's bounding box with `margin` x its
    /// longer side of surroundings on every side, cut from the source as it is (not warped: a
    /// curved or bent code keeps its shape for a reader that follows it). For the second
    /// decoder. Must be the first step of a pass.
    case locatedCrop(margin: Double)
    /// A sheet of codes (`PassCondition.sheet`) at full resolution, in tiles of
    /// `PlanSettings.sheetTileSide` px overlapping by `sheetTileOverlap` px: only the tiles
    /// where the full-resolution look sees busy texture that no code read so far explains (a
    /// code and its quiet zone). Decodes the frame at full resolution.
    case sheetTiles

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
        case .located, .locatedGrid, .locatedCrop: true
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
        case .fineRegions(let a): "fine-texture-regions(<=\(format(a * 100))% or unexplained-bars or sheet)"
        case .smallRegions(let a): "code-like-regions(<=\(format(a * 100))% with bars or located-qr)"
        case .unexplainedRegions(let a): "code-like-regions(<=\(format(a * 100))%, no code read in them)"
        case .located(let side, let margin): "located-qr(\(side)px, margin \(format(margin * 100))%)"
        case .locatedGrid(let shift): shift > 0 ? "located-qr-grid(shifted ±\(format(shift)) module)" : "located-qr-grid"
        case .locatedCrop(let margin): "located-qr-crop(margin \(format(margin * 100))%)"
        case .sheetTiles: "sheet-tiles(full resolution, where texture no code read explains)"
        }
    }
}

func format(_ d: Double) -> String { NumberText.trimmed(d) }

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
    /// Evidence that the frame may hold a code the retries can read: it is under `orUnder`
    /// megapixels (a retry there costs little), or the QR locator found a code or at least
    /// `finders` finder patterns (nil: QR codes are no evidence, for turns that look for bars
    /// only), or the bar-field test (`TextureProbe.hasBarField`: parallel
    /// edges over touching 16x16 blocks) sees bars in it at `megapixels` or halved (blurred bars
    /// show their edges when shrunk). A photo of text, brick or fabric shows none of them: the
    /// retries for blurred, tiny or slanted codes run only where one shows.
    case codeEvidence(megapixels: Double, orUnder: Double, finders: Int?)
    /// A sheet of codes: at least `PlanSettings.sheetMegapixels` and code-like places over at
    /// least `sheetBusyArea` of it (label sheets, asset tags, scanned pages).
    case sheet
    /// The pass's view (its first step, `fit`) shows a field of bars where no code read so far
    /// stands (the bar-field test, loose): ZBar is spent on a digital frame only there.
    case barsUnexplained
    /// A dark frame (a dark-mode page): its mean grey is under the middle. Light codes on a dark
    /// ground are there.
    case dark
    /// At least this many codes were read so far.
    case codesRead(atLeast: Int)

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
        case .codeEvidence(let mp, let small, let finders):
            "<\(format(small))MP-or-\(finders.map { "located-qr-or-\($0)-finders-or-" } ?? "")bar-field-at-\(format(mp))MP-or-halved"
        case .sheet: "sheet-of-codes"
        case .barsUnexplained: "bars-no-code-read-explains"
        case .dark: "dark-frame"
        case .codesRead(let n): "codes-read>=\(n)"
        }
    }
}

/// Which symbologies a pass looks for (intersected with the user's choice).
public enum PassSymbols: String, Sendable, Equatable, Codable {
    case all
    case linear = "1d"
    case twoDimensional = "2d"
    /// Every symbology, but QR codes only while they are not settled: once the QR locator found
    /// codes and every one of them was read (the grid decoder reads located codes first), a
    /// full-frame ZBar pass looks for bars only. Where nothing was located, or a located code is
    /// still unread, ZBar reads QR codes too.
    case allButSettledQR = "all, qr unless every located code was read"
    /// 2D codes, and the linear ones only zxing-cpp reads (DataBar Limited and Expanded Stacked,
    /// DX film edge, Telepen): what the second reader adds on a photo.
    case secondReader = "2d, and linear codes zbar does not read"

    public func filter(_ set: SymbologySet) -> Set<Symbology> {
        switch self {
        case .all, .allButSettledQR: set.members
        case .linear: set.members.filter { !$0.isTwoDimensional }
        case .twoDimensional: set.members.filter { $0.isTwoDimensional }
        case .secondReader: set.members.filter { $0.isTwoDimensional || $0.reader != .zbar }
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
    /// The reader the pass runs, by name: ZBar, the isolated reader (zxing-cpp) for the
    /// symbologies ZBar lacks and for QR codes, or the grid decoder. A pass only ever looks for
    /// what its reader reads (`ViewReader.symbologies`).
    public var reader: ReaderName
    /// What zxing-cpp tries beyond a plain look (`ReaderTries`; its default, `.all`, unless said).
    public var tries: ReaderTries
    /// ZBar scans every `lineStep`-th row and column of the pass's views (1: every one). A view
    /// doubled in size holds each source line twice over: every second line of it is every line
    /// of the source, at twice the resolution along it.
    public var lineStep: Int
    public init(
        _ name: String, _ steps: [PassStep], when: [PassCondition] = [], symbols: PassSymbols = .all,
        source: SourceResolution? = nil, reader: ReaderName = .zbar, tries: ReaderTries = .all, lineStep: Int = 1
    ) {
        self.name = name; self.steps = steps; self.when = when; self.symbols = symbols
        self.source = source ?? SourceResolution(steps: steps)
        self.reader = reader
        self.tries = tries
        self.lineStep = lineStep
    }
}
