import FoundationEssentials
import Records

/// Reading JSON back (worker replies, resume files, reports, summaries) goes through
/// Foundation's `JSONDecoder`: strict RFC 8259 numbers, strings that must be valid UTF-8, no
/// trailing characters (a line cut short by a kill does not parse). Writing stays with
/// `JSONValue` (through `JSONValueEncoder`), whose output keeps key order and escapes what
/// `JSONEncoder` leaves raw. The record's own coding is in `RecordCoding.swift`.
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

extension FileRecord {
    /// One record from its JSON text (a line of a jsonl report, a worker's reply).
    public static func read(json bytes: some Collection<UInt8>) throws(JSONReading.Failure) -> FileRecord {
        try JSONReading.decode(FileRecord.self, from: bytes)
    }
}
