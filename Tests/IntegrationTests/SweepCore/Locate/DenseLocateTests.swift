import Foundation
import QREncodeBridge
import QRSymbol
import Records
import TestSupport
import Testing

@testable import SweepCore

/// Big codes located by their own finders (issue 39): the data of a version 32 or 40 code holds
/// a dozen finder-like spots under most masks, nearer to each finder than the code's other two;
/// grouping each finder with only its ten nearest left the code unlocated (31 of 80 codes of
/// versions 13-40 at 5 px a module, every version 40 one), and ZBar's reads of them without the
/// grid decoder's details. The best-confirmed farther finders are grouped too.
@Suite("QR locator: big codes among finder-like spots of their data")
struct DenseLocateTests {
    @Test("versions 32 and 40 at level L under every mask, 4 px a module: located at their size and read by the grid decoder")
    func everyMask() throws {
        for v in [32, 40] {
            let cap = QRBlockLayout(version: v, ec: .L).dataCodewords - 3
            let payload = (0..<(cap * 3 / 4)).map { UInt8(33 + ($0 * 37 + v * 11) % 90) }
            let made = try QREncoder.encode(payload, ec: .L, minVersion: v)
            try #require(made.version == v)
            for mask in 0..<8 {
                let m = try #require(made.remasked(to: mask))
                let side = Double(m.size * 4), o = 24.0
                let corners = [Point(x: o, y: o), Point(x: o + side, y: o), Point(x: o + side, y: o + side), Point(x: o, y: o + side)]
                let img = Drawn.qr(m, canvas: (Int(side + 2 * o), Int(side + 2 * o)), toImage: Drawn.frame(m, corners: corners))
                let located = QRLocator.locate(img).filter { $0.dimension == m.size }
                let c = try #require(located.first, "v\(v)-L mask \(mask): not located at \(m.size) modules")
                guard case .read(let r) = QRGridReader.read(img, candidate: c) else {
                    Issue.record("v\(v)-L mask \(mask): located, not read")
                    continue
                }
                #expect(r.decoded.version == v && r.decoded.mask == mask && r.decoded.content.bytes == payload, "v\(v)-L mask \(mask)")
            }
        }
    }
}
