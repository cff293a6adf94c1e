import Records
import Testing

@testable import SweepCore

/// One barcode, one value (issue 58): two linear reads of other values on the same bars are one
/// barcode, and the value with more support wins; a UPC-E or EAN-8 inside a longer EAN/UPC is
/// part of it; neighbouring labels are not one barcode.
@Suite("One value per barcode")
struct OneValuePerBarcodeTests {
    static func code(_ s: Symbology, _ text: String, x: Double, y: Double = 100, width: Double, quality: Int, pass: String = "p") -> DetectedCode {
        let q = Quad([Point(x: x, y: y), Point(x: x + width, y: y), Point(x: x + width, y: y + 60), Point(x: x, y: y + 60)])
        return DetectedCode(symbology: s, bytes: Array(text.utf8), corners: q, quality: quality, orientation: 0, frame: 0, pass: pass)
    }

    static func settled(_ reads: [DetectedCode]) -> [String] {
        var m = CodeMerger()
        for r in reads { m.add(r) }
        m.settle()
        return m.codes.map { "\($0.symbology.rawValue):" + String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test("two EAN-13 values on one barcode: the one read on more lines wins, whichever came first")
    func strongerValueWins() {
        let weak = Self.code(.ean13, "4006381333931", x: 100, width: 190, quality: 54, pass: "a")
        let strong = Self.code(.ean13, "4006381333924", x: 104, width: 186, quality: 146, pass: "b")
        #expect(Self.settled([weak, strong]) == ["ean13:4006381333924"])
        #expect(Self.settled([strong, weak]) == ["ean13:4006381333924"])
    }

    @Test("more support beats more lines: a value two passes read wins over one read once on more lines")
    func supportFirst() {
        let once = Self.code(.ean13, "4006381333931", x: 100, width: 190, quality: 90, pass: "a")
        let twiceA = Self.code(.ean13, "4006381333924", x: 100, width: 190, quality: 30, pass: "b")
        let twiceB = Self.code(.ean13, "4006381333924", x: 102, width: 188, quality: 31, pass: "c")
        #expect(Self.settled([once, twiceA, twiceB]) == ["ean13:4006381333924"])
    }

    @Test("a tie of support with no clear difference in lines and no second read keeps neither value")
    func tieKeepsNeither() {
        let a = Self.code(.ean13, "4006381333931", x: 100, width: 190, quality: 12, pass: "a")
        let b = Self.code(.ean13, "4006381333924", x: 100, width: 190, quality: 20, pass: "b")
        #expect(Self.settled([a, b]).isEmpty)
    }

    @Test("two values one view read on the same bars: neither, however many lines each (zxing-cpp corpus ean13-4/19: the wrong one on 37, the right one on 16)")
    func oneViewTwoValues() {
        let right = Self.code(.ean13, "9780441014989", x: 100, width: 190, quality: 16, pass: "fit1-unsure")
        let wrong = Self.code(.ean13, "8882412014989", x: 100, width: 190, quality: 37, pass: "fit1-unsure")
        #expect(Self.settled([right, wrong]).isEmpty)
    }

    @Test("a UPC-E inside an EAN-13's extent is part of it, not a second code; a UPC-A and its EAN-13 are one value")
    func shortInsideLong() {
        let ean = Self.code(.ean13, "4006381333931", x: 100, width: 190, quality: 20)
        let upce = Self.code(.upce, "04965802", x: 150, width: 90, quality: 40)
        #expect(Self.settled([upce, ean]) == ["ean13:4006381333931"])
        let upca = Self.code(.upca, "036000291452", x: 100, width: 190, quality: 20, pass: "a")
        let asEAN = Self.code(.ean13, "0036000291452", x: 100, width: 190, quality: 25, pass: "b")
        #expect(Self.settled([upca, asEAN]).count == 2)
    }

    @Test("neighbouring labels, beside or above each other, are not one barcode; nor are codes of other symbologies or directions")
    func neighboursStay() {
        let left = Self.code(.ean13, "4006381333931", x: 100, width: 190, quality: 20)
        let right = Self.code(.ean13, "4006381333924", x: 340, width: 190, quality: 80)
        let below = Self.code(.ean13, "5901234123457", x: 100, y: 210, width: 190, quality: 80)
        let code128 = Self.code(.code128, "AT-1", x: 100, width: 190, quality: 80)
        #expect(Self.settled([left, right, below, code128]).count == 4)
        var turned = Self.code(.ean13, "5901234123457", x: 100, width: 190, quality: 90)
        turned.orientation = 1
        #expect(Self.settled([left, turned]).count == 2)
    }
}
