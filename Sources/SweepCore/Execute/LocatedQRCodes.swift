import Imaging
import Records

/// The QR codes the locator finds in one frame (run once, on first use) and what the scan has
/// learnt of them since: which the codes read cover, which the grid decoder found to be no
/// code. Made per `scan` call.
final class LocatedQRCodes {
    private let frame: FrameViews
    private let look: CheapLook
    private let sheet: SheetOfCodes
    private let settings: PlanSettings
    /// Whether the frame took the plan's digital passes (a clean digital frame).
    private let digital: Bool
    private let frameIndex: Int
    private let trace: (@Sendable (String) -> Void)?
    private let warn: ((String) -> Void)?
    /// The locator's candidates, in full-resolution pixels (nil until it runs).
    private(set) var candidates: [QRCandidate]?
    /// The centres of the finder patterns the locator saw (grouped into codes or not), in
    /// full-resolution pixels.
    private(set) var finderCenters: [Point] = []
    /// Located candidates (indices) the grid decoder found to be no QR code (no format
    /// information in any frame): no warp pass spends time on those.
    private(set) var notCodes = Set<Int>()

    init(
        frame: FrameViews, look: CheapLook, sheet: SheetOfCodes, settings: PlanSettings, digital: Bool, frameIndex: Int,
        trace: (@Sendable (String) -> Void)?, warn: ((String) -> Void)?
    ) {
        self.frame = frame
        self.look = look
        self.sheet = sheet
        self.settings = settings
        self.digital = digital
        self.frameIndex = frameIndex
        self.trace = trace
        self.warn = warn
    }

    /// The QR locator, run once per frame on first use, on the view of at most
    /// `settings.locatorMegapixels`, and on a sheet of codes also at full resolution where that
    /// view explains not all the texture (`SheetOfCodes.locateTiles`); candidates are kept in
    /// full-resolution pixels, at most `settings.maxLocatedCodes` (a warning when more were found).
    /// `codes`: the codes read so far.
    func locate(_ codes: [DetectedCode]) -> [QRCandidate] {
        if let candidates { return candidates }
        let start = ContinuousClock.now
        let view = frame.fitted(settings.locatorMegapixels)
        let toFull = Homography(frame.baseToFull).concatenating(view.toBase)
        var locatorOptions = QRLocator.Options()
        if digital && !settings.digitalLocatorDoubles { locatorOptions.upscaleBelowMegapixels = 0 }
        let result = QRLocator.locateTimed(view.image, options: locatorOptions)
        var found = Self.denoised(result.candidates, settings).map { $0.mapped(by: toFull) }
        finderCenters = result.finders.map { toFull.apply($0.center) }
        trace?(
            "locate ms=\(ms(since: start)) (\(result.stages.map { "\($0.0) \(NumberText.trimmed($0.1, decimals: 1))" }.joined(separator: ", "))) size=\(view.image.width)x\(view.image.height) finders=\(result.finders.count) candidates=\(found.count) modules=\(found.prefix(8).map { NumberText.trimmed($0.moduleSize, decimals: 1) }.joined(separator: ","))"
        )
        // The view was reduced: codes whose modules it shrank under 2 px are found in full-resolution tiles.
        if Double(view.image.width) < Double(frame.base.width) / frame.baseScale * 0.9 { found += sheet.locateTiles(found, codes: codes) }
        if found.count > settings.maxLocatedCodes {
            // The best timing patterns, kept in the locator's order.
            let best = found.indices.sorted { found[$0].score > found[$1].score }.prefix(settings.maxLocatedCodes).sorted()
            warn?(
                "the QR locator found \(found.count) candidate codes in frame \(frameIndex + 1); only the \(settings.maxLocatedCodes) best were read (the plan's limit)"
            )
            found = best.map { found[$0] }
        }
        candidates = found
        return found
    }

    /// Marks located candidate `index` as no QR code (the grid decoder found no format
    /// information in any frame).
    func markNotACode(_ index: Int) { notCodes.insert(index) }

    /// The located codes that no code of `codes` covers (and the grid decoder did not find to
    /// be no code); none while the locator has not run.
    func unread(_ codes: [DetectedCode]) -> [QRCandidate] { unreadIndices(codes).map { candidates![$0] } }

    /// Their indices in `candidates`.
    func unreadIndices(_ codes: [DetectedCode]) -> [Int] {
        let read = codes.filter(\.symbology.isTwoDimensional).map(\.corners)
        return (candidates ?? []).indices.filter { i in
            guard !notCodes.contains(i) else { return false }
            let c = candidates![i], center = c.center
            return !read.contains { $0.contains(center) || c.corners.contains($0.center) }
        }
    }

    /// Located codes that some pass read (the locator runs if it has not): neither unread nor
    /// found to be no code.
    func readCount(_ codes: [DetectedCode]) -> Int {
        locate(codes).count - unreadIndices(codes).count - notCodes.count
    }

    /// Finder patterns the locator saw (when it ran) that lie in no 2D code of `codes`.
    func unexplainedFinders(_ codes: [DetectedCode]) -> Int {
        let read = codes.filter(\.symbology.isTwoDimensional).map(\.corners)
        return finderCenters.filter { p in !read.contains { $0.contains(p) } }.count
    }

    /// The QR codes of the frame are settled: the locator found some, every one of them was
    /// read (or found to be no code by the grid decoder), at least one as a QR code, and every
    /// code-like place of the cheap look holds a code read (a place without one may be a QR
    /// code the locator missed: ZBar still looks for QR codes then). On the BoofCV dev half,
    /// without the last test `--symbologies qr` lost 3 codes of photos with several, with it none.
    func settled(_ codes: [DetectedCode]) -> Bool {
        guard !locate(codes).isEmpty && unreadIndices(codes).isEmpty && codes.contains(where: { $0.symbology == .qr }) else {
            return false
        }
        let places = look.probe().regions
        let read = frame.fractions(codes.filter(\.symbology.isTwoDimensional).map(\.corners.center))
        return places.allSatisfy { box in read.contains { box.contains($0) } }
    }

    /// A locator's candidates less pixel noise: more than `noisyLocatedAbove` of them with a
    /// median finder match under `noisyFinderMatch` keep only those matching `noisyKeepFinderMatch`.
    static func denoised(_ candidates: [QRCandidate], _ settings: PlanSettings) -> [QRCandidate] {
        guard candidates.count > settings.noisyLocatedAbove else { return candidates }
        let matches = candidates.map(\.finderMatch).sorted()
        guard matches[matches.count / 2] < settings.noisyFinderMatch else { return candidates }
        return candidates.filter { $0.finderMatch >= settings.noisyKeepFinderMatch }
    }
}
