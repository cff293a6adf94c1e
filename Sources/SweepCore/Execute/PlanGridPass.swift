import Payloads
import QRSymbol
import Records

/// The grid decoder's pass: every located QR code not read yet (and not tried before) is
/// sampled module by module on the base frame and decoded in Swift (`QRGridReader`). A
/// candidate with no format information in any frame is marked as no code, so the warp passes
/// after it spend nothing on it.
extension PlanExecutor {
    func runGrid(_ pass: ScanPass, scanned: SymbologySet, frameIndex: Int, state: inout FrameState) {
        guard scanned.members.contains(.qr), !locate(&state).isEmpty else { return }
        upgradeIfNeeded(pass, &state)
        guard let located = state.located, let fullToBase = state.baseToFull.inverted else { return }
        let start = ContinuousClock.now
        let before = state.merged.codes.count
        let baseToFull = Homography(state.baseToFull)
        var tried = 0, read = 0, notCodes = 0
        let toBase = Homography(fullToBase)
        // Milliseconds spent on the candidates read, found no code and left unread: timed only
        // for the trace.
        var msRead = 0.0, msNot = 0.0, msUnread = 0.0
        func msSince(_ t: ContinuousClock.Instant?) -> Double {
            guard let d = t?.duration(to: .now).components else { return 0 }
            return Double(d.seconds) * 1000 + Double(d.attoseconds) / 1e15
        }
        for index in state.unreadLocatedIndices where !state.gridTried.contains(index) {
            let candidate = located[index]
            state.gridTried.insert(index)
            tried += 1
            let t0 = trace == nil ? nil : ContinuousClock.now
            switch QRGridReader.read(state.base, candidate: candidate.mapped(by: toBase)) {
            case .read(let r):
                msRead += msSince(t0)
                var code = DetectedCode(
                    symbology: .qr, bytes: r.decoded.content.bytes, corners: r.corners.transformed(by: baseToFull),
                    quality: 1, orientation: r.orientation, frame: frameIndex, pass: pass.name)
                code.qr = QRDetails(r.decoded, mirrored: r.mirrored)
                code.facts = SymbolFacts(sequenceOf: r.decoded)
                state.merged.add(code)
                read += 1
            case .notACode:
                msNot += msSince(t0)
                if settings.gridRejectsNonCodes { state.notCodes.insert(index) }
                notCodes += 1
            case .unread(let why):
                msUnread += msSince(t0)
                trace?(
                    "grid-unread module=\(NumberText.trimmed(candidate.moduleSize, decimals: 1)) v=\(candidate.version) at=\(Int(candidate.center.x)),\(Int(candidate.center.y)) \(why)"
                )
            }
        }
        trace?(
            "pass \(pass.name) ms=\(ms(since: start)) ms-read=\(Int(msRead)) ms-not-codes=\(Int(msNot)) ms-unread=\(Int(msUnread)) candidates=\(tried) read=\(read) not-codes=\(notCodes) new=\(state.merged.codes.count - before) size=\(state.base.width)x\(state.base.height)"
        )
    }
}

extension PlanExecutor {
    /// Details (version, level, mask, mirroring) for the QR codes another decoder read: the
    /// located candidates under the code, or, when none reads as it, a frame through its own corners at the
    /// size whose finders and timing patterns fit best, read by the grid decoder; kept only
    /// when it decodes to the same bytes.
    func attachDetails(_ state: inout FrameState) {
        guard options.scanned.members.contains(.qr), let fullToBase = state.baseToFull.inverted else { return }
        let toBase = Homography(fullToBase)
        for (i, code) in state.merged.codes.enumerated() where code.symbology == .qr && code.qr == nil {
            let center = code.corners.center
            let located = (state.located ?? []).filter { code.corners.contains($0.center) && $0.corners.contains(center) }
                .map { $0.mapped(by: toBase) }
            // The located candidates under the code first; when none of them reads as this code
            // (a spurious candidate there), a frame through the code's own corners.
            var attached = false
            for c in located.prefix(2) where !attached { attached = attachDetails(from: c, to: i, &state) }
            if !attached, let own = Self.frameThroughCorners(code.corners.transformed(by: toBase), image: state.base) {
                _ = attachDetails(from: own, to: i, &state)
            }
        }
    }

