import Records

/// Runs a scan plan over one upright frame and merges what the passes find.
package struct PlanExecutor {
    package let options: ReaderOptions
    /// The readers of views the plan's passes name (`ScanPass.decoder`): a pass whose reader is
    /// not in the list is skipped.
    package var readers: [ViewReader]
    var settings: PlanSettings { options.plan.settings }
    /// Called after each pass that ran (and once for the cheap look and the locator) with a one-line
    /// summary: pass name, milliseconds, symbols accepted. For tuning the plan (`CODESWEEP_TRACE=1`).
    package var trace: (@Sendable (String) -> Void)?
    /// Called before each pass of an isolated reader (`ViewReader.isolated`: zxing-cpp) reads, with
    /// the codes found so far (as `scan` returns them): a worker sends them on before it reads.
    package var beforeIsolatedReader: (([DetectedCode]) -> Void)?
    /// Called with the reader and its reason when a reader failed on a view (read nothing
    /// because of a caught exception or abort): the record names the reader.
    package var failed: ((DecodingEngine, String) -> Void)?
    /// Called with a warning for the file's record: a limit of the plan reached (the located
    /// codes kept), so the record says that codes may be missing.
    package var warn: ((String) -> Void)?

    package init(options: ReaderOptions, readers: [ViewReader]) {
        self.options = options
        self.readers = readers
    }

    /// One reader named ZBar, reading what ZBar reads, with `decode` (the tests' recording and
    /// scripted decoders).
    package init(options: ReaderOptions, decode: @escaping SymbolDecoder) {
        let zbar = Set(Symbology.allCases.filter { $0.engine == .zbar })
        self.init(options: options, readers: [ViewReader(engine: .zbar, symbologies: zbar, confirmsWeakReads: true, decode: decode)])
    }

    /// The reader named `engine`, if the list has it.
    func reader(_ engine: DecodingEngine) -> ViewReader? { readers.first { $0.engine == engine } }

    /// A view of the image a list of steps produces, with the transform back to the base.
    struct View { var image: LumaImage; var toBase: Homography }

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

    /// What one frame's scan knows so far: the image the passes work on, what the cheap look
    /// and the locator saw, and the codes found.
    struct FrameState {
        var base: LumaImage
        /// The base's size relative to full resolution, and the map from its pixels to full resolution.
        var baseScale: Double
        var baseToFull: AffineTransform
        /// Decodes full resolution; nil once used (or when the frame already is).
        var upgrade: (() -> LumaImage?)?
        let fullMegapixels: Double
        var cache: [[PassStep]: [View]]
        var merged = CodeMerger()
        var look: TextureProbe.Result?
        /// The locator's candidates, in full-resolution pixels (nil until it runs).
        var located: [QRCandidate]?
        /// The centres of the finder patterns the locator saw (grouped into codes or not), in
        /// full-resolution pixels.
        var finderCenters: [Point] = []
        /// Located candidates (indices) the grid decoder has tried, and those it found to be no
        /// QR code (no format information in any frame): no warp pass spends time on those.
        var gridTried = Set<Int>()
        var notCodes = Set<Int>()
        /// The bar-field test's answer per view size (megapixels), taken once.
        var barField: [Double: Bool] = [:]
        /// Whether a settled frame's full-frame pass has bars to look for, per view size.
        var settledBars: [Double: Bool] = [:]
        /// The busy blocks at full resolution (a sheet's full look), taken once.
        var fullBusy: BusyMap?
        var frameIndex = 0
        /// Whether the frame took the plan's digital passes (a clean digital frame).
        var digital = false
        /// The whole-frame views read so far (their steps, identity fits left out) with the
        /// reader and request: a pass asking again for what one of them read is not run.
        var readViews: [(steps: [PassStep], engine: DecodingEngine, request: ViewRequest)] = []

        init(base: LumaImage, baseScale: Double, baseToFull: AffineTransform, upgrade: (() -> LumaImage?)?) {
            self.base = base; self.baseScale = baseScale; self.baseToFull = baseToFull; self.upgrade = upgrade
            fullMegapixels = base.megapixels / (baseScale * baseScale)
            cache = [[]: [View(image: base, toBase: .identity)]]
        }

        /// Centres of the 2D codes read so far, as fractions of the base frame.
        var readFractions: [Point] { fractions(merged.codes.filter(\.symbology.isTwoDimensional).map(\.corners.center)) }

        /// Centres of the located codes not read yet, as fractions of the base frame.
        var unreadFractions: [Point] { fractions(unreadLocated.map(\.center)) }

        /// Full-resolution points as fractions of the base frame.
        func fractions(_ points: [Point]) -> [Point] {
            guard let fullToBase = baseToFull.inverted, base.width > 0, base.height > 0 else { return [] }
            return points.map { point in
                let p = fullToBase.apply(point)
                return Point(x: p.x / Double(base.width), y: p.y / Double(base.height))
            }
        }

        /// Centres of every code read so far, as fractions of the base frame.
        var explainedFractions: [Point] {
            guard let fullToBase = baseToFull.inverted, base.width > 0, base.height > 0 else { return [] }
            return merged.codes.map { code in
                let p = fullToBase.apply(code.corners.center)
                return Point(x: p.x / Double(base.width), y: p.y / Double(base.height))
            }
        }

        /// The located codes that no code read so far covers (and the grid decoder did not
        /// find to be no code).
        var unreadLocated: [QRCandidate] { unreadLocatedIndices.map { located![$0] } }

        /// Their indices in `located`.
        var unreadLocatedIndices: [Int] {
            let read = merged.codes.filter(\.symbology.isTwoDimensional).map(\.corners)
            return (located ?? []).indices.filter { i in
                guard !notCodes.contains(i) else { return false }
                let c = located![i], center = c.center
                return !read.contains { $0.contains(center) || c.corners.contains($0.center) }
            }
        }
    }

    /// Scans one upright frame.
    /// - Parameters:
    ///   - frame: the frame as decoded, possibly reduced: `scale` is its size relative to full
    ///     resolution (JPEGs are decoded DCT-scaled when the cheap passes need no more).
    ///   - fullResolution: decodes the frame at full resolution; called at most once, and only
    ///     when a pass needs more resolution than `frame` has. Corners are always reported in
    ///     full-resolution pixels.
    package func scan(
        _ frame: LumaImage, frameIndex: Int = 0, scale: Double = 1,
        fullResolution: (() -> LumaImage?)? = nil
    ) -> [DetectedCode] {
        var (base, baseToFull) = cutToRegion(frame, scale: scale)
        guard base.width >= 1, base.height >= 1 else { return [] }
        // A strip a few pixels high (a scan of one bar code line) or narrow: ZBar needs some
        // rows (columns) and a quiet zone, so repeat the lines and pad with white.
        if base.width < settings.thinBelow || base.height < settings.thinBelow {
            let (padded, back) = base.paddedThin(minSide: settings.thinPadTo)
            base = padded
            baseToFull = baseToFull.concatenating(back)
        }
        var state = FrameState(
            base: base, baseScale: scale, baseToFull: baseToFull,
            upgrade: scale < 0.999 ? fullResolution : nil)
        state.frameIndex = frameIndex
        state.merged.oneCodePerPlace = state.fullMegapixels >= settings.linearConfirmMegapixels
        let scanned = options.scanned
        let (passes, digital) = passes(for: base, scale: scale)
        state.digital = digital
        for pass in passes {
            run(pass, scanned: scanned, frameIndex: frameIndex, state: &state)
        }
        if settings.qrDetails { attachDetails(&state) }
        let wanted = options.symbologies.members
        return paired(state.merged.codes).filter { wanted.contains($0.symbology) }
    }

    /// The codes with every add-on that has no host beside it removed (unless the plan keeps them alone).
    func paired(_ codes: [DetectedCode]) -> [DetectedCode] {
        settings.pairsAddOns ? AddOnPairing.pairing(codes) : codes
    }

    /// Runs one pass if its conditions hold, adding what it reads to the state.
    func run(_ pass: ScanPass, scanned: SymbologySet, frameIndex: Int, state: inout FrameState) {
        if !pass.when.allSatisfy({ $0 == .barsUnexplained ? barsToLookFor(pass, &state) : holds($0, &state) }) { return }
        if pass.decoder == .grid { return runGrid(pass, scanned: scanned, frameIndex: frameIndex, state: &state) }
        guard let reader = reader(pass.decoder) else { return }
        var symbols = pass.symbols.filter(scanned).intersection(reader.symbologies)
        var lineStep = pass.lineStep
        let settled = pass.symbols == .allButSettledQR && qrSettled(&state)
        if settled {
            symbols.remove(.qr)
            lineStep = max(lineStep, settings.settledLineStep)
        }
        // A settled frame's pass looks for bars only where the bar-field test sees them.
        let barsOnly = settled && settings.settledNeedsBarField
        if symbols.isEmpty || (barsOnly && !barsToLookFor(pass, &state)) { return }
        let request = ViewRequest(symbols, lineStep: lineStep, tries: pass.tries)
        let crops = pass.steps.filter(\.isCrop)
        if !crops.isEmpty {
            let look = probe(&state)
            // No place to crop: skip the pass before it costs a full-resolution decode.
            if crops.contains(where: {
                Self.places(
                    $0, look: look, read: state.readFractions, unread: unreadFractions($0, &state),
                    explained: explainedFractions($0, &state)
                ).isEmpty
            }) {
                return
            }
        }
        if pass.steps.contains(where: \.isLocated) && locate(&state).isEmpty { return }
        if alreadyRead(pass, reader.engine, request, &state) { return }
        if pass.steps.contains(.sheetTiles) && unexplainedTiles(state.merged.codes.map(\.corners), &state).isEmpty { return }
        upgradeIfNeeded(pass, &state)
        let start = ContinuousClock.now
        let before = state.merged.codes.count
        var accepted = 0
        var views = materialize(pass.steps, &state)
        if barsOnly && pass.steps.contains(.sheetTiles) { views = tilesWithBars(views, state) }
        if reader.isolated, let note = beforeIsolatedReader {
            let wanted = options.symbologies.members
            note(paired(state.merged.codes).filter { wanted.contains($0.symbology) })
        }
        let baseToFull = Homography(state.baseToFull)
        for view in views where view.image.width >= settings.minViewSide && view.image.height >= settings.minViewSide {
            let toFull = baseToFull.concatenating(view.toBase)
            let outcome = reader.read(view.image, request)
            if let failure = outcome.failure { failed?(reader.engine, failure) }
            for raw in outcome.symbols where accept(raw, scanned: scanned) {
                var code = DetectedCode(raw, in: view.image, toFull: toFull, frame: frameIndex, pass: pass.name)
                // Read in a view the pass inverted: the code is light on dark, as zxing-cpp says of
                // one its own inverted try read.
                if pass.steps.filter({ $0 == .invert }).count % 2 == 1, var facts = code.facts {
                    facts.inverted = facts.inverted == true ? nil : true
                    code.facts = facts
                }
                // A QR code where one was read already is that code, not a second one: its
                // bytes may differ (ZBar hands an ECI payload over converted to UTF-8, the grid
                // decoder, which reads first, the symbol's own bytes).
                if code.symbology == .qr
                    && state.merged.codes.contains(where: { $0.symbology == .qr && $0.corners.isSameSymbol(as: code.corners) })
                {
                    continue
                }
                accepted += 1
                take(code, source: pass.steps, toFull: toFull, view: view.image, &state)
            }
        }
        if reader.confirmsWeakReads { confirmHeld(symbols, reader, &state) }
        // Warped views depend on what is still unread: never reuse them.
        for key in state.cache.keys where key.contains(where: { $0.isLocated || $0 == .sheetTiles }) { state.cache[key] = nil }
        trace?(
            "pass \(pass.name) ms=\(ms(since: start)) views=\(views.count) read=\(accepted) new=\(state.merged.codes.count - before) size=\(state.base.width)x\(state.base.height)"
        )
    }

    /// Decodes full resolution (once) when the pass needs more of it than the base has.
    func upgradeIfNeeded(_ pass: ScanPass, _ state: inout FrameState) {
        if neededScale(pass, &state) > state.baseScale * 1.01 { decodeFullResolution(&state) }
    }

    /// Decodes the frame at full resolution, once (nothing when it already is, or cannot be):
    /// everything from then on works on it.
    func decodeFullResolution(_ state: inout FrameState) {
        guard let decodeFull = state.upgrade else { return }
        state.upgrade = nil
        guard let full = decodeFull(), full.width > 0 else { return }
        (state.base, state.baseToFull) = cutToRegion(full, scale: 1)
        state.baseScale = 1
        state.cache = [[]: [View(image: state.base, toBase: .identity)]]
        state.readViews = []
    }

    /// The cheap look, taken once per frame on first use. It looks at the views the cheap
    /// passes use (cached), coarse to fine, and at the frame as decoded: big modules show as
    /// transitions only when shrunk, 2 px modules only at full size. Every scale adds the
    /// places it saw.
    func probe(_ state: inout FrameState) -> TextureProbe.Result {
        if let look = state.look { return look }
        let start = ContinuousClock.now
        let base = state.base
        var views: [LumaImage] = settings.probeScales.map { mp in
            mp.map { materialize([.fit(megapixels: $0)], &state)[0].image } ?? base
        }
        // In a small image (a screenshot, a crop) the megapixel budgets leave it at full
        // size, where modules of 4 px and more make too few transitions per block: look at
        // it halved and thirded too.
        if state.fullMegapixels <= settings.probeSmallMegapixels {
            views += settings.probeSmallDivisors.filter { base.width / $0 >= 16 && base.height / $0 >= 16 }.map { base.downscaled(by: $0) }
        }
        let look = TextureProbe.look(views: views, base: base)
        state.look = look
        trace?(
            "probe ms=\(ms(since: start)) busy=\(look.seen.joined(separator: ",")) code-like=\(look.codeLike) regions=\(look.regions.count) fine=\(look.fine.count) fine-bars=\(look.fineBars.filter { $0 }.count) region-bars=\(look.regionBars.filter { $0 }.count) area=\(Int(look.busyArea * 100))% places=\(look.places)"
        )
        return look
    }

    /// The QR locator, run once per frame on first use, on the view of at most
    /// `settings.locatorMegapixels`, and on a sheet of codes also at full resolution where that
    /// view explains not all the texture (`locateTiles`); candidates are kept in full-resolution
    /// pixels, at most `settings.maxLocatedCodes` (a warning when more were found).
    func locate(_ state: inout FrameState) -> [QRCandidate] {
        if let found = state.located { return found }
        let start = ContinuousClock.now
        let view = materialize([.fit(megapixels: settings.locatorMegapixels)], &state)[0]
        let toFull = Homography(state.baseToFull).concatenating(view.toBase)
        var locatorOptions = QRLocator.Options()
        if state.digital && !settings.digitalLocatorDoubles { locatorOptions.upscaleBelowMegapixels = 0 }
        let result = QRLocator.locateTimed(view.image, options: locatorOptions)
        var found = denoised(result.candidates).map { $0.mapped(by: toFull) }
        state.finderCenters = result.finders.map { toFull.apply($0.center) }
        trace?(
            "locate ms=\(ms(since: start)) (\(result.stages.map { "\($0.0) \(NumberText.trimmed($0.1, decimals: 1))" }.joined(separator: ", "))) size=\(view.image.width)x\(view.image.height) finders=\(result.finders.count) candidates=\(found.count) modules=\(found.prefix(8).map { NumberText.trimmed($0.moduleSize, decimals: 1) }.joined(separator: ","))"
        )
        // The view was reduced: codes whose modules it shrank under 2 px are found in full-resolution tiles.
        if Double(view.image.width) < Double(state.base.width) / state.baseScale * 0.9 { found += locateTiles(found, &state) }
        if found.count > settings.maxLocatedCodes {
            // The best timing patterns, kept in the locator's order.
            let best = found.indices.sorted { found[$0].score > found[$1].score }.prefix(settings.maxLocatedCodes).sorted()
            warn?(
                "the QR locator found \(found.count) candidate codes in frame \(state.frameIndex + 1); only the \(settings.maxLocatedCodes) best were read (the plan's limit)"
            )
            found = best.map { found[$0] }
        }
        state.located = found
        return found
    }

    /// The scale of full resolution a pass needs from its source (the pass's `source`).
    func neededScale(_ pass: ScanPass, _ state: inout FrameState) -> Double {
        switch pass.source {
        case .megapixels(let mp): return min(1, (mp / state.fullMegapixels).squareRoot())
        case .fraction(let f): return min(1, f)
        case .locatedModules(let px):
            // Warps are sampled from the base: modules of `px` there read well once squared.
            let smallest = state.unreadLocated.map(\.moduleSize).min() ?? 3
            return min(1, px / max(0.1, smallest))
        case .full: return 1
        }
    }

    /// Whole milliseconds since `start`, for the trace.
    func ms(since start: ContinuousClock.Instant) -> Int { Int(start.duration(to: .now).milliseconds) }
}
