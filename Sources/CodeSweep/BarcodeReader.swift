import SweepCore
import ZBarBridge
import ZXingBridge
#if canImport(Glibc)
import Glibc
#endif

/// The engine's heart: an upright luma image and options in, the codes in it out.
public enum BarcodeReader {
    /// `CODESWEEP_TRACE=1` prints one line per pass run (name, milliseconds, reads) to stderr,
    /// for tuning the scan plan with the recall benchmark.
    static let tracing = getenv("CODESWEEP_TRACE") != nil

    /// What the second decoder reported beside its codes while one file was read: its
    /// failures (a caught abort), for the record's warnings. Lives inside one scanning task.
    public final class SecondDecoderNotes {
        public private(set) var failures: [String] = []
        public init() {}
        func add(_ failure: String) { if !failures.contains(failure) { failures.append(failure) } }
    }

    /// The plain ZBar decodes one read made: the view, what was asked and what ZBar returned.
    /// A caller that decodes the same pixels again with the same settings (generate's grading
    /// decodes the code's region, which for a code drawn with its quiet zone is the frame the
    /// plan's first pass decoded) takes the answer from here: ZBar makes a new scanner for every
    /// call, so the same pixels and settings give the same symbols. Lives inside one task.
    public final class DecodeLog {
        struct Entry {
            var image: LumaImage
            var symbologies: Set<Symbology>
            var config: ZBarDecoder.Config
            var symbols: [RawSymbol]
        }
        var entries: [Entry] = []
        public init() {}
        func add(_ image: LumaImage, _ symbologies: Set<Symbology>, _ config: ZBarDecoder.Config, _ symbols: [RawSymbol]) {
            entries.append(Entry(image: image, symbologies: symbologies, config: config, symbols: symbols))
        }
        /// What `ZBarDecoder.decode(image, symbologies:, config:)` returned during the read for
        /// exactly these pixels and settings; nil when the read made no such call.
        public func zbar(_ image: LumaImage, symbologies: Set<Symbology>, config: ZBarDecoder.Config = ZBarDecoder.Config()) -> [RawSymbol]? {
            entries.first { $0.symbologies == symbologies && $0.config == config && $0.image == image }?.symbols
        }
    }

    /// One trace line to stderr (`CODESWEEP_TRACE=1`), written whole.
    @Sendable static func trace(_ line: String) {
        guard tracing else { return }
        let text = Array("trace \(line)\n".utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The decoders' library versions ("0.23.92", "1.4.0").
    public static var zbarVersion: String { ZBarDecoder.version }
    public static var zxingVersion: String { ZXingDecoder.version }

    public static func read(_ image: LumaImage, options: ReaderOptions = ReaderOptions(), frame: Int = 0,
                            scale: Double = 1, fullResolution: (() -> LumaImage?)? = nil) -> [DetectedCode] {
        read(image, options: options, frame: frame, scale: scale, fullResolution: fullResolution, notes: nil, beforeSecondDecoder: nil)
    }

    /// As `read`, keeping its plain ZBar decodes in `log`.
    public static func read(_ image: LumaImage, options: ReaderOptions, log: DecodeLog) -> [DetectedCode] {
        read(image, options: options, frame: 0, scale: 1, fullResolution: nil, notes: nil, beforeSecondDecoder: nil, log: log)
    }

    /// As `read`, and: the second decoder's failures go to `notes`; `beforeSecondDecoder` is
    /// called with the codes found so far before each second-decoder pass (a worker sends them).
    public static func read(_ image: LumaImage, options: ReaderOptions, frame: Int, scale: Double,
                            fullResolution: (() -> LumaImage?)?, notes: SecondDecoderNotes?,
                            beforeSecondDecoder: (([DetectedCode]) -> Void)?, log: DecodeLog? = nil) -> [DetectedCode] {
        let config = ZBarDecoder.Config(minITFLength: Int32(options.minITFLength))
        var executor = PlanExecutor(options: options) { img, symbols in
            let found = ZBarDecoder.decode(img, symbologies: symbols, config: config)
            log?.add(img, symbols, config, found)
            return found
        }
        executor.secondDecode = { img, symbols in
            let outcome = ZXingDecoder.decode(img, symbologies: symbols)
            if let failure = outcome.failure { notes?.add(failure) }
            return outcome.symbols
        }
        executor.beforeSecondDecoder = beforeSecondDecoder
        if tracing { executor.trace = { trace($0) } }
        return executor.scan(image, frameIndex: frame, scale: scale, fullResolution: fullResolution)
    }
}
