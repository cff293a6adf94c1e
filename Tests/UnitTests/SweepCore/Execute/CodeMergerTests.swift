import Records
import Testing

@testable import SweepCore

/// The merger's rules for weak linear reads (held until another view confirms them): a read on
/// the bars of a surer read of another symbology is a misread of it, and one that a
/// confirmation crop overruled is not held again, so a second misread cannot confirm it.
@Suite("Code merger")
struct CodeMergerTests {
    static func code(_ s: Symbology, _ text: String, x: Double, width: Double, quality: Int) -> DetectedCode {
        let q = Quad([Point(x: x, y: 100), Point(x: x + width, y: 100), Point(x: x + width, y: 160), Point(x: x, y: 160)])
        return DetectedCode(symbology: s, bytes: Array(text.utf8), corners: q, quality: quality, orientation: 0, frame: 0, pass: "p")
    }

    @Test("a weak DataBar on a sure Code 128's bars is not held; beside it, it is")
    func overruledOnTheBars() {
        var m = CodeMerger()
        m.add(Self.code(.code128, "AT-1", x: 100, width: 200, quality: 60))
        let onTheBars = m.hold(Self.code(.databar, "0100775866746781", x: 290, width: 0, quality: 8), source: "a")
        #expect(!onTheBars && m.held.isEmpty)
        let beside = m.hold(Self.code(.databar, "0100775866746781", x: 400, width: 0, quality: 8), source: "a")
        #expect(beside && m.held.count == 1)
    }

    @Test("an add-on beside its EAN-13 is held, not overruled")
    func addOnBesideItsCode() {
        var m = CodeMerger()
        m.add(Self.code(.ean13, "4006381333931", x: 100, width: 190, quality: 80))
        let held = m.hold(Self.code(.ean2, "01", x: 292, width: 40, quality: 4), source: "a")
        #expect(held)
    }

    @Test("a refuted read is not held again from another view, so it is never confirmed")
    func refutedStaysOut() {
        var m = CodeMerger()
        let weak = Self.code(.upce, "04965802", x: 100, width: 0, quality: 5)
        let first = m.hold(weak, source: "a")
        #expect(first)
        m.refute(0)
        let again = m.hold(weak, source: "b")
        #expect(!again && m.held.isEmpty && m.codes.isEmpty)
        // Unrefuted, a second view confirms it.
        var n = CodeMerger()
        _ = n.hold(weak, source: "a")
        _ = n.hold(weak, source: "b")
        #expect(n.codes.count == 1 && n.held.isEmpty)
    }
}
