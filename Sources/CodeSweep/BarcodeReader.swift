import SweepCore
import ZBarBridge

/// The engine's heart: an upright luma image and options in, the codes in it out.
public enum BarcodeReader {
    public static func read(_ image: LumaImage, options: ReaderOptions = ReaderOptions(), frame: Int = 0,
                            scale: Double = 1, fullResolution: (() -> LumaImage?)? = nil) -> [DetectedCode] {
        let config = ZBarDecoder.Config(minITFLength: Int32(options.minITFLength))
        let executor = PlanExecutor(options: options) { img, symbols in
            ZBarDecoder.decode(img, symbologies: symbols, config: config)
        }
        return executor.scan(image, frameIndex: frame, scale: scale, fullResolution: fullResolution)
    }
}
