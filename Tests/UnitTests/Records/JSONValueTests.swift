import Foundation
import Records
import Testing

/// `JSONValue`, the one JSON writer: strings escaped so that no line ends and no terminal is
/// driven, numbers and structure written as JSON.
@Suite("JSON values")
struct JSONValueTests {
    @Test func jsonEscapesEveryControlCharacterAndLineSeparators() throws {
        var s = ""
        for v in 0..<0x20 { s.unicodeScalars.append(Unicode.Scalar(UInt8(v))) }
        s += "\u{7F}\u{85}\u{2028}\u{2029}\"\\/é中😀"
        let line = JSONValue.object([("text", .string(s))]).serialized()
        // Nothing that could end a line or drive a terminal survives raw.
        for u in line.unicodeScalars {
            #expect(
                u.value >= 0x20 && u.value != 0x7F && u.value != 0x2028 && u.value != 0x2029 && !(0x80...0x9F).contains(u.value),
                "raw U+\(String(u.value, radix: 16)) in \(line)")
        }
        #expect(line.contains("\\u0000") && line.contains("\\u001f") && line.contains("\\u2028") && line.contains("\\u2029"))
        #expect(line.contains("\\n") && line.contains("\\t") && line.contains("\\\"") && line.contains("\\\\"))
        // And it is valid JSON that decodes back to the very same string.
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == s)
    }

    @Test func jsonNumbersAndStructure() {
        let v = JSONValue.object([
            ("a", .array([.int(1), .double(2.5), .double(3), .double(.nan), .null, .bool(true)])),
            ("b", .object([])), ("c", .array([])),
        ])
        #expect(v.serialized() == "{\"a\":[1,2.5,3,null,null,true],\"b\":{},\"c\":[]}")
        #expect(!v.serialized(pretty: true).isEmpty)
    }
}
