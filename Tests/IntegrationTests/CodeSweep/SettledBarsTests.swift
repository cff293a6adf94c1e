import Foundation
import Imaging
import SweepCore
import TestSupport
import Testing

@testable import CodeSweep

/// Issue 39, item 4: once a frame's QR codes are settled, `fast`'s and `normal`'s full-frame ZBar
/// passes run only where the bar-field test sees bars no code read explains
/// (`CheapLook.barsToLookFor`). The linear codes beside a QR code must still be read; a photo
/// of a QR code alone costs no ZBar pass (`SettledQRTests`).
@Suite("Settled QR codes: bars beside them are still read")
struct SettledBarsTests {
    static func read(_ image: LumaImage, _ effort: Effort) -> [String] {
        BarcodeReader.read(ReadFrame(image), ReaderOptions(effort: effort)).codes
            .map { "\($0.symbology.rawValue):" + String(decoding: $0.bytes, as: UTF8.self) }.sorted()
    }

    @Test("zxing-cpp's QR code beside a Code 39 of bars one pixel apart: both read by fast and normal")
    func narrowBarsBesideQR() throws {
        let image = try Library.firstFrame(PackageRoot.path + "/Tests/Fixtures/zxing-cpp/qr-code39.png")
        for effort in [Effort.fast, .normal] {
            let codes = Self.read(image, effort)
            #expect(codes.contains("qr:QR Code"), "\(effort): \(codes)")
            #expect(codes.contains("code39:CODE 39"), "\(effort): \(codes)")
        }
    }

    @Test("a label of our own: a QR code, an EAN-13 and a Code 128 of 1 px modules on a 1 MP page: all three, fast and normal")
    func labelBesideQR() throws {
        let dir = try TempDir()
        try Make.zint(type: 20, "SETTLED-128", to: dir.file("c128.png"), scale: "1", height: 50)
        try Make.zint(type: 13, "590123412345", to: dir.file("ean.png"), scale: "3", height: 60)
        _ = try Make.qr("https://example.com/settled-bars", to: dir.file("qr.png"), scale: 6, margin: 4)
        let out = dir.file("label.png")
        try Make.convert([
            "-size", "1200x800", "xc:white",
            dir.file("qr.png"), "-geometry", "+60+60", "-composite",
            dir.file("ean.png"), "-geometry", "+480+40", "-composite",
            dir.file("c128.png"), "-geometry", "+600+560", "-composite",
            "-colorspace", "Gray", out,
        ])
        let image = try Library.firstFrame(out)
        for effort in [Effort.fast, .normal] {
            let codes = Self.read(image, effort)
            #expect(codes.contains("qr:https://example.com/settled-bars"), "\(effort): \(codes)")
            #expect(codes.contains("ean13:5901234123457"), "\(effort): \(codes)")
            #expect(codes.contains("code128:SETTLED-128"), "\(effort): \(codes)")
        }
    }
}
