public enum Effort: String, Sendable, CaseIterable, Codable {
    case fast, normal, thorough

    /// What the level is for, as `codesweep plan` says it.
    public var purpose: String {
        switch self {
        case .fast:
            "a first look at a big folder. A clean digital frame (a screenshot, a rendered page): zxing-cpp over the frame for every symbology, a dark frame inverted too, then the grid decoder for QR codes left. A photo under 1 MP: zxing-cpp over it for every symbology, then the grid decoder for the QR codes it left, ZBar at 1 MP only where no read is sure. A bigger photo: the QR locator and the grid decoder first, then one ZBar pass at 1 MP (QR codes and bars until every located code was read and every code-like place holds a code read; then bars only, and only where bars are seen); on a sheet of codes (a label sheet, a scanned page) ZBar at full resolution where texture no code read explains is left; zxing-cpp on the code-like places no code read explains; no retries"
        case .normal:
            "the default. A clean digital frame: zxing-cpp over the frame and the frame inverted, the grid decoder and warps for QR codes left, ZBar over the frame at its own size for bars, zxing-cpp at half size for 2D codes in a frame of 2 MP and more. A photo: the cheap passes everywhere, and retries (the grid decoder, warps of located QR codes, full-resolution crops, a sheet of codes at full resolution, small-image filters, zxing-cpp) only where the cheap look or the locator says a code is"
        case .thorough:
            "when missing a code costs more than time: everything normal does, in the same order (so never fewer codes), then the warps and small-image retries normal drops and every filter on the whole frame at full resolution"
        }
    }
}

/// An ordered list of passes. The plan is data: printed by `codesweep plan`, tuned from the
/// recall and speed benchmarks.
public struct ScanPlan: Sendable, Equatable, Codable {
    public var effort: Effort
    /// The passes of a photo or a scan (and of every frame when `digital` is empty).
    public var passes: [ScanPass]
    /// The passes of a clean digital frame (`DigitalFrame`: a screenshot, a rendered page,
    /// generated art), instead of `passes`: zxing-cpp over the whole frame for every format
    /// first, the grid decoder for QR codes it left, ZBar only where bars are left unexplained.
    /// Empty: every frame takes `passes`.
    public var digital: [ScanPass]
    public var settings: PlanSettings
    public init(effort: Effort, passes: [ScanPass], digital: [ScanPass] = [], settings: PlanSettings = PlanSettings()) {
        self.effort = effort; self.passes = passes; self.digital = digital; self.settings = settings
    }

