import CodeSweep
import SweepCore

/// Payloads and file names shown to a person (on a picture or in a page) are attacker-controlled:
/// control characters, bidi overrides and invisible formatting characters are shown as visible
/// escapes (`\n`, `\x1B`, `\u{202E}`) instead of acting on the text around them.
public enum DisplayText {
    public enum Piece: Equatable, Sendable {
        case plain(String)
        /// The visible escape for one character that must not act (e.g. `\u{202E}`).
        case escaped(String)
    }

    /// Characters shown as escapes: C0 and C1 controls, DEL, bidi embeddings/overrides/isolates
    /// and marks, line/paragraph separators, zero-width space and BOM, interlinear annotations,
    /// noncharacters (not allowed in XML).
    public static func mustEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029, 0xFEFF, 0xFFF9...0xFFFB, 0xFFFE, 0xFFFF, 0xFDD0...0xFDEF: true
        default: false
        }
    }

    public static func escape(_ u: Unicode.Scalar) -> String {
        switch u.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x7F, 0x80...0xFF:
            let h = String(u.value, radix: 16, uppercase: true)
            return "\\x" + (h.count == 1 ? "0" + h : h)
        default:
            return "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// The text cut into plain runs and escapes.
    public static func pieces(_ text: String) -> [Piece] {
        var out: [Piece] = []
        var run = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if mustEscape(u) {
                if !run.isEmpty { out.append(.plain(String(run))); run = String.UnicodeScalarView() }
                out.append(.escaped(escape(u)))
            } else {
                run.append(u)
            }
        }
        if !run.isEmpty { out.append(.plain(String(run))) }
        return out
    }

    /// One line of plain text with every dangerous character escaped (a backslash is doubled so
    /// that an escape cannot be faked).
    public static func escapedLine(_ text: String) -> String {
        pieces(text).map {
            switch $0 {
            case .plain(let s): s.replacingBackslashes()
            case .escaped(let e): e
            }
        }.joined()
    }

    /// The start of a string, at most `limit` characters, with "…" when cut.
    public static func prefix(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// The short label drawn next to a code: symbology and the start of the payload.
    public static func label(for code: DetectedCode, limit: Int = 32) -> String {
        let decoded = PayloadText.decode(code.bytes)
        let body: String
        if let text = decoded.text {
            body = prefix(escapedLine(text), limit)
        } else {
            body = "<\(code.bytes.count) bytes binary>"
        }
        return code.symbology.rawValue + ": " + body
    }

    /// The host of an http(s) URL payload as a browser takes it (`URLHost`, the tool's one host
    /// parser), or nil.
    public static func urlHost(_ text: String) -> String? {
        guard let (scheme, host) = URLHost.ofURL(text), scheme == "http" || scheme == "https" else { return nil }
        return host.ascii
    }

    /// Whether a payload may become a link: exactly an http or https URL (scheme at the very
    /// start, nothing a browser would strip or reinterpret: no spaces, controls, bidi, quotes).
    public static func isSafeLink(_ text: String) -> Bool {
        guard urlHost(text) != nil, text.hasPrefix("http://") || text.hasPrefix("https://") else { return false }
        return !text.unicodeScalars.contains {
            mustEscape($0) || $0 == " " || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0 == "\\" || $0 == "`"
        }
    }
}

extension String {
    func replacingBackslashes() -> String {
        guard contains("\\") else { return self }
        var out = ""
        for c in self { out += c == "\\" ? "\\\\" : String(c) }
        return out
    }
}
