import Payloads

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
    /// Where the time went, in milliseconds (only with --timings): read, hash, decode, scan, full_decode.
    public var timings: [(String, Double)]?
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

extension DetectedCode {
    public func json(forcedCharset: String? = nil) -> JSONValue {
        let decoded = PayloadText.decode(bytes, eci: qr?.eci, forcedCharset: forcedCharset)
        return .object([
            ("symbology", .string(symbology.rawValue)),
            ("text", decoded.text.map(JSONValue.string) ?? .null),
            ("bytes_b64", .string(Base64.encode(bytes))),
            ("encoding", .string(decoded.encoding)),
            ("corners", .array(corners.points.map { .array([.double(($0.x * 10).rounded() / 10), .double(($0.y * 10).rounded() / 10)]) })),
            ("frame", .int(frame)),
            ("quality", .int(quality)),
            ("pass", .string(pass)),
            ("details", detailsJSON),
        ])
    }

    /// ZBar's orientation as a word (nil when ZBar did not say).
    public static let orientationNames = ["up", "right", "down", "left"]

    /// What the decoder tells about the code beyond its data: the AIM symbology identifier,
    /// ZBar's orientation (which way the code's top faces in the upright image) and, where the
    /// symbology decides it, whether the data is GS1; for a QR code the grid decoder read or
    /// checked, its version, error correction level, mask, mirroring and ECI.
    public var detailsJSON: JSONValue {
        var f: [(String, JSONValue)] = []
        if let id = symbologyID { f.append(("symbology_id", .string(id))) }
        if (0...3).contains(orientation) { f.append(("orientation", .string(Self.orientationNames[orientation]))) }
        if let gs1 = isGS1 { f.append(("gs1", .bool(gs1))) }
        if symbology.engine != .zbar { f.append(("decoder", .string(symbology.engine.rawValue))) }
        if let q = qr {
            f += [("version", .int(q.version)), ("ec_level", .string(q.ecLevel)), ("mask", .int(q.mask)), ("mirrored", .bool(q.mirrored))]
            if let eci = q.eci { f.append(("eci", .int(eci))) }
        }
        return .object(f)
    }
}

extension FileRecord {
    /// The record as documented in the README (field names are stable).
    public func json(forcedCharset: String? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [("path", .string(path))]
        if !pathIsValidUTF8 { fields.append(("path_b64", .string(Base64.encode(pathBytes)))) }
        fields.append(("status", .string(status)))
        if let format { fields.append(("format", .string(format.rawValue))) }
        if let width { fields.append(("width", .int(width))) }
        if let height { fields.append(("height", .int(height))) }
        if let orientation { fields.append(("orientation", .int(orientation))) }
        if let frames { fields.append(("frames", .int(frames))) }
        if !pages.isEmpty { fields.append(("pages", .array(pages.map(\.json)))) }
        fields.append(("codes", .array(codes.map { $0.json(forcedCharset: forcedCharset) })))
        if let error {
            fields.append(("error", .object([("kind", .string(error.kind.rawValue)), ("message", .string(error.message))])))
        }
        if !warnings.isEmpty { fields.append(("warnings", .array(warnings.map(JSONValue.string)))) }
        if let failedDecoder { fields.append(("failed_decoder", .string(failedDecoder))) }
        if let size { fields.append(("size", .int(size))) }
        if let mtime { fields.append(("mtime", .double((mtime * 1000).rounded() / 1000))) }
        if let hashes, !hashes.isEmpty {
            fields.append(("hashes", .object(hashes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        if let metadata, !metadata.isEmpty { fields.append(("metadata", metadata.json)) }
        if let timings { fields.append(("timings_ms", .object(timings.map { ($0.0, .double(($0.1 * 10).rounded() / 10)) }))) }
        return .object(fields)
    }
}

extension FileRecord: Equatable {
    public static func == (l: FileRecord, r: FileRecord) -> Bool {
        l.path == r.path && l.pathBytes == r.pathBytes && l.format == r.format && l.width == r.width && l.height == r.height
            && l.orientation == r.orientation && l.frames == r.frames && l.pages == r.pages && l.codes == r.codes && l.error == r.error
            && l.warnings == r.warnings && l.failedDecoder == r.failedDecoder && l.size == r.size && l.mtime == r.mtime
            && l.hashes == r.hashes && l.metadata == r.metadata && l.measurements == r.measurements
    }
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

    public var json: JSONValue {
        var f: [(String, JSONValue)] = []
        if let captureTime { f.append(("capture_time", .string(captureTime))) }
        if let cameraMake { f.append(("camera_make", .string(cameraMake))) }
        if let cameraModel { f.append(("camera_model", .string(cameraModel))) }
        if let gps { f.append(("gps", gps.json)) }
        if let software { f.append(("software", .string(software))) }
        return .object(f)
    }
}

/// A GPS fix in signed decimal degrees (south and west negative); altitude in metres, negative below sea level.
public struct GPSPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
    }

    public var json: JSONValue {
        var f: [(String, JSONValue)] = [("lat", .double(latitude)), ("lon", .double(longitude))]
        if let altitude { f.append(("alt", .double(altitude))) }
        return .object(f)
    }
}