    /// The plans, tuned with `make bench-recall` (hard set + zxing-cpp corpus, see bench/).
    /// Costs on a 12 MP photo (one core): fit3 ~0.2 s, full ~1-2 s, tiles3 ~1.5-2.5 s; the
    /// cheap look ~10 ms. Most photos hold no code, so the full-resolution and retry passes run
    /// only where the cheap look saw code-like texture.
    public static func forEffort(_ effort: Effort) -> ScanPlan {
        switch effort {
        case .fast:
            // QR codes located first and read by the grid decoder (on the BoofCV dev half it
            // reads 547 of the 558 codes fast reads); then one ZBar pass at 1 MP: a 12 MP JPEG is
            // decoded at half size (DCT scaling) and averaged down once more; finds modules of
            // about 6 px and more at full size. (At 0.7 MP the decode is 1/4 size and 40 %
            // cheaper, but two thirds of the benchmark's codes are lost.) Once the frame's QR codes
            // are settled (`LocatedQRCodes.settled`) that pass looks for bars only: with
            // --symbologies qr it then does not run.
            var settings = PlanSettings()
            settings.settledLineStep = 2
            settings.settledNeedsBarField = true
            return ScanPlan(
                effort: .fast,
                passes: [
                    // A small image (under 1 MP): zxing-cpp over it for every symbology first,
                    // with its own tries (cheap at that size); the grid decoder then for the QR
                    // codes it left, ZBar only where no sure read.
                    ScanPass("zxing-fit1", [.fit(megapixels: 1)], when: [.under(megapixels: 1)], symbols: .all, reader: .zxing),
                    ScanPass("grid", [], when: [.locatedUnread], symbols: .twoDimensional, source: .locatedModules(atLeast: 2.5), reader: .grid),
                    ScanPass("fit1", [.fit(megapixels: 1)], when: [.atLeast(megapixels: 1)], symbols: .allButSettledQR),
                    ScanPass("fit1-unsure", [.fit(megapixels: 1)], when: [.under(megapixels: 1), .noSureRead(minQuality: 40)], symbols: .allButSettledQR),
                    // A sheet of codes (big, code-like over much of it): ZBar at full resolution on
                    // the tiles where texture is left that no code read explains (bars, and QR
                    // codes the grid decoder did not read).
                    sheetTilesPass,
                    // Data Matrix, Aztec, PDF417 and the codes only zxing-cpp reads, where the
                    // cheap look saw code-like places that no code read explains.
                    ScanPass(
                        "zxing-places", [.fit(megapixels: 1), .unexplainedRegions(maxArea: 0.5)], when: [.codeLike],
                        symbols: .secondReader, reader: .zxing),
                ], digital: digitalPasses(invertedWhen: [.dark], bars: false), settings: settings)
        case .normal:
            // The cheap passes everywhere, then the retries where the cheap look or the locator
            // says a code is, the isolated reader last (the groups: PlanPasses.swift). Once the
            // frame's QR codes are settled, its 3 MP ZBar passes run where the bar-field test sees bars.
            var settings = PlanSettings()
            settings.settledNeedsBarField = true
            return ScanPlan(
                effort: .normal,
                passes: firstViewPasses + locatedPasses + [sheetTilesPass] + resolutionPasses + smallImagePasses
                    + placeRetryPasses + crowdedSheetPasses + slantPasses + isolatedReaderPasses,
                digital: digitalPasses(invertedWhen: [], bars: true) + digitalLocatedPasses + smallImagePasses, settings: settings)
        case .thorough:
            // Everything normal does, in the same order on the same pixels (so never fewer codes
            // on any image), then the warps and turns normal leaves out, then every retry on the
            // whole frame at full resolution.
            // A digital frame: normal's digital passes, then every pass of a photo.
            let normal = forEffort(.normal)
            let photo = normal.passes + thoroughLocatedPasses + thoroughSmallImagePasses + wholeFramePasses
            return ScanPlan(effort: .thorough, passes: photo, digital: normal.digital + photo)
        }
    }

    /// A readable listing, one pass per line.
    public var listing: String {
        var lines = ["effort \(effort.rawValue): \(passes.count) pass\(passes.count == 1 ? "" : "es")", "for: \(effort.purpose)"]
        if !digital.isEmpty { lines.append("a photo or a scan:") }
        lines += Self.listing(passes)
        if !digital.isEmpty {
            lines.append("a clean digital frame (a screenshot, a rendered page; no camera noise):")
            lines += Self.listing(digital)
        }
        lines.append("settings:")
        lines += settings.listing.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    static func listing(_ passes: [ScanPass]) -> [String] {
        passes.enumerated().map { i, p in
            let steps = p.steps.isEmpty ? "full resolution" : p.steps.map(\.description).joined(separator: " → ")
            let tries = p.reader == .zxing && p.tries != .all ? " tries \(p.tries)" : ""
            let lines = p.lineStep > 1 ? " every \(p.lineStep == 2 ? "second" : "\(p.lineStep)th") line" : ""
            return
                "  \(i + 1). \(p.name): \(steps) → \(p.reader.rawValue)[\(p.symbols.rawValue)]\(tries)\(lines)   when: \(p.when.isEmpty ? "always" : p.when.map(\.description).joined(separator: " and "))   source: \(p.source)"
        }
    }
}
