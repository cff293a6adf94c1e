/// The passes of `normal` and `thorough`, in groups, in the order they run. Each pass's
/// comment is the reason it is there; `ScanPlan.forEffort` puts the groups together.
extension ScanPlan {
    /// Images of 1 MP and less where no code was read surely: when the small-image retries run.
    static let smallImage: [PassCondition] = [.atMost(megapixels: 1), .noSureRead(minQuality: 40), .codeEvidence(megapixels: 1, orUnder: 0.1, finders: nil)]

    /// `normal`'s first view: the 3 MP pass.
    static let firstViewPasses: [ScanPass] = [
        // QR codes are located first and read by the grid decoder, where the cheap look saw
        // code-like texture: once every located code is read, the ZBar passes after it look
        // for bars only (`allButSettledQR`; with --symbologies qr they do not run at all).
        ScanPass("grid", [], when: [.codeLike, .locatedUnread], symbols: .twoDimensional, source: .locatedModules(atLeast: 2.5), reader: .grid),
        // A photo (4 MP and more) is scanned at 3 MP only if the cheap look saw code-like
        // texture at some scale: a smooth photo, the common case in a library, costs the
        // look and the 0.75 MP pass. Smaller images are always scanned.
        ScanPass("fit3", [.fit(megapixels: 3)], when: [.under(megapixels: 4)], symbols: .allButSettledQR),
        ScanPass("fit3-textured", [.fit(megapixels: 3)], when: [.atLeast(megapixels: 4), .codeLike], symbols: .allButSettledQR),
        // zxing-cpp 3.1 on the same view (under 4 MP), for every symbology: it reads Data Matrix,
        // Aztec, PDF417 and the codes ZBar does not, and a linear code only once its lines agree,
        // which makes the read sure (`noSureRead`): the small-image retries are then not needed.
        ScanPass("zxing-fit3", [.fit(megapixels: 3)], when: [.under(megapixels: 4)], symbols: .all, reader: .zxing),
    ]

