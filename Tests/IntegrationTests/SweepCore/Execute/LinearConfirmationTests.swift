import CodeSweep
import FileWalker
import Foundation
import Imaging
import MagickBridge
import Records
import SweepCore
import TestSupport
import Testing
import ZBarBridge

/// Weak EAN/UPC reads in large photos (`PlanSettings.linearConfirmBelow`) count only once a
/// second view confirms them: held aside, no find for the fallbacks' conditions, dropped when
/// never confirmed. The rules with a scripted decoder; the real path with ZBar on a photo.
@Suite("Weak EAN/UPC reads need a second view")
struct LinearConfirmationTests {
    /// A decoder answering from a rule per view, recording the size of every view it was given.
    final class Decoder: @unchecked Sendable {
        var sizes: [(Int, Int)] = []
        var fullDecodes = 0
        let answer: (LumaImage) -> [RawSymbol]
        init(_ answer: @escaping (LumaImage) -> [RawSymbol]) { self.answer = answer }
        func asked(_ w: Int, _ h: Int) -> Bool { sizes.contains { $0 == (w, h) } }
    }

    /// The normal plan's first pass on a photo and one of its "nothing found" fallbacks.
    static let passes = [
        ScanPass("fit3-textured", [.fit(megapixels: 3)], when: [.atLeast(megapixels: 4)]),
        ScanPass("fit0.75", [.fit(megapixels: 0.75)], when: [.nothingFound]),
    ]

    /// A 12 MP frame decoded at half size (2000x1500, as a JPEG's DCT-scaled first decode), its
    /// full resolution decoded on demand; `halfSize` false: a 1600x1200 frame (1.9 MP) as it is.
    static func scan(_ decoder: Decoder, settings: PlanSettings = PlanSettings(), large: Bool = true) -> [DetectedCode] {
        var options = ReaderOptions(effort: .normal)
        options.plan = ScanPlan(effort: .normal, passes: passes, settings: settings)
        let executor = PlanExecutor(options: options) { img, _ in
            decoder.sizes.append((img.width, img.height))
            return decoder.answer(img)
        }
        if !large { return executor.scan(LumaImage(width: 1600, height: 1200, fill: 200)) }
        return executor.scan(LumaImage(width: 2000, height: 1500, fill: 200), scale: 0.5) {
            decoder.fullDecodes += 1
            return LumaImage(width: 4000, height: 3000, fill: 200)
        }
    }

    /// An EAN-13 (valid check digit) read on a few scan lines, `length` px long from `x`,`y` of
    /// the view, scaled by `s` (the fallback's view is half the 3 MP view).
    static func ean(
        _ text: String = "4006381333931", quality: Int, x: Double = 800, y: Double = 700, length: Double = 300,
        s: Double = 1
    ) -> RawSymbol {
        RawSymbol(
            symbology: .ean13, bytes: Array(text.utf8),
            points: [
                Point(x: x * s, y: y * s), Point(x: (x + length) * s, y: y * s),
                Point(x: x * s, y: (y + 10) * s), Point(x: (x + length) * s, y: (y + 10) * s),
            ],
            quality: quality, orientation: 0)
    }

    static func isView(_ img: LumaImage, _ w: Int, _ h: Int) -> Bool { img.width == w && img.height == h }
    /// The confirmation crop: neither pass's view.
    static func isCrop(_ img: LumaImage) -> Bool { !isView(img, 2000, 1500) && !isView(img, 1000, 750) }

    @Test("a weak EAN-13 read by one view of a large frame is not reported, and the nothing-found fallback runs")
    func unconfirmedWeakReadIsDropped() {
        let decoder = Decoder { img in Self.isView(img, 2000, 1500) ? [Self.ean(quality: 6)] : [] }
        let codes = Self.scan(decoder)
        #expect(codes.isEmpty, "\(codes)")
        #expect(decoder.asked(1000, 750), "the fallback did not run: \(decoder.sizes)")
        // The confirmation crops were tried: around the read's bars (600 px long at full size,
        // as much room on every side), at full resolution, at the read's half size made from
        // it (other pixels than the half-size decode's), at a quarter.
        let crops = decoder.sizes.filter { !($0 == (2000, 1500) || $0 == (1000, 750)) }
        #expect(decoder.fullDecodes == 1, "\(decoder.sizes)")
        #expect(crops.count == 3 && crops[0] == (1800, 1220) && crops[1] == (900, 610) && crops[2] == (450, 305), "\(crops)")
    }

