import Foundation
import Records
import TestSupport
import Testing

@testable import SweepCore

/// Every raster format CodeSweep reads, written by ImageMagick at test time and decoded back.
@Suite("Formats")
struct FormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var ext: String
        var format: ImageFormat
        /// Extra `convert` options (quality and the like).
        var options: [String] = []
        /// Lossy codecs move edges a little.
        var tolerance: Double = 2
        var testDescription: String { ext }
    }

    static let cases: [Case] = [
        Case(ext: "jpg", format: .jpeg, options: ["-quality", "90"]),
        Case(ext: "png", format: .png),
        Case(ext: "gif", format: .gif),
        Case(ext: "webp", format: .webp, options: ["-quality", "90"]),
        Case(ext: "heic", format: .heic, options: ["-quality", "90"], tolerance: 3),
        Case(ext: "avif", format: .avif, options: ["-quality", "90"], tolerance: 3),
        Case(ext: "tif", format: .tiff),
        Case(ext: "bmp", format: .bmp),
    ]

    @Test(arguments: cases)
    func decodesAQRCodeInEachFormat(_ c: Case) throws {
        let dir = try TempDir()
        let text = "format \(c.ext)"
        let placed = try Make.qrOnCanvas(text, in: dir, name: "base.png", width: 320, height: 200, at: 150, 40)
        let path = dir.file("image.\(c.ext)")
        try Make.convert([dir.file("base.png")] + c.options + [path])

        let r = try Library.file(path)
        #expect(r.status == .ok, "\(r.error?.message ?? "")")
        #expect(r.format == c.format)
        #expect(r.width == 320 && r.height == 200)
        #expect(r.frames == 1)
        #expect(r.orientation == 1)
        #expect(r.codes.count == 1)
        let code = try #require(r.codes.first)
        #expect(code.symbology == .qr)
        #expect(code.text == text)
        #expect(code.frame == 0)
        expectCorners(code.corners, near: placed.quad, tolerance: c.tolerance, c.ext)
    }

    @Test func formatComesFromTheBytesNotTheName() throws {
        let dir = try TempDir()
        _ = try Make.qrOnCanvas("really a png", in: dir, name: "base.png")
        try FileManager.default.copyItem(atPath: dir.file("base.png"), toPath: dir.file("misnamed.jpg"))
        let r = try Library.file(dir.file("misnamed.jpg"))
        #expect(r.format == .png)
        #expect(r.codes.map(\.text) == ["really a png"])
    }

    @Test func cmykJPEGIsConvertedBeforeTakingLuma() throws {
        let dir = try TempDir()
        let placed = try Make.qrOnCanvas("cmyk jpeg", in: dir, name: "base.png", at: 100, 50)
        let path = dir.file("cmyk.jpg")
        try Make.convert([dir.file("base.png"), "-colorspace", "CMYK", "-quality", "92", path])
        // The test only means something if the file really is CMYK.
        let space = try run("/usr/bin/identify", ["-format", "%[colorspace]", path]).stdout
        #expect(space == "CMYK")

        let r = try Library.file(path)
        #expect(r.status == .ok)
        #expect(r.format == .jpeg)
        let code = try #require(r.codes.first)
        #expect(r.codes.count == 1)
        #expect(code.text == "cmyk jpeg")
        expectCorners(code.corners, near: placed.quad, tolerance: 2)
    }

    @Test func blackQROnTransparentBackgroundIsFlattenedOntoWhite() throws {
        let dir = try TempDir()
        let qr = dir.file("qr.png")
        let side = try Make.qr("on transparency", to: qr, scale: 5, margin: 3)
        let path = dir.file("transparent.png")
        // White becomes fully transparent, and the hidden colour of transparent pixels is black:
        // dropping alpha instead of flattening would give black on black.
        try Make.convert([qr, "-transparent", "white", "-background", "black", "-alpha", "background", path])
        let hidden = try run(Tools.convert, [path, "-alpha", "off", "-format", "%[pixel:p{0,0}]", "info:"]).stdout
        #expect(["black", "gray(0)", "srgb(0,0,0)", "graya(0,0)"].contains(hidden), "hidden colour is \(hidden)")
        let alpha = try run(Tools.convert, [path, "-format", "%[opaque]", "info:"]).stdout
        #expect(alpha.lowercased() == "false")

        let r = try Library.file(path)
        #expect(r.status == .ok)
        let code = try #require(r.codes.first)
        #expect(code.text == "on transparency")
        expectCorners(code.corners, near: PlacedQR(x: 15, y: 15, side: Double(side)).quad, tolerance: 2)
    }

    @Test func grayscaleAndPalettePNGs() throws {
        let dir = try TempDir()
        let placed = try Make.qrOnCanvas("gray and palette", in: dir, name: "base.png", at: 20, 20)
        try Make.convert([dir.file("base.png"), "-type", "Grayscale", "PNG8:" + dir.file("palette.png")])
        try Make.convert([dir.file("base.png"), "-depth", "16", "-type", "TrueColor", "PNG48:" + dir.file("deep.png")])
        for name in ["palette.png", "deep.png"] {
            let r = try Library.file(dir.file(name))
            #expect(r.codes.map(\.text) == ["gray and palette"], "\(name)")
            if let code = r.codes.first { expectCorners(code.corners, near: placed.quad, tolerance: 2, name) }
        }
    }
}
