import Foundation
import Records
import Reporting

/// The tests' one reader of JSON Lines (scan's jsonl, the reports read back): every record is
/// one line ending in a newline; an empty line, or a last line without its newline, is an error
/// (a torn or padded report), never skipped.
package enum JSONL {
    /// The lines of `text`, each without its newline.
    package static func lines(_ text: String) throws -> [Substring] {
        guard !text.isEmpty else { return [] }
        guard text.hasSuffix("\n") else { throw ToolFailure("the last line has no newline: \(text.suffix(200))") }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        if let empty = lines.firstIndex(where: \.isEmpty) { throw ToolFailure("line \(empty + 1) is empty: \(text.prefix(300))") }
        return lines
    }

    /// Each line as the library's own `JSONValue` (read by `JSONReading`, as `merge` and
    /// `report` read records). `TestJSON.lines` reads the same lines with Foundation instead.
    package static func values(_ text: String) throws -> [JSONValue] {
        try lines(text).map { try JSONReading.value(String($0)) }
    }

    package static func values(_ data: Data) throws -> [JSONValue] { try values(String(decoding: data, as: UTF8.self)) }
}
