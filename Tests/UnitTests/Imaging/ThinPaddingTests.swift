import Records
import Testing

@testable import Imaging

/// A thin frame (under 16 px a side) is padded for the readers: white round a strip of bars,
/// black round a light-on-dark code whose light modules touch the frame's edge (white would join them).
@Suite("Thin frames: the padding's colour")
struct ThinPaddingTests {
    /// `width` x `height`, columns alternating dark and light in runs of `run` px, on `ground` rows above and below (`margin` of them).
    static func stripes(width: Int, height: Int, run: Int, dark: UInt8, light: UInt8, margin: Int = 0, ground: UInt8 = 255) -> LumaImage {
        var px = [UInt8](repeating: ground, count: width * height)
        for y in margin..<(height - margin) { for x in 0..<width { px[y * width + x] = (x / run) % 2 == 0 ? dark : light } }
        return LumaImage(width: width, height: height, pixels: px)
    }

    @Test("a strip of bars (3 px high) and a code with a white margin get white; a light code touching the edge of a dark ground gets black")
    func paddingColour() {
        let strip = Self.stripes(width: 200, height: 3, run: 3, dark: 0, light: 255)
        #expect(!strip.lightCodeAtEdge)
        #expect(strip.paddedThin(minSide: 32).image.pixels.first == 255)
        let margined = Self.stripes(width: 120, height: 12, run: 2, dark: 0, light: 255, margin: 2)
        #expect(!margined.lightCodeAtEdge, "the edge is all white: a quiet zone is there")
        #expect(margined.paddedThin(minSide: 32).image.pixels.first == 255)
        // Light runs three times as wide as the dark ones, up to the edge: light modules on a dark ground.
        var inverted = LumaImage(width: 86, height: 14, fill: 0)
        for y in 0..<14 { for x in 0..<86 where x % 4 != 0 { inverted.pixels[y * 86 + x] = 255 } }
        #expect(inverted.lightCodeAtEdge)
        let (padded, back) = inverted.paddedThin(minSide: 32)
        #expect(padded.pixels.first == 0 && padded.pixels.last == 0)
        #expect(padded.height == 14 * 3 + 32 && padded.width == 86 * 3 + 32, "scaled alike both ways: square modules")
        // The transform still maps the padded frame back onto the source.
        let p = back.apply(Point(x: 16, y: 16))
        #expect(abs(p.x) < 1e-9 && abs(p.y) < 1e-9)
    }
}
