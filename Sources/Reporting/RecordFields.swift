import Records

// What a record field needs beyond its type, said on the field (`FileRecord`): the synthesized
// `Codable` calls `encode(_:forKey:)` and `decode(_:forKey:)` with the wrapper's type, and the
// container overloads below, being more specific than the generic ones, are the ones it gets.

/// A collection left out of the JSON when it is empty, and read as empty when absent.
@propertyWrapper
public struct OmittedWhenEmpty<Value: RangeReplaceableCollection & Codable & Sendable & Equatable>: Sendable, Equatable {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension OmittedWhenEmpty: Codable {
    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(Value.self) }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue)
    }
}

/// How many decimals a `Rounded` number is printed with.
public protocol DecimalPlaces: Sendable { static var count: Int { get } }
/// Three decimals (seconds to the millisecond).
public enum Thousandths: DecimalPlaces { public static let count = 3 }

/// A number printed in a report to `Places` decimals; the worker wire (`RecordStyle.exact`)
/// keeps every digit. Left out when nil.
@propertyWrapper
public struct Rounded<Places: DecimalPlaces>: Sendable, Equatable {
    public var wrappedValue: Double?
    public init(wrappedValue: Double?) { self.wrappedValue = wrappedValue }
}

extension Rounded: Codable {
    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(Double.self) }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let v = wrappedValue { try c.encode(RecordStyle.of(encoder).round(v, Places.count)) } else { try c.encodeNil() }
    }
}

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

extension KeyedEncodingContainer {
    mutating func encode<V>(_ value: OmittedWhenEmpty<V>, forKey key: Key) throws {
        if !value.wrappedValue.isEmpty { try encode(value.wrappedValue, forKey: key) }
    }

    mutating func encode<P>(_ value: Rounded<P>, forKey key: Key) throws {
        if value.wrappedValue != nil { try encodeIfPresent(Optional(value), forKey: key) }
    }
}

extension KeyedDecodingContainer {
    func decode<V>(_: OmittedWhenEmpty<V>.Type, forKey key: Key) throws -> OmittedWhenEmpty<V> {
        OmittedWhenEmpty(wrappedValue: try decodeIfPresent(V.self, forKey: key) ?? V())
    }

    func decode<P>(_: Rounded<P>.Type, forKey key: Key) throws -> Rounded<P> {
        Rounded(wrappedValue: try decodeIfPresent(Double.self, forKey: key))
    }

    /// A format this version does not know (a report from a later one) reads as none.
    func decodeIfPresent(_: ImageFormat.Type, forKey key: Key) throws -> ImageFormat? {
        try decodeIfPresent(String.self, forKey: key).flatMap(ImageFormat.init(rawValue:))
    }
}
