import Imaging
import Readers
import Records
import TestSupport
import Testing

@testable import SweepCore

/// QR codes located first (issue 39): the grid decoder reads the located QR codes before any ZBar
/// pass, and ZBar's full-frame passes then look for QR codes only while the frame's QR codes are
/// not settled (`LocatedQRCodes.settled`); once they are, for bars only, on every second line,
/// and only where the bar-field test sees bars in the pass's view (`CheapLook.barsToLookFor`).
@Suite("QR codes located first: ZBar's full-frame passes and settled QR codes")
struct SettledQRTests {
    final class Asked: @unchecked Sendable { var requests: [ViewRequest] = [] }

    /// What fast's grid pass and its ZBar pass at 1 MP (`fit1`; from 1 MP, and under 1 MP as
    /// `fit1-unsure` where no read is sure: here at any size) ask ZBar for on `img`, ZBar reading nothing.
    static func requests(_ img: LumaImage, symbologies: SymbologySet = .standard) -> (asked: [ViewRequest], codes: [DetectedCode]) {
        var options = ReaderOptions(symbologies: symbologies, effort: .fast)
        let fast = ScanPlan.forEffort(.fast)
        var fit1 = fast.passes.first { $0.name == "fit1" }!
        fit1.when = []
        let grid = fast.passes.first { $0.name == "grid" }!
        options.plan = ScanPlan(effort: .fast, passes: [grid, fit1], settings: fast.settings)
        let asked = Asked()
        let executor = PlanExecutor(options: options) { _, request in
            asked.requests.append(request)
            return []
        }
        let codes = executor.scan(img)
        return (asked.requests, codes)
    }

    @Test("a lone QR code read by the grid decoder: no bar field, so no ZBar pass at all; with --symbologies qr none either")
    func settled() throws {
        let img = try TextureProbeQRTests.drawnQR("https://example.com/settled", x: 250, y: 180, module: 8)
        let (asked, codes) = Self.requests(img)
        #expect(codes.map(\.pass) == ["grid"], "\(codes)")
        #expect(asked.isEmpty, "\(asked)")
        let qrOnly = Self.requests(img, symbologies: SymbologySet([.qr]))
        #expect(qrOnly.asked.isEmpty, "\(qrOnly.asked)")
        #expect(qrOnly.codes.count == 1)
    }

    @Test("a QR code read and a field of bars beside it: ZBar looks for bars only, every second line; fine or coarse bars alike")
    func settledWithBars() throws {
        for unit in [1.0, 4.0] {
            let qr = try TextureProbeQRTests.drawnQR("https://example.com/bars", x: 40, y: 40, module: 6)
            let img = Drawn.bars(width: 900, height: 700, box: (430, 420, 440, 200), degrees: 0, unit: unit, into: qr)
            let (asked, codes) = Self.requests(img)
            #expect(codes.map(\.pass) == ["grid"], "\(codes)")
            #expect(asked.count == 1, "bars of \(unit) px a unit: \(asked)")
            #expect(asked.first.map { !$0.symbologies.contains(.qr) && $0.symbologies.contains(.code128) && $0.lineStep == 2 } == true, "\(asked)")
        }
    }

    @Test("not settled: nothing located, or a code-like place beside the read code holding none: ZBar reads QR codes too, every line")
    func unsettled() throws {
        // No QR code at all: bars only (nothing located).
        let bars = Drawn.bars(width: 900, height: 700, box: (200, 250, 400, 120), degrees: 0)
        let plain = Self.requests(bars)
        #expect(plain.asked.count == 1)
        #expect(plain.asked.first.map { $0.symbologies.contains(.qr) && $0.lineStep == 1 } == true, "\(plain.asked)")
        // A QR code read, and beside it a patch of code-like texture no code explains (a QR code
        // the locator may have missed): not settled.
        var img = try TextureProbeQRTests.drawnQR("https://example.com/unsettled", x: 40, y: 40, module: 6)
        let patch = Drawn.patch(width: 900, height: 700, x: 640, y: 460, module: 5, modules: 40)
        for y in 460..<660 { for x in 640..<840 { img.pixels[y * 900 + x] = patch.pixels[y * 900 + x] } }
        let (asked, codes) = Self.requests(img)
        #expect(codes.map(\.pass) == ["grid"], "\(codes)")
        #expect(asked.first.map { $0.symbologies.contains(.qr) && $0.lineStep == 1 } == true, "\(asked)")
        let qrOnly = Self.requests(img, symbologies: SymbologySet([.qr]))
        #expect(qrOnly.asked.count == 1 && qrOnly.asked.first?.symbologies == [.qr], "\(qrOnly.asked)")
    }
}