    @Test("a weak read that another pass reads again at the same place is reported once, from the pass that read it first")
    func confirmedByAnotherPass() throws {
        let decoder = Decoder { img in
            if Self.isView(img, 2000, 1500) { return [Self.ean(quality: 6)] }
            if Self.isView(img, 1000, 750) { return [Self.ean(quality: 9, s: 0.5)] }
            return []
        }
        let codes = Self.scan(decoder)
        #expect(codes.count == 1, "\(codes)")
        let code = try #require(codes.first)
        #expect(code.text == "4006381333931" && code.pass == "fit3-textured" && code.quality == 9)
        #expect(decoder.asked(1000, 750))
        // Another payload at the same place confirms nothing.
        let other = Decoder { img in
            if Self.isView(img, 2000, 1500) { return [Self.ean(quality: 6)] }
            if Self.isView(img, 1000, 750) { return [Self.ean("4006381333948", quality: 9, s: 0.5)] }
            return []
        }
        #expect(Self.scan(other).isEmpty)
    }

    @Test("a weak read confirmed by the crop around it at full resolution is a find: the fallbacks do not run")
    func confirmedByTheCrop() throws {
        // The crop is centred on the read: the decoder answers there with the same code across its middle.
        let decoder = Decoder { img in
            if Self.isView(img, 2000, 1500) { return [Self.ean(quality: 6)] }
            if Self.isCrop(img) {
                let cx = Double(img.width) / 2, cy = Double(img.height) / 2
                return [Self.ean(quality: 45, x: cx - 300, y: cy - 10, length: 600)]
            }
            return []
        }
        let codes = Self.scan(decoder)
        let code = try #require(codes.first)
        #expect(codes.count == 1 && code.pass == "fit3-textured" && code.quality == 45, "\(codes)")
        #expect(!decoder.asked(1000, 750), "\(decoder.sizes)")
        #expect(decoder.fullDecodes == 1)
        // Its corners stay where the 3 MP view saw it, in full-resolution pixels.
        let b = code.corners.boundingBox
        #expect(abs(b.minX - 1600) < 1 && abs(b.maxX - 2200) < 1 && abs(b.minY - 1400) < 1, "\(b)")
    }