    /// `normal`'s passes over the QR codes the locator found and no pass has read.
    static let locatedPasses: [ScanPass] = [
        // Where the QR locator found a code no pass has read: each one warped flat and
        // square for ZBar; with a wide margin (a fourth corner guessed short); contrast-
        // stretched and thresholded at three block sizes, the speckle of glare and noise
        // then removed by a median (dark codes in glare, damaged codes); the module grid
        // drawn anew. Each pass warps only the codes still unread, so a photo whose codes
        // the 3 MP pass read costs the locator and nothing more.
        // (The grid decoder ran first, before the 3 MP pass: `firstViewPasses`. It reads most
        // located codes for a fraction of a warp and a ZBar pass, and tells the candidates that
        // are no code: no format information.)
        ScanPass("located", [.located(side: 300, margin: 0.25)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
        ScanPass(
            "located-threshold", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 15)], when: [.codeLike, .locatedUnread],
            symbols: .twoDimensional),
        ScanPass(
            "located-threshold-median", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 15), .median],
            when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
        ScanPass("located-grid", [.locatedGrid(shift: 0)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
        ScanPass("located-grid-shifted", [.locatedGrid(shift: 0.25)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
    ]

    /// Every effort's pass over a sheet of codes (a big frame, code-like over much of it: label
    /// sheets, asset tags, scanned pages), after the located codes: ZBar at full resolution on
    /// the tiles where the full-resolution look sees texture that no code read so far explains
    /// (bars of 2 px, QR codes the grid decoder did not read); for bars only (in `fast` every second line)
    /// once the frame's QR codes are settled. A sheet of 900 labels of 2 px bars shows nothing at
    /// 3 MP. (A bar-field test per tile, to skip the text and grain of a photo of many codes,
    /// missed Code 128s of 2 px bars 40 px high: SheetTests.)
    static let sheetTilesPass = ScanPass("sheet-tiles", [.sheetTiles], when: [.sheet], symbols: .allButSettledQR)

    /// `normal`'s passes for modules too small or too big for the 3 MP view.
    static let resolutionPasses: [ScanPass] = [
        // Small modules (2-3 px in a 12 MP photo) need full resolution; they look busy
        // only at the finest scale, so only those places are decoded at full size.
        ScanPass("fine-full", [.fineRegions(maxArea: 0.15)], when: [.atLeast(megapixels: 4), .fineTexture]),
        // Huge modules (a code filling the frame) need a smaller image.
        ScanPass("fit0.75", [.fit(megapixels: 0.75)], when: [.nothingFound]),
        // Modules of about 3 px under camera blur are busy already when shrunk (so not
        // "fine") but read only at full size: the code-like places, decoded there.
        ScanPass("regions-full", [.smallRegions(maxArea: 0.02)], when: [.atLeast(megapixels: 4), .codeLike, .nothingFound]),
    ]

    /// `normal`'s retries on small images.
    static let smallImagePasses: [ScanPass] = [
        // Small images (thumbnails, crops, web images): every retry is cheap there, so
        // they get the retries a photo only gets where the probe saw code-like texture.
        // Chosen one by one by what each pass alone adds on the zxing-cpp corpus.
        // Big modules: the fit passes leave a small image as it is.
        ScanPass("half", [.downscale(2)], when: smallImage),
        ScanPass("third", [.downscale(3)], when: smallImage),
        ScanPass("quarter", [.downscale(4)], when: smallImage),
        // Tiny modules and missing quiet zones.
        ScanPass("upscale2", [.upscale(2)], when: smallImage),
        // Blur: bars smeared into grey, lifted back out and cut at one level.
        ScanPass("sharpen", [.sharpen], when: smallImage),
        ScanPass("upscale2-sharpen-binarize", [.upscale(2), .sharpen, .binarize], when: smallImage, lineStep: 2),
        ScanPass("unsharp3-binarize", [.unsharp(radius: 3, amount: 3), .binarize], when: smallImage),
        ScanPass("unsharp5", [.unsharp(radius: 5, amount: 3)], when: smallImage),
        // Drawn codes with broken modules (BoofCV's pathological set: 3 codes).
        ScanPass("upscale2-threshold", [.upscale(2), .adaptiveThreshold(radius: 12)], when: smallImage),
        ScanPass("stretch-sharpen", [.contrastStretch, .sharpen], when: smallImage),
        ScanPass("rotate45", [.rotate(45)], when: smallImage),
    ]

    /// `normal`'s retries on the code-like places: inverted, sharpened, thresholded.
    static let placeRetryPasses: [ScanPass] = [
        // Inverted and low-contrast codes: retried on the code-like places of a photo of 4 MP
        // and more, only where the texture is in places, not everywhere (a page of text, a
        // wall, a fabric: there each retry would be a whole 3 MP scan). Under 4 MP zxing-cpp's
        // first look (zxing-fit3) tried the view inverted and binarizes locally itself: these
        // retries read nothing more there (zxing-cpp corpus), `thorough` keeps them.
        ScanPass(
            "invert-photo", [.fit(megapixels: 3), .regions, .invert], when: [.atLeast(megapixels: 4), .codeLike, .nothingFound, .busyAreaBelow(0.5)],
            symbols: .twoDimensional),
        ScanPass(
            "invert-full", [.fineRegions(maxArea: 0.15), .invert], when: [.atLeast(megapixels: 4), .fineTexture, .nothingFound], symbols: .twoDimensional),
        ScanPass("sharpen-full", [.fineRegions(maxArea: 0.15), .sharpen], when: [.atLeast(megapixels: 4), .fineTexture, .nothingFound]),
        ScanPass("upscale2-sharpen-full", [.fineRegions(maxArea: 0.15), .upscale(2), .sharpen], when: [.atLeast(megapixels: 4), .fineTexture, .nothingFound]),
        ScanPass(
            "threshold-photo", [.fit(megapixels: 3), .regions, .adaptiveThreshold(radius: 12)],
            when: [.atLeast(megapixels: 4), .codeLike, .nothingFound, .busyAreaBelow(0.5)]),
    ]

    /// `normal`'s second look at a sheet of codes.
    static let crowdedSheetPasses: [ScanPass] = [
        // Crowded sheets: whatever was found, look again tile by tile.
        // Only on a sheet of codes (the locator found eight or more, and four of them
        // were read) with one still unread: a page of text, a fabric or a field of
        // finder-like squares is busy too, and tiling it at full resolution costs more
        // than all else.
        ScanPass(
            "tiles3", [.tiles(grid: 3, overlap: 0.15)],
            when: [.atLeast(megapixels: 2), .busyArea(atLeast: 0.3), .locatedAtLeast(8), .locatedReadAtLeast(4), .locatedUnread])
    ]

    /// `normal`'s turns for linear codes at a slant.
    static let slantPasses: [ScanPass] = [
        // Linear codes at a slant. Where texture is everywhere (text, a wall, a fabric)
        // the whole frame is "code-like": rotated at 1 MP there, not at 3 MP.
        ScanPass("rotate30", [.fit(megapixels: 3), .regions, .rotate(30)], when: [.codeLike, .nothingFound, .busyAreaBelow(0.5)], symbols: .linear),
        ScanPass("rotate-30", [.fit(megapixels: 3), .regions, .rotate(-30)], when: [.codeLike, .nothingFound, .busyAreaBelow(0.5)], symbols: .linear),
        // Only where bars show (or in a tiny image): each turn costs a 1 MP scan, and a busy
        // photo of a QR code, of text, brick or fabric shows no bars (BoofCV dev: 3.2 s for no
        // code). (A small stacked DataBar shows no bar field: zxing-cpp 3.1 reads those.)
        ScanPass(
            "rotate30-1mp", [.fit(megapixels: 1), .rotate(30)],
            when: [.nothingFound, .busyArea(atLeast: 0.5), .codeEvidence(megapixels: 1, orUnder: 0.1, finders: nil)],
            symbols: .linear
        ),
        ScanPass(
            "rotate-30-1mp", [.fit(megapixels: 1), .rotate(-30)],
            when: [.nothingFound, .busyArea(atLeast: 0.5), .codeEvidence(megapixels: 1, orUnder: 0.1, finders: nil)],
            symbols: .linear),
    ]

    /// `thorough`, after all of `normal`: the warps of located codes that normal drops.
    static let thoroughLocatedPasses: [ScanPass] = [
        // The warps of located codes that normal drops: on the BoofCV dev half, after the
        // grid decoder, they added 5 codes for 13 s.
        ScanPass("located-wide", [.located(side: 240, margin: 0.6)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
        ScanPass(
            "located-threshold8-median", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 8), .median],
            when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
        ScanPass(
            "located-threshold30-median", [.located(side: 300, margin: 0.25), .contrastStretch, .adaptiveThreshold(radius: 30), .median],
            when: [.codeLike, .locatedUnread], symbols: .twoDimensional),
    ]

    /// `thorough`, after all of `normal`: the small-image retries that normal drops. On the
    /// zxing-cpp corpus they cost a third of normal's time there (upscale4-binarize 17 s,
    /// upscale2-unsharp3 8 s of 81 s, one job) and each was alone in reading one code.
    static let thoroughSmallImagePasses: [ScanPass] = [
        ScanPass("upscale2-unsharp3", [.upscale(2), .unsharp(radius: 3, amount: 3)], when: smallImage),
        ScanPass("upscale4-binarize", [.upscale(4), .binarize], when: [.atMost(megapixels: 0.25), .noSureRead(minQuality: 40)]),
        ScanPass("invert", [.fit(megapixels: 3), .regions, .invert], when: [.under(megapixels: 4), .codeLike, .nothingFound], symbols: .twoDimensional),
        ScanPass("threshold", [.fit(megapixels: 3), .regions, .adaptiveThreshold(radius: 12)], when: [.under(megapixels: 4), .codeLike, .nothingFound]),
    ]

    /// `thorough`, last: every retry on the whole frame at full resolution.
    static let wholeFramePasses: [ScanPass] = [
        ScanPass("all-full", []),
        ScanPass("all-half", [.downscale(2)]),
        ScanPass("all-quarter", [.downscale(4)]),
        ScanPass("all-eighth", [.downscale(8)]),
        ScanPass("all-upscale2", [.upscale(2)]),
        ScanPass("all-upscale3", [.upscale(3)]),
        ScanPass("all-invert", [.invert], symbols: .twoDimensional),
        ScanPass("all-invert-half", [.downscale(2), .invert], symbols: .twoDimensional),
        ScanPass("all-stretch", [.contrastStretch]),
        ScanPass("all-threshold", [.adaptiveThreshold(radius: 16)]),
        ScanPass("all-threshold-half", [.downscale(2), .adaptiveThreshold(radius: 10)]),
        ScanPass("all-sharpen", [.sharpen]),
        ScanPass("all-tiles3", [.tiles(grid: 3, overlap: 0.15)]),
        ScanPass("all-tiles5", [.tiles(grid: 5, overlap: 0.2)]),
        ScanPass("all-rotate15", [.downscale(2), .rotate(15)], symbols: .linear),
        ScanPass("all-rotate-15", [.downscale(2), .rotate(-15)], symbols: .linear),
        ScanPass("all-rotate30", [.downscale(2), .rotate(30)], symbols: .linear),
        ScanPass("all-rotate-30", [.downscale(2), .rotate(-30)], symbols: .linear),
        ScanPass("all-rotate45", [.downscale(2), .rotate(45)], symbols: .linear),
        ScanPass("all-rotate-45", [.downscale(2), .rotate(-45)], symbols: .linear),
        // The isolated reader (zxing-cpp: Data Matrix, PDF417, Aztec), after ZBar: full size and halved.
        ScanPass("all-zxing-full", [], symbols: .twoDimensional, reader: .zxing),
        ScanPass("all-zxing-half", [.downscale(2)], symbols: .twoDimensional, reader: .zxing),
    ]

    /// zxing-cpp's retries in `normal`, after the ZBar passes (its first look, `zxing-fit3`, runs
    /// beside ZBar's 3 MP pass: `firstViewPasses`): every image on the code-like places of the
    /// 3 MP view that no code read so far explains, each cropped around its place; turned places;
    /// located QR codes left. No zxing-cpp pass decodes a big photo at full resolution: in
    /// `normal` that is spent only where the QR locator or the bar-field test says a code is
    /// (`thorough` reads the full frame).
    public static let isolatedReaderPasses: [ScanPass] = [
        ScanPass(
            "zxing-places", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 0.5)], when: [.codeLike],
            symbols: .secondReader, reader: .zxing),
        // Turned places (under 4 MP): zxing-cpp 1.4 reads a PDF417 only within about 5° of
        // upright and an Aztec only within about 10°; each place turned back by 20° both ways.
        ScanPass(
            "zxing-places-rotate20", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 1), .rotate(20)], when: [.codeLike, .under(megapixels: 4)],
            symbols: .twoDimensional, reader: .zxing),
        ScanPass(
            "zxing-places-rotate-20", [.fit(megapixels: 3), .unexplainedRegions(maxArea: 1), .rotate(-20)], when: [.codeLike, .under(megapixels: 4)],
            symbols: .twoDimensional, reader: .zxing),
        // Located QR codes no pass has read (a curved code, a code in glare): each cropped at
        // full resolution, as it is, for zxing-cpp's QR reader.
        ScanPass("zxing-located", [.locatedCrop(margin: 1)], when: [.codeLike, .locatedUnread], symbols: .twoDimensional, reader: .zxing),
        // A small image where nothing was read, doubled (modules under 2 px), where a finder
        // pattern or bars show (or it is tiny): trying hard, not inverted or shrunk (zxing-fit3
        // tried those at its size). On the 0.3 MP photos of no code it cost 31 ms each with all
        // tries and read nothing.
        ScanPass(
            "zxing-upscale2", [.upscale(2)], when: [.atMost(megapixels: 1), .nothingFound, .codeEvidence(megapixels: 1, orUnder: 0.1, finders: 1)],
            symbols: .twoDimensional, reader: .zxing, tries: .harder),
    ]

