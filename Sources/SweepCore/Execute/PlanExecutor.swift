import Imaging
import Readers
import Records

/// Runs a scan plan over one upright frame and merges what the passes find: the readers and the
/// callbacks, kept across frames; each `scan` makes the frame's passes afresh (`FrameScan`).
package struct PlanExecutor {
    package let options: ReaderOptions
    /// The readers of views the plan's passes name (`ScanPass.decoder`): a pass whose reader is
    /// not in the list is skipped.
    package var readers: [ViewReader]
    var settings: PlanSettings { options.plan.settings }
    /// Called after each pass that ran (and once for the cheap look and the locator) with a one-line
    /// summary: pass name, milliseconds, symbols accepted. For tuning the plan (`CODESWEEP_TRACE=1`).
    package var trace: (@Sendable (String) -> Void)?
    /// Called before each pass of an isolated reader (`ViewReader.isolated`: zxing-cpp) reads, with
    /// the codes found so far (as `scan` returns them): a worker sends them on before it reads.
    package var beforeIsolatedReader: (([DetectedCode]) -> Void)?
    /// Called with the reader and its reason when a reader failed on a view (read nothing
    /// because of a caught exception or abort): the record names the reader.
    package var failed: ((ReaderName, String) -> Void)?
    /// Called with a warning for the file's record: a limit of the plan reached (the located
    /// codes kept), so the record says that codes may be missing.
    package var warn: ((String) -> Void)?

    package init(options: ReaderOptions, readers: [ViewReader]) {
        self.options = options
        self.readers = readers
    }

    /// One reader named ZBar, reading what ZBar reads, with `decode` (the tests' recording and
    /// scripted decoders).
    package init(options: ReaderOptions, decode: @escaping SymbolDecoder) {
        let zbar = Set(Symbology.allCases.filter { $0.reader == .zbar })
        self.init(options: options, readers: [ViewReader(name: .zbar, symbologies: zbar, confirmsWeakReads: true, decode: decode)])
    }

    /// The reader named `engine`, if the list has it.
    func reader(_ engine: ReaderName) -> ViewReader? { readers.first { $0.name == engine } }

    /// Scans one upright frame.
    /// - Parameters:
    ///   - frame: the frame as decoded, possibly reduced: `scale` is its size relative to full
    ///     resolution (JPEGs are decoded DCT-scaled when the cheap passes need no more).
    ///   - fullResolution: decodes the frame at full resolution; called at most once, and only
    ///     when a pass needs more resolution than `frame` has. Corners are always reported in
    ///     full-resolution pixels.
    package func scan(
        _ frame: LumaImage, frameIndex: Int = 0, scale: Double = 1,
        fullResolution: (() -> LumaImage?)? = nil
    ) -> [DetectedCode] {
        guard let views = FrameViews(frame, scale: scale, fullResolution: fullResolution, options: options) else { return [] }
        let (passes, digital) = passes(for: views.base, scale: scale)
        let run = FrameScan(self, frame: views, frameIndex: frameIndex, digital: digital)
        for pass in passes { run.run(pass) }
        return run.codes()
    }

    /// The frame decides its path: a clean digital frame takes the plan's digital passes (when
    /// it has them), a photo or a scan its other passes.
    /// Returns the passes and whether the frame is digital.
    func passes(for base: LumaImage, scale: Double) -> (passes: [ScanPass], digital: Bool) {
        // A frame decoded reduced (a big JPEG, DCT-scaled) is a photo: the reduction smooths the
        // noise the test looks for (12 BoofCV photos looked drawn at half size).
        guard !options.plan.digital.isEmpty, scale > 0.999 else { return (options.plan.passes, false) }
        let start = ContinuousClock.now
        let clean = DigitalFrame.cleanShare(base)
        let digital = clean >= DigitalFrame.minCleanShare
        trace?("frame ms=\(ms(since: start)) clean-tiles=\(NumberText.trimmed(clean, decimals: 3)) digital=\(digital)")
        return digital ? (options.plan.digital, true) : (options.plan.passes, false)
    }

    /// The codes as `scan` returns them: the symbologies asked for, add-ons paired.
    func reported(_ codes: [DetectedCode]) -> [DetectedCode] {
        let wanted = options.symbologies.members
        return paired(codes).filter { wanted.contains($0.symbology) }
    }

    /// The codes with every add-on that has no host beside it removed (unless the plan keeps them alone).
    func paired(_ codes: [DetectedCode]) -> [DetectedCode] {
        settings.pairsAddOns ? AddOnPairing.pairing(codes) : codes
    }
}

/// Whole milliseconds since `start`, for the trace.
func ms(since start: ContinuousClock.Instant) -> Int { Int(start.duration(to: .now).milliseconds) }
