import Records

/// The rules of a plan that are not passes: how a frame is prepared, what the cheap look and
/// the locator look at, and the limits of the steps. Printed by `codesweep plan` with the passes.
public struct PlanSettings: Sendable, Equatable, Codable {
    /// A frame narrower or lower than `thinBelow` pixels (a scan of one bar code line) has its
    /// lines repeated and is padded to `thinPadTo` (white; black round light modules at its edge,
    /// `LumaImage.paddedThin`): ZBar needs rows and a quiet zone.
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
    /// The locator looks at a small frame (1 MP and less) doubled too, for modules of 2 px and
    /// less at a slant: in a photo. A clean digital frame is not doubled unless this is set: its
    /// crisp small modules are zxing-cpp's to read, and the doubled level costs four times the
    /// frame's own (zxing-cpp corpus, 507 drawn frames: locator 0.8 s, no code added).
    public var digitalLocatorDoubles = false
    /// At most this many located codes a frame are kept, best timing-pattern score first: a
    /// documented limit, not a tuning knob (a sheet of 900 labels locates about 300 QR codes,
    /// and the grid decoder marks pixel noise's finder-like triples as no code before any warp
    /// is made of them). A frame that reaches it gets a warning on its record.
    public var maxLocatedCodes = 4096
    /// A sheet of codes: a frame of at least `sheetMegapixels` (full resolution) whose code-like
    /// places cover at least `sheetBusyArea` of it. Its codes may be too small for the reduced
    /// views (QR modules of 4 px and bars of 2 px in an 8,200 x 4,500 label sheet are 1 px and
    /// half a pixel at 3 MP), so the locator also looks at it at full resolution, tile by tile
    /// (`sheetTileSide` px a side, overlapping by `sheetTileOverlap` px), where the full-resolution
    /// look sees texture no located code explains; and ZBar reads the tiles where texture no code
    /// read explains is left (`.sheetTiles`).
    public var sheetMegapixels = 4.0
    public var sheetBusyArea = 0.3
    /// ... and in at least this many separate places (groups of at least four busy blocks) at
    /// some scale: a close-up of one code covers the frame too, in a few places; on the BoofCV
    /// photos at most 90 places but for one photo of a monitor (160, moiré), while a scanned
    /// page of 48 asset tags shows 129 and label sheets 400-6,500.
    public var sheetMinPlaces = 100
    /// ... with codes among them: at least this many QR codes located in the reduced view, or a
    /// bar field in the frame as decoded (a page of text has neither).
    public var sheetMinLocated = 4
    public var sheetTileSide = 2048
    public var sheetTileOverlap = 512
    /// The locator keeps this many finder patterns (most confirmed first) in each sheet tile,
    /// where elsewhere it keeps 400 (a photo's finder-like noise then costs no grid reads): a
    /// tile of a sheet can hold 400 codes, 1,200 finders.
    public var sheetMaxFinders = 2400
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
    /// ZBar's scan density (every Nth row and column) for a full-frame pass that looks for bars
    /// only because the frame's QR codes are settled (`PassSymbols.allButSettledQR`). `fast`
    /// scans every second line: half the cost (BoofCV dev: 7.3 -> 4.6 s for its 1 MP pass) for
    /// no linear code on the zxing-cpp corpus. `normal` scans every line: on a scanned page of
    /// labels a Code 128 read on every second line of the 3 MP view came with an outline short
    /// of the code's, and the full-resolution read of it then counted as a second code.
    public var settledLineStep = 1
    /// A full-frame pass over a settled frame runs only where the bar-field test sees bars in its
    /// view (`CheapLook.barsToLookFor`): a photo of QR codes alone costs no ZBar pass.
    public var settledNeedsBarField = false
    /// The share of a 16x16 block's pixels on an edge that makes it part of a bar field for that
    /// test: looser than the sheet's 0.6, since a code of narrow bars one pixel apart shows edges
    /// on under half its pixels (a Code 39 beside a QR code in the zxing-cpp corpus: 37-56 %).
    public var settledBarEdgeShare = 0.35
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
    /// Add-ons are kept only beside their host code (`AddOnPairing`), and the hosts are scanned
    /// for that when add-ons are chosen. Off only for a plain look (`ReaderOptions.plainLook`).
    public var pairsAddOns = true
    /// A located candidate in which the grid decoder finds no format information (in any of
    /// its frames, either way round) is no QR code: the warp passes skip it.
    public var gridRejectsNonCodes = true
    /// QR codes read by ZBar get their symbol details (version, level, mask, mirroring) from
    /// the grid decoder at their corners, kept when it reads the same bytes.
    public var qrDetails = true
    /// A weak EAN/UPC read in a large photo is no find until a second view confirms it: on 12 MP
    /// glossy product photos the 3 MP pass reads codes with a valid check digit and wrong digits
    /// at ZBar quality 4-8, beside the real one (most real reads there score 40 and more; small,
    /// blurred or glared real codes less, and the confirmation crops read them again). A read of
    /// `linearConfirmSymbologies` on fewer than `linearConfirmBelow` scan lines, in a frame of at
    /// least `linearConfirmMegapixels` (full resolution), is held aside until another view reads
    /// the same code at an overlapping place (another pass, or a crop around it at another scale
    /// or from other pixels, see `LinearConfirmation.confirmHeld`) or a stronger read of it agrees. A
    /// held read is no find (`nothing-found` and `no-read-of-quality` still hold, so the
    /// fallbacks run); one still held at the end is dropped.
    public var linearConfirmBelow = 40
    public var linearConfirmMegapixels = 4.0
    /// DataBar and the add-ons too: on an 8,200 x 4,500 label sheet of Code 128s and EAN-13s of
    /// 2 px bars, the 3 MP view read a DataBar on 8 scan lines, and a turned half-size view an
    /// EAN-2 on 4, that no other view confirms.
    public var linearConfirmSymbologies: Set<Symbology> = Symbology.addOnHosts.union([.databar, .databarExpanded, .ean2, .ean5])

