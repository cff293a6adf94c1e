import Records

/// Bytes written as base64 text; text that is not base64 is an error, not a silent nil.
struct Base64Bytes: Sendable, Equatable, Codable {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        guard let bytes = Base64.decode(try c.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not base64")
        }
        self.bytes = bytes
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Base64.encode(bytes))
    }
}

extension KeyedDecodingContainer {
    /// A format this version does not know (a report from a later one) reads as none.
    func decodeIfPresent(_: ImageFormat.Type, forKey key: Key) throws -> ImageFormat? {
        try decodeIfPresent(String.self, forKey: key).flatMap(ImageFormat.init(rawValue:))
    }
}