    @Test("a strong read in a large frame, and any read in a small one, counts at once; the thresholds are plan settings")
    func strongReadsAndSmallFramesAsBefore() throws {
        let settings = PlanSettings()
        // At the threshold: reported, no crop, no fallback.
        let strong = Decoder { img in Self.isView(img, 2000, 1500) ? [Self.ean(quality: settings.linearConfirmBelow)] : [] }
        #expect(Self.scan(strong).map(\.quality) == [settings.linearConfirmBelow])
        #expect(strong.sizes.count == 1 && strong.fullDecodes == 0, "\(strong.sizes)")
        // One scan line fewer: held (and dropped, nothing confirming it).
        let weak = Decoder { img in Self.isView(img, 2000, 1500) ? [Self.ean(quality: settings.linearConfirmBelow - 1)] : [] }
        #expect(Self.scan(weak).isEmpty)
        // A 1.9 MP frame: the weak read counts, as before; no crop, no fallback.
        let small = Decoder { _ in [Self.ean(quality: 6)] }
        #expect(Self.scan(small, large: false).map(\.quality) == [6])
        #expect(small.sizes.count == 1, "\(small.sizes)")
        // The plan decides: a lower threshold, or a larger frame size, lets the weak read count.
        var lower = PlanSettings()
        lower.linearConfirmBelow = 6
        #expect(Self.scan(Decoder { img in Self.isView(img, 2000, 1500) ? [Self.ean(quality: 6)] : [] }, settings: lower).count == 1)
        var larger = PlanSettings()
        larger.linearConfirmMegapixels = 13
        #expect(Self.scan(Decoder { img in Self.isView(img, 2000, 1500) ? [Self.ean(quality: 6)] : [] }, settings: larger).count == 1)
        // A weak DataBar read is held too (a 3 MP view of a label sheet misread one on 8 lines).
        var databar = Self.ean(quality: 6)
        databar.symbology = .databar
        #expect(Self.scan(Decoder { img in Self.isView(img, 2000, 1500) ? [databar] : [] }).isEmpty)
        // Other linear symbologies are not held.
        var code128 = Self.ean(quality: 6)
        code128.symbology = .code128
        #expect(Self.scan(Decoder { img in Self.isView(img, 2000, 1500) ? [code128] : [] }).count == 1)
        // And `codesweep plan` prints the rule.
        let listing = ScanPlan.forEffort(.normal).listing
        #expect(
            listing.contains(
                "weak EAN/UPC/DataBar/add-on reads: ean13, ean8, upca, upce, isbn10, isbn13, ean2, ean5, databar, databar-exp read on under \(settings.linearConfirmBelow) scan lines in a frame of >=4MP (a clean digital frame's own passes excepted) held until another pass"
            ), "\(listing)")
    }

    @Test("the merger holds a weak read until another view, or a sure read, agrees")
    func mergerHolds() {
        func code(_ quality: Int, pass: String, x: Double = 100) -> DetectedCode {
            DetectedCode(
                symbology: .ean13, bytes: Array("4006381333931".utf8),
                corners: Quad([Point(x: x, y: 10), Point(x: x + 300, y: 10), Point(x: x + 300, y: 20), Point(x: x, y: 20)]),
                quality: quality, orientation: 0, frame: 0, pass: pass)
        }
        var m = CodeMerger()
        var new = m.hold(code(5, pass: "a"), source: "fit(3MP)")
        #expect(new && m.codes.isEmpty && m.held.count == 1)
        // The same view again: still one sighting; elsewhere in the frame: another held read.
        new = m.hold(code(7, pass: "a2"), source: "fit(3MP)")
        #expect(!new)
        new = m.hold(code(5, pass: "b", x: 2000), source: "fit(3MP)")
        #expect(new && m.codes.isEmpty && m.held.count == 2 && m.held[0].code.quality == 7)
        // Another view: confirmed, kept as first read.
        new = m.hold(code(4, pass: "c"), source: "fit(0.75MP)")
        #expect(!new && m.codes.map(\.pass) == ["a"] && m.codes.map(\.quality) == [7] && m.held.count == 1)
        // A sure read confirms the other one.
        m.add(code(80, pass: "d", x: 2000))
        #expect(m.codes.map(\.pass) == ["a", "b"] && m.codes.map(\.quality) == [7, 80] && m.held.isEmpty)
        // A weak read of a code already reported merges into it.
        new = m.hold(code(3, pass: "e"), source: "rotate(30°)")
        #expect(!new && m.codes.count == 2 && m.held.isEmpty)
    }

    @Test("the confirmation crops are at other scales than the read's view, or from other pixels")
    func confirmationScales() {
        func scales(pixelSize: Double, reduced: Bool, filtered: Bool) -> [String] {
            var v = ReadView()
            v.pixelSize = pixelSize; v.reducedDecode = reduced; v.filtered = filtered
            return v.confirmationScales.map { "\(NumberText.trimmed($0.scale))\($0.needsFull ? " full" : "")" }
        }
        // The 3 MP view of a 12 MP JPEG decoded at half size: full resolution, the same scale
        // made from the full-resolution decode, a quarter.
        #expect(scales(pixelSize: 2, reduced: true, filtered: false) == ["1", "0.5 full", "0.25"])
        // The same view made from the full-resolution frame: its own scale would be its pixels again.
        #expect(scales(pixelSize: 2, reduced: false, filtered: false) == ["1", "0.25"])
        // A sharpened full-resolution crop: the plain crop, then half size.
        #expect(scales(pixelSize: 1, reduced: false, filtered: true) == ["1", "0.5"])
        #expect(scales(pixelSize: 1, reduced: false, filtered: false) == ["0.5"])
    }

    // MARK: real images

    /// A 12 MP photo-like JPEG with a real EAN-13 (2-3 px modules, 20 modules high, turned 4°)
    /// at (1700, 1300): ZBar reads it on about 35 scan lines of the 3 MP view, fewer than a sure read.
    static func weakShot(_ s: TempDir) throws -> String {
        let code = s.file("ean.png"), bordered = s.file("ean-quiet.png")
        try Make.zint(type: 13, "590123412345", to: code, scale: "1.5", height: 20)
        try Make.convert([code, "-bordercolor", "white", "-border", "30", bordered])
        return try Make.cameraShot(s, bordered, x: 1700, y: 1300, tilt: 4, blur: 0.8, name: "shot.jpg")
    }

    /// Reads a file as a sweep does (a 12 MP JPEG decoded at half size first) with the normal
    /// plan's passes and the given settings.
    static func sweepRead(
        _ path: String, settings: PlanSettings = PlanSettings(),
        passes: [ScanPass] = ScanPlan.forEffort(.normal).passes
    ) throws -> [DetectedCode] {
        var scan = ScanSettings()
        scan.reader.plan = ScanPlan(effort: .normal, passes: passes, settings: settings)
        guard case .file(let entry)? = Walker().walk([path]).first, let record = FileScanner.scan(entry, settings: scan) else {
            throw ToolFailure("no record for \(path)")
        }
        return record.codes
    }

    @Test("a real EAN-13 read weakly at 3 MP in a 12 MP photo is confirmed by its crop at full resolution and reported")
    func realWeakReadIsConfirmed() throws {
        let s = try TempDir("linear")
        let shot = try Self.weakShot(s)
        let codes = try Self.sweepRead(shot)
        #expect(codes.map(\.text) == ["5901234123457"], "\(codes)")
        // The 3 MP pass read it first on fewer scan lines than a sure read (as the plan without
        // the rule reports it); the confirming read at full resolution had more.
        var without = PlanSettings()
        without.linearConfirmMegapixels = 100
        let weak = try #require(try Self.sweepRead(shot, settings: without).first)
        let code = try #require(codes.first)
        #expect(weak.pass == "fit3-textured" && weak.quality < PlanSettings().linearConfirmBelow, "\(weak)")
        #expect(code.pass == "fit3-textured" && code.quality >= PlanSettings().linearConfirmBelow, "\(code)")
    }

    @Test("a wrong weak EAN-13 beside the real code in a 12 MP photo is dropped, the real one still read by ZBar")
    func wrongReadBesideTheRealOneIsDropped() throws {
        let s = try TempDir("linear")
        let shot = try Self.weakShot(s)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)))
        let frame = try #require(try ImageLoader.load(bytes, format: .jpeg).frames.first)
        // ZBar on every view, and on the first 3 MP view one more read: another EAN-13 with a
        // valid check digit, 6 scan lines just below the real code's bars (about 884...1028,
        // 677...701 there).
        let wrong = RawSymbol(
            symbology: .ean13, bytes: Array("5901234123464".utf8),
            points: [Point(x: 884, y: 712), Point(x: 1028, y: 712), Point(x: 884, y: 718), Point(x: 1028, y: 718)],
            quality: 6, orientation: 0)
        func read(_ settings: PlanSettings) -> [DetectedCode] {
            var options = ReaderOptions(effort: .normal)
            options.plan.settings = settings
            var injected = false
            let executor = PlanExecutor(options: options) { img, symbols in
                var found = ZBarDecoder.decode(img, symbologies: symbols.symbologies, config: .init(lineStep: Int32(symbols.lineStep)))
                if !injected && img.width == 2000 && img.height == 1500 { injected = true; found.append(wrong) }
                return found
            }
            return executor.scan(frame)
        }
        #expect(read(PlanSettings()).map(\.text) == ["5901234123457"])
        var without = PlanSettings()
        without.linearConfirmMegapixels = 100
        #expect(read(without).map(\.text).sorted() == ["5901234123457", "5901234123464"])
    }
}