    /// Reads `candidate` with the grid decoder and attaches its details to code `i` when it
    /// decodes to the code's bytes; whether it did.
    func attachDetails(from candidate: QRCandidate, to i: Int, _ state: inout FrameState) -> Bool {
        let code = state.merged.codes[i]
        // Only the symbol's details are wanted here: the corners are the other decoder's.
        guard case .read(let r) = QRGridReader.read(state.base, candidate: candidate, polish: false) else { return false }
        let content = r.decoded.content
        if content.bytes == code.bytes {
            state.merged.attach(QRDetails(r.decoded, mirrored: r.mirrored), sequence: SymbolFacts(sequenceOf: r.decoded), to: i)
            return true
        }
        // ZBar hands over a payload under an ECI designator converted to UTF-8, even in
        // binary mode: where the symbol's own bytes read in the ECI's charset are that
        // text, they are the code's bytes (as a record promises), not ZBar's conversion.
        if PayloadText.zbarConverted(content.bytes, eci: content.eci) == code.bytes {
            state.merged.attach(
                QRDetails(r.decoded, mirrored: r.mirrored), sequence: SymbolFacts(sequenceOf: r.decoded), bytes: content.bytes, to: i)
            return true
        }
        return false
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

extension PlanExecutor {
    /// The QR codes of the frame are settled: the locator found some, every one of them was
    /// read (or found to be no code by the grid decoder), at least one as a QR code, and every
    /// code-like place of the cheap look holds a code read (a place without one may be a QR
    /// code the locator missed: ZBar still looks for QR codes then). On the BoofCV dev half,
    /// without the last test `--symbologies qr` lost 3 codes of photos with several, with it none.
    func qrSettled(_ state: inout FrameState) -> Bool {
        guard !locate(&state).isEmpty && state.unreadLocatedIndices.isEmpty && state.merged.codes.contains(where: { $0.symbology == .qr }) else {
            return false
        }
        let look = probe(&state)
        let read = state.readFractions
        return look.regions.allSatisfy { box in read.contains { box.contains($0) } }
    }
}

extension PlanExecutor {
    /// Whether a full-frame pass over a settled frame (`qrSettled`: it looks for bars only) has
    /// bars to look for: the bar-field test on the pass's view, halved and quartered (a code of
    /// 3 px a module and more shows as a field of edges only when shrunk). A pass whose view is
    /// not one fitted view of the whole frame (tiles, crops) is always run. Taken once per size.
    func barsToLookFor(_ pass: ScanPass, _ state: inout FrameState) -> Bool {
        guard pass.steps.count == 1, case .fit(let mp) = pass.steps[0] else { return true }
        if let seen = state.settledBars[mp] { return seen }
        let start = ContinuousClock.now
        let view = materialize(pass.steps, &state)[0].image
        let seen = hasBars(view, ignoring: readBoxes(state) { state.fractions($0) })
        state.settledBars[mp] = seen
        trace?("settled-bars ms=\(ms(since: start)) at=\(NumberText.trimmed(mp, decimals: 2))MP seen=\(seen)")
        return seen
    }
}

extension PlanExecutor {
    /// The boxes of the codes read, as fractions of a view (`toFraction` maps full-resolution
    /// points there), grown by a fifth of their size each way: they explain their bars (a QR
    /// code's timing patterns, a Code 128 read already).
    func readBoxes(_ state: FrameState, _ toFraction: ([Point]) -> [Point]) -> [FractionalBox] {
        state.merged.codes.map { code in
            let p = toFraction(code.corners.points)
            let x0 = p.map(\.x).min()!, x1 = p.map(\.x).max()!, y0 = p.map(\.y).min()!, y1 = p.map(\.y).max()!
            let mx = (x1 - x0) / 5, my = (y1 - y0) / 5
            return FractionalBox(x0: x0 - mx, y0: y0 - my, x1: x1 + mx, y1: y1 + my)
        }
    }

    /// The bar-field test (loose, `settings.settledBarEdgeShare`) on `image` as it is, halved
    /// and quartered: bars of 3 px a module and more show as a field of edges only when shrunk.
    func hasBars(_ image: LumaImage, ignoring read: [FractionalBox] = []) -> Bool {
        var view = image
        for level in 0..<3 {
            if level > 0 { view = view.downscaled(by: 2) }
            if TextureProbe.hasBarField(view, in: .whole, minEdgeShare: settings.settledBarEdgeShare, ignoring: read) { return true }
        }
        return false
    }

    /// A settled sheet's full-resolution tiles (ZBar looks for bars only there): those where
    /// the bar-field test sees bars. A label sheet's Code 128s and EANs beside QR codes read
    /// show as bars; a photo's texture beside many QR codes (BoofCV's `lots`) mostly does not.
    func tilesWithBars(_ views: [View], _ state: FrameState) -> [View] {
        let start = ContinuousClock.now
        guard let fullToBase = state.baseToFull.inverted else { return views }
        let kept = views.filter { view in
            guard let baseToView = view.toBase.inverted else { return true }
            let toView = baseToView.concatenating(Homography(fullToBase))
            let w = Double(view.image.width), h = Double(view.image.height)
            return hasBars(
                view.image,
                ignoring: readBoxes(state) { $0.map(toView.apply).map { Point(x: $0.x / w, y: $0.y / h) } })
        }
        trace?("settled-tiles ms=\(ms(since: start)) tiles=\(views.count) with-bars=\(kept.count)")
        return kept
    }
}
