import Foundation
import Imaging
import QREncodeBridge
import QRSymbol
import Records
import SweepCore
import TestSupport
import Testing

/// The QR locator looks at a small photo doubled too (modules of 2 px and less), and at a clean
/// digital frame as it is (`PlanSettings.digitalLocatorDoubles`): crisp small modules there are
/// zxing-cpp's to read, and the doubled level costs four times the frame's own.
@Suite("The locator on a digital frame")
struct DigitalLocatorTests {
    final class Lines: @unchecked Sendable { var text: [String] = [] }

    /// The located candidates the trace names for `img` under a plan whose only pass is the grid
    /// decoder, taken as a digital frame's pass (`digital: true`) or a photo's.
    static func located(_ img: LumaImage, digital: Bool, doubles: Bool = false) throws -> Int {
        let grid = try #require(ScanPlan.forEffort(.fast).digital.first { $0.name == "grid" })
        var settings = PlanSettings()
        settings.digitalLocatorDoubles = doubles
        var options = ReaderOptions(effort: .fast)
        options.plan =
            digital
            ? ScanPlan(effort: .fast, passes: [], digital: [grid], settings: settings)
            : ScanPlan(effort: .fast, passes: [grid], settings: settings)
        let lines = Lines()
        var executor = PlanExecutor(options: options) { _, _ in [] }
        executor.trace = { lines.text.append($0) }
        _ = executor.scan(img)
        if digital { #expect(lines.text.contains { $0.hasPrefix("frame ") && $0.hasSuffix("digital=true") }) }
        let locate = try #require(lines.text.first { $0.hasPrefix("locate ") })
        let count = try #require(locate.split(separator: " ").first { $0.hasPrefix("candidates=") }?.dropFirst("candidates=".count))
        return try #require(Int(count))
    }

    @Test("a QR code of 1.5 px modules turned 30° in a small drawn frame: located in a photo (doubled), not in a digital frame unless the plan says so")
    func smallModules() throws {
        let img = try Self.turnedQR("https://example.com/small-modules", module: 1.5, degrees: 30, blur: 0)
        #expect(DigitalFrame.isDigital(img))
        #expect(try Self.located(img, digital: false) >= 1)
        #expect(try Self.located(img, digital: true) == 0)
        #expect(try Self.located(img, digital: true, doubles: true) >= 1)
    }

    /// A QR code drawn turned by `degrees` about the middle of a 900 x 700 frame.
    static func turnedQR(_ payload: String, module: Double, degrees: Double, blur: Int) throws -> LumaImage {
        let m = try QREncoder.encode(Array(payload.utf8), ec: .M, minVersion: 3)
        let half = module * Double(m.size) / 2, a = degrees * .pi / 180
        let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { (u, v) in
            Point(x: 450 + half * (u * cos(a) - v * sin(a)), y: 350 + half * (u * sin(a) + v * cos(a)))
        }
        return Drawn.qr(m, canvas: (900, 700), toImage: Drawn.frame(m, corners: corners), blur: blur)
    }

    @Test("a QR code of 4 px modules in a digital frame is located without doubling")
    func bigModules() throws {
        let img = try TextureProbeQRTests.drawnQR("https://example.com/big-modules", x: 200, y: 150, module: 4)
        #expect(try Self.located(img, digital: true) == 1)
    }
}
