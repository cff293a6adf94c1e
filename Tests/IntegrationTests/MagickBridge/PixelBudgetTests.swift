import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

/// The pixel budget: a HEIC declaring 65535x65535 is too_large (not corrupt), and a JPEG over
/// the budget is decoded DCT-scaled to fit or refused.
@Suite("Pictures over the pixel budget are refused or reduced", .serialized)
struct PixelBudgetTests: SweepRuns {
    @Test("A HEIC whose header declares 65535x65535 is too_large, not corrupt")
    func hugeHEICIsTooLarge() throws {
        let dir = try TempDir()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: PackageRoot.samples + "/qr-card.heic")))
        // Every 'ispe' box (image spatial extents) now declares 65535x65535.
        var patched = 0
        for i in 4..<(bytes.count - 16) where bytes[i..<(i + 4)].elementsEqual(Array("ispe".utf8)) {
            for k in 0..<8 { bytes[i + 8 + k] = [0, 0, 0xFF, 0xFF][k % 4] }
            patched += 1
        }
        #expect(patched >= 1)
        try dir.write("huge.heic", bytes)
        let r = try sh("exec \"$CS\" scan -q \"$1\"", [dir.file("huge.heic")])
        #expect(r.status == 1)
        let rec = try #require(try Self.records(r.stdout).first)
        #expect(rec["error"]?["kind"]?.stringValue == "too_large", "\(r.stdout)")
        #expect(rec["error"]?["message"]?.stringValue?.contains("65535x65535") == true)
    }

    @Test("A JPEG over the pixel budget is decoded DCT-scaled to fit on a first decode, refused otherwise")
    func jpegOverBudgetIsReduced() throws {
        let dir = try TempDir()
        _ = try Make.qrOnCanvas("reduced to fit", in: dir, name: "big.jpg", width: 2000, height: 1500, at: 600, 400, scale: 12)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("big.jpg"))))
        var limits = LoadLimits()
        limits.maxTotalPixels = 1_000_000  // 3 MP of JPEG: over it, 1/2 size (0.75 MP) fits
        let reduced = try ImageLoader.load(bytes, format: .jpeg, limits: limits, reduceToFit: true)
        #expect(reduced.scale == 0.5)
        #expect(reduced.width == 2000 && reduced.height == 1500)
        #expect(reduced.frames.first?.width == 1000)
        #expect(reduced.warnings.contains { $0.contains("decoded at 1/2 size") })
        #expect(throws: RecordError.self) { try ImageLoader.load(bytes, format: .jpeg, limits: limits) }
        do {
            _ = try ImageLoader.load(bytes, format: .jpeg, limits: limits)
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.message.contains("2000x1500"), "\(error.message)")
        }
    }
}
