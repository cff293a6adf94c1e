import Imaging
import Readers
import Records

/// One frame's scan, the executor's per-frame half: it makes the frame's passes, each with the
/// state it owns (the frame and its views, the cheap look, the sheet, the located QR codes, the
/// grid decoder, the view pass, the linear confirmation), runs the plan's passes in order (a
/// pass's conditions, then the pass) and merges what they read (`CodeMerger`). Made by
/// `PlanExecutor.scan` and dropped when it returns.
final class FrameScan {
    private let executor: PlanExecutor
    private let frame: FrameViews
    private let look: CheapLook
    private let sheet: SheetOfCodes
    private let located: LocatedQRCodes
    private let grid: GridPass
    private let viewPass: ViewPass
    private let confirmation: LinearConfirmation
    private let conditions: PassConditions
    private let frameIndex: Int
    private let scanned: SymbologySet
    /// The codes found so far.
    private var merged = CodeMerger()
    private var settings: PlanSettings { executor.options.plan.settings }

    /// `digital`: whether the frame took the plan's digital passes (a clean digital frame).
    init(_ executor: PlanExecutor, frame: FrameViews, frameIndex: Int, digital: Bool) {
        let settings = executor.options.plan.settings, trace = executor.trace
        self.executor = executor
        self.frame = frame
        self.frameIndex = frameIndex
        scanned = executor.options.scanned
        look = CheapLook(frame: frame, settings: settings, trace: trace)
        sheet = SheetOfCodes(frame: frame, look: look, settings: settings, trace: trace)
        located = LocatedQRCodes(
            frame: frame, look: look, sheet: sheet, settings: settings, digital: digital, frameIndex: frameIndex, trace: trace, warn: executor.warn)
        grid = GridPass(frame: frame, located: located, settings: settings, trace: trace)
        viewPass = ViewPass(frame: frame, options: executor.options, failed: executor.failed, warn: executor.warn)
        var confirmation = LinearConfirmation(frame: frame, options: executor.options, trace: trace)
        if digital {
            let plan = executor.options.plan
            confirmation.sureOnDigital = Set(plan.digital.map(\.name)).subtracting(plan.passes.map(\.name))
        }
        self.confirmation = confirmation
        conditions = PassConditions(frame: frame, look: look, located: located, sheet: sheet, settings: settings)
        merged.oneCodePerPlace = frame.fullMegapixels >= settings.linearConfirmMegapixels
    }

    /// Runs one pass if its conditions hold, adding what it reads to the codes.
    func run(_ pass: ScanPass) {
        if !pass.when.allSatisfy({ $0 == .barsUnexplained ? look.barsToLookFor(pass, codes: merged.codes) : conditions.holds($0, merged.codes) }) {
            return
        }
        if pass.reader == .grid { return runGrid(pass) }
        guard let reader = executor.reader(pass.reader), let asked = viewRequest(pass, reader) else { return }
        read(pass, reader, asked.request, barsOnly: asked.barsOnly)
    }

    /// The codes found, as `PlanExecutor.scan` returns them, the QR codes other decoders read
    /// given their symbol details first (when the plan wants them).
    func codes() -> [DetectedCode] {
        for code in merged.settle() {
            executor.trace?("misread \(code.symbology.rawValue) quality=\(code.quality) pass=\(code.pass): another value on its bars has more support")
        }
        if settings.qrDetails && scanned.members.contains(.qr) {
            for d in grid.details(for: merged.codes) { merged.attach(d.details, sequence: d.sequence, bytes: d.bytes, to: d.index) }
        }
        return executor.reported(merged.codes)
    }

    /// The grid decoder's pass, on the base at the resolution the pass needs.
    private func runGrid(_ pass: ScanPass) {
        guard scanned.members.contains(.qr), !located.locate(merged.codes).isEmpty else { return }
        frame.upgrade(toScale: neededScale(pass))
        let start = ContinuousClock.now
        let before = merged.codes.count
        guard let reads = grid.read(pass, frameIndex: frameIndex, codes: merged.codes) else { return }
        for code in reads.codes { merged.add(code) }
        executor.trace?(
            "pass \(pass.name) ms=\(ms(since: start)) \(reads.summary) new=\(merged.codes.count - before) size=\(frame.base.width)x\(frame.base.height)"
        )
    }

    /// What a view pass asks its reader for, and whether it looks for bars only (a settled
    /// frame's pass where the plan says so); nil when the pass has nothing to do: no symbology
    /// left, no bars, no place to crop, nothing located, its whole-frame view read already, or
    /// no sheet tile with texture left. Each test asks the look or the locator when it needs
    /// them, in this order.
    private func viewRequest(_ pass: ScanPass, _ reader: ViewReader) -> (request: ViewRequest, barsOnly: Bool)? {
        var symbols = pass.symbols.filter(scanned).intersection(reader.symbologies)
        var lineStep = pass.lineStep
        let settled = pass.symbols == .allButSettledQR && located.settled(merged.codes)
        if settled {
            symbols.remove(.qr)
            lineStep = max(lineStep, settings.settledLineStep)
        }
        // A settled frame's pass looks for bars only where the bar-field test sees them.
        let barsOnly = settled && settings.settledNeedsBarField
        if symbols.isEmpty || (barsOnly && !look.barsToLookFor(pass, codes: merged.codes)) { return nil }
        let request = ViewRequest(symbols, lineStep: lineStep, tries: pass.tries)
        let crops = pass.steps.filter(\.isCrop)
        if !crops.isEmpty {
            let seen = look.probe()
            // No place to crop: skip the pass before it costs a full-resolution decode.
            if crops.contains(where: {
                StepViews.places($0, look: seen, read: readFractions(), unread: unreadFractions($0), explained: explainedFractions($0)).isEmpty
            }) {
                return nil
            }
        }
        if pass.steps.contains(where: \.isLocated) && located.locate(merged.codes).isEmpty { return nil }
        if viewPass.alreadyRead(pass, reader.name, request) { return nil }
        if pass.steps.contains(.sheetTiles) && unexplainedTiles().isEmpty { return nil }
        return (request, barsOnly)
    }

