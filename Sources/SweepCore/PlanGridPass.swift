import QRSymbol

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
        for index in state.unreadLocatedIndices where !state.gridTried.contains(index) {
            let candidate = located[index]
            state.gridTried.insert(index)
            tried += 1
            switch QRGridReader.read(state.base, candidate: candidate.mapped(by: Homography(fullToBase))) {
            case .read(let r):
                var code = DetectedCode(symbology: .qr, bytes: r.decoded.content.bytes, corners: r.corners.transformed(by: baseToFull),
                                        quality: 1, orientation: r.orientation, frame: frameIndex, pass: pass.name)
                code.qr = QRDetails(r.decoded, mirrored: r.mirrored)
                state.merged.add(code)
                read += 1
            case .notACode:
                if settings.gridRejectsNonCodes { state.notCodes.insert(index) }
                notCodes += 1
            case .unread(let why):
                trace?("grid-unread module=\(NumberText.trimmed(candidate.moduleSize, decimals: 1)) v=\(candidate.version) at=\(Int(candidate.center.x)),\(Int(candidate.center.y)) \(why)")
            }
        }
        trace?("pass \(pass.name) ms=\(ms(since: start)) candidates=\(tried) read=\(read) not-codes=\(notCodes) new=\(state.merged.codes.count - before) size=\(state.base.width)x\(state.base.height)")
    }
}

extension QRDetails {
    public init(_ d: QRDecoded, mirrored: Bool) {
        self.init(version: d.version, ecLevel: d.ec.rawValue, mask: d.mask, mirrored: mirrored, eci: d.content.eci)
    }
}
