import Imaging
import Records

/// Options that shape what a scan reports (a plain value, like zxing-cpp's ReaderOptions).
public struct ReaderOptions: Sendable, Equatable, Codable {
    public var symbologies: SymbologySet
    public var plan: ScanPlan
    /// Region of interest as fractions of the upright image; nil = whole image.
    public var roi: FractionalRect?
    /// Linear codes read on fewer scan lines than this are dropped (ZBar's quality 1 reads on
    /// photo noise are false).
    public var minLinearQuality: Int
    /// Minimum length of an Interleaved 2 of 5 payload, for every reader (ZBar reads fragments of
    /// long ITF codes). nil: each reader's own rule, as their command-line tools read: ZBar 6
    /// digits (`zbarMinITFLength`); zxing-cpp 6, or 4 for a code alone on its line (no other bars
    /// left or right of it: a crop or label of the code alone; zxing-cpp's `ITFReader`).
    public var minITFLength: Int?
    /// ZBar's minimum ITF length (its `min-length` setting): the one given, or 6.
    public var zbarMinITFLength: Int { minITFLength ?? 6 }
    /// Keep the read's plain ZBar decodes beside its codes (the engine's `ReadResult.log`), for a
    /// caller that decodes the same pixels again: generate's grading of a code drawn with its
    /// quiet zone decodes the frame the plan's first pass decoded.
    public var keepsDecodeLog = false
    /// Readers not run (a worker reads a file again without the reader that died on it); the
    /// passes that name one are skipped.
    public var leftOut: Set<ReaderName> = []

    /// What ZBar is asked for: the chosen symbologies, plus the EAN codes add-ons are paired
    /// with when add-ons are chosen and paired (those hosts are reported only if chosen themselves).
    public var scanned: SymbologySet {
        plan.settings.pairsAddOns && symbologies.members.contains(where: \.isAddOn)
            ? SymbologySet(symbologies.members.union(Symbology.addOnHostsToScan)) : symbologies
    }

    public init(
        symbologies: SymbologySet = .standard, effort: Effort = .normal, roi: FractionalRect? = nil,
        minLinearQuality: Int = 2, minITFLength: Int? = nil
    ) {
        self.symbologies = symbologies
        self.plan = ScanPlan.forEffort(effort)
        self.roi = roi
        self.minLinearQuality = minLinearQuality
        self.minITFLength = minITFLength
    }
}

extension ReaderOptions {
    /// One plain look of the symbology's own decoder (ZBar, or zxing-cpp for Data Matrix, PDF417
    /// and Aztec) at the image as it is, like a phone's single look: one pass, no view made, no
    /// thin-strip padding, no smallest view, every read kept (no quality floor, nothing held for
    /// confirmation, an add-on not paired), no QR details. `check`'s grading decodes with it.
    public static func plainLook(_ symbology: Symbology) -> ReaderOptions {
        var settings = PlanSettings()
        settings.thinBelow = 0
        settings.minViewSide = 0
        settings.linearConfirmSymbologies = []
        settings.pairsAddOns = false
        settings.qrDetails = false
        var options = ReaderOptions(symbologies: SymbologySet([symbology]), minLinearQuality: 0)
        options.plan = ScanPlan(effort: .normal, passes: [ScanPass("plain-look", [], reader: symbology.reader)], settings: settings)
        return options
    }
}
