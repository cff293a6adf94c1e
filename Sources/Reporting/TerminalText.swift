/// Makes untrusted text (payloads, file names, error messages) safe to print on a terminal:
/// control characters, escape sequences, line breaks and the invisible characters that reorder
/// or hide text are shown as escapes instead of being emitted.
///
/// - backslash -> `\\` (so every escape below is unambiguous)
/// - LF, CR, tab -> `\n`, `\r`, `\t`; other C0 controls and DEL -> `\xHH` (ESC -> `\x1b`)
/// - C1 controls (U+0080-U+009F, 8-bit CSI among them) -> `\u{9B}`
/// - bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), line and paragraph
///   separators (U+2028, U+2029) and U+FEFF -> `\u{202E}` etc.
public enum TerminalText {
    public static func escape(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            switch u.value {
            case 0x5C: out.append(contentsOf: "\\\\".unicodeScalars)
            case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
            case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
            case 0x00..<0x20, 0x7F: out.append(contentsOf: ("\\x" + hex(u.value, width: 2)).unicodeScalars)
            case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0xFEFF:
                out.append(contentsOf: ("\\u{" + hex(u.value, width: 4).uppercased() + "}").unicodeScalars)
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// True for the characters `escape` never lets through (backslash aside).
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0xFEFF: true
        default: false
        }
    }

    static func hex(_ v: UInt32, width: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
