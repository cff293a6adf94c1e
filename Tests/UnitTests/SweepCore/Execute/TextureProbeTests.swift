import Foundation
import Imaging
import Records
import TestSupport
import Testing

@testable import SweepCore

/// The cheap look that decides where the expensive passes run: it must find the place of a
/// code-like patch, leave smooth areas out, and tell fine texture (modules too small for the
/// reduced passes) from texture that is visible when shrunk too.
@Suite("Texture probe and code-like regions")
struct TextureProbeTests {
    @Test func regionCoversThePatchAndLittleElse() {
        let img = Drawn.patch(width: 800, height: 600, x: 560, y: 380, module: 4)
        let look = TextureProbe.look(img)
        #expect(look.busy >= TextureProbe.minBusyBlocks)
        let boxes = FractionalBox.merged(look.regions)
        #expect(boxes.count == 1)
        let r = boxes[0].pixels(width: 800, height: 600)
        // The whole patch (560...692 x 380...512) is inside, with a margin for the quiet zone.
        #expect(r.x <= 556 && r.y <= 376 && r.x + r.width >= 696 && r.y + r.height >= 516, "\(r)")
        #expect(boxes[0].area < 0.2, "the smooth rest of the image is left out")
    }

    /// The SIMD block test gives the scalar definition's mask, block for block, on module
    /// patterns, noise at every contrast round the thresholds, and sizes not a multiple of 8.
    @Test func blockTestMatchesTheScalarDefinition() {
        var images = [
            Drawn.patch(width: 803, height: 611, x: 41, y: 37, module: 3, modules: 60),
            Drawn.patch(width: 400, height: 300, x: 10, y: 10, module: 1, modules: 120),
        ]
        var state: UInt32 = 99
        for amplitude in [8, 20, 24, 30, 60, 120, 255] {
            var img = LumaImage(width: 517, height: 389, fill: 128)
            for i in img.pixels.indices {
                state = state &* 1_103_515_245 &+ 12345
                // Blocks of one random level plus noise of this amplitude: some blocks two-tone,
                // some noisy, some flat.
                let block = ((i % 517) / 8 + (i / 517) / 8 * 97) % 5
                let noise = Int(state >> 16) % (amplitude + 1)
                img.pixels[i] = UInt8(clamping: block * 40 + (block % 2 == 0 ? noise : (noise > amplitude / 2 ? amplitude : 0)))
            }
            images.append(img)
        }
        var busy = 0, calm = 0
        for img in images {
            for fine in [false, true] {
                let simd = fine ? TextureProbe.busyMask(img, minTransitions: 40, minFar: 24) : TextureProbe.busyMask(img)
                let scalar = fine ? TextureProbe.busyMaskScalar(img, minTransitions: 40, minFar: 24) : TextureProbe.busyMaskScalar(img)
                #expect(simd.bw == scalar.bw && simd.bh == scalar.bh)
                #expect(simd.mask == scalar.mask, "\(img.width)x\(img.height) fine=\(fine)")
                busy += scalar.mask.filter { $0 }.count
                calm += scalar.mask.filter { !$0 }.count
            }
        }
        #expect(busy > 1000 && calm > 1000, "both kinds of block were compared (\(busy) busy, \(calm) not)")
    }

    @Test func smoothImageHasNoRegions() {
        var img = LumaImage(width: 640, height: 480, fill: 0)
        for y in 0..<480 { for x in 0..<640 { img.pixels[y * 640 + x] = UInt8((x + y) * 255 / 1120) } }
        let look = TextureProbe.look(img)
        #expect(look.busy == 0 && look.regions.isEmpty)
    }

    @Test func mergingJoinsOverlapsAndFallsBackToTheWholeImage() {
        let a = FractionalBox(x0: 0.1, y0: 0.1, x1: 0.3, y1: 0.3), b = FractionalBox(x0: 0.25, y0: 0.2, x1: 0.4, y1: 0.35)
        let far = FractionalBox(x0: 0.8, y0: 0.8, x1: 0.9, y1: 0.9)
        #expect(FractionalBox.merged([a, b, far]) == [FractionalBox(x0: 0.1, y0: 0.1, x1: 0.4, y1: 0.35), far])
        #expect(FractionalBox.merged([FractionalBox(x0: 0, y0: 0, x1: 0.8, y1: 0.8)]) == [.whole], "most of the image: scan it whole")
        let many = (0..<20).map { i in FractionalBox(x0: Double(i) * 0.05, y0: 0, x1: Double(i) * 0.05 + 0.01, y1: 0.01) }
        #expect(FractionalBox.merged(many) == [.whole], "too many small places: scan it whole")
    }

