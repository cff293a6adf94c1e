import Imaging
import SweepCore
import Testing

/// The plans as data, without an image: which passes each effort runs, in which order, when.
@Suite("Plan listing")
struct PlanListingTests {
    @Test("plans are data: every effort level lists its passes")
    func listing() {
        let normal = ScanPlan.forEffort(.normal)
        // fast: under 1 MP zxing-cpp over the frame first, then the grid decoder on the located QR
        // codes it left (from 1 MP the grid decoder first), then ZBar at 1 MP only where no read
        // is sure; from 1 MP one ZBar pass at 1 MP (QR codes only while they are not settled); then
        // a sheet of codes at full resolution where texture no code read explains is left.
        let fast = ScanPlan.forEffort(.fast).passes
        #expect(fast.map(\.name) == ["zxing-fit1", "grid", "fit1", "fit1-unsure", "sheet-tiles", "zxing-places"])
        #expect(fast[1].reader == .grid)
        #expect(fast[0].reader == .zxing && fast[0].symbols == .all && fast[0].when == [.under(megapixels: 1)])
        #expect(fast[2].symbols == .allButSettledQR && fast[2].when == [.atLeast(megapixels: 1)])
        #expect(fast[3].when == [.under(megapixels: 1), .noSureRead(minQuality: 40)])
        #expect(fast[4].when == [.sheet] && fast[4].source == .full)
        #expect(normal.passes.map(\.name).firstIndex(of: "sheet-tiles")! > normal.passes.map(\.name).firstIndex(of: "located-grid-shifted")!)
        #expect(normal.listing.contains("tiles3"))
        // The grid decoder first, then the 3 MP pass: always below 4 MP, and on a photo only where
        // the cheap look saw code-like texture; both for bars only once the QR codes are settled.
        // zxing-cpp on the same 3 MP view right after (under 4 MP), for every symbology.
        #expect(normal.passes.prefix(4).map(\.name) == ["grid", "fit3", "fit3-textured", "zxing-fit3"])
        #expect(normal.passes[1].when == [.under(megapixels: 4)] && normal.passes[2].when == [.atLeast(megapixels: 4), .codeLike])
        #expect(normal.passes[1].symbols == .allButSettledQR && normal.passes[2].symbols == .allButSettledQR)
        #expect(normal.passes[3].reader == .zxing && normal.passes[3].symbols == .all && normal.passes[3].when == [.under(megapixels: 4)])
        // The small-image retries of ZBar: only without a sure read, and where bars show (or tiny).
        #expect(normal.passes.first { $0.name == "upscale2" }?.when.contains(.codeEvidence(megapixels: 1, orUnder: 0.1, finders: nil)) == true)
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

    @Test("a pass's line step is plan data: the doubled, sharpened and binarized view is read on every second line, and ZBar is asked for it")
    func lineStep() {
        let normal = ScanPlan.forEffort(.normal)
        let steps = Dictionary(uniqueKeysWithValues: normal.passes.map { ($0.name, $0.lineStep) })
        #expect(steps["upscale2-sharpen-binarize"] == 2)
        // Every line of the doubled threshold view: BoofCV's drawn codes with broken modules (its
        // pathological set) read on every line only (2 of 12 lost on every second line).
        #expect(steps["upscale2"] == 1 && steps["upscale2-threshold"] == 1 && steps["fit3"] == 1)
        #expect(normal.listing.contains("upscale2-sharpen-binarize: upscale(x2) → sharpen → binarize(otsu) → zbar[all] every second line"), "\(normal.listing)")
        // The executor hands the pass's step to the reader.
        final class Asked: @unchecked Sendable { var steps: [Int] = [] }
        let asked = Asked()
        var options = ReaderOptions(effort: .normal)
        options.plan = ScanPlan(effort: .normal, passes: [ScanPass("a", []), ScanPass("b", [.upscale(2)], lineStep: 2)])
        let executor = PlanExecutor(options: options) { _, request in
            asked.steps.append(request.lineStep)
            return []
        }
        _ = executor.scan(LumaImage(width: 64, height: 48, fill: 200))
        #expect(asked.steps == [1, 2])
    }
}
