import Imaging
import Records
import Testing

@testable import SweepCore

/// The isolated reader's QR crops (`.locatedCrop`) and which decoder looks for what: pure
/// geometry and tables, no image.
@Suite("Located crops and decoders")
struct LocatedCropTests {
    static func square(_ x: Double, _ y: Double, _ side: Double) -> Quad {
        Quad([Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side)])
    }

    @Test func aCropIsTheOutlineGrownByTheMarginTimesItsLongerSide() {
        // A tilted outline: its bounding box is 100..200 x 150..230, the longer side 100.
        let tilted = Quad([Point(x: 110, y: 150), Point(x: 200, y: 160), Point(x: 190, y: 230), Point(x: 100, y: 220)])
        let crops = StepViews.locatedCrops([tilted], margin: 0.5, width: 1000, height: 800)
        #expect(crops == [PixelRect(x: 50, y: 100, width: 200, height: 180)])
    }

    @Test func aCropStopsAtTheImageEdges() {
        let crops = StepViews.locatedCrops([Self.square(10, 700, 80)], margin: 1, width: 1000, height: 800)
        #expect(crops == [PixelRect(x: 0, y: 620, width: 170, height: 180)])
    }

    @Test func anOutlineWithinAnEarlierCropGetsNoCropOfItsOwn() {
        // The second code lies within the first one's crop (0..300); the third does not.
        let outlines = [Self.square(100, 100, 100), Self.square(210, 210, 50), Self.square(500, 500, 50)]
        let crops = StepViews.locatedCrops(outlines, margin: 1, width: 1000, height: 1000)
        #expect(crops == [PixelRect(x: 0, y: 0, width: 300, height: 300), PixelRect(x: 450, y: 450, width: 150, height: 150)])
    }

    @Test func outlinesThatAreNotFiniteOrOutsideTheImageGetNoCrop() {
        // (A NaN after the first point: min() and max() would pass over it.)
        let wild = Quad([Point(x: 0, y: 0), Point(x: .nan, y: 0), Point(x: 10, y: .nan), Point(x: 0, y: 10)])
        let huge = Quad([Point(x: 0, y: 0), Point(x: 1e300, y: 0), Point(x: 1e300, y: 1e300), Point(x: 0, y: 1e300)])
        let infinite = Quad([Point(x: 0, y: 0), Point(x: .infinity, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)])
        let outside = Self.square(5000, 5000, 10)
        #expect(StepViews.locatedCrops([wild, infinite, outside], margin: 1, width: 100, height: 100).isEmpty)
        // A finite but enormous outline is clamped to the image, not turned into an overflow.
        #expect(StepViews.locatedCrops([huge], margin: 1, width: 100, height: 100) == [PixelRect(x: 0, y: 0, width: 100, height: 100)])
    }

    @Test func oneSymbolReadTwiceIsTheSameSymbolACodeInsideAnotherIsNot() {
        let outer = Self.square(100, 100, 210)
        // The same code read by another decoder: corners a few pixels off, turned a little.
        let again = Quad([Point(x: 104, y: 98), Point(x: 312, y: 103), Point(x: 308, y: 311), Point(x: 99, y: 306)])
        #expect(outer.isSameSymbol(as: again) && again.isSameSymbol(as: outer))
        // A "double QR": a small code in the middle of a big one.
        let inner = Self.square(170, 170, 70)
        #expect(!outer.isSameSymbol(as: inner) && !inner.isSameSymbol(as: outer))
        // Side by side, and a degenerate outline.
        #expect(!outer.isSameSymbol(as: Self.square(400, 100, 210)))
        #expect(!outer.isSameSymbol(as: Self.square(200, 200, 0)))
    }

    @Test func normalCropsUnreadLocatedCodesForTheSecondDecoderAfterEveryZBarPass() throws {
        let passes = ScanPlan.forEffort(.normal).passes
        let i = try #require(passes.firstIndex { $0.name == "zxing-located" })
        #expect(passes[i].reader == .zxing)
        #expect(passes[i].steps == [.locatedCrop(margin: 1)])
        #expect(passes[i].source == .full)
        #expect(passes[i].when.contains(.locatedUnread))
        #expect(passes[i...].allSatisfy { $0.reader == .zxing })
        // fast's photo passes: zxing-cpp over a small image first, and last on the code-like
        // places no code read explains.
        #expect(ScanPlan.forEffort(.fast).passes.filter { $0.reader == .zxing }.map(\.name) == ["zxing-fit1", "zxing-places"])
        #expect(ScanPlan.forEffort(.fast).passes.last?.reader == .zxing)
        // thorough runs all of normal first, in the same order.
        #expect(Array(ScanPlan.forEffort(.thorough).passes.prefix(passes.count)) == passes)
    }
}