    public init() {}

    public var listing: [String] {
        [
            "thin frames: under \(thinBelow) px on a side, lines repeated and padded to \(thinPadTo) px (white, or black round light modules at the edge)",
            "cheap look: at \(probeScales.map { $0.map { "\(format($0))MP" } ?? "as decoded" }.joined(separator: ", "))"
                + "; at most \(format(probeSmallMegapixels))MP also divided by \(probeSmallDivisors.map(String.init).joined(separator: ", "))",
            "QR locator: on the frame at <=\(format(locatorMegapixels))MP; on a sheet of codes (>=\(format(sheetMegapixels))MP, code-like places over >=\(Int(sheetBusyArea * 100))%, >=\(sheetMinPlaces) of them, >=\(sheetMinLocated) QR codes located and read, or bars seen) also at full resolution"
                + " in \(sheetTileSide) px tiles (\(sheetTileOverlap) px overlap) where texture no located code explains is; at most \(maxLocatedCodes) codes kept (best timing pattern first, a warning when reached)",
            "QR locator on a clean digital frame: \(digitalLocatorDoubles ? "a small frame also doubled, as a photo" : "never doubled (a photo of 1 MP and less is also looked at doubled)")",
            "noisy frames: over \(noisyLocatedAbove) located codes with a median finder match under \(format(noisyFinderMatch)): only those matching \(format(noisyKeepFinderMatch)) or more kept",
            "settled QR codes (something located, every located code read, every code-like place holding a code): full-frame ZBar passes then look for bars only, on \(settledLineStep == 1 ? "every line" : "one line in \(settledLineStep)")"
                + (settledNeedsBarField
                    ? ", and only where the bar-field test sees bars no code read explains (in the view as it is, halved, quartered; in each tile of a sheet)"
                    : ""),
            "crops: \(cropMargin) px of context on every side",
            "located warps: \(format(locatedModulePixels.lowerBound))-\(format(locatedModulePixels.upperBound)) px a module",
            "upscale: never past \(format(Double(maxUpscaledPixels) / 1_000_000))MP",
            "views: under \(minViewSide) px on a side not decoded",
            "weak EAN/UPC/DataBar/add-on reads: \(linearConfirmSymbologies.sorted().map(\.rawValue).joined(separator: ", ")) read on under \(linearConfirmBelow) scan lines"
                + " in a frame of >=\(format(linearConfirmMegapixels))MP (a clean digital frame's own passes excepted) held until another pass, or a crop around the read (full resolution, its own scale from other pixels, half its scale), reads them;"
                + " no find until then, dropped if never confirmed",
            pairsAddOns
                ? "add-ons: \(addOnAloneCounts ? "count as finds alone" : "no find alone (paired with their host code at the end)")"
                : "add-ons: reported alone (not paired with a host code)",
            "QR details: \(qrDetails ? "for every QR code, from the grid decoder at its corners (kept when it reads the same bytes)" : "only for codes the grid decoder read")",
            "grid decoder: \(gridRejectsNonCodes ? "a located candidate without format information is no code (no warps)" : "its verdict gates nothing")",
        ]
    }
}
