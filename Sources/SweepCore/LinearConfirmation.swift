/// Weak EAN/UPC reads in large photos (`PlanSettings.linearConfirmBelow`): held aside by the
/// merger until a second view confirms them.
extension PlanExecutor {
    /// Whether a read counts only once confirmed: a weak EAN/UPC read in a large frame.
    func needsConfirmation(_ code: DetectedCode, _ state: FrameState) -> Bool {
        code.quality < settings.linearConfirmBelow && settings.linearConfirmSymbologies.contains(code.symbology)
            && state.fullMegapixels >= settings.linearConfirmMegapixels
    }

    /// Takes one read of a pass into the frame's codes; a read that needs confirmation is held,
    /// with the view it came from (`source`: the pass's steps).
    func take(_ code: DetectedCode, source: [PassStep], _ state: inout FrameState) {
        guard needsConfirmation(code, state) else { state.merged.add(code); return }
        if state.merged.hold(code, source: source.map(\.description).joined(separator: " → ")) {
            trace?("hold \(code.symbology.rawValue) quality=\(code.quality) pass=\(code.pass)")
        }
    }
}
