import FoundationEssentials

/// Reading JSON back (worker replies, resume files, reports, summaries) goes through
/// Foundation's `JSONDecoder`: strict RFC 8259 numbers, strings that must be valid UTF-8, no
/// trailing characters (a line cut short by a kill does not parse). Writing stays with
/// `JSONValue`, whose output keeps key order and escapes what `JSONEncoder` leaves raw.
public enum JSONReading {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(Failure) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw Failure(reason: describe(error))
        } catch {
            throw Failure(reason: "\(error)")
        }
    }

    /// Any JSON document as a `JSONValue` (object keys sorted: the text's order is not kept).
    public static func value(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        try decode(JSONValue.self, from: bytes)
    }

    public static func value(_ text: String) throws(Failure) -> JSONValue { try value(Array(text.utf8)) }

    static func describe(_ e: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch e {
        case .dataCorrupted(let c) where c.codingPath.isEmpty: return "invalid JSON"
        case .dataCorrupted(let c): return "bad value\(at(c.codingPath)): \(c.debugDescription)"
        case .keyNotFound(let k, let c): return "missing \"\(k.stringValue)\"\(at(c.codingPath))"
        case .typeMismatch(_, let c), .valueNotFound(_, let c): return "wrong type\(at(c.codingPath))"
        @unknown default: return "\(e)"
        }
    }
}

extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if var items = try? decoder.unkeyedContainer() {
            var out: [JSONValue] = []
            while !items.isAtEnd { out.append(try items.decode(JSONValue.self)) }
            self = .array(out)
            return
        }
        if let fields = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(
                try fields.allKeys.sorted { $0.stringValue < $1.stringValue }.map { ($0.stringValue, try fields.decode(JSONValue.self, forKey: $0)) })
            return
        }
        let one = try decoder.singleValueContainer()
        if one.decodeNil() {
            self = .null
        } else if let b = try? one.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? one.decode(Int.self) {
            self = .int(i)
        } else if let d = try? one.decode(Double.self) {
            self = .double(d)
        } else {
            self = .string(try one.decode(String.self))
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields.first { $0.0 == key }?.1 }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d): d == d.rounded() ? Int(exactly: d) : nil
        default: nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
}

/// Any key: for objects whose keys are data (hashes, timings, settings).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Base64 (RFC 4648, with padding) through Foundation.
public enum Base64 {
    public static func encode(_ bytes: some Collection<UInt8>) -> String { Data(bytes).base64EncodedString() }
    public static func decode(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map { Array($0) } }
}

extension KeyedDecodingContainer {
    /// Bytes stored as base64 text; a value that is not base64 is an error, not a silent nil.
    func decodeBase64(forKey key: Key) throws -> [UInt8] {
        let text = try decode(String.self, forKey: key)
        guard let bytes = Base64.decode(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not base64")
        }
        return bytes
    }
}

/// A record reads back from the form `FileRecord.json()` writes (the documented record).
extension FileRecord: Decodable {
    enum Field: String, CodingKey {
        case path, pathB64 = "path_b64", format, width, height, orientation, frames, pages, size, mtime, warnings
        case failedDecoder = "failed_decoder", hashes, metadata, timings = "timings_ms", error, codes
    }
    enum ErrorField: String, CodingKey { case kind, message }

