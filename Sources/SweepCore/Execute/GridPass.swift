import Imaging
import Payloads
import QRSymbol
import Records

/// The grid decoder's pass: every located QR code not read yet (and not tried before) is
/// sampled module by module on the base frame and decoded in Swift (`QRGridReader`). A
/// candidate with no format information in any frame is marked as no code, so the warp passes
/// after it spend nothing on it. After the passes, it gives the QR codes other decoders read
/// their symbol details. Made per `scan` call; it holds the candidates it has tried.
final class GridPass {
    private let frame: FrameViews
    private let located: LocatedQRCodes
    private let settings: PlanSettings
    private let trace: (@Sendable (String) -> Void)?
    /// Located candidates (indices) the grid decoder has tried.
    private var triedCandidates = Set<Int>()

    init(frame: FrameViews, located: LocatedQRCodes, settings: PlanSettings, trace: (@Sendable (String) -> Void)?) {
        self.frame = frame
        self.located = located
        self.settings = settings
        self.trace = trace
    }

    /// What one grid pass read, and its counts and timings for the trace.
    struct Reads {
        var codes: [DetectedCode] = []
        var summary = ""
    }

    /// Reads the located codes that no code of `codes` covers and that it has not tried, on the
    /// base frame as it is (the executor decodes full resolution first when the pass needs it);
    /// nil when the locator has not run or the base has no map from full resolution.
    func read(_ pass: ScanPass, frameIndex: Int, codes: [DetectedCode]) -> Reads? {
        guard let candidates = located.candidates, let fullToBase = frame.baseToFull.inverted else { return nil }
        var out = Reads()
        let baseToFull = Homography(frame.baseToFull)
        var tried = 0, notCodes = 0
        let toBase = Homography(fullToBase)
        // Milliseconds spent on the candidates read, found no code and left unread: timed only
        // for the trace.
        var msRead = 0.0, msNot = 0.0, msUnread = 0.0
        func msSince(_ t: ContinuousClock.Instant?) -> Double {
            guard let d = t?.duration(to: .now).components else { return 0 }
            return Double(d.seconds) * 1000 + Double(d.attoseconds) / 1e15
        }
        for index in located.unreadIndices(codes) where !triedCandidates.contains(index) {
            let candidate = candidates[index]
            triedCandidates.insert(index)
            tried += 1
            let t0 = trace == nil ? nil : ContinuousClock.now
            switch QRGridReader.read(frame.base, candidate: candidate.mapped(by: toBase)) {
            case .read(let r):
                msRead += msSince(t0)
                var code = DetectedCode(
                    symbology: .qr, bytes: r.decoded.content.bytes, corners: r.corners.transformed(by: baseToFull),
                    quality: 1, orientation: r.orientation, frame: frameIndex, pass: pass.name)
                code.qr = QRDetails(r.decoded, mirrored: r.mirrored)
                code.facts = SymbolFacts(sequenceOf: r.decoded)
                out.codes.append(code)
            case .notACode:
                msNot += msSince(t0)
                if settings.gridRejectsNonCodes { located.markNotACode(index) }
                notCodes += 1
            case .unread(let why):
                msUnread += msSince(t0)
                trace?(
                    "grid-unread module=\(NumberText.trimmed(candidate.moduleSize, decimals: 1)) v=\(candidate.version) at=\(Int(candidate.center.x)),\(Int(candidate.center.y)) \(why)"
                )
            }
        }
        out.summary =
            "ms-read=\(Int(msRead)) ms-not-codes=\(Int(msNot)) ms-unread=\(Int(msUnread)) candidates=\(tried) read=\(out.codes.count) not-codes=\(notCodes)"
        return out
    }

    /// Details for a QR code another decoder read: the index of the code, its details, its
    /// structured-append part, and the symbol's own bytes when they replace the other decoder's.
    struct Details {
        var index: Int
        var details: QRDetails
        var sequence: SymbolFacts?
        var bytes: [UInt8]?
    }

