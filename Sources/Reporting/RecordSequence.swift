import Payloads
import Records

/// A structured-append sequence whose parts a record's codes hold (`JoinedSequence`, joined as
/// zxing-cpp joins them): the parts stay in `codes`, the joined payload is here. `parts` are the
/// indices found; `codes` the positions of those codes in the record's `codes`.
public struct RecordSequence: Sendable, Equatable, Codable {
    public var symbology: Symbology
    public var id: String
    public var count: Int
    public var parts: [Int]
    public var codes: [Int]
    public var complete: Bool
    public var bytes: [UInt8]

    enum CodingKeys: String, CodingKey { case symbology, id, count, parts, codes, complete, text, bytes = "bytes_b64", encoding }

    public init(_ joined: JoinedSequence) {
        symbology = joined.symbology; id = joined.id; count = joined.count
        parts = joined.parts.map(\.index); codes = joined.parts.map(\.code); complete = joined.complete; bytes = joined.bytes
    }

    /// The sequences among one record's codes.
    public static func within(_ codes: [DetectedCode]) -> [RecordSequence] {
        JoinedSequence.join(codes.map { ("", $0) }).map(RecordSequence.init)
    }

    public func encode(to encoder: any Encoder) throws {
        let style = RecordStyle.of(encoder)
        let decoded = PayloadText.decode(bytes, eci: nil, forcedCharset: style.charset)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(symbology.rawValue, forKey: .symbology)
        try c.encode(id, forKey: .id)
        try c.encode(count, forKey: .count)
        try c.encode(parts, forKey: .parts)
        try c.encode(codes, forKey: .codes)
        try c.encode(complete, forKey: .complete)
        if let text = decoded.text { try c.encode(text, forKey: .text) } else { try c.encodeNil(forKey: .text) }
        try c.encode(Base64.encode(bytes), forKey: .bytes)
        try c.encode(decoded.encoding, forKey: .encoding)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .symbology)
        guard let s = Symbology(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .symbology, in: c, debugDescription: "unknown symbology '\(name)'")
        }
        symbology = s
        id = try c.decode(String.self, forKey: .id)
        count = try c.decode(Int.self, forKey: .count)
        parts = try c.decode([Int].self, forKey: .parts)
        codes = try c.decode([Int].self, forKey: .codes)
        complete = try c.decode(Bool.self, forKey: .complete)
        bytes = try c.decode(Base64Bytes.self, forKey: .bytes).bytes
    }
}
