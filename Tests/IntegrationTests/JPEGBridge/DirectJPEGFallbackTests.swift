import Foundation
import InputSources
import JPEGBridge
import MagickBridge
import TestSupport
import Testing

@testable import SweepCore

/// What the direct JPEG path declines goes to MagickWand and reads as before; a region decode
/// is the full decode's crop; a file is decoded at most once per scale.
@Suite("Direct JPEG decoding: fallback, regions, decodes counted")
struct DirectJPEGFallbackTests {
    /// A 1200x900 scene with one QR code, as PNG (the source of the JPEGs below).
    static func source(_ dir: TempDir) throws -> String {
        let qr = dir.file("qr.png"), out = dir.file("scene.png")
        try Make.qr("fallback", to: qr, scale: 8, margin: 4)
        try Make.convert(
            [
                "-seed", "3", "-size", "120x90", "plasma:fractal", "-resize", "1200x900!", "-attenuate", "0.3", "+noise",
                "Gaussian", qr, "-geometry", "+400+250", "-composite", out,
            ])
        return out
    }

    /// A minimal 12-bit JPEG (SOF1, precision 12, one 8x8 grey block, all coefficients 0),
    /// written byte by byte: Debian's libjpeg-turbo is built for 8-bit samples, and no tool here
    /// writes 12-bit JPEGs.
    static let twelveBit: [UInt8] = {
        var b: [UInt8] = [0xFF, 0xD8]
        b += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)  // DQT
        b += [0xFF, 0xC1, 0x00, 0x0B, 12, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]  // SOF1, 12-bit
        for table: UInt8 in [0x00, 0x10] {  // DC and AC tables: one code of length 1 for symbol 0
            b += [0xFF, 0xC4, 0x00, 0x14, table, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]  // SOS
        b += [0x3F, 0xFF, 0xD9]  // DC 0, EOB, padding; EOI
        return b
    }()