    /// The order `FileScanner` measures its stages in; other names follow, sorted.
    static let timingOrder = ["read", "hash", "decode", "scan", "full_decode"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        let path = try c.decode(String.self, forKey: .path)
        self.init(path: path, pathBytes: c.contains(.pathB64) ? try c.decodeBase64(forKey: .pathB64) : Array(path.utf8))
        format = try c.decodeIfPresent(String.self, forKey: .format).flatMap(ImageFormat.init(rawValue:))
        width = try c.decodeIfPresent(Int.self, forKey: .width)
        height = try c.decodeIfPresent(Int.self, forKey: .height)
        orientation = try c.decodeIfPresent(Int.self, forKey: .orientation)
        frames = try c.decodeIfPresent(Int.self, forKey: .frames)
        pages = try c.decodeIfPresent([PageRender].self, forKey: .pages) ?? []
        size = try c.decodeIfPresent(Int.self, forKey: .size)
        mtime = try c.decodeIfPresent(Double.self, forKey: .mtime)
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
        failedDecoder = try c.decodeIfPresent(String.self, forKey: .failedDecoder)
        hashes = try c.decodeIfPresent([String: String].self, forKey: .hashes)
        metadata = try c.decodeIfPresent(ImageMetadata.self, forKey: .metadata)
        if let t = try c.decodeIfPresent([String: Double].self, forKey: .timings) {
            let rank = { (k: String) in Self.timingOrder.firstIndex(of: k) ?? Self.timingOrder.count }
            timings = t.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }.map { ($0.key, $0.value) }
        }
        if c.contains(.error) {
            let e = try c.nestedContainer(keyedBy: ErrorField.self, forKey: .error)
            error = RecordError(
                ErrorKind(rawValue: try e.decode(String.self, forKey: .kind)) ?? .internalError,
                try e.decodeIfPresent(String.self, forKey: .message) ?? "")
        }
        codes = try c.decodeIfPresent([DetectedCode].self, forKey: .codes) ?? []
    }
}

extension DetectedCode: Decodable {
    enum Field: String, CodingKey { case symbology, bytes = "bytes_b64", corners, quality, orientation, frame, pass, details }
    enum DetailField: String, CodingKey { case orientation, gs1, version, ecLevel = "ec_level", mask, mirrored, eci }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        let name = try c.decode(String.self, forKey: .symbology)
        guard let symbology = Symbology(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .symbology, in: c, debugDescription: "unknown symbology '\(name)'")
        }
        let corners = try c.decode([[Double]].self, forKey: .corners)
        guard corners.count == 4, corners.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(forKey: .corners, in: c, debugDescription: "four [x, y] corners expected")
        }
        let details = c.contains(.details) ? try c.nestedContainer(keyedBy: DetailField.self, forKey: .details) : nil
        let orientation = try details?.decodeIfPresent(String.self, forKey: .orientation).flatMap { Self.orientationNames.firstIndex(of: $0) }
        self.init(
            symbology: symbology, bytes: try c.decodeBase64(forKey: .bytes), corners: Quad(corners.map { Point(x: $0[0], y: $0[1]) }),
            quality: try c.decodeIfPresent(Int.self, forKey: .quality) ?? 0,
            orientation: try orientation ?? c.decodeIfPresent(Int.self, forKey: .orientation) ?? -1,
            frame: try c.decodeIfPresent(Int.self, forKey: .frame) ?? 0,
            pass: try c.decodeIfPresent(String.self, forKey: .pass) ?? "",
            gs1: symbology.engine == .zxing ? try details?.decodeIfPresent(Bool.self, forKey: .gs1) : nil)
        if let details, let version = try details.decodeIfPresent(Int.self, forKey: .version) {
            qr = QRDetails(
                version: version, ecLevel: try details.decode(String.self, forKey: .ecLevel),
                mask: try details.decode(Int.self, forKey: .mask), mirrored: try details.decode(Bool.self, forKey: .mirrored),
                eci: try details.decodeIfPresent(Int.self, forKey: .eci))
        }
    }
}

extension ImageMetadata: Decodable {
    enum Field: String, CodingKey { case captureTime = "capture_time", cameraMake = "camera_make", cameraModel = "camera_model", gps, software }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            captureTime: try c.decodeIfPresent(String.self, forKey: .captureTime),
            cameraMake: try c.decodeIfPresent(String.self, forKey: .cameraMake),
            cameraModel: try c.decodeIfPresent(String.self, forKey: .cameraModel),
            gps: try c.decodeIfPresent(GPSPosition.self, forKey: .gps),
            software: try c.decodeIfPresent(String.self, forKey: .software))
    }
}

extension GPSPosition: Decodable {
    enum Field: String, CodingKey { case lat, lon, alt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            latitude: try c.decode(Double.self, forKey: .lat), longitude: try c.decode(Double.self, forKey: .lon),
            altitude: try c.decodeIfPresent(Double.self, forKey: .alt))
    }
}

extension FileRecord {
    /// One record from its JSON text (a line of a jsonl report, a worker's reply).
    public static func read(json bytes: some Collection<UInt8>) throws(JSONReading.Failure) -> FileRecord {
        try JSONReading.decode(FileRecord.self, from: bytes)
    }
}
