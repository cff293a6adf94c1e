import DocumentBridge
import Imaging
import MagickBridge
import Records
import SweepCore

/// Everything that decides how one file is scanned.
public struct ScanSettings: Sendable, Equatable, Codable {
    public var reader = ReaderOptions()
    public var limits = LoadLimits()
    /// Files larger than this are not read (kind "too_large").
    public var maxFileBytes = 1 << 30
    /// Add per-stage timings to each record.
    public var timings = false
    /// Digests to add to each record (computed from the bytes already read for decoding).
    public var hashes: [HashAlgorithm] = []
    /// Address space a worker process may add to what it holds at start, in MiB (setrlimit
    /// RLIMIT_AS), whatever a decoder does; 0: no limit. Only with worker processes.
    public var memoryLimitMiB = 1024
    /// Measure each code found with the sweep's `CodeGrader` (`check`), on the full-resolution
    /// frame it was read in: the same bytes, limits and worker as the scan.
    public var grade = false
    /// Pages, resolutions and pixel budgets of documents (PDF, SVG).
    public var documents = DocumentLimits()
    /// Whether and how containers' members are read (archives, packages, mail).
    public var containers = ContainerSettings()
    /// Whether and how videos are read.
    public var videos = VideoSettings()
    public init() {}
}

/// Measures a code where it was found, for `check` (AssetCheck provides it; the engine only
/// calls it). Its result travels beside the codes as JSON (`FileRecord.measurements`).
public struct CodeGrader: Sendable {
    public let measure: @Sendable (DetectedCode, LumaImage) -> JSONValue
    public init(measure: @escaping @Sendable (DetectedCode, LumaImage) -> JSONValue) { self.measure = measure }
}