    /// The declined files: each with why the direct decoder declines it.
    static func declined(_ dir: TempDir) throws -> [(name: String, path: String, kinds: Set<JPEGDecoder.Declined.Kind>)] {
        let png = try source(dir)
        try FileManager.default.createDirectory(atPath: dir.file("files"), withIntermediateDirectories: true)
        func file(_ name: String) -> String { dir.file("files/" + name) }
        try Make.convert([png, "-colorspace", "CMYK", "-quality", "90", file("cmyk.jpg")])
        try Make.convert([png, dir.file("scene.ppm")])
        try run("/usr/bin/cjpeg", ["-arithmetic", "-quality", "90", "-outfile", file("arithmetic.jpg"), dir.file("scene.ppm")])
        try Make.convert([png, "-quality", "90", dir.file("good.jpg")])
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("good.jpg"))))
        try Data(good.prefix(good.count * 6 / 10)).write(to: URL(fileURLWithPath: file("truncated.jpg")))
        // Entropy-coded data hit by a run of marker bytes: libjpeg warns and goes on.
        var hit = good
        for i in (good.count / 2)..<(good.count / 2 + 40) { hit[i] = i % 2 == 0 ? 0xFF : 0xD3 }
        try Data(hit).write(to: URL(fileURLWithPath: file("corrupt-data.jpg")))
        try Data(Self.twelveBit).write(to: URL(fileURLWithPath: file("twelve-bit.jpg")))
        var broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
        var rng = SplitMix(seed: 5)
        for _ in 0..<2000 { broken.append(UInt8(truncatingIfNeeded: rng.next())) }
        try Data(broken).write(to: URL(fileURLWithPath: file("broken.jpg")))
        return [
            ("cmyk", file("cmyk.jpg"), [.unsupported]), ("arithmetic", file("arithmetic.jpg"), [.unsupported]),
            ("truncated", file("truncated.jpg"), [.warning]), ("corrupt-data", file("corrupt-data.jpg"), [.warning]),
            // libjpeg stops at the 12-bit frame header; random bytes stop it with an error or a warning.
            ("twelve-bit", file("twelve-bit.jpg"), [.error]), ("broken", file("broken.jpg"), [.error, .warning]),
        ]
    }

    /// Each declined file: the direct decoder says why; the loader falls back to MagickWand; the
    /// binary's records are what MagickWand alone gives (ImageMagick's error text for the
    /// broken ones, its warning for the truncated one).
    @Test func declinedFilesReadAsMagickWandReadsThem() throws {
        let dir = try TempDir()
        let files = try Self.declined(dir)
        for f in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: f.path)))
            #expect(throws: JPEGDecoder.Declined.self, "\(f.name)") { _ = try JPEGDecoder.decodeGrey(bytes) }
            do {
                _ = try JPEGDecoder.decodeGrey(bytes)
            } catch {
                #expect(f.kinds.contains(error.kind), "\(f.name): \(error)")
            }
            if let loaded = try? ImageLoader.load(bytes, format: .jpeg) { #expect(loaded.decoder == .imageMagick, "\(f.name)") }
        }
        let direct = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_TRACE": "1"])
        let magick = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_JPEG_DECODER": "imagemagick"])
        #expect(direct.records.count == files.count && magick.records.count == files.count)
        #expect(!direct.decodes.contains { $0.hasPrefix("libjpeg-turbo") }, "\(direct.decodes)")
        for (a, b) in zip(direct.records, magick.records) { DirectJPEGTests.expectSameRecord(a, b) }
        let byName = Dictionary(
            uniqueKeysWithValues: direct.records.map { (($0["path"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "", $0) })
        for name in ["cmyk.jpg", "arithmetic.jpg"] {
            let codes = byName[name]?["codes"] as? [[String: Any]] ?? []
            #expect(codes.first?["text"] as? String == "fallback", "\(name)")
        }
        let truncated = try #require(byName["truncated.jpg"])
        #expect(truncated["status"] as? String == "ok")
        #expect((truncated["warnings"] as? [String] ?? []).contains { $0.contains("Premature end of JPEG file") }, "\(truncated)")
        for name in ["twelve-bit.jpg", "broken.jpg"] { #expect(byName[name]?["status"] as? String == "error", "\(name)") }
    }

    /// A region decode (columns cropped, rows skipped, not on block boundaries) gives exactly
    /// the full decode's pixels there, at full size and at 1/2, baseline and progressive.
    @Test(arguments: [false, true])
    func regionIsTheFullDecodesCrop(progressive: Bool) throws {
        let dir = try TempDir()
        let png = try Self.source(dir)
        let path = dir.file("region.jpg")
        try Make.convert([png] + (progressive ? ["-interlace", "JPEG"] : []) + ["-sampling-factor", "2x2", path])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for denominator in [1, 2] {
            let full = try JPEGDecoder.decodeGrey(bytes, denominator: denominator)
            #expect(full.width == 1200 / denominator && full.height == 900 / denominator)
            for r in [
                JPEGDecoder.Region(x: 13, y: 7, width: 101, height: 59),
                JPEGDecoder.Region(x: 0, y: 0, width: full.width, height: 30),
                JPEGDecoder.Region(x: full.width - 77, y: full.height - 41, width: 77, height: 41),
            ] {
                let part = try JPEGDecoder.decodeGrey(bytes, denominator: denominator, region: r)
                var crop: [UInt8] = []
                for y in r.y..<(r.y + r.height) { crop += full.pixels[(y * full.width + r.x)..<(y * full.width + r.x + r.width)] }
                #expect(part.width == r.width && part.height == r.height && part.pixels == crop, "1/\(denominator) \(r)")
            }
            let outside = JPEGDecoder.Region(x: full.width - 10, y: 0, width: 20, height: 10)
            #expect(throws: JPEGDecoder.Declined.self) { _ = try JPEGDecoder.decodeGrey(bytes, denominator: denominator, region: outside) }
        }
    }

    /// A 12 MP photo whose small QR code needs full resolution under `fast` (1/2 first): the
    /// file is decoded twice, at 1/2 and at full size, never twice at one scale, however often
    /// the full-resolution frame is asked for; the binary's trace (one line per decode) shows
    /// no scale twice either.
    @Test func aFileIsDecodedOncePerScale() throws {
        let dir = try TempDir()
        let qr = dir.file("qr.png"), path = dir.file("photo/small-code.jpg")
        try FileManager.default.createDirectory(atPath: dir.file("photo"), withIntermediateDirectories: true)
        try Make.qr("decoded once per scale", to: qr, scale: 3, margin: 4)
        try Make.convert(
            [
                "-seed", "11", "-size", "200x150", "plasma:fractal", "-blur", "0x1", "-resize", "4000x3000!",
                "-attenuate", "0.3", "+noise", "Gaussian", qr, "-geometry", "+2100+1400", "-composite", "-quality", "92", path,
            ])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let loaded = try ImageLoader.load(bytes, format: .jpeg, minMegapixels: 1, reduceToFit: true)
        #expect(loaded.decoder == .libjpegTurbo && loaded.scale == 0.5)
        let full = PictureFrames(of: loaded, bytes: bytes, limits: LoadLimits())
        let first = try #require(full.pixels(of: 0, .fullResolution)), again = try #require(full.pixels(of: 0, .fullResolution))
        #expect(full.pixels(of: 0, .rendering(dpi: 300, region: nil)) == nil && full.next()?.image.width == 2000)
        #expect(first == again && first.width == 4000 && first.height == 3000)
        #expect(full.decodes.map(\.scale) == [0.5, 1] && full.decodes.allSatisfy { $0.decoder == .libjpegTurbo })

        let scan = try DirectJPEGTests.scan(dir.file("photo"), effort: "fast", env: ["CODESWEEP_TRACE": "1"])
        let scales = scan.decodes.compactMap { $0.split(separator: "scale=").last.map(String.init) }
        // The first decode is the reduced one; whatever the plan asks for after it, no scale twice.
        #expect(scales.first == "0.5000" && Set(scales).count == scales.count && scales.count <= 2, "\(scan.decodes)")
        #expect(scan.decodes.allSatisfy { $0.hasPrefix("libjpeg-turbo") }, "\(scan.decodes)")
        let codes = scan.records.first?["codes"] as? [[String: Any]] ?? []
        #expect(codes.first?["text"] as? String == "decoded once per scale", "\(scan.records)")
    }
}
