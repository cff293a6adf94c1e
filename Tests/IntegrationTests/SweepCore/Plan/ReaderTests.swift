import Foundation
import Imaging
import Records
import TestSupport
import Testing

@testable import CodeSweep
@testable import SweepCore

/// Reader options through the real engine: region of interest, effort levels (scaled passes
/// must map corners back to full resolution), symbology choice, light-on-dark codes.
@Suite("Reader options")
struct ReaderTests {
    static func settings(effort: Effort = .normal, roi: String? = nil, symbologies: String = "default") throws -> ScanSettings {
        var s = ScanSettings()
        s.reader = ReaderOptions(
            symbologies: try SymbologySet.parse(symbologies), effort: effort,
            roi: roi.flatMap(FractionalRect.init(parsing:)))
        return s
    }

    @Test func roiLimitsTheSearchButCornersStayInFullImagePixels() throws {
        let dir = try TempDir()
        // Code in the top-right quarter of a 400x300 picture.
        let placed = try Make.qrOnCanvas("in the corner", in: dir, name: "roi.png", width: 400, height: 300, at: 240, 20)
        let inside = try Library.file(dir.file("roi.png"), settings: try Self.settings(roi: "0.5,0,0.5,0.5"))
        let code = try #require(inside.codes.first)
        #expect(code.text == "in the corner")
        expectCorners(code.corners, near: placed.quad, tolerance: 2)
        #expect(inside.width == 400 && inside.height == 300)
        let outside = try Library.file(dir.file("roi.png"), settings: try Self.settings(roi: "0,0.5,0.5,0.5"))
        #expect(outside.status == .ok && outside.codes.isEmpty)
    }

    @Test(arguments: Effort.allCases)
    func downscaledPassesMapCornersBackToFullResolution(_ effort: Effort) throws {
        let dir = try TempDir()
        // 4.3 MP: the first pass sees it at half size.
        let placed = try Make.qrOnCanvas(
            "big picture \(effort.rawValue)", in: dir, name: "big.png", width: 2400, height: 1800,
            at: 1500, 900, scale: 10, margin: 2)
        let r = try Library.file(dir.file("big.png"), settings: try Self.settings(effort: effort, symbologies: "qr"))
        #expect(r.codes.count == 1, "\(effort): \(r.codes.map { "\($0.pass) \($0.corners.points)" })")
        let code = try #require(r.codes.first)
        #expect(code.text == "big picture \(effort.rawValue)")
        // ZBar places corners of this code within ~2 px of the image it scanned: up to 4 px at
        // full size for a half-size pass (the bias-free mapping is checked separately below).
        expectCorners(code.corners, near: placed.quad, tolerance: 5, "\(effort), pass \(code.pass)")
    }

    @Test(arguments: Effort.allCases)
    func everyEffortReportsOneCodeOnceWithTheSameCorners(_ effort: Effort) throws {
        let dir = try TempDir()
        let placed = try Make.qrOnCanvas("once", in: dir, name: "small.png", width: 300, height: 220, at: 100, 40)
        let r = try Library.file(dir.file("small.png"), settings: try Self.settings(effort: effort))
        #expect(r.codes.count == 1, "\(effort): \(r.codes.map(\.pass))")
        if let code = r.codes.first { expectCorners(code.corners, near: placed.quad, tolerance: 2, "\(effort)") }
    }

    @Test func symbologyChoiceFiltersInTheEngine() throws {
        let dir = try TempDir()
        let bars = dir.file("bars.png")
        try Make.zint(type: 20, "ONLY-BARS", to: bars)
        _ = try Make.qrOnCanvas(
            "only qr", in: dir, name: "mix.png", width: 500, height: 200, at: 10, 20,
            extra: [bars, "-geometry", "+200+50", "-composite"])
        let qr = try Library.file(dir.file("mix.png"), settings: try Self.settings(symbologies: "2d"))
        #expect(qr.codes.map(\.symbology) == [.qr])
        let linear = try Library.file(dir.file("mix.png"), settings: try Self.settings(symbologies: "1d"))
        #expect(linear.codes.map(\.symbology) == [.code128])
        #expect(linear.codes.first?.text == "ONLY-BARS")
    }

    @Test func lightOnDarkQRIsFoundByTheInvertPass() throws {
        let dir = try TempDir()
        let placed = try Make.qrOnCanvas("negative", in: dir, name: "pos.png", width: 300, height: 220, at: 80, 40)
        try Make.convert([dir.file("pos.png"), "-negate", dir.file("neg.png")])
        let r = try Library.file(dir.file("neg.png"))
        let code = try #require(r.codes.first, "no code in a light-on-dark QR")
        #expect(code.text == "negative")
        expectCorners(code.corners, near: placed.quad, tolerance: 2)
    }

    /// One scaled pass at a time: ZBar's corners at reduced (or enlarged) size must map back to
    /// where the code is at full size with no bias. ZBar reports pixel-edge coordinates (exact
    /// at full size: a symbol whose first dark column is 40 starts at 40.0).
    @Test(arguments: [[], [PassStep.downscale(2)], [.downscale(4)], [.downscale(8)], [.fit(megapixels: 0.5)], [.upscale(2)]])
    func scaledPassesMapCornersBackWithoutBias(_ steps: [PassStep]) throws {
        let dir = try TempDir()
        // 16 px modules on multiples of 8: every scaled edge falls on a whole pixel.
        let placed = try Make.qrOnCanvas(
            "bias probe", in: dir, name: "b.png", width: 800, height: 640, at: 128, 96,
            scale: 16, margin: 2)
        var s = try Self.settings(symbologies: "qr")
        s.reader.plan = ScanPlan(effort: .normal, passes: [ScanPass("probe", steps)])
        let r = try Library.file(dir.file("b.png"), settings: s)
        let code = try #require(r.codes.first, "\(steps): not found")
        // Doubled, the 16 px modules become 32 px ones that ZBar places less tightly (±3 px there).
        let tolerance: Double = steps.contains(.upscale(2)) ? 2 : 1
        expectCorners(code.corners, near: placed.quad, tolerance: tolerance, "\(steps)")
    }
}