    @Test("the bar-field test: bars at any angle, also among other texture; not a field of rings, not a code's modules")
    func barField() {
        for degrees in [0.0, 30, 90, 135] {
            let found = TextureProbe.hasBarField(Drawn.bars(width: 600, height: 400, box: (200, 150, 190, 80), degrees: degrees), in: .whole)
            #expect(found, "bars at \(degrees)°")
        }
        // A bar code in a corner of a page of module texture.
        let mixed = Drawn.bars(
            width: 800, height: 600, box: (40, 40, 190, 80), degrees: 10,
            into: Drawn.patch(width: 800, height: 600, x: 250, y: 150, module: 1, modules: 400))
        let inMixed = TextureProbe.hasBarField(mixed, in: .whole)
        #expect(inMixed, "bars among module texture")
        let inRings = TextureProbe.hasBarField(Drawn.rings(width: 1000, height: 750), in: .whole)
        #expect(!inRings, "rings are no bars")
        for module in [1, 2] {
            let inModules = TextureProbe.hasBarField(Drawn.patch(width: 800, height: 600, x: 100, y: 100, module: module, modules: 250), in: .whole)
            #expect(!inModules, "\(module) px modules are no bars")
        }
        // Too small a place to hold a block.
        let inTiny = TextureProbe.hasBarField(Drawn.bars(width: 17, height: 17, box: (0, 0, 17, 17), degrees: 0), in: .whole, minBlocks: 1)
        #expect(!inTiny)
    }

    @Test("a big fine place is cropped for full resolution only with unexplained bars or a sheet of codes in it; a small one always")
    func fineRegionsNeedEvidenceWhenBig() {
        var look = TextureProbe.Result()
        let big = FractionalBox(x0: 0, y0: 0, x1: 0.6, y1: 0.6), small = FractionalBox(x0: 0.7, y0: 0.7, x1: 0.8, y1: 0.8)
        look.fine = [big, small]
        look.fineBars = [false, false]
        let places = { (read: [Point], unread: [Point], explained: [Point]) in
            StepViews.places(.fineRegions(maxArea: 0.05), look: look, read: read, unread: unread, explained: explained)
        }
        #expect(places([], [], []) == [small])
        // Bars no code read so far explains (a fine bar code): cropped; bars with a code read in
        // them (the code they are, or a monitor's moiré round a code read): not.
        look.fineBars = [true, false]
        #expect(places([], [], []) == [big, small])
        #expect(places([], [], [Point(x: 0.3, y: 0.2)]) == [small])
        #expect(places([], [], [Point(x: 0.65, y: 0.2)]) == [big, small])
        // A located code still unread in it is no reason (a field of finder-like squares is
        // full of them).
        look.fineBars = [false, false]
        #expect(places([], [Point(x: 0.3, y: 0.2)], []) == [small])
        // A sheet: four 2D codes read in it (their unlocated neighbours may need full
        // resolution); one or three read codes are no sheet.
        let sheet = [Point(x: 0.1, y: 0.1), Point(x: 0.3, y: 0.1), Point(x: 0.1, y: 0.3), Point(x: 0.3, y: 0.3)]
        #expect(places(sheet, [], sheet) == [big, small])
        #expect(places(Array(sheet.prefix(3)), [], Array(sheet.prefix(3))) == [small])
        #expect(places([Point(x: 0.3, y: 0.2)], [], [Point(x: 0.3, y: 0.2)]) == [small])
    }

