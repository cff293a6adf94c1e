/// Makes untrusted text (payloads, file names, error messages) safe to print on a terminal:
/// control characters, escape sequences, line breaks and the invisible characters that reorder
/// or hide text are shown as escapes instead of being emitted.
///
/// - backslash -> `\\` (so every escape below is unambiguous)
/// - LF, CR, tab -> `\n`, `\r`, `\t`; other C0 controls and DEL -> `\xHH` (ESC -> `\x1b`)
/// - C1 controls (U+0080-U+009F, 8-bit CSI among them) -> `\u{009B}`
/// - every Unicode format character (general category Cf: bidi controls U+061C, U+200E,
///   U+200F, U+202A-U+202E, U+2066-U+2069, zero-width U+200B-U+200D, U+2060, soft hyphen U+00AD,
///   U+FEFF, interlinear annotations, tag characters U+E0000-U+E007F...), line and paragraph
///   separators (U+2028, U+2029) and noncharacters -> `\u{202E}` etc.
/// - GitHub Actions workflow commands: the first `:` of a piece whose text starts (after
///   spaces) with `::` -> `\x3a`, and the first `#` of every `##[` -> `\x23`; see `guardLine`.
///
/// The one escaper of the tool: `summarize`, `merge`, `check`, pictures and HTML pages use it.
package enum TerminalText {
    package static func escape(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if u == "\\" {
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else if isUnsafe(u) {
                out.append(contentsOf: escape(u).unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return guardLine(String(out))
    }

    /// One line as printed (already escaped, or our own words): no workflow command can start
    /// from it. The GitHub Actions runner reads `::command::` at the start of a line (after
    /// white space) and the legacy `##[command]` anywhere in a line; the first `:` of a leading `::`
    /// becomes `\x3a` and the first `#` of each `##[` becomes `\x23` (the escapes `escape`
    /// uses, so the text stays readable and recoverable). Any raw unsafe character left (text
    /// that was not escaped) is escaped too, but a backslash is left alone: an escaped piece is
    /// never escaped twice. A no-op on a line that needs none of this.
    package static func guardLine(_ line: String) -> String {
        let scalars = Array(line.unicodeScalars)
        guard scalars.contains(where: { $0 == ":" || $0 == "#" || isUnsafe($0) }) else { return line }
        var out = String.UnicodeScalarView()
        var leading = true
        var i = 0
        while i < scalars.count {
            let u = scalars[i]
            if leading, u == ":", i + 1 < scalars.count, scalars[i + 1] == ":" {
                out.append(contentsOf: "\\x3a".unicodeScalars)
            } else if u == "#", i + 2 < scalars.count, scalars[i + 1] == "#", scalars[i + 2] == "[" {
                out.append(contentsOf: "\\x23".unicodeScalars)
            } else if isUnsafe(u) {
                out.append(contentsOf: escape(u).unicodeScalars)
            } else {
                out.append(u)
            }
            if !u.properties.isWhitespace { leading = false }
            i += 1
        }
        return String(out)
    }

    /// True when a printed line would be read as a workflow command by the GitHub Actions
    /// runner: `::` at its start (after white space) or `##[` anywhere.
    package static func isWorkflowCommand(_ line: Substring) -> Bool {
        line.unicodeScalars.drop { $0.properties.isWhitespace }.starts(with: "::".unicodeScalars) || line.contains("##[")
    }

    /// The characters shown as escapes, everywhere untrusted text is shown (terminal, CSV-free
    /// reports, pictures, HTML pages): C0 controls, DEL, C1 controls, every format character
    /// (Cf: bidi marks, embeddings, overrides and isolates, zero-width space, joiners, word
    /// joiner, soft hyphen, BOM, interlinear annotations, tag characters), the whole tag block
    /// U+E0000-U+E007F, line and paragraph separators and noncharacters (not allowed in XML).
    package static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF, 0xFDD0...0xFDEF, 0xE0000...0xE007F: true
        default: u.properties.generalCategory == .format
        }
    }

    /// The visible escape of one unsafe character: `\n`, `\r`, `\t`, `\x1b`, `\u{202E}`.
    package static func escape(_ u: Unicode.Scalar) -> String {
        switch u.value {
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0x09: "\\t"
        case 0x00..<0x20, 0x7F: "\\x" + hex(u.value, width: 2)
        default: "\\u{" + hex(u.value, width: 4).uppercased() + "}"
        }
    }

    static func hex(_ v: UInt32, width: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

/// JSON as CodeSweep writes it (reports, `check --json`, `summarize --json`, `merge`): the
/// runner's legacy `##[command]` form is read anywhere in a line, and a JSON string can hold
/// one, so the first `#` of every `##[` is written `\u0023`. Outside strings JSON has no `#`,
/// so the document stays valid and every string reads back exactly as it was. (A line of JSON
/// never starts with `::`: each starts with a bracket, a quote or white space then one.)
package enum WorkflowSafeJSON {
    package static func text(_ json: String) -> String {
        guard json.utf8.contains(UInt8(ascii: "#")) else { return json }
        return String(decoding: bytes(Array(json.utf8)), as: UTF8.self)
    }

    /// The same on a line's bytes (`merge` copies lines as bytes).
    package static func bytes(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var i = 0
        while i < json.count {
            if json[i] == 0x23, i + 2 < json.count, json[i + 1] == 0x23, json[i + 2] == 0x5B {
                out += Array("\\u0023".utf8)
            } else {
                out.append(json[i])
            }
            i += 1
        }
        return out
    }
}
