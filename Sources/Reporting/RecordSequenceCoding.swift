import Payloads
import Records

/// A structured-append sequence's part of the record's JSON: its payload text decoded as a
/// code's is (with --charset), beside its bytes.
extension RecordSequence: Codable {
    package enum CodingKeys: String, CodingKey { case symbology, id, count, parts, codes, complete, text, bytes = "bytes_b64", encoding }

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
        self.init(
            symbology: s, id: try c.decode(String.self, forKey: .id), count: try c.decode(Int.self, forKey: .count),
            parts: try c.decode([Int].self, forKey: .parts), codes: try c.decode([Int].self, forKey: .codes),
            complete: try c.decode(Bool.self, forKey: .complete), bytes: try c.decode(Base64Bytes.self, forKey: .bytes).bytes)
    }
}
