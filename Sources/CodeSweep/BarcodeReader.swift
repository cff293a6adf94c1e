import Imaging
import Readers
import Records
import SweepCore
import Synchronization
import ZBarBridge
import ZXingBridge

#if canImport(Glibc)
import Glibc
#endif

/// One frame to read, as zxing-cpp's `ImageView`: the upright pixels, where they sit in the
/// file, and how to get more of them. Built and read inside one task.
public struct ReadFrame {
    public var image: LumaImage
    /// Index of the frame or page in its file (0 for single images).
    public var index: Int
    /// The image's size relative to full resolution (a JPEG decoded DCT-scaled: 1/2, 1/4, 1/8).
    public var scale: Double
    /// Decodes the frame at full resolution; called at most once, only when a pass needs more
    /// resolution than `image` has.
    public var fullResolution: (() -> LumaImage?)?
    /// Called with the codes found so far before each second-decoder (zxing-cpp) pass: a worker
    /// sends them on, so a crash or hang inside that decoder loses none of ZBar's codes.
    public var beforeIsolatedReader: (([DetectedCode]) -> Void)?
    /// Plain ZBar decodes made earlier (another read's `ReadResult.log`): a decode of exactly the
    /// same pixels with the same settings takes its answer from here. ZBar makes a new scanner
    /// for every call, so the same pixels and settings give the same symbols.
    public var reusing: DecodeLog?

    public init(
        _ image: LumaImage, index: Int = 0, scale: Double = 1, fullResolution: (() -> LumaImage?)? = nil,
        beforeIsolatedReader: (([DetectedCode]) -> Void)? = nil, reusing: DecodeLog? = nil
    ) {
        self.image = image; self.index = index; self.scale = scale; self.fullResolution = fullResolution
        self.beforeIsolatedReader = beforeIsolatedReader; self.reusing = reusing
    }
}

/// What one read found: the codes, what the isolated reader reported beside them, and (when
/// asked for) the plain ZBar decodes it made.
public struct ReadResult: Sendable {
    /// In upright full-resolution coordinates.
    public var codes: [DetectedCode]
    /// The readers' failures (a caught abort), each once, for the record's warnings.
    public var readerFailures: [String]
    /// The readers that failed (`ReaderName` names), each once: the record's `failed_decoder`.
    public var failedReaders: [String] = []
    /// The read's plain ZBar decodes; nil unless `ReaderOptions.keepsDecodeLog`.
    public var log: DecodeLog?
    /// Warnings for the record: a limit of the plan reached (codes may be missing).
    public var warnings: [String]
    public init(codes: [DetectedCode] = [], readerFailures: [String] = [], log: DecodeLog? = nil, warnings: [String] = []) {
        self.codes = codes; self.readerFailures = readerFailures; self.log = log; self.warnings = warnings
    }
}

/// The engine's heart: an upright luma frame and options in, the codes in it out.
public enum BarcodeReader {
    /// `CODESWEEP_TRACE=1` prints one line per pass run (name, milliseconds, reads) to stderr,
    /// for tuning the scan plan with the recall benchmark.
    static let tracing = getenv("CODESWEEP_TRACE") != nil

    /// One trace line to stderr (`CODESWEEP_TRACE=1`), written whole; made only when tracing.
    @Sendable static func trace(_ line: @autoclosure () -> String) {
        guard tracing else { return }
        let text = Array("trace \(line())\n".utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The decoders' library versions ("0.23.92", "1.4.0").
    public static var zbarVersion: String { ZBarDecoder.version }
    public static var zxingVersion: String { ZXingDecoder.version }

    /// The readers of views, as the plan's passes name them: ZBar (each decode taken from
    /// `reusing` when it holds it, and handed to `log`), and zxing-cpp (a C++ library that may
    /// abort: isolated, its failures reported). A new reader is one more entry here and its
    /// name in `ReaderName`.
    package static func viewReaders(
        _ config: ZBarDecoder.Config = ZBarDecoder.Config(), reusing earlier: DecodeLog? = nil, log: ((DecodeLog.Entry) -> Void)? = nil
    ) -> [ViewReader] {
        [ZBarDecoder.viewReader(config, reusing: earlier, log: log), ZXingDecoder.viewReader()]
    }

    /// Makes every read of this process use `adapt(readers)` instead of the readers above: set
    /// once, before the first read, by a program built on the library. The shipped tool sets
    /// none; the tests' fault-injecting build of the commands (Tests/FaultInjectingCLI) wraps them
    /// in readers that abort, crash, hang or eat memory on a frame of a chosen size, to test what
    /// survives such a failure.
    package static func adaptReaders(_ adapt: @escaping @Sendable ([ViewReader]) -> [ViewReader]) {
        adaptation.withLock { $0 = adapt }
    }

    private static let adaptation = Mutex<(@Sendable ([ViewReader]) -> [ViewReader])?>(nil)

    /// The readers that may crash or hang (`ViewReader.isolated`): a worker that dies inside one
    /// of them reads the file again without them.
    package static let isolatedReaders: [ReaderName] = viewReaders().filter(\.isolated).map(\.name)

    /// Reads one frame: the scan plan (`PlanExecutor`) with ZBar and, for the passes that ask
    /// for it, zxing-cpp.
    public static func read(_ frame: ReadFrame, _ options: ReaderOptions = ReaderOptions()) -> ReadResult {
        // The decoders report into these while the plan runs; they live only inside this call.
        final class Notes {
            var failures: [String] = []
            var failedReaders: [String] = []
            var warnings: [String] = []
            var log: DecodeLog?
        }
        let notes = Notes()
        if options.keepsDecodeLog { notes.log = DecodeLog() }
        let config = ZBarDecoder.Config(minITFLength: Int32(options.zbarMinITFLength))
        let earlier = frame.reusing
        let log: ((DecodeLog.Entry) -> Void)? = notes.log == nil ? nil : { notes.log?.entries.append($0) }
        var readers = viewReaders(config, reusing: earlier, log: log)
        if let adapt = adaptation.withLock({ $0 }) { readers = adapt(readers) }
        readers.removeAll { options.leftOut.contains($0.name) }
        var executor = PlanExecutor(options: options, readers: readers)
        executor.failed = { engine, failure in
            if !notes.failures.contains(failure) { notes.failures.append(failure) }
            if !notes.failedReaders.contains(engine.rawValue) { notes.failedReaders.append(engine.rawValue) }
        }
        executor.beforeIsolatedReader = frame.beforeIsolatedReader
        executor.warn = { notes.warnings.append($0) }
        if tracing { executor.trace = { trace($0) } }
        let codes = executor.scan(frame.image, frameIndex: frame.index, scale: frame.scale, fullResolution: frame.fullResolution)
        var result = ReadResult(codes: codes, readerFailures: notes.failures, log: notes.log, warnings: notes.warnings)
        result.failedReaders = notes.failedReaders
        return result
    }
}
