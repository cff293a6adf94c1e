import Imaging
import Readers
import Records

/// A view pass's reading: one reader (`ViewReader`) on the views a pass made, what it reads
/// there turned into codes of the full frame, and the whole-frame views read so far, so that a
/// pass asking again for what one of them read is not run. Made per `scan` call.
final class ViewPass {
    private let frame: FrameViews
    private let options: ReaderOptions
    private let failed: ((ReaderName, String) -> Void)?
    private let warn: ((String) -> Void)?
    /// Whether the cap warning was given for this frame (once a frame).
    private var warnedCap = false
    /// The whole-frame views read so far (their steps, identity fits left out) with the
    /// reader and request, on the base of version `readViewsOf` (`FrameViews.baseVersion`).
    private var readViews: [(steps: [PassStep], reader: ReaderName, request: ViewRequest)] = []
    private var readViewsOf = 0

    init(frame: FrameViews, options: ReaderOptions, failed: ((ReaderName, String) -> Void)?, warn: ((String) -> Void)?) {
        self.frame = frame
        self.options = options
        self.failed = failed
        self.warn = warn
    }

    /// Whether the pass's view of the whole frame was read already by the same reader, for as
    /// many symbologies, on as many lines, with the same tries: `fit(0.75 MP)` of a 0.3 MP image
    /// is the image itself, as `fit(3 MP)` was. Reads are deterministic, so the pass would find
    /// nothing new. Otherwise the view is noted as read (crops and warps are never: what they
    /// cut depends on what is read). The full-resolution decode forgets what was read before.
    func alreadyRead(_ pass: ScanPass, _ reader: ReaderName, _ request: ViewRequest) -> Bool {
        guard !pass.steps.contains(where: { $0.isCrop || $0.isLocated || $0 == .sheetTiles }) else { return false }
        if readViewsOf != frame.baseVersion {
            readViews = []
            readViewsOf = frame.baseVersion
        }
        var steps = pass.steps
        while case .fit(let mp) = steps.first, frame.base.megapixels <= mp { steps.removeFirst() }
        if readViews.contains(where: {
            $0.steps == steps && $0.reader == reader && $0.request.lineStep == request.lineStep && $0.request.tries == request.tries
                && $0.request.symbologies.isSuperset(of: request.symbologies)
        }) {
            return true
        }
        readViews.append((steps, reader, request))
        return false
    }

    /// What `reader` reads in one view of `pass` (`toFull`: the view's map to full resolution),
    /// as codes of the full frame: the symbols that count (`ReaderOptions.accepts`), in the
    /// order read. A failure of the reader is reported (`failed`). A read that returns the
    /// reader's cap is read again in tiles (`CappedRead`); one still capped warns.
    func read(
        _ view: PassView, toFull: Homography, reader: ViewReader, request: ViewRequest, pass: ScanPass, frameIndex: Int, scanned: SymbologySet
    ) -> [DetectedCode] {
        let outcome = CappedRead.read(view.image, reader: reader, request: request)
        for failure in outcome.failures { failed?(reader.name, failure) }
        if outcome.stillCapped && !warnedCap, let cap = reader.symbolCap {
            warnedCap = true
            let tile = outcome.smallestTile.map { " even in tiles of \($0.width)x\($0.height) px" } ?? ""
            warn?(
                "\(reader.name.rawValue) returned its most symbols a read (\(cap)) in frame \(frameIndex + 1), pass \(pass.name)\(tile): codes may be missing"
            )
        }
        return outcome.symbols.filter { options.accepts($0, scanned: scanned) }.map { raw in
            var code = DetectedCode(raw, in: view.image, toFull: toFull, frame: frameIndex, pass: pass.name)
            // Read in a view the pass inverted: the code is light on dark, as zxing-cpp says of
            // one its own inverted try read.
            if pass.steps.filter({ $0 == .invert }).count % 2 == 1, var facts = code.facts {
                facts.inverted = facts.inverted == true ? nil : true
                code.facts = facts
            }
            return code
        }
    }
}