    /// A clean digital frame's passes (`ScanPlan.digital`): nothing blurred waits to be sharpened
    /// there, and zxing-cpp 3.1 reads every format of a drawn code in one pass over the frame.
    static func digitalPasses(invertedWhen: [PassCondition], bars: Bool) -> [ScanPass] {
        var passes = [
            // zxing-cpp over the whole frame, as decoded, for every symbology it reads: one look
            // trying hard but not turned, inverted or shrunk (a drawn code needs none of them),
            // then a plain one at the frame inverted (light codes on a dark ground). Together
            // they cost about half of zxing-cpp's default tries on a page with no code, and read
            // as many codes on the screenshots.
            ScanPass("zxing-frame", [], symbols: .all, source: .full, reader: .zxing, tries: .harder),
            ScanPass("zxing-inverted", [.invert], when: invertedWhen, symbols: .all, source: .full, reader: .zxing, tries: .plain),
            // QR codes the locator finds that zxing-cpp left: the grid decoder (the locator is
            // cheap on a drawn frame; the cheap look is not needed to send it).
            ScanPass("grid", [], when: [.locatedUnread], symbols: .twoDimensional, source: .locatedModules(atLeast: 2.5), reader: .grid),
        ]
        // ZBar for bars over the frame at its own size, every second line (not in `fast`:
        // zxing-cpp reads every linear symbology but SQ's and the add-ons): the first job reads
        // every code either reader reads. A browser scales a Code 128 by 0.67 or 0.83 and
        // zxing-cpp misses it where ZBar reads it; at 1 MP (the pass it replaces, where the
        // bar-field test saw bars) the resampling lost it too. Then zxing-cpp plainly at half
        // size, 2D codes, in a frame of 2 MP and more (a phone or HiDPI screenshot's PDF417 of
        // big modules, which zxing-cpp reads only through its downscaled try); then, in a small
        // frame where nothing was read, zxing-cpp with all its tries (a code turned 90°, one
        // without its quiet zone: zxing-cpp corpus).
        if bars {
            passes.append(ScanPass("zbar-frame", [], symbols: .linear, source: .full, lineStep: 4))
            passes.append(
                ScanPass(
                    "zxing-half", [.downscale(2)], when: [.atLeast(megapixels: 2)], symbols: .twoDimensional, source: .full, reader: .zxing,
                    tries: .plain))
            passes.append(ScanPass("zxing-all-tries", [], when: [.atMost(megapixels: 1), .nothingFound], symbols: .all, source: .full, reader: .zxing))
            // ... and turned back by 20° both ways (a PDF417 or Aztec code at a slant).
            for deg in [20.0, -20] {
                passes.append(
                    ScanPass(
                        "zxing-rotate\(Int(deg))", [.rotate(deg)], when: [.atMost(megapixels: 1), .nothingFound], symbols: .twoDimensional,
                        source: .full, reader: .zxing))
            }
        }
        // A sheet of codes: only once codes were read (a drawn sheet's codes are read at once;
        // a page with none is no sheet, and the look it would take costs more than its read).
        var sheet = sheetTilesPass
        sheet.when = [.codesRead(atLeast: 4)] + sheet.when
        return passes + [sheet]
    }

    /// `normal`'s warps of located QR codes no pass has read, on a digital frame: the same passes,
    /// sent by the locator alone (the cheap look is not needed there).
    static var digitalLocatedPasses: [ScanPass] {
        locatedPasses.map { pass in
            var p = pass
            p.when = pass.when.filter { $0 != .codeLike }
            return p
        }
    }
}
