import Foundation

/// JSON as Foundation's JSONSerialization reads it, with the accessors the tests use. Foundation
/// rejects what JSON forbids except trailing commas and duplicate keys; the output documents whose
/// syntax a test checks also go through scripts/validate-schema.py, which rejects those too.
package struct TestJSON: CustomStringConvertible {
    package let value: Any

    package static func parse(_ text: String) throws -> TestJSON { try parse(Data(text.utf8)) }

    package static func parse(_ data: Data) throws -> TestJSON {
        do {
            return TestJSON(value: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            throw ToolFailure("not JSON (\(error)): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
    }

    /// One value per line (jsonl, framed by `JSONL.lines`: an empty line is an error, as is a
    /// last line without newline).
    package static func lines(_ text: String) throws -> [TestJSON] {
        try JSONL.lines(text).map { try parse(String($0)) }
    }

    /// The member `key` of an object; nil when absent or when this is not an object.
    package subscript(key: String) -> TestJSON? {
        (value as? [String: Any])?[key].map(TestJSON.init)
    }

    package var string: String? { value as? String }
    package var array: [TestJSON]? { (value as? [Any])?.map(TestJSON.init) }
    /// Member names of an object, sorted.
    package var keys: [String]? { (value as? [String: Any])?.keys.sorted() }
    package var isNull: Bool { value is NSNull }
    package var bool: Bool? { number.flatMap { Self.isBool($0) ? $0.boolValue : nil } }
    package var double: Double? { number.flatMap { Self.isBool($0) ? nil : $0.doubleValue } }
    /// A number written without fraction or exponent (1.0 and 1e2 are not integers here).
    package var int: Int? {
        guard let n = number, !Self.isBool(n), !["d", "f"].contains(String(cString: n.objCType)) else { return nil }
        return n.intValue
    }

    private var number: NSNumber? { value is NSNull || value is String ? nil : value as? NSNumber }
    private static func isBool(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    package var description: String {
        guard JSONSerialization.isValidJSONObject([value]),
            let d = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "\(value)" }
        return String(decoding: d, as: UTF8.self)
    }
}
