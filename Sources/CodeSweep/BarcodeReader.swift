import SweepCore
import ZBarBridge
#if canImport(Glibc)
import Glibc
#endif

/// The engine's heart: an upright luma image and options in, the codes in it out.
public enum BarcodeReader {
    /// `CODESWEEP_TRACE=1` prints one line per pass run (name, milliseconds, reads) to stderr,
    /// for tuning the scan plan with the recall benchmark.
    static let tracing = getenv("CODESWEEP_TRACE") != nil

    public static func read(_ image: LumaImage, options: ReaderOptions = ReaderOptions(), frame: Int = 0,
                            scale: Double = 1, fullResolution: (() -> LumaImage?)? = nil) -> [DetectedCode] {
        let config = ZBarDecoder.Config(minITFLength: Int32(options.minITFLength))
        var executor = PlanExecutor(options: options) { img, symbols in
            ZBarDecoder.decode(img, symbologies: symbols, config: config)
        }
        if tracing {
            executor.trace = { line in
                let text = Array("trace \(line)\n".utf8)
                _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            }
        }
        return executor.scan(image, frameIndex: frame, scale: scale, fullResolution: fullResolution)
    }
}