    /// A view pass: its views (full resolution decoded first when the pass needs it), read by
    /// `reader`, each read taken into the codes (or held for confirmation), then the held reads'
    /// confirmation when the reader confirms weak reads.
    private func read(_ pass: ScanPass, _ reader: ViewReader, _ request: ViewRequest, barsOnly: Bool) {
        frame.upgrade(toScale: neededScale(pass))
        let start = ContinuousClock.now
        let before = merged.codes.count
        var accepted = 0
        var views = frame.views(pass.steps) { places(for: $0) }
        if barsOnly && pass.steps.contains(.sheetTiles) { views = look.tilesWithBars(views, codes: merged.codes) }
        if reader.isolated, let note = executor.beforeIsolatedReader { note(executor.reported(merged.codes)) }
        let baseToFull = Homography(frame.baseToFull)
        for view in views where view.image.width >= settings.minViewSide && view.image.height >= settings.minViewSide {
            let toFull = baseToFull.concatenating(view.toBase)
            let codes = viewPass.read(view, toFull: toFull, reader: reader, request: request, pass: pass, frameIndex: frameIndex, scanned: scanned)
            for code in codes {
                // A QR code where one was read already is that code, not a second one: its
                // bytes may differ (ZBar hands an ECI payload over converted to UTF-8, the grid
                // decoder, which reads first, the symbol's own bytes).
                if code.symbology == .qr && merged.codes.contains(where: { $0.symbology == .qr && $0.corners.isSameSymbol(as: code.corners) }) {
                    continue
                }
                accepted += 1
                confirmation.take(code, source: pass.steps, toFull: toFull, view: view.image, into: &merged)
            }
        }
        if reader.confirmsWeakReads { confirmation.confirmHeld(request.symbologies, reader, &merged) }
        // Warped views depend on what is still unread: never reuse them.
        frame.forgetPlaceViews()
        executor.trace?(
            "pass \(pass.name) ms=\(ms(since: start)) views=\(views.count) read=\(accepted) new=\(merged.codes.count - before) size=\(frame.base.width)x\(frame.base.height)"
        )
    }

    /// Where a step of a pass cuts (`StepViews.Places`): for a crop, the cheap look's places (when
    /// it was taken) and what explains them; for sheet tiles, the tiles with texture no code read
    /// explains; for a warp, the located codes not read yet.
    private func places(for step: PassStep) -> StepViews.Places {
        var places = StepViews.Places()
        if step.isCrop, let seen = look.taken {
            places.look = seen; places.read = readFractions(); places.unread = unreadFractions(step)
            places.explained = explainedFractions(step)
        }
        if step == .sheetTiles { places.tiles = unexplainedTiles() }
        if step.isLocated, let fullToBase = frame.baseToFull.inverted {
            places.located = located.unread(merged.codes).map { $0.mapped(by: Homography(fullToBase)) }
        }
        return places
    }

    /// Centres of the 2D codes read so far, as fractions of the base frame.
    private func readFractions() -> [Point] {
        frame.fractions(merged.codes.filter(\.symbology.isTwoDimensional).map(\.corners.center))
    }

    /// Where the located codes not read yet are, for the crop steps that need it (the locator
    /// runs for them if it has not).
    private func unreadFractions(_ step: PassStep) -> [Point] {
        guard case .smallRegions = step else { return [] }
        _ = located.locate(merged.codes)
        return frame.fractions(located.unread(merged.codes).map(\.center))
    }

    /// The places' explanations: every code read so far; for the isolated reader's places
    /// (`.unexplainedRegions`) also every located QR code, read or not, that the grid decoder
    /// did not find to be no code (a QR code is what is there: no Data Matrix, PDF417 or
    /// Aztec for zxing-cpp to look for, turned both ways, in its place).
    private func explainedFractions(_ step: PassStep) -> [Point] {
        guard case .unexplainedRegions = step else { return frame.fractions(merged.codes.map(\.corners.center)) }
        let candidates = located.locate(merged.codes)
        let centers = candidates.indices.filter { !located.notCodes.contains($0) }.map { candidates[$0].center }
        return frame.fractions(merged.codes.map(\.corners.center)) + frame.fractions(centers)
    }

    /// A sheet's full-resolution tiles with texture no code read explains (`SheetOfCodes`).
    private func unexplainedTiles() -> [PixelRect] {
        sheet.unexplainedTiles(merged.codes.map(\.corners), codes: merged.codes) { located.readCount(merged.codes) }
    }

    /// The scale of full resolution a pass needs from its source (the pass's `source`).
    private func neededScale(_ pass: ScanPass) -> Double {
        switch pass.source {
        case .megapixels(let mp): return min(1, (mp / frame.fullMegapixels).squareRoot())
        case .fraction(let f): return min(1, f)
        case .locatedModules(let px):
            // Warps are sampled from the base: modules of `px` there read well once squared.
            let smallest = located.unread(merged.codes).map(\.moduleSize).min() ?? 3
            return min(1, px / max(0.1, smallest))
        case .full: return 1
        }
    }
}
