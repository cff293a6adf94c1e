import Foundation
import Imaging
import Records
import SweepCore
import TestSupport
import Testing

@testable import CodeSweep

/// Issue 26: zxing-cpp's QR reader on the QR codes the locator found and no ZBar pass read
/// (`zxing-located`: each cropped at full resolution, as it is). On a real qrencode symbol on a
/// canvas: the crop reads it, its corners land in the full frame, the record is a QR record as
/// ZBar's would be, and nothing runs when QR is not asked for or ZBar has read the code.
@Suite("Isolated reader: QR codes")
struct SecondDecoderQRTests {
    static let text = "ZXING-LOCATED-QR-31"
    static let zxingLocated = ScanPass(
        "zxing-located", [.locatedCrop(margin: 1)], when: [.locatedUnread], symbols: .twoDimensional, reader: .zxing)

    /// A version 1 symbol (21 modules of 6 px, so 126 px) on a 900x700 canvas at (424, 274).
    static func canvas(_ dir: TempDir) throws -> (LumaImage, [Point]) {
        let code = dir.file("code.png"), path = dir.file("canvas.png")
        try run(Tools.qrencode, ["-o", code, "-s", "6", "-m", "4", "-l", "M", "--", text])
        try Make.convert(["-size", "900x700", "xc:white", code, "-geometry", "+400+250", "-composite", path])
        let box = [Point(x: 424, y: 274), Point(x: 550, y: 274), Point(x: 550, y: 400), Point(x: 424, y: 400)]
        return (try Library.firstFrame(path), box)
    }

    static func read(_ image: LumaImage, _ passes: [ScanPass], symbologies: SymbologySet = .standard) -> [DetectedCode] {
        var options = ReaderOptions(symbologies: symbologies, effort: .normal)
        options.plan = ScanPlan(effort: .normal, passes: passes)
        return BarcodeReader.read(ReadFrame(image), options).codes
    }

    @Test("a located code no pass has read: cropped, read by zxing-cpp, corners in the full frame")
    func readsALocatedCode() throws {
        let dir = try TempDir()
        let (image, box) = try Self.canvas(dir)
        let codes = Self.read(image, [Self.zxingLocated])
        #expect(codes.count == 1, "\(codes.map { ($0.pass, String(decoding: $0.bytes, as: UTF8.self)) })")
        let code = try #require(codes.first)
        #expect(code.symbology == .qr)
        #expect(String(decoding: code.bytes, as: UTF8.self) == Self.text)
        #expect(code.pass == "zxing-located")
        // The same record a ZBar read gives: no GS1 flag of the isolated reader's.
        #expect(code.gs1 == nil)
        for corner in box {
            #expect(code.corners.points.contains { abs($0.x - corner.x) <= 3 && abs($0.y - corner.y) <= 3 }, "\(corner) in \(code.corners.points)")
        }
    }

    @Test("no crop when QR is not asked for, or when a ZBar pass has read the code")
    func onlyForUnreadQRCodes() throws {
        let dir = try TempDir()
        let (image, _) = try Self.canvas(dir)
        let others = try SymbologySet.parse("datamatrix,pdf417,aztec")
        #expect(Self.read(image, [Self.zxingLocated], symbologies: others).isEmpty)
        let codes = Self.read(image, [ScanPass("full", []), Self.zxingLocated])
        #expect(codes.map(\.pass) == ["full"])
    }
}
