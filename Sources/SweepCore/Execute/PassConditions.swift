import Records

/// Whether a pass runs: its conditions (`PassCondition`) on what the frame's scan knows so far,
/// and whether its whole-frame view was read already.
extension PlanExecutor {
    func holds(_ c: PassCondition, _ state: inout FrameState) -> Bool {
        switch c {
        // An add-on alone is no find (unless the plan says so): it may be noise until its host code is read.
        case .nothingFound: return state.merged.codes.allSatisfy { !settings.addOnAloneCounts && $0.symbology.isAddOn }
        case .codeLike: return probe(&state).codeLike
        case .atLeast(let mp): return state.fullMegapixels >= mp
        case .atMost(let mp): return state.fullMegapixels <= mp
        case .under(let mp): return state.fullMegapixels < mp
        case .fineTexture: return !probe(&state).fine.isEmpty
        case .busyArea(let f): let look = probe(&state); return look.codeLike && look.busyArea >= f
        case .busyAreaBelow(let f): return probe(&state).busyArea < f
        case .noSureRead(let q):
            // Sure: a 2D code, a linear one read on enough lines, or one zxing-cpp read (it reads
            // a linear code only once enough of its lines agree). Finder patterns the locator saw
            // outside every code read are a QR code left (one it could not group): not sure then.
            let sure = state.merged.codes.contains {
                (settings.addOnAloneCounts || !$0.symbology.isAddOn) && ($0.symbology.isTwoDimensional || $0.quality >= q || $0.facts != nil)
            }
            return !sure || unexplainedFinders(state) >= 2
        case .locatedUnread: _ = locate(&state); return !state.unreadLocated.isEmpty
        case .locatedAtLeast(let n): return locate(&state).count >= n
        case .locatedReadAtLeast(let n): return locate(&state).count - state.unreadLocated.count >= n
        case .sheet: return isSheet(&state)
        case .barsUnexplained: return true  // decided with the pass's view, in `run`
        case .dark: return DigitalFrame.meanGrey(state.base) < 128
        case .codesRead(let n): return state.merged.codes.count >= n
        case .codeEvidence(let mp, let small, let finders):
            if state.fullMegapixels < small { return true }
            if let finders, locate(&state).count > 0 || state.finderCenters.count >= finders { return true }
            // A QR code beside one read: finder patterns the locator saw outside every code read.
            if !state.merged.codes.isEmpty && unexplainedFinders(state) >= 2 { return true }
            return barField(mp, &state)
        }
    }

    /// Finder patterns the locator saw (when it ran) that lie in no 2D code read so far.
    func unexplainedFinders(_ state: FrameState) -> Int {
        let read = state.merged.codes.filter(\.symbology.isTwoDimensional).map(\.corners)
        return state.finderCenters.filter { p in !read.contains { $0.contains(p) } }.count
    }

    /// The bar-field test on the frame at `mp` megapixels, or halved (blurred bars show their
    /// edges when shrunk), taken once per size: every retry a frame may run asks it.
    func barField(_ mp: Double, _ state: inout FrameState) -> Bool {
        if let seen = state.barField[mp] { return seen }
        let start = ContinuousClock.now
        let view = materialize([.fit(megapixels: mp)], &state)[0].image
        let seen =
            TextureProbe.hasBarField(view, in: .whole)
            || (view.width >= 64 && view.height >= 64 && TextureProbe.hasBarField(view.downscaled(by: 2), in: .whole))
        state.barField[mp] = seen
        trace?("bar-field ms=\(ms(since: start)) at=\(NumberText.trimmed(mp, decimals: 2))MP seen=\(seen)")
        return seen
    }

    /// Whether the pass's view of the whole frame was read already by the same reader, for as
    /// many symbologies, on as many lines, with the same tries: `fit(0.75 MP)` of a 0.3 MP image
    /// is the image itself, as `fit(3 MP)` was. Reads are deterministic, so the pass would find
    /// nothing new. Otherwise the view is noted as read (crops and warps are never: what they
    /// cut depends on what is read).
    func alreadyRead(_ pass: ScanPass, _ engine: DecodingEngine, _ request: ViewRequest, _ state: inout FrameState) -> Bool {
        guard !pass.steps.contains(where: { $0.isCrop || $0.isLocated || $0 == .sheetTiles }) else { return false }
        var steps = pass.steps
        while case .fit(let mp) = steps.first, state.base.megapixels <= mp { steps.removeFirst() }
        if state.readViews.contains(where: {
            $0.steps == steps && $0.engine == engine && $0.request.lineStep == request.lineStep && $0.request.tries == request.tries
                && $0.request.symbologies.isSuperset(of: request.symbologies)
        }) {
            return true
        }
        state.readViews.append((steps, engine, request))
        return false
    }
}