    /// Modules of 1 px (2 px at full size in a half-size decode) make fine texture; the same
    /// pattern with 6 px modules is busy when shrunk as well, so it is not "fine".
    @Test("a small code-like place is cropped for full resolution only with a bar field or an unread located code in it")
    func smallRegionsNeedEvidence() {
        var look = TextureProbe.Result()
        let a = FractionalBox(x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.2), b = FractionalBox(x0: 0.5, y0: 0.5, x1: 0.6, y1: 0.6)
        let wide = FractionalBox(x0: 0, y0: 0.7, x1: 0.5, y1: 1)
        look.regions = [a, b, wide]
        look.regionBars = [false, false, false]
        #expect(StepViews.places(.smallRegions(maxArea: 0.02), look: look).isEmpty)
        look.regionBars = [false, true, false]
        #expect(StepViews.places(.smallRegions(maxArea: 0.02), look: look) == [b])
        // A located code not read yet in `a`; one in the wide place does not make it small.
        look.regionBars = [false, false, false]
        #expect(StepViews.places(.smallRegions(maxArea: 0.02), look: look, unread: [Point(x: 0.15, y: 0.12), Point(x: 0.2, y: 0.8)]) == [a])
        // A 2D code read there is no evidence (nothing is left to find).
        #expect(StepViews.places(.smallRegions(maxArea: 0.02), look: look, read: [Point(x: 0.15, y: 0.12)]).isEmpty)
    }

    @Test("the look marks bars in a small code-like place, not a code's modules")
    func regionBarsInTheLook() {
        // Bars 2-6 px wide (a linear code a little too small for the 3 MP pass) in a small place.
        let bars = Drawn.bars(width: 1000, height: 750, box: (450, 350, 110, 40), degrees: 0).upscaled(by: 2)
        let look = TextureProbe.look(views: [bars.downscaled(by: 2), bars], base: bars)
        let withBars = zip(look.regions, look.regionBars).filter { $0.1 }.map(\.0)
        #expect(withBars.count == 1 && withBars[0].area <= TextureProbe.barFieldMaxRegionArea, "\(look.regions) \(look.regionBars)")
        let modules = Drawn.patch(width: 2000, height: 1500, x: 900, y: 600, module: 3, modules: 41)
        let moduleLook = TextureProbe.look(views: [modules.downscaled(by: 2), modules], base: modules)
        #expect(!moduleLook.regions.isEmpty && !moduleLook.regionBars.contains(true), "\(moduleLook.regions) \(moduleLook.regionBars)")
    }

    @Test(arguments: [(1, true), (6, false)])
    func fineTextureIsOnlyWhatShrinkingLoses(module: Int, fine: Bool) {
        let img = Drawn.patch(width: 1200, height: 900, x: 300, y: 300, module: module, modules: module == 1 ? 45 : 41)
        let shrunk = TextureProbe.look(img.downscaled(by: 4))
        let coarse = zip(shrunk.regions, shrunk.counts).map { (box: $0, count: $1) }
        #expect(!TextureProbe.fineRegions(img, coarse: coarse).isEmpty == fine)
    }
}

/// The normal plan's cost rules, with a recording decoder instead of ZBar (`RecordingPlan`,
/// TestSupport): a frame decoded at
/// half size asks for full resolution only when it holds fine texture, and then only the fine
/// places are scanned at full size.
@Suite("Normal plan: where full resolution is spent")
struct FullResolutionOnDemandTests {
    @Test("a pass's source resolution is plan data: the same 0.4 MP pass decodes full resolution only when its source says so")
    func sourceResolutionIsPlanData() {
        let half = LumaImage(width: 800, height: 600, fill: 200)
        #expect(ScanPass("fit1", [.fit(megapixels: 1)]).source == .megapixels(1))
        #expect(ScanPass("located", [.located(side: 300, margin: 0.25)]).source == .locatedModules(atLeast: 2.5))
        #expect(ScanPass("whole", []).source == .full)
        // The frame as decoded is half size (0.48 MP of 1.92): enough for a 0.4 MP view, halved to 400x300.
        let asIs = RecordingPlan.Log()
        RecordingPlan.run(half, [ScanPass("fit0.4", [.fit(megapixels: 0.4)])], log: asIs)
        #expect(asIs.fullDecodes == 0 && asIs.sizes.count == 1 && asIs.sizes[0] == (400, 300), "\(asIs.sizes)")
        // The same pass with a full source: full resolution decoded, the view a third of 1600x1200.
        let full = RecordingPlan.Log()
        RecordingPlan.run(half, [ScanPass("fit0.4", [.fit(megapixels: 0.4)], source: .full)], log: full)
        #expect(full.fullDecodes == 1)
        #expect(full.sizes.count == 1 && full.sizes[0] == (533, 400), "\(full.sizes)")
    }

