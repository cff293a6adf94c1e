import Payloads
import Records

/// How a record is written: a report's numbers rounded and payload text decoded, or the
/// worker wire's exact values. The record's fields are written in FileRecordCoding.swift; the
/// coding of the values in it (codes in CodeCoding.swift) is here.
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

extension FileRecord {
    /// The record as documented in docs/output.md (field names are stable).
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
    enum Field: String, CodingKey { case page, widthPoints = "width_pt", heightPoints = "height_pt", dpi, width, height, userUnit = "user_unit", unsized }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            page: try c.decode(Int.self, forKey: .page), widthPoints: try c.decode(Double.self, forKey: .widthPoints),
            heightPoints: try c.decode(Double.self, forKey: .heightPoints), dpi: try c.decode(Double.self, forKey: .dpi),
            width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height),
            userUnit: try c.decodeIfPresent(Double.self, forKey: .userUnit) ?? 1, unsized: try c.decodeIfPresent(Bool.self, forKey: .unsized) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        let style = RecordStyle.of(encoder)
        try c.encode(page, forKey: .page); try c.encode(style.round(widthPoints, 2), forKey: .widthPoints)
        try c.encode(style.round(heightPoints, 2), forKey: .heightPoints); try c.encode(style.round(dpi, 2), forKey: .dpi)
        try c.encode(width, forKey: .width); try c.encode(height, forKey: .height)
        if userUnit != 1 { try c.encode(style.round(userUnit, 6), forKey: .userUnit) }
        if unsized { try c.encode(true, forKey: .unsized) }
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
