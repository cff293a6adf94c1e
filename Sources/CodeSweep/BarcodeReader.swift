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

    /// The decoders' library versions ("0.23.92", "1.4.0").
    public static var zbarVersion: String { ZBarDecoder.version }
    public static var zxingVersion: String { ZXingDecoder.version }

    public static func read(_ image: LumaImage, options: ReaderOptions = ReaderOptions(), frame: Int = 0,
                            scale: Double = 1, fullResolution: (() -> LumaImage?)? = nil) -> [DetectedCode] {
        read(image, options: options, frame: frame, scale: scale, fullResolution: fullResolution, notes: nil, beforeSecondDecoder: nil)
    }

    /// As `read`, and: the second decoder's failures go to `notes`; `beforeSecondDecoder` is
    /// called with the codes found so far before each second-decoder pass (a worker sends them).
    public static func read(_ image: LumaImage, options: ReaderOptions, frame: Int, scale: Double,
                            fullResolution: (() -> LumaImage?)?, notes: SecondDecoderNotes?,
                            beforeSecondDecoder: (([DetectedCode]) -> Void)?) -> [DetectedCode] {
        let config = ZBarDecoder.Config(minITFLength: Int32(options.minITFLength))
        var executor = PlanExecutor(options: options) { img, symbols in
            ZBarDecoder.decode(img, symbologies: symbols, config: config)
        }
        executor.secondDecode = { img, symbols in
            let outcome = ZXingDecoder.decode(img, symbologies: symbols)
            if let failure = outcome.failure { notes?.add(failure) }
            return outcome.symbols
        }
        executor.beforeSecondDecoder = beforeSecondDecoder
        if tracing {
            executor.trace = { line in
                let text = Array("trace \(line)\n".utf8)
                _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            }
        }
        return executor.scan(image, frameIndex: frame, scale: scale, fullResolution: fullResolution)
    }
}
