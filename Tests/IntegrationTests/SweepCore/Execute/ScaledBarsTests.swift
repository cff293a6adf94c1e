import CodeSweep
import Foundation
import Records
import SweepCore
import TestSupport
import Testing

/// The first job reads every code either reader reads (issue 58): a Code 128 that a browser
/// scaled by a factor that is no whole number (smoothly, to 1.34-1.66 px a module) on a
/// laptop-sized screenshot. zbarimg reads it at its defaults; zxing-cpp does not, and ZBar at
/// 1 MP (the digital path's pass before) lost it to the resampling.
@Suite("Browser-scaled bars on a screenshot", .serialized)
struct ScaledBarsTests {
    @Test("normal reads the Code 128 zbarimg reads on a screenshot, at 0.67, 0.71 and 0.83 of its drawn size")
    func scaledCode128() throws {
        let s = try TempDir("scaled-bars")
        let bars = s.file("c.png")
        try Make.zint(type: 20, "TKT-2026-0042-7781", to: bars, height: 40)
        for percent in [67, 71, 83] {
            let shot = s.file("shot\(percent).png")
            try Make.convert([
                "-size", "1280x800", "xc:white", "(", bars, "-filter", "Triangle", "-resize", "\(percent)%", ")", "-geometry", "+400+300",
                "-composite", "-colorspace", "Gray", shot,
            ])
            // The peer reads it: the case is real, not a picture no reader reads.
            let peer = try run(Tools.zbarimg, ["-q", shot], check: false).stdout
            #expect(peer.contains("CODE-128:TKT-2026-0042-7781"), "\(percent)%: zbarimg read \(peer)")
            let record = try SheetTests.record(shot, .normal)
            #expect(SheetTests.reads(record) == ["code128:TKT-2026-0042-7781"], "\(percent)%: \(SheetTests.reads(record))")
        }
    }
}
