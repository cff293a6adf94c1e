/// The result for one file: the unit every reporter writes. Values only: its public JSON
/// shape (docs/schema/record.schema.json), the field names and their order, is Reporting's
/// (`FileRecordCoding.swift`), and a field added here is also added there and to the schema
/// (`RecordSchemaTests` fails otherwise).
public struct FileRecord: Sendable, Equatable {
    /// As the user would write it (relative to the argument given). Lossy if the name is not UTF-8.
    public var path: String
    /// The exact bytes of a path that is not valid UTF-8 (`pathBytes`); nil when `path` is exact.
    package var exactPath: [UInt8]?
    /// For an item expanded from a container: its chain of members from the walked file
    /// (`path`) inward; empty for the walked file's own record. A file's own record comes after
    /// its members' and marks it complete (`--resume`, `merge`).
    public var member: [MemberLink] = []
    /// "ok", or "error" when `error` is set (kept in step with it).
    public package(set) var status = RecordStatus.ok
    public var format: ImageFormat?
    /// Upright dimensions (after EXIF orientation) of the first frame.
    public var width: Int?
    public var height: Int?
    /// EXIF orientation tag as stored (1...8); 1 when absent.
    public var orientation: Int?
    public var frames: Int?
    /// A container's (archive, package, mail) count of its members; nil for anything else.
    public var container: ContainerSummary?
    /// A video's facts and how it was read; nil for anything else.
    public var video: VideoSummary?
    /// A document's pages as rendered (PDF, SVG), one per page read, in page order: a code's
    /// `frame` is its page's index and its corners are in that page's rendering's pixels.
    public var pages: [PageRender] = []
    public var codes: [DetectedCode] = []
    /// Structured-append sequences whose parts `codes` holds, joined (`RecordSequence.within`).
    public var sequences: [RecordSequence] = []
    public var error: RecordError? { didSet { status = error == nil ? .ok : .error } }
    public var warnings: [String] = []
    /// A decoder that failed on this file (crashed, aborted or hung) while the others' codes
    /// were kept: "zxing-cpp" (the isolated reader); nil when none failed.
    public var failedDecoder: String?
    public var size: Int?
    /// Modification time, seconds since 1970 (fractional), printed to the millisecond.
    public var mtime: Double?
    /// Digests of the file's bytes (only with --hash), by algorithm name: lowercase hex
    /// (written in the order of the names).
    public var hashes: [String: String]?
    /// Provenance read from the image's EXIF/XMP (only the fields present).
    public var metadata: ImageMetadata?
    /// Where the time went, in milliseconds per stage (only with --timings).
    public var timings: RecordTimings?
    /// What the sweep's grader (`check`) measured of each code, index for index with `codes`;
    /// empty when the sweep does not grade. Beside the codes, not in them, and not part of the
    /// record's JSON (no key): `check` turns each into its scannability.
    package var measurements: [JSONValue?] = []

    /// The exact bytes of the path, kept to find the file again when it is not valid UTF-8.
    public var pathBytes: [UInt8] {
        get { exactPath ?? Array(path.utf8) }
        set { exactPath = String(validating: newValue, as: UTF8.self) == nil ? newValue : nil }
    }
    public var pathIsValidUTF8: Bool { exactPath == nil }

    public init(path: String, pathBytes: [UInt8]? = nil) {
        self.path = path
        if let pathBytes { self.pathBytes = pathBytes }
    }

    public static func failure(path: String, pathBytes: [UInt8]? = nil, _ error: RecordError) -> FileRecord {
        var r = FileRecord(path: path, pathBytes: pathBytes)
        r.error = error
        return r
    }
}

public enum RecordStatus: String, Sendable {
    case ok, error
}

/// Milliseconds per stage of one file's scan (`--timings`), each set when the stage ran.
/// Declared in the order `FileScanner` takes them, which is the order `timings_ms` lists them.
public struct RecordTimings: Sendable, Equatable {
    public var read: Double?
    /// Digesting the bytes (with --hash).
    public var hash: Double?
    /// Decoding the image to grey, possibly reduced.
    public var decode: Double?
    /// Decoding again at full resolution, when a pass needed it (counted in `scan` too).
    public var fullDecode: Double?
    /// Reading the codes (a document's rendering included).
    public var scan: Double?
    /// Grading the codes (`check`).
    public var grade: Double?

    public init() {}

    /// Every stage that ran, summed.
    public var sum: Double { [read, hash, decode, fullDecode, scan, grade].reduce(0) { $0 + ($1 ?? 0) } }
}
