import CodeSweep
import Foundation
import Imaging
import MagickBridge
import Records
import SweepCore
import TestSupport
import Testing

/// EAN-2/EAN-5 add-ons are reported only beside their EAN/UPC code, and the retries that
/// small images get: the geometry and the stopping rule as pure values, the add-ons on real
/// zint images decoded by ZBar.
@Suite("Add-ons and small-image retries")
struct AddOnAndRetryTests {
    static func quad(_ pts: [(Double, Double)]) -> Quad { Quad(pts.map { Point(x: $0.0, y: $0.1) }) }
    /// An EAN-13 read left to right, 380 px wide, bars 100...380 high.
    static let host = quad([(100, 100), (480, 100), (480, 380), (100, 380)])

    static func code(_ s: Symbology, _ q: Quad, quality: Int = 50, frame: Int = 0) -> DetectedCode {
        DetectedCode(symbology: s, bytes: Array("1".utf8), corners: q, quality: quality, orientation: 0, frame: frame, pass: "t")
    }

    @Test func addOnRightOfItsHostIsBeside() {
        // ZBar places an add-on's points near its far end: 1.57 widths from the host's start.
        let addOn = Self.quad([(696, 130), (696, 130), (696, 360), (696, 360)])
        #expect(AddOnPairing.isBeside(addOn: addOn, host: Self.host))
    }

    @Test(arguments: [
        (40.0, 240.0),  // left of the code
        (300.0, 240.0),  // on the code itself
        (1400.0, 240.0),  // far to the right: another thing on the shelf
        (696.0, 900.0),  // below the bars
    ])
    func addOnElsewhereIsNotBeside(x: Double, y: Double) {
        let addOn = Self.quad([(x, y - 20), (x, y - 20), (x, y + 20), (x, y + 20)])
        #expect(!AddOnPairing.isBeside(addOn: addOn, host: Self.host))
    }

    @Test func pairingFollowsTheHostsReadingDirection() {
        // The host read top to bottom (rotated 90° clockwise): its "right" is down the image.
        let rotated = Self.quad([(380, 100), (380, 480), (100, 480), (100, 100)])
        let below = Self.quad([(250, 696), (250, 696), (250, 696), (250, 696)])
        let right = Self.quad([(696, 250), (696, 250), (696, 250), (696, 250)])
        #expect(AddOnPairing.isBeside(addOn: below, host: rotated))
        #expect(!AddOnPairing.isBeside(addOn: right, host: rotated))
    }

    @Test func orphanAddOnsAndOtherFramesAreDropped() {
        let addOn = Self.quad([(696, 130), (696, 130), (696, 360), (696, 360)])
        let kept = AddOnPairing.pairing([Self.code(.ean13, Self.host), Self.code(.ean5, addOn)])
        #expect(kept.map(\.symbology) == [.ean13, .ean5])
        #expect(AddOnPairing.pairing([Self.code(.ean5, addOn)]).isEmpty)
        #expect(AddOnPairing.pairing([Self.code(.ean13, Self.host, frame: 1), Self.code(.ean2, addOn)]).map(\.symbology) == [.ean13])
        // A QR code is no host.
        #expect(AddOnPairing.pairing([Self.code(.qr, Self.host), Self.code(.ean5, addOn)]).map(\.symbology) == [.qr])
    }

    /// A plan run with a decoder that answers from a script, recording what each pass asked for.
    final class Script: @unchecked Sendable {
        var answers: [[RawSymbol]]
        var asked: [Set<Symbology>] = []
        init(_ answers: [[RawSymbol]]) { self.answers = answers }
    }

    static func run(_ script: Script, plan: [ScanPass], symbologies: SymbologySet = .standard) -> [DetectedCode] {
        var options = ReaderOptions(symbologies: symbologies)
        options.plan = ScanPlan(effort: .normal, passes: plan)
        let executor = PlanExecutor(options: options) { _, symbols in
            script.asked.append(symbols.symbologies)
            return script.answers.isEmpty ? [] : script.answers.removeFirst()
        }
        return executor.scan(LumaImage(width: 200, height: 100, pixels: [UInt8](repeating: 255, count: 20_000)))
    }

    static func raw(_ s: Symbology, _ text: String, x: Double, quality: Int) -> RawSymbol {
        RawSymbol(symbology: s, bytes: Array(text.utf8), points: [Point(x: x, y: 10), Point(x: x + 40, y: 60)], quality: quality, orientation: 0)
    }

