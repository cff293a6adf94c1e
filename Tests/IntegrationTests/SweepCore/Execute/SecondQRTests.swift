import Imaging
import QREncodeBridge
import QRSymbol
import Records
import TestSupport
import Testing

@testable import SweepCore

/// A small image with one QR code read and another beside it: the finder patterns the locator
/// saw outside every code read make the read unsure and are evidence of a code, so the
/// small-image retries run (BoofCV: a photo of two QR codes, one read by zxing-cpp at once).
@Suite("A second QR code beside one read")
struct SecondQRTests {
    final class Script: @unchecked Sendable {
        var asked: [String] = []
    }

    static let a = [Point(x: 100, y: 150), Point(x: 300, y: 150), Point(x: 300, y: 350), Point(x: 100, y: 350)]
    static let b = [Point(x: 520, y: 200), Point(x: 720, y: 200), Point(x: 720, y: 400), Point(x: 520, y: 400)]

    /// QR codes drawn at `places` on one 900 x 700 frame.
    static func frame(_ places: [[Point]]) throws -> LumaImage {
        var out = LumaImage(width: 900, height: 700, fill: 255)
        for (i, corners) in places.enumerated() {
            let m = try QREncoder.encode(Array("https://example.com/code-\(i)".utf8), ec: .M, minVersion: 3)
            let img = Drawn.qr(m, canvas: (900, 700), toImage: Drawn.frame(m, corners: corners))
            for k in out.pixels.indices { out.pixels[k] = min(out.pixels[k], img.pixels[k]) }
        }
        return out
    }

    /// The passes that ran: a first look that reads the code at `a` (scripted), the warps of
    /// located codes left (reading nothing), then one small-image retry.
    static func passesRun(_ img: LumaImage) -> [String] {
        let script = Script()
        var options = ReaderOptions(effort: .normal)
        options.plan = ScanPlan(
            effort: .normal,
            passes: [
                ScanPass("first", []),
                ScanPass("located", [.located(side: 300, margin: 0.25)], when: [.locatedUnread], symbols: .twoDimensional),
                ScanPass("half", [.downscale(2)], when: ScanPlan.smallImage),
            ])
        let executor = PlanExecutor(options: options) { view, _ in
            // The whole frame, the frame halved (450 x 350), or a located code's square warp.
            let pass = view.width == img.width ? "first" : view.height == img.height / 2 && view.width == img.width / 2 ? "half" : "located"
            script.asked.append(pass)
            guard pass == "first" else { return [] }
            return [RawSymbol(symbology: .qr, bytes: Array("https://example.com/code-0".utf8), points: Self.a, quality: 1, orientation: 0)]
        }
        _ = executor.scan(img)
        return script.asked
    }

    @Test("one QR code, read: no retry; a second one beside it, unread: the small-image retry runs")
    func secondCode() throws {
        #expect(Self.passesRun(try Self.frame([Self.a])) == ["first"])
        let two = Self.passesRun(try Self.frame([Self.a, Self.b]))
        #expect(two.first == "first" && two.last == "half", "\(two)")
    }
}
