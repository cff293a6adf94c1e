import SweepCore
import Testing

/// The plans as data, without an image: which passes each effort runs, in which order, when.
@Suite("Plan listing")
struct PlanListingTests {
    @Test("plans are data: every effort level lists its passes")
    func listing() {
        let normal = ScanPlan.forEffort(.normal)
        // fast: the grid decoder on located QR codes first, then one ZBar pass at 1 MP (QR codes
        // only while they are not settled), then a sheet of codes at full resolution where texture
        // no code read explains is left.
        #expect(ScanPlan.forEffort(.fast).passes.map(\.name) == ["grid", "fit1", "sheet-tiles", "zxing-places"])
        #expect(ScanPlan.forEffort(.fast).passes[0].decoder == .grid)
        #expect(ScanPlan.forEffort(.fast).passes[1].symbols == .allButSettledQR)
        #expect(ScanPlan.forEffort(.fast).passes[2].when == [.sheet] && ScanPlan.forEffort(.fast).passes[2].source == .full)
        #expect(normal.passes.map(\.name).firstIndex(of: "sheet-tiles")! > normal.passes.map(\.name).firstIndex(of: "located-grid-shifted")!)
        #expect(normal.listing.contains("tiles3"))
        // The grid decoder first, then the 3 MP pass: always below 4 MP, and on a photo only where
        // the cheap look saw code-like texture; both for bars only once the QR codes are settled.
        #expect(normal.passes.prefix(3).map(\.name) == ["grid", "fit3", "fit3-textured"])
        #expect(normal.passes[1].when == [.under(megapixels: 4)] && normal.passes[2].when == [.atLeast(megapixels: 4), .codeLike])
        #expect(normal.passes[1].symbols == .allButSettledQR && normal.passes[2].symbols == .allButSettledQR)
        #expect(normal.listing.contains("regions-full: code-like-regions(<=2% with bars or located-qr)"))
        // thorough: normal's passes first, unchanged and in order (never fewer codes), then more.
        let thorough = ScanPlan.forEffort(.thorough)
        #expect(Array(thorough.passes.prefix(normal.passes.count)) == normal.passes)
        #expect(thorough.passes.count > normal.passes.count + 20)
        #expect(Set(thorough.passes.map(\.name)).count == thorough.passes.count)
        // The grid decoder runs before the warps of located codes.
        let names = normal.passes.map(\.name)
        #expect(names.firstIndex(of: "grid")! < names.firstIndex(of: "located")!)
    }
}