    @Test func aLoneAddOnIsNoFindAndIsNotReported() {
        // Pass 1 reads only an add-on (noise); pass 2, which runs only when nothing was found, runs.
        let script = Script([[Self.raw(.ean5, "51299", x: 150, quality: 30)], []])
        let codes = Self.run(script, plan: [ScanPass("a", []), ScanPass("b", [.sharpen], when: [.nothingFound])])
        #expect(codes.isEmpty)
        #expect(script.asked.count == 2)
    }

    @Test func addOnsAloneStillLookForTheirHostButReportOnlyTheAddOn() throws {
        let script = Script([[Self.raw(.ean13, "9780735200449", x: 0, quality: 80), Self.raw(.ean5, "51299", x: 60, quality: 30)]])
        let codes = Self.run(script, plan: [ScanPass("a", [])], symbologies: try SymbologySet.parse("addons"))
        #expect(codes.map(\.symbology) == [.ean5])
        #expect(script.asked.first?.isSuperset(of: [.ean13, .ean8, .ean5, .ean2]) == true)
        // Never UPC or ISBN: ZBar would re-label EAN-13 reads as those.
        #expect(script.asked.first?.isDisjoint(with: [.upca, .upce, .isbn10, .isbn13]) == true)
    }

    @Test(arguments: [(5, 2), (39, 2), (40, 1)])
    func weakLinearReadsDoNotStopSmallImageRetries(quality: Int, passesRun: Int) {
        let script = Script([[Self.raw(.code128, "ABC", x: 20, quality: quality)], []])
        _ = Self.run(script, plan: [ScanPass("a", []), ScanPass("b", [.binarize], when: [.noSureRead(minQuality: 40)])])
        #expect(script.asked.count == passesRun)
    }

    @Test func aQRCodeIsASureRead() {
        let qr = RawSymbol(
            symbology: .qr, bytes: Array("x".utf8), points: [Point(x: 1, y: 1), Point(x: 1, y: 30), Point(x: 30, y: 30), Point(x: 30, y: 1)], quality: 1,
            orientation: 0)
        let script = Script([[qr], []])
        _ = Self.run(script, plan: [ScanPass("a", []), ScanPass("b", [.binarize], when: [.noSureRead(minQuality: 40)])])
        #expect(script.asked.count == 1)
    }

    @Test func otsuSplitsTwoLevelsAndUnsharpWidensTheirGap() {
        // Grey bars (90) on light grey (170), blurred at the edges.
        let row: [UInt8] = [170, 170, 150, 110, 90, 90, 110, 150, 170, 170]
        let img = LumaImage(width: 10, height: 3, pixels: row + row + row)
        let bin = img.binarized()
        #expect(Array(bin.pixels.prefix(10)) == [255, 255, 255, 0, 0, 0, 0, 255, 255, 255])
        let sharp = img.sharpened(radius: 2, amount: 2)
        #expect(Int(sharp.pixels[4]) < 90 && Int(sharp.pixels[0]) >= 170)
    }

    // MARK: real images

    @Test func eanWithAddOnIsReportedAsTwoCodesUprightAndRotated() throws {
        let dir = try TempDir()
        let path = dir.file("ean-addon.png"), turned = dir.file("ean-addon-90.png")
        try Make.zint(type: 13, "978073520044+51299", to: path, scale: "2", height: 50)
        try Make.convert([path, "-rotate", "90", turned])
        for p in [path, turned] {
            let record = try Library.file(p)
            let found = record.codes.map { "\($0.symbology.rawValue):\(String(decoding: $0.bytes, as: UTF8.self))" }.sorted()
            #expect(found == ["ean13:9780735200449", "ean5:51299"], "\(p)")
        }
        // Asked for add-ons only: the add-on, not its host.
        var settings = ScanSettings()
        settings.reader = ReaderOptions(symbologies: try SymbologySet.parse("addons"))
        #expect(try Library.file(path, settings: settings).codes.map(\.symbology) == [.ean5])
        // Without add-ons: the EAN-13 alone.
        settings.reader = ReaderOptions(symbologies: try SymbologySet.parse("default,-addons"))
        #expect(try Library.file(path, settings: settings).codes.map(\.symbology) == [.ean13])
    }
}
