import Imaging
import Records
import SweepCore
import TestSupport
import Testing

/// The frame decides its path (`DigitalFrame`, `ScanPlan.digital`): drawn pixels are digital,
/// a camera's noise is not, and each plan's digital passes start with zxing-cpp over the frame.
@Suite("Digital frames and their plan")
struct DigitalFrameTests {
    /// A page drawn as a browser would: a white ground, grey cards, black bars (no noise).
    static func drawn(width: Int = 640, height: Int = 480) -> LumaImage {
        var img = LumaImage(width: width, height: height, fill: 255)
        for y in 40..<200 { for x in 40..<600 { img[x, y] = 238 } }
        for y in 260..<420 { for x in 60..<400 where (x / 3) % 2 == 0 { img[x, y] = 20 } }
        return img
    }

    /// The same page with sensor-like noise of ±2 levels on every pixel.
    static func noisy(_ image: LumaImage, seed: UInt64) -> LumaImage {
        var rand = Rand(state: seed)
        var out = image
        for i in out.pixels.indices {
            let v = Int(out.pixels[i]) + rand.below(5) - 2
            out.pixels[i] = UInt8(max(0, min(255, v)))
        }
        return out
    }

    @Test("a drawn page is digital; the same page with a camera's noise is not; a blank frame is digital")
    func tellsDrawnFromPhoto() {
        let page = Self.drawn()
        #expect(DigitalFrame.isDigital(page))
        #expect(DigitalFrame.cleanShare(page) == 1)
        let photo = Self.noisy(page, seed: 7)
        #expect(!DigitalFrame.isDigital(photo), "\(DigitalFrame.cleanShare(photo))")
        #expect(DigitalFrame.isDigital(LumaImage(width: 100, height: 100, fill: 200)))
    }

    @Test("a screenshot holding a photo in a third of it is still digital")
    func pageWithAPhoto() {
        var page = Self.drawn(width: 960, height: 480)
        let photo = Self.noisy(LumaImage(width: 320, height: 480, fill: 128), seed: 3)
        for y in 0..<480 { for x in 0..<320 { page[640 + x, y] = photo[x, y] } }
        #expect(DigitalFrame.isDigital(page), "\(DigitalFrame.cleanShare(page))")
    }

    @Test("every effort has a digital path: zxing-cpp over the frame first, then the inverted frame, then the grid decoder")
    func digitalPlans() {
        for effort in Effort.allCases {
            let plan = ScanPlan.forEffort(effort)
            #expect(Array(plan.digital.prefix(3).map(\.name)) == ["zxing-frame", "zxing-inverted", "grid"], "\(effort)")
            #expect(plan.digital[0].reader == .zxing && plan.digital[0].tries == .harder && plan.digital[0].symbols == .all)
            #expect(plan.digital[1].steps == [.invert] && plan.digital[1].tries == .plain)
            #expect(plan.listing.contains("a clean digital frame"), "\(effort)")
        }
        // fast looks at the inverted frame only when it is dark, and runs no ZBar pass there.
        let fast = ScanPlan.forEffort(.fast)
        #expect(fast.digital[1].when == [.dark])
        #expect(!fast.digital.contains { $0.reader == .zbar && $0.name == "zbar-frame" })
        // normal: ZBar over the frame at its own size for bars, whatever the bar-field test says,
        // and zxing-cpp at half size in a big frame.
        let normal = ScanPlan.forEffort(.normal)
        let zbar = normal.digital.first { $0.name == "zbar-frame" }
        #expect(zbar?.when == [] && zbar?.steps == [] && zbar?.symbols == .linear && zbar?.reader == .zbar)
        #expect(normal.digital.first { $0.name == "zxing-half" }?.steps == [.downscale(2)])
        // thorough: normal's digital passes first, then every photo pass (never fewer codes).
        let thorough = ScanPlan.forEffort(.thorough)
        #expect(Array(thorough.digital.prefix(normal.digital.count)) == normal.digital)
        #expect(Array(thorough.digital.suffix(thorough.passes.count)) == thorough.passes)
        // fast reads the symbologies only zxing-cpp reads on a photo too.
        #expect(fast.passes.contains { $0.reader == .zxing && $0.symbols == .secondReader })
    }
}
