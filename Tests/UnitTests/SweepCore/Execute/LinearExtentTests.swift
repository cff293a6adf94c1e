import Imaging
import Records
import TestSupport
import Testing

@testable import SweepCore

/// A linear read whose scan-line points all lie at one end of the symbol (every scan line
/// that read it ran the same way) gets the symbol's extent from the view, so two reads of
/// the code from its two ends are one code and its corners are the code, not a line.
@Suite("Linear extent")
struct LinearExtentTests {
    /// Bars of 2-6 px filling x 100..<340, y 50..<110 of a white 500 x 160 image.
    static let image = Drawn.bars(width: 500, height: 160, box: (100, 50, 240, 60), degrees: 0, unit: 2)

    static func read(at x: Double, orientation: Int = 0) -> RawSymbol {
        RawSymbol(symbology: .code128, bytes: Array("AB-1".utf8), points: [60, 75, 100].map { Point(x: x, y: $0) }, quality: 3, orientation: orientation)
    }

    @Test("points at either end, or a little inside it: the box spans the bars")
    func spansTheBars() {
        for x in [337.0, 334, 102, 106] {
            let box = LinearExtent.extended(Self.read(at: x), in: Self.image).corners.boundingBox
            #expect(box.minX <= 106 && box.maxX >= 333 && box.minX >= 96 && box.maxX <= 344, "from x=\(x): \(box)")
            #expect(box.minY == 60 && box.maxY == 100)
        }
    }

    @Test("two reads from the two ends are one code to the merger")
    func twoEndsAreOneCode() {
        var merger = CodeMerger()
        for x in [337.0, 102] {
            let raw = LinearExtent.extended(Self.read(at: x), in: Self.image)
            merger.add(DetectedCode(symbology: raw.symbology, bytes: raw.bytes, corners: raw.corners, quality: 3, orientation: 0, frame: 0, pass: "p"))
        }
        #expect(merger.codes.count == 1)
    }

    @Test("no bars in the view, a box with width already, a 2-D code: the read as it was")
    func leftAlone() {
        let blank = LumaImage(width: 500, height: 160, fill: 235)
        #expect(LinearExtent.extended(Self.read(at: 337), in: blank) == Self.read(at: 337))
        var wide = Self.read(at: 337)
        wide.points.append(Point(x: 200, y: 80))
        #expect(LinearExtent.extended(wide, in: Self.image) == wide)
        var qr = Self.read(at: 337)
        qr.symbology = .qr
        #expect(LinearExtent.extended(qr, in: Self.image) == qr)
        // Turned a quarter: the scan runs down the columns, across no bars here.
        #expect(LinearExtent.extended(Self.read(at: 337, orientation: 1), in: Self.image).corners.boundingBox.maxY <= 100)
    }
}
