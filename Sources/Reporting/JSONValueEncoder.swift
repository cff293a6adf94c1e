import Records

/// Encodes any `Encodable` into a `JSONValue`, object keys in the order `encode(to:)` writes
/// them: the record's `Codable` conformance drives `JSONValue`'s strict writer, so the public
/// JSON keeps its key order, number forms and escapes while its fields are defined once.
package struct JSONValueEncoder {
    package var userInfo: [CodingUserInfoKey: Any] = [:]
    package init(userInfo: [CodingUserInfoKey: Any] = [:]) { self.userInfo = userInfo }

    /// This encoder itself never throws; only a value's own `encode(to:)` can.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        try JSONBox.wrap(value, path: [], userInfo: userInfo)
    }
}

/// One value being built: a scalar, an object (ordered fields) or an array of boxes.
final class JSONBox {
    var single: JSONValue?
    var fields: [(String, JSONBox)]?
    var items: [JSONBox]?

    var value: JSONValue {
        if let fields { return .object(fields.map { ($0.0, $0.1.value) }) }
        if let items { return .array(items.map(\.value)) }
        return single ?? .object([])
    }

    static func wrap(_ value: some Encodable, path: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) throws -> JSONValue {
        switch value {
        case let v as Bool: return .bool(v)
        case let v as String: return .string(v)
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as any BinaryInteger: return Int(exactly: v).map(JSONValue.int) ?? .double(Double(v))
        case let v as any TextKeyedMap:
            var fields: [(String, JSONValue)] = []
            for (key, item) in v.entriesByKey() {
                let value: any Encodable = item
                fields.append((key, try wrap(value, path: path + [AnyKey(stringValue: key)], userInfo: userInfo)))
            }
            return .object(fields)
        default:
            let box = JSONBox()
            try value.encode(to: BoxEncoder(box: box, codingPath: path, userInfo: userInfo))
            return box.value
        }
    }

    func child(_ key: String) -> JSONBox {
        let box = JSONBox()
        fields = (fields ?? []) + [(key, box)]
        return box
    }
}

struct BoxEncoder: Encoder {
    let box: JSONBox
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if box.fields == nil { box.fields = [] }
        return KeyedEncodingContainer(KeyedBox<Key>(box: box, codingPath: codingPath, userInfo: userInfo))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if box.items == nil { box.items = [] }
        return UnkeyedBox(box: box, codingPath: codingPath, userInfo: userInfo)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { SingleBox(box: box, codingPath: codingPath, userInfo: userInfo) }
}

struct KeyedBox<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONBox
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    mutating func encodeNil(forKey key: Key) throws { box.child(key.stringValue).single = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.child(key.stringValue).single = try JSONBox.wrap(value, path: codingPath + [key], userInfo: userInfo)
    }
    mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
        BoxEncoder(box: box.child(key.stringValue), codingPath: codingPath + [key], userInfo: userInfo).container(keyedBy: N.self)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        BoxEncoder(box: box.child(key.stringValue), codingPath: codingPath + [key], userInfo: userInfo).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { BoxEncoder(box: box.child("super"), codingPath: codingPath, userInfo: userInfo) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        BoxEncoder(box: box.child(key.stringValue), codingPath: codingPath + [key], userInfo: userInfo)
    }
}

struct UnkeyedBox: UnkeyedEncodingContainer {
    let box: JSONBox
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    var count: Int { box.items?.count ?? 0 }

    func next() -> JSONBox {
        let item = JSONBox()
        box.items = (box.items ?? []) + [item]
        return item
    }
    mutating func encodeNil() throws { next().single = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
        next().single = try JSONBox.wrap(value, path: codingPath, userInfo: userInfo)
    }
    mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type) -> KeyedEncodingContainer<N> {
        BoxEncoder(box: next(), codingPath: codingPath, userInfo: userInfo).container(keyedBy: N.self)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        BoxEncoder(box: next(), codingPath: codingPath, userInfo: userInfo).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { BoxEncoder(box: next(), codingPath: codingPath, userInfo: userInfo) }
}

struct SingleBox: SingleValueEncodingContainer {
    let box: JSONBox
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    mutating func encodeNil() throws { box.single = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { box.single = try JSONBox.wrap(value, path: codingPath, userInfo: userInfo) }
}

/// A dictionary with text keys (a record's `hashes`): written in the order of its keys, not in
/// the dictionary's, which changes from run to run.
protocol TextKeyedMap { func entriesByKey() -> [(String, any Encodable)] }

extension Dictionary: TextKeyedMap where Key == String, Value: Encodable {
    func entriesByKey() -> [(String, any Encodable)] { sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
}
