import Payloads
import Records
import Reporting

/// Payloads and file names shown to a person (on a picture or in a page) are attacker-controlled:
/// control characters, bidi overrides and invisible formatting characters are shown as visible
/// escapes (`\n`, `\x1b`, `\u{202E}`: `TerminalText`'s set and form) instead of acting on the
/// text around them.
package enum DisplayText {
    package enum Piece: Equatable, Sendable {
        case plain(String)
        /// The visible escape for one character that must not act (e.g. `\u{202E}`).
        case escaped(String)
    }

    /// The text cut into plain runs and escapes.
    package static func pieces(_ text: String) -> [Piece] {
        var out: [Piece] = []
        var run = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if TerminalText.isUnsafe(u) {
                if !run.isEmpty { out.append(.plain(String(run))); run = String.UnicodeScalarView() }
                out.append(.escaped(TerminalText.escape(u)))
            } else {
                run.append(u)
            }
        }
        if !run.isEmpty { out.append(.plain(String(run))) }
        return out
    }

    /// One line of plain text with every dangerous character escaped (a backslash is doubled so
    /// that an escape cannot be faked).
    package static func escapedLine(_ text: String) -> String {
        pieces(text).map {
            switch $0 {
            case .plain(let s): s.replacingBackslashes()
            case .escaped(let e): e
            }
        }.joined()
    }

    /// The start of a string, at most `limit` characters, with "…" when cut.
    package static func prefix(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// The short label drawn next to a code: symbology and the start of the payload.
    package static func label(for code: DetectedCode, limit: Int = 32) -> String {
        let decoded = PayloadText.decode(code.bytes)
        let body: String
        if let text = decoded.text {
            body = prefix(escapedLine(text), limit)
        } else {
            body = "<\(code.bytes.count) bytes binary>"
        }
        return code.symbology.rawValue + ": " + body
    }

    /// The host of a URL payload as a browser takes it (`URLHost.ofHostURL`: the schemes that
    /// always have a host, through the tool's one host parser), or nil.
    package static func urlHost(_ text: String) -> String? {
        URLHost.ofHostURL(text)?.ascii
    }

    /// Whether a payload may become a link: exactly an http or https URL (scheme at the very
    /// start, nothing a browser would strip or reinterpret: no spaces, controls, bidi, quotes).
    package static func isSafeLink(_ text: String) -> Bool {
        guard urlHost(text) != nil, text.hasPrefix("http://") || text.hasPrefix("https://") else { return false }
        return !text.unicodeScalars.contains {
            TerminalText.isUnsafe($0) || $0 == " " || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0 == "\\" || $0 == "`"
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
