import Foundation
import TestSupport

/// JSON Schema validation with PyPI's jsonschema, through scripts/validate-schema.py (which
/// also reads the JSON strictly). A missing python3 or jsonschema throws, so the test fails with
/// the reason; it is never skipped.
enum SchemaCheck {
    static let script = PackageRoot.file("scripts/validate-schema.py")

    /// "record.schema.json" or "report.schema.json" in docs/schema/.
    static func schemaFile(_ name: String) -> String { PackageRoot.file("docs/schema/" + name) }

    /// Every problem in `document` against the schema `schema`, one per line as the script
    /// prints it ("<stdin>:LINE: $.path: message"); [] when valid. With `lines` the document is
    /// jsonl: every line one record.
    static func problems(_ document: Data, schema: String, lines: Bool) throws -> [String] {
        let r = try run("python3", [script, schemaFile(schema), "-"] + (lines ? ["--lines"] : []), stdin: document, check: false)
        switch r.status {
        case 0:
            return []
        case 1 where !r.stdoutLines.isEmpty:
            return r.stdoutLines
        default:
            throw ToolFailure("scripts/validate-schema.py could not check the document (exit \(r.status)): \(r.stderr)\(r.stdout)")
        }
    }

    static func problems(_ document: String, schema: String, lines: Bool) throws -> [String] {
        try problems(Data(document.utf8), schema: schema, lines: lines)
    }
}
