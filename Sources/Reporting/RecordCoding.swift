import Payloads
import Records

/// The record's `Codable` conformance is its public JSON shape (docs/schema/record.schema.json):
/// the coding keys below are the one list of its fields, in output order. `encode(to:)` writes
/// what a report holds (numbers rounded, payload text decoded); `init(from:)` reads a report
/// back. A worker's reply encodes the same shape in `RecordStyle.exact` (numbers unrounded).
public struct RecordStyle: Sendable {
    /// Charset forced on payload text (`--charset`); nil: decided from the bytes and ECI.
    public var charset: String?
    /// Numbers as the engine holds them (the worker wire), not rounded as a report prints them.
    public var exact = false
    public init(charset: String? = nil, exact: Bool = false) { self.charset = charset; self.exact = exact }

    public static let key = CodingUserInfoKey(rawValue: "codesweep.record-style")!

    static func of(_ encoder: any Encoder) -> RecordStyle { encoder.userInfo[key] as? RecordStyle ?? RecordStyle() }

    /// `v` rounded to `decimals` places, as the report prints it (unless exact).
    func round(_ v: Double, _ decimals: Int) -> Double {
        if exact { return v }
        let scale = NumberText.pow10(decimals)
        return (v * scale).rounded() / scale
    }
}

extension FileRecord: Codable {
    package enum Field: String, CodingKey {
        case path, pathB64 = "path_b64", status, format, width, height, orientation, frames, pages, codes, error, warnings
        case failedDecoder = "failed_decoder", size, mtime, hashes, metadata, timings = "timings_ms"
    }

    public func encode(to encoder: any Encoder) throws {
        let style = RecordStyle.of(encoder)
        var c = encoder.container(keyedBy: Field.self)
        try c.encode(path, forKey: .path)
        if !pathIsValidUTF8 { try c.encode(Base64.encode(pathBytes), forKey: .pathB64) }
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(format?.rawValue, forKey: .format)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeIfPresent(orientation, forKey: .orientation)
        try c.encodeIfPresent(frames, forKey: .frames)
        if !pages.isEmpty { try c.encode(pages, forKey: .pages) }
        try c.encode(codes, forKey: .codes)
        try c.encodeIfPresent(error, forKey: .error)
        if !warnings.isEmpty { try c.encode(warnings, forKey: .warnings) }
        try c.encodeIfPresent(failedDecoder, forKey: .failedDecoder)
        try c.encodeIfPresent(size, forKey: .size)
        try c.encodeIfPresent(mtime.map { style.round($0, 3) }, forKey: .mtime)
        if let hashes, !hashes.isEmpty || style.exact {
            var h = c.nestedContainer(keyedBy: AnyKey.self, forKey: .hashes)
            for (name, digest) in hashes.sorted(by: { $0.key < $1.key }) { try h.encode(digest, forKey: AnyKey(stringValue: name)) }
        }
        if let metadata, !metadata.isEmpty || style.exact { try c.encode(metadata, forKey: .metadata) }
        try c.encodeIfPresent(timings, forKey: .timings)
    }

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
        codes = try c.decodeIfPresent([DetectedCode].self, forKey: .codes) ?? []
        error = try c.decodeIfPresent(RecordError.self, forKey: .error)
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
        failedDecoder = try c.decodeIfPresent(String.self, forKey: .failedDecoder)
        size = try c.decodeIfPresent(Int.self, forKey: .size)
        mtime = try c.decodeIfPresent(Double.self, forKey: .mtime)
        hashes = try c.decodeIfPresent([String: String].self, forKey: .hashes)
        metadata = try c.decodeIfPresent(ImageMetadata.self, forKey: .metadata)
        timings = try c.decodeIfPresent(RecordTimings.self, forKey: .timings)
    }

    /// The record as documented in the README (field names are stable).
    public func json(forcedCharset: String? = nil) -> JSONValue { RecordStyle(charset: forcedCharset).json(self) }
}

extension RecordStyle {
    /// A record value as a report writes it: through `JSONValueEncoder`, which cannot fail.
    func json(_ value: some Encodable) -> JSONValue {
        guard let v = try? JSONValueEncoder(userInfo: [Self.key: self]).encode(value) else { fatalError("a record did not encode") }
        return v
    }
}

extension RecordTimings: Codable {
    /// The stages, in output order; a name this version does not know is not read.
    enum Field: String, CodingKey, CaseIterable { case read, hash, decode, fullDecode = "full_decode", scan, grade }

    static func stage(_ f: Field) -> WritableKeyPath<Self, Double?> {
        switch f {
        case .read: \.read
        case .hash: \.hash
        case .decode: \.decode
        case .fullDecode: \.fullDecode
        case .scan: \.scan
        case .grade: \.grade
        }
    }

    public func encode(to encoder: any Encoder) throws {
        let style = RecordStyle.of(encoder)
        var c = encoder.container(keyedBy: Field.self)
        for f in Field.allCases { try c.encodeIfPresent(self[keyPath: Self.stage(f)].map { style.round($0, 1) }, forKey: f) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init()
        for f in Field.allCases { self[keyPath: Self.stage(f)] = try c.decodeIfPresent(Double.self, forKey: f) }
    }
}

extension PageRender: Codable {
    enum Field: String, CodingKey { case page, widthPoints = "width_pt", heightPoints = "height_pt", dpi, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            page: try c.decode(Int.self, forKey: .page), widthPoints: try c.decode(Double.self, forKey: .widthPoints),
            heightPoints: try c.decode(Double.self, forKey: .heightPoints), dpi: try c.decode(Double.self, forKey: .dpi),
            width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        let style = RecordStyle.of(encoder)
        try c.encode(page, forKey: .page); try c.encode(style.round(widthPoints, 2), forKey: .widthPoints)
        try c.encode(style.round(heightPoints, 2), forKey: .heightPoints); try c.encode(style.round(dpi, 2), forKey: .dpi)
        try c.encode(width, forKey: .width); try c.encode(height, forKey: .height)
    }
}

extension RecordError: Codable {
    package enum Field: String, CodingKey, CaseIterable { case kind, message }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(message, forKey: .message)
    }

    /// An unknown kind reads as `internal`, a missing message as empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            ErrorKind(rawValue: try c.decode(String.self, forKey: .kind)) ?? .internalError,
            try c.decodeIfPresent(String.self, forKey: .message) ?? "")
    }
}

extension ImageMetadata: Codable {
    enum Field: String, CodingKey { case captureTime = "capture_time", cameraMake = "camera_make", cameraModel = "camera_model", gps, software }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        try c.encodeIfPresent(captureTime, forKey: .captureTime)
        try c.encodeIfPresent(cameraMake, forKey: .cameraMake)
        try c.encodeIfPresent(cameraModel, forKey: .cameraModel)
        try c.encodeIfPresent(gps, forKey: .gps)
        try c.encodeIfPresent(software, forKey: .software)
    }

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

extension GPSPosition: Codable {
    enum Field: String, CodingKey { case lat, lon, alt }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        try c.encode(latitude, forKey: .lat)
        try c.encode(longitude, forKey: .lon)
        try c.encodeIfPresent(altitude, forKey: .alt)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            latitude: try c.decode(Double.self, forKey: .lat), longitude: try c.decode(Double.self, forKey: .lon),
            altitude: try c.decodeIfPresent(Double.self, forKey: .alt))
    }
}