    /// Details (version, level, mask, mirroring) for the QR codes of `codes` another decoder
    /// read: the located candidates under the code, or, when none reads as it, a frame through
    /// its own corners at the size whose finders and timing patterns fit best, read by the grid
    /// decoder; kept only when it decodes to the same bytes.
    func details(for codes: [DetectedCode]) -> [Details] {
        guard let fullToBase = frame.baseToFull.inverted else { return [] }
        let toBase = Homography(fullToBase)
        var out: [Details] = []
        for (i, code) in codes.enumerated() where code.symbology == .qr && code.qr == nil {
            let center = code.corners.center
            let under = (located.candidates ?? []).filter { code.corners.contains($0.center) && $0.corners.contains(center) }
                .map { $0.mapped(by: toBase) }
            // The located candidates under the code first; when none of them reads as this code
            // (a spurious candidate there), a frame through the code's own corners.
            var found: Details?
            for c in under.prefix(2) where found == nil { found = details(from: c, for: code, at: i) }
            if found == nil, let own = Self.frameThroughCorners(code.corners.transformed(by: toBase), image: frame.base) {
                found = details(from: own, for: code, at: i)
            }
            if let found { out.append(found) }
        }
        return out
    }

    /// Reads `candidate` with the grid decoder: details for `code` (code `i`) when it decodes
    /// to the code's bytes.
    private func details(from candidate: QRCandidate, for code: DetectedCode, at i: Int) -> Details? {
        // Only the symbol's details are wanted here: the corners are the other decoder's.
        guard case .read(let r) = QRGridReader.read(frame.base, candidate: candidate, polish: false) else { return nil }
        let content = r.decoded.content
        let details = QRDetails(r.decoded, mirrored: r.mirrored)
        if content.bytes == code.bytes {
            return Details(index: i, details: details, sequence: SymbolFacts(sequenceOf: r.decoded))
        }
        // ZBar hands over a payload under an ECI designator converted to UTF-8, even in
        // binary mode: where the symbol's own bytes read in the ECI's charset are that
        // text, they are the code's bytes (as a record promises), not ZBar's conversion.
        if PayloadText.zbarConverted(content.bytes, eci: content.eci) == code.bytes {
            return Details(index: i, details: details, sequence: SymbolFacts(sequenceOf: r.decoded), bytes: content.bytes)
        }
        return nil
    }

    /// A candidate framed by a read code's corners (clockwise from its top-left, as records give
    /// them), at the size (21...177) whose finders and timing patterns correlate best with the
    /// picture; nil when the modules would be under 1.2 px.
    static func frameThroughCorners(_ quad: Quad, image: LumaImage) -> QRCandidate? {
        let q = quad.points
        let side = (QRLocator.distance(q[0], q[1]) + QRLocator.distance(q[0], q[3])) / 2
        var best: (score: Double, n: Int, h: Homography)? = nil
        for v in 1...40 {
            let n = QRStructure.size(version: v)
            guard side / Double(n) >= 1.2 else { break }
            let d = Double(n)
            guard let h = Homography(from: [Point(x: 0, y: 0), Point(x: d, y: 0), Point(x: d, y: d), Point(x: 0, y: d)], to: q) else { continue }
            let probe = QRGridReader.Sampler(image: image, frame: h, dimension: n, refine: false)
            let s = probe.knownScore(QRGridReader.Sampler.knownModules(version: v, alignment: false), frame: h)
            if best == nil || s > best!.score { best = (s, n, h) }
        }
        guard let b = best, b.score > 0.3 else { return nil }
        let d = Double(b.n)
        let f = { (u: Double, v: Double) in b.h.apply(Point(x: u, y: v)) }
        return QRCandidate(
            topLeft: f(3.5, 3.5), topRight: f(d - 3.5, 3.5), bottomLeft: f(3.5, d - 3.5), dimension: b.n,
            moduleSize: side / d, alignment: nil, score: b.score, toImage: b.h)
    }
}

extension QRDetails {
    package init(_ d: QRDecoded, mirrored: Bool) {
        self.init(version: d.version, ecLevel: d.ec.rawValue, mask: d.mask, mirrored: mirrored, eci: d.content.eci)
    }
}

extension SymbolFacts {
    /// A QR symbol's structured-append header as zxing-cpp reports it (index from 0, the count,
    /// the parity byte in decimal as the id); nil for a symbol that is no part of a sequence.
    package init?(sequenceOf d: QRDecoded) {
        guard let sa = d.content.structuredAppend else { return nil }
        self.init()
        sequence = SequencePart(index: sa.index, count: sa.total, id: String(sa.parity))
    }
}
