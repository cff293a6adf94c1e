import Records

/// Whether a pass runs: its conditions (`PassCondition`) on what the frame's scan knows so far
/// (the codes read, passed in; the frame, the cheap look, the locator and the sheet, asked, so
/// that a condition that needs the look or the locator takes it then, once).
struct PassConditions {
    let frame: FrameViews
    let look: CheapLook
    let located: LocatedQRCodes
    let sheet: SheetOfCodes
    let settings: PlanSettings

    /// Whether condition `c` holds with `codes` read so far.
    func holds(_ c: PassCondition, _ codes: [DetectedCode]) -> Bool {
        switch c {
        // An add-on alone is no find (unless the plan says so): it may be noise until its host code is read.
        case .nothingFound: return codes.allSatisfy { !settings.addOnAloneCounts && $0.symbology.isAddOn }
        case .codeLike: return look.probe().codeLike
        case .atLeast(let mp): return frame.fullMegapixels >= mp
        case .atMost(let mp): return frame.fullMegapixels <= mp
        case .under(let mp): return frame.fullMegapixels < mp
        case .fineTexture: return !look.probe().fine.isEmpty
        case .busyArea(let f): let seen = look.probe(); return seen.codeLike && seen.busyArea >= f
        case .busyAreaBelow(let f): return look.probe().busyArea < f
        case .noSureRead(let q):
            // Sure: a 2D code, a linear one read on enough lines, or one zxing-cpp read (it reads
            // a linear code only once enough of its lines agree). Finder patterns the locator saw
            // outside every code read are a QR code left (one it could not group): not sure then.
            let sure = codes.contains {
                (settings.addOnAloneCounts || !$0.symbology.isAddOn) && ($0.symbology.isTwoDimensional || $0.quality >= q || $0.facts != nil)
            }
            return !sure || located.unexplainedFinders(codes) >= 2
        case .locatedUnread: _ = located.locate(codes); return !located.unreadIndices(codes).isEmpty
        case .locatedAtLeast(let n): return located.locate(codes).count >= n
        case .locatedReadAtLeast(let n): return located.locate(codes).count - located.unreadIndices(codes).count >= n
        case .sheet: return sheet.isSheet(codes) { located.readCount(codes) }
        case .barsUnexplained: return true  // decided with the pass's view (`CheapLook.barsToLookFor`)
        case .dark: return DigitalFrame.meanGrey(frame.base) < 128
        case .codesRead(let n): return codes.count >= n
        case .codeEvidence(let mp, let small, let finders):
            if frame.fullMegapixels < small { return true }
            if let finders, located.locate(codes).count > 0 || located.finderCenters.count >= finders { return true }
            // A QR code beside one read: finder patterns the locator saw outside every code read.
            if !codes.isEmpty && located.unexplainedFinders(codes) >= 2 { return true }
            return look.barField(mp)
        }
    }
}