    @Test("the plan's settings govern the executor: the upscale cap, the smallest view decoded, thin-strip padding")
    func settingsArePlanData() {
        let img = LumaImage(width: 300, height: 200, fill: 200)
        var capped = PlanSettings()
        capped.maxUpscaledPixels = 300_000
        let log = RecordingPlan.Log()
        RecordingPlan.run(img, [ScanPass("up2", [.upscale(2)]), ScanPass("up1", [.upscale(1)])], settings: capped, log: log)
        // x2 of the 600x400 full frame (960,000 px) is past the cap, x1 (240,000) is not.
        #expect(log.sizes.count == 1 && log.sizes[0] == (600, 400), "\(log.sizes)")
        var bigViews = PlanSettings()
        bigViews.minViewSide = 700
        let none = RecordingPlan.Log()
        RecordingPlan.run(img, [ScanPass("whole", [])], settings: bigViews, log: none)
        #expect(none.sizes.isEmpty)
        // A 5 px strip: its lines repeated to at least 32 rows with 16 px of white above and
        // below by default (7 x 5 + 32 = 67), to 48 and 24 px when the plan says so (10 x 5 + 48).
        var strip = PlanSettings()
        strip.thinPadTo = 48
        let padded = RecordingPlan.Log()
        let executor: (PlanSettings) -> PlanExecutor = { settings in
            var options = ReaderOptions(effort: .normal)
            options.plan = ScanPlan(effort: .normal, passes: [ScanPass("whole", [])], settings: settings)
            return PlanExecutor(options: options) { img, _ in
                padded.sizes.append((img.width, img.height)); return []
            }
        }
        _ = executor(PlanSettings()).scan(LumaImage(width: 400, height: 5, fill: 200))
        _ = executor(strip).scan(LumaImage(width: 400, height: 5, fill: 200))
        #expect(padded.sizes.map(\.1) == [67, 98], "\(padded.sizes)")
        // And `codesweep plan` prints them.
        let listing = ScanPlan.forEffort(.normal).listing
        #expect(listing.contains("settings:") && listing.contains("upscale: never past 16MP") && listing.contains("crops: 64 px of context"), "\(listing)")
        #expect(
            listing.contains("fine-full: fine-texture-regions(<=15% or unexplained-bars or sheet) → zbar[all]   when: >=4MP and fine-texture   source: full"),
            "\(listing)")
        #expect(listing.contains("source: located modules >=2.5px"), "\(listing)")
    }

    @Test("a field of finder-like rings, or a wide fine texture without bars, costs no full-resolution decode; bars in that texture do")
    func wideFineTextureNeedsBars() {
        let rings = Drawn.rings(width: 2000, height: 1500)
        let ringsLog = RecordingPlan.Log()
        RecordingPlan.run(rings, log: ringsLog)
        #expect(ringsLog.fullDecodes == 0, "\(ringsLog.sizes)")
        // A 1 px checkerboard at half size over a third of the frame: fine texture (grey when
        // shrunk), too wide to be a code. (Random 1 px noise would do as well for the probe, but
        // the QR locator finds finder-like triples in it: see the README's known limits.)
        var fine = LumaImage(width: 2000, height: 1500, fill: 235)
        for y in 200..<1200 { for x in 400..<1400 where (x + y) % 2 == 0 { fine.pixels[y * 2000 + x] = 25 } }
        let fineLog = RecordingPlan.Log()
        RecordingPlan.run(fine, log: fineLog)
        #expect(fineLog.fullDecodes == 0, "\(fineLog.sizes)")
        let withBars = Drawn.bars(width: 2000, height: 1500, box: (900, 700, 190, 80), degrees: 20, into: fine)
        let barsLog = RecordingPlan.Log()
        RecordingPlan.run(withBars, log: barsLog)
        #expect(barsLog.fullDecodes == 1, "\(barsLog.sizes)")
    }

    @Test func coarseTextureNeverDecodesFullResolution() {
        // 6 px modules at half size (12 px at full): the 3 MP passes can read such a code.
        let half = Drawn.patch(width: 2000, height: 1500, x: 900, y: 600, module: 6, modules: 41)
        let log = RecordingPlan.Log()
        RecordingPlan.run(half, log: log)
        #expect(log.fullDecodes == 0)
        #expect(log.sizes.allSatisfy { $0.0 <= 2000 && $0.1 <= 1500 })
    }

    @Test func fineTextureDecodesFullResolutionOnceAndScansOnlyThere() {
        // 1 px modules at half size: 2 px at full size, readable only there.
        let half = Drawn.patch(width: 2000, height: 1500, x: 900, y: 600, module: 1, modules: 45)
        let log = RecordingPlan.Log()
        RecordingPlan.run(half, log: log)
        #expect(log.fullDecodes == 1)
        // Full-size views are crops around the patch (90x90 px at full size), not the 4000x3000 frame.
        let full = log.sizes.filter { $0.0 > 2000 || $0.1 > 1500 }
        #expect(full.isEmpty)
        #expect(log.sizes.contains { $0.0 < 600 && $0.1 < 600 }, "\(log.sizes)")
    }

    @Test func aSmoothPhotoCostsOnlyTheSmallestPass() {
        // No code-like texture at any scale: no 3 MP scan, no full-resolution decode.
        var half = LumaImage(width: 2000, height: 1500, fill: 0)
        for y in 0..<1500 { for x in 0..<2000 { half.pixels[y * 2000 + x] = UInt8(40 + (x + y) / 20) } }
        let log = RecordingPlan.Log()
        RecordingPlan.run(half, log: log)
        #expect(log.fullDecodes == 0)
        #expect(log.sizes.count == 1 && log.sizes.allSatisfy { $0.0 * $0.1 <= 750_000 }, "\(log.sizes)")
    }

    /// Draws a QR code's three finder patterns and its timing lines over a module patch at
    /// (x, y): the patch becomes the frame of a code the locator finds (its data unreadable).
    static func withFinders(_ image: LumaImage, x: Int, y: Int, module: Int, modules n: Int) -> LumaImage {
        var img = image
        func paint(_ mx: Int, _ my: Int, dark: Bool) {
            for py in 0..<module { for px in 0..<module { img.pixels[(y + my * module + py) * img.width + x + mx * module + px] = dark ? 20 : 235 } }
        }
        for (ox, oy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for my in -1...7 {
                for mx in -1...7 where (0..<n).contains(ox + mx) && (0..<n).contains(oy + my) {
                    let ring = max(abs(mx - 3), abs(my - 3))
                    paint(ox + mx, oy + my, dark: ring != 2 && ring != 4)
                }
            }
        }
        for k in 8..<(n - 8) { paint(k, 6, dark: k % 2 == 0); paint(6, k, dark: k % 2 == 0) }
        return img
    }

    @Test func aSmallCodeLikePlaceIsLookedAtFullSizeOnlyWhereACodeIsLocated() {
        // A small patch (4 px modules at full size) with no finder and no bars: texture (leaves,
        // a checked cloth), not a code. The cheap passes only.
        let patch = Drawn.patch(width: 2000, height: 1500, x: 900, y: 600, module: 2, modules: 41)
        let texture = RecordingPlan.Log()
        RecordingPlan.run(patch, log: texture)
        #expect(texture.fullDecodes == 0, "\(texture.sizes)")
        // The same patch framed as a QR code the locator finds and nothing reads: full size is
        // decoded once and only crops around it are scanned there.
        let code = Self.withFinders(patch, x: 900, y: 600, module: 2, modules: 41)
        let log = RecordingPlan.Log()
        RecordingPlan.run(code, log: log)
        #expect(log.fullDecodes == 1)
        #expect(!log.sizes.contains { $0.0 > 2000 || $0.1 > 1500 }, "only crops at full size: \(log.sizes)")
        // A wide textured place (more than 2 % of the frame: text, a fabric) is not.
        let wide = Drawn.patch(width: 2000, height: 1500, x: 500, y: 400, module: 4, modules: 100)
        let wideLog = RecordingPlan.Log()
        RecordingPlan.run(wide, log: wideLog)
        #expect(wideLog.fullDecodes == 0)
    }
}
