/// Why a file could not be scanned. Raw values are the stable `error.kind` names.
public enum ErrorKind: String, Sendable, Codable, CaseIterable {
    case notFound = "not_found"
    case unreadable = "unreadable"
    case empty = "empty"
    case notImage = "not_image"
    case corrupt = "corrupt"
    /// A PDF that opens only with a user password (one with only an owner password is read).
    case encrypted = "encrypted"
    case truncated = "truncated"
    case tooLarge = "too_large"
    case notRegularFile = "not_regular_file"
    case timeout = "timeout"
    case crash = "crash"
    case internalError = "internal"
}

public struct RecordError: Sendable, Equatable, Error {
    public var kind: ErrorKind
    public var message: String
    public init(_ kind: ErrorKind, _ message: String) { self.kind = kind; self.message = message }
}

/// The result for one file: the unit every reporter writes.
public struct FileRecord: Sendable {
    /// As the user would write it (relative to the argument given). Lossy if the name is not UTF-8.
    public var path: String
    /// The exact bytes of the path, kept to find the file again when it is not valid UTF-8.
    public var pathBytes: [UInt8]
    public var format: ImageFormat?
    /// Upright dimensions (after EXIF orientation) of the first frame.
    public var width: Int?
    public var height: Int?
    /// EXIF orientation tag as stored (1...8); 1 when absent.
    public var orientation: Int?
    public var frames: Int?
    /// A document's pages as rendered (PDF, SVG), one per page read, in page order: a code's
    /// `frame` is its page's index and its corners are in that page's rendering's pixels.
    public var pages: [PageRender] = []
    public var codes: [DetectedCode]
    public var error: RecordError?
    public var warnings: [String]
    /// A decoder that failed on this file (crashed, aborted or hung) while the others' codes
    /// were kept: "zxing-cpp" (the second decoder); nil when none failed.
    public var failedDecoder: String?
    public var size: Int?
    /// Modification time, seconds since 1970 (fractional).
    public var mtime: Double?
    /// Where the time went, in milliseconds per stage (only with --timings).
    public var timings: RecordTimings?
    /// Digests of the file's bytes (only with --hash), by algorithm name: lowercase hex.
    public var hashes: [String: String]?
    /// Provenance read from the image's EXIF/XMP (only the fields present).
    public var metadata: ImageMetadata?
    /// What the sweep's grader (`check`) measured of each code, index for index with `codes`;
    /// empty when the sweep does not grade. Beside the codes, not in them, and not part of the
    /// record's JSON: `check` turns each into its scannability.
    package var measurements: [JSONValue?] = []

    public var status: String { error == nil ? "ok" : "error" }
    public var pathIsValidUTF8: Bool { String(validating: pathBytes, as: UTF8.self) != nil }

    public init(path: String, pathBytes: [UInt8]? = nil) {
        self.path = path
        self.pathBytes = pathBytes ?? Array(path.utf8)
        codes = []
        warnings = []
    }

    public static func failure(path: String, pathBytes: [UInt8]? = nil, _ error: RecordError) -> FileRecord {
        var r = FileRecord(path: path, pathBytes: pathBytes)
        r.error = error
        return r
    }
}

extension FileRecord: Equatable {}

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

/// Where and when a photo was taken, and with what: the EXIF (or XMP) fields a sweep needs.
/// Every field is optional; a record carries only those the file has.
public struct ImageMetadata: Sendable, Equatable {
    /// DateTimeOriginal as ISO 8601 (`2023-07-14T10:32:05+02:00`), with the offset only when
    /// the file records one (OffsetTimeOriginal) and fractional seconds when SubSecTimeOriginal is set.
    public var captureTime: String?
    public var cameraMake: String?
    public var cameraModel: String?
    public var gps: GPSPosition?
    public var software: String?

    public init(
        captureTime: String? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        gps: GPSPosition? = nil, software: String? = nil
    ) {
        self.captureTime = captureTime; self.cameraMake = cameraMake; self.cameraModel = cameraModel
        self.gps = gps; self.software = software
    }

    public var isEmpty: Bool { captureTime == nil && cameraMake == nil && cameraModel == nil && gps == nil && software == nil }
}

/// A GPS fix in signed decimal degrees (south and west negative); altitude in metres, negative below sea level.
public struct GPSPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
    }
}
