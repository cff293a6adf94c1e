import Foundation
import Imaging
import Readers
import Records
import SweepCore
import TestSupport
import Testing
import ZBarBridge
import ZXingBridge

@testable import CodeSweep

/// Issue 39, item 5: the decoders behind one interface. `BarcodeReader.viewReaders` is the list
/// the engine reads with (ZBar, zxing-cpp); each reader, run alone through the plan executor,
/// reads what it names and nothing else, and a pass naming a reader the list lacks is skipped.
@Suite("The readers of views, each run alone")
struct ReaderListTests {
    /// A page with a Code 128, a Data Matrix and a QR code side by side (zint, qrencode); the
    /// Data Matrix in the middle (zxing-cpp 1.4's detector starts from the middle of the image).
    static func page(_ dir: TempDir) throws -> LumaImage {
        try Make.zint(type: 20, "READER-128", to: dir.file("c128.png"), scale: "2", height: 60)
        try run(Tools.zint, ["-b", "71", "--square", "--scale=4", "-d", "READER DM 42", "-o", dir.file("dm.png")])
        _ = try Make.qr("https://example.com/reader", to: dir.file("qr.png"), scale: 6, margin: 4)
        let out = dir.file("page.png")
        try Make.convert([
            "-size", "1700x500", "xc:white",
            dir.file("c128.png"), "-geometry", "+40+150", "-composite",
            dir.file("dm.png"), "-gravity", "center", "-geometry", "+0+0", "-composite", "-gravity", "NorthWest",
            dir.file("qr.png"), "-geometry", "+1250+100", "-composite",
            "-colorspace", "Gray", out,
        ])
        return try Library.firstFrame(out)
    }

    /// What one plain pass naming `engine` reads on `image` with `readers`, by symbology.
    static func reads(_ image: LumaImage, _ engine: ReaderName, readers: [ViewReader]) -> [String] {
        var options = ReaderOptions(symbologies: .standard)
        options.plan = ScanPlan(effort: .normal, passes: [ScanPass("alone", [], reader: engine)])
        options.plan.settings.qrDetails = false
        let executor = PlanExecutor(options: options, readers: readers)
        return executor.scan(image).map { "\($0.symbology.rawValue):" + String(decoding: $0.bytes, as: UTF8.self) }.sorted()
    }

    @Test("ZBar alone reads the Code 128 and the QR code; zxing-cpp alone the Data Matrix and the QR code")
    func eachReaderAlone() throws {
        let image = try Self.page(try TempDir("readers"))
        let all = BarcodeReader.viewReaders()
        #expect(all.map(\.name) == [.zbar, .zxing])
        let zbar = try #require(all.first { $0.name == .zbar })
        let zxing = try #require(all.first { $0.name == .zxing })
        #expect(Self.reads(image, .zbar, readers: [zbar]) == ["code128:READER-128", "qr:https://example.com/reader"])
        #expect(Self.reads(image, .zxing, readers: [zxing]) == ["code128:READER-128", "datamatrix:READER DM 42", "qr:https://example.com/reader"])
        // A pass naming a reader the list lacks reads nothing (and asks no other reader).
        #expect(Self.reads(image, .zxing, readers: [zbar]).isEmpty)
        #expect(Self.reads(image, .zbar, readers: [zxing]).isEmpty)
    }

    @Test("each reader's roles are its entry's: zxing-cpp is isolated (a worker dying in it reads again without it), ZBar confirms weak reads")
    func roles() {
        let all = BarcodeReader.viewReaders()
        #expect(all.filter(\.isolated).map(\.name) == [.zxing])
        #expect(BarcodeReader.isolatedReaders == [.zxing])
        #expect(all.filter(\.confirmsWeakReads).map(\.name) == [.zbar])
    }

    @Test("each symbology has its home reader (Symbology.reader) in the list; zxing-cpp 3.1 reads all but SQ Code, ISBN and the add-ons")
    func symbologiesPerReader() {
        for s in Symbology.allCases {
            let by = BarcodeReader.viewReaders().filter { $0.symbologies.contains(s) }.map(\.name)
            #expect(by.contains(s.reader), "\(s): \(by)")
            #expect(by.contains(.zxing) == ![.sq, .isbn10, .isbn13, .ean2, .ean5].contains(s), "\(s): \(by)")
        }
        #expect(ZBarDecoder.symbologies.contains(.code128) && !ZBarDecoder.symbologies.contains(.datamatrix))
        #expect(ZXingDecoder.symbologies.isSuperset(of: [.qr, .microqr, .rmqr, .datamatrix, .pdf417, .micropdf417, .aztec, .maxicode, .telepen]))
    }

    @Test(
        "ZBar's numbers live in its bridge: each ZBar symbology's type reads back, the others have none, and ZBarDecoder reads exactly Symbology.reader's ZBar set"
    )
    func zbarTypesRoundTrip() {
        let zbar = Symbology.allCases.filter { $0.reader == .zbar }
        for s in zbar { #expect(s.zbarType.flatMap(Symbology.init(zbarType:)) == s, "\(s)") }
        #expect(Symbology(zbarType: .init(rawValue: 57)) == nil)  // ZBar's PDF417: not reported (zxing-cpp reads PDF417)
        #expect(Set(zbar.compactMap { $0.zbarType?.rawValue }).count == zbar.count)
        for s in Symbology.allCases where s.reader == .zxing { #expect(s.zbarType == nil, "\(s)") }
        #expect(ZBarDecoder.symbologies == Set(zbar))
    }
}
