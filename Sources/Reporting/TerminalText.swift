/// Makes untrusted text (payloads, file names, error messages) safe to print on a terminal:
/// control characters, escape sequences, line breaks and the invisible characters that reorder
/// or hide text are shown as escapes instead of being emitted.
///
/// - backslash -> `\\` (so every escape below is unambiguous)
/// - LF, CR, tab -> `\n`, `\r`, `\t`; other C0 controls and DEL -> `\xHH` (ESC -> `\x1b`)
/// - C1 controls (U+0080-U+009F, 8-bit CSI among them) -> `\u{009B}`
/// - bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), zero-width space,
///   line and paragraph separators (U+2028, U+2029), U+FEFF, interlinear annotations and
///   noncharacters -> `\u{202E}` etc.
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
        return String(out)
    }

    /// The characters shown as escapes, everywhere untrusted text is shown (terminal, CSV-free
    /// reports, pictures, HTML pages): C0 controls, DEL, C1 controls, bidi marks, embeddings,
    /// overrides and isolates, zero-width space, line and paragraph separators, BOM, interlinear
    /// annotations and noncharacters (not allowed in XML).
    package static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        case 0xFEFF, 0xFFF9...0xFFFB, 0xFFFE, 0xFFFF, 0xFDD0...0xFDEF: true
        default: false
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
