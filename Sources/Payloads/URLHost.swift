import Foundation

/// The host of a URL as a browser or a phone's camera app takes it: the WHATWG URL Standard's
/// host parser. The one host parser of the tool: `check` (allow and deny lists), `summarize`
/// (hosts) and `report` (host counts, links) all use it, so `st%61ging.example.com`,
/// `ＳＴＡＧＩＮＧ.example.com.` and `staging.example.com` are one host everywhere.
///
/// For a domain: percent-decoded (as UTF-8), mapped as UTS-46 maps (compatibility forms and
/// full-width letters folded by NFKC, lower case, ideographic full stops as dots, default-ignorable
/// characters removed), `xn--` labels decoded (a label that does not decode, or decodes to
/// something that is not in mapped form, fails the host), and non-ASCII labels encoded to
/// punycode. A trailing dot is dropped. A host whose last label is a number is an IPv4 address
/// in any of the forms browsers accept (`0x7f.1`, `0177.0.0.1`, `2130706433`) and becomes a
/// dotted quad. An IPv6 literal keeps its brackets, lower-cased.
/// Foundation is used for NFKC only (`precomposedStringWithCompatibilityMapping`).
package struct URLHost: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable { case domain, ipv4, ipv6 }
    /// The host as compared and shown: punycode labels, lower case, no trailing dot; IPv4 as a
    /// dotted quad; IPv6 in brackets.
    package var ascii: String
    /// The same with `xn--` labels decoded (equal to `ascii` for ASCII names and addresses).
    package var unicode: String
    package var kind: Kind
    package var description: String { ascii }

    /// Why a host is not one a browser would open.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    package static func parse<S: StringProtocol>(_ input: S) -> Result<URLHost, Failure> {
        let raw = String(input)
        if raw.hasPrefix("[") {
            guard raw.hasSuffix("]"), raw.count > 2, let pieces = ipv6(raw.dropFirst().dropLast()) else {
                return .failure(Failure(description: "not a valid IPv6 address"))
            }
            let v6 = "[" + serializeIPv6(pieces) + "]"
            return .success(URLHost(ascii: v6, unicode: v6, kind: .ipv6))
        }
        guard let decoded = percentDecodedUTF8(raw) else {
            return .failure(Failure(description: "its percent-escapes are not UTF-8"))
        }
        var labels = map(decoded).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if labels.count > 1, labels.last == "" { labels.removeLast() }  // the trailing dot
        guard !labels.isEmpty, labels != [""] else { return .failure(Failure(description: "it is empty")) }
        var asciiLabels: [String] = [], unicodeLabels: [String] = []
        for label in labels {
            if label.hasPrefix("xn--") {
                guard let scalars = Punycode.decode(String(label.dropFirst(4))), !scalars.allSatisfy({ $0 < 0x80 }) else {
                    return .failure(Failure(description: "its label '\(label)' is not valid punycode"))
                }
                var u = String.UnicodeScalarView()
                for v in scalars {
                    guard let s = Unicode.Scalar(v) else { return .failure(Failure(description: "its label '\(label)' is not valid punycode")) }; u.append(s)
                }
                let text = String(u)
                guard map(text) == text else {
                    return .failure(Failure(description: "its label '\(label)' decodes to '\(text)', which is not in the form a browser would encode"))
                }
                asciiLabels.append(label)
                unicodeLabels.append(text)
            } else if label.unicodeScalars.allSatisfy({ $0.isASCII }) {
                asciiLabels.append(label)
                unicodeLabels.append(label)
            } else {
                guard let encoded = Punycode.encode(label.unicodeScalars.map(\.value)) else {
                    return .failure(Failure(description: "its label '\(label)' cannot be encoded"))
                }
                asciiLabels.append("xn--" + encoded)
                unicodeLabels.append(label)
            }
        }
        if let bad = unicodeLabels.joined().unicodeScalars.first(where: isDisallowed) {
            return .failure(Failure(description: "it contains U+\(String(bad.value, radix: 16, uppercase: true)), which a host name cannot hold"))
        }
        let ascii = asciiLabels.joined(separator: ".")
        if let bad = ascii.unicodeScalars.first(where: isForbidden) {
            return .failure(
                Failure(
                    description: "it contains \(bad.value < 0x21 || bad.value == 0x7F ? "a space or control character" : "'\(bad)'"), which a host cannot hold")
            )
        }
        if let last = asciiLabels.last, endsInNumber(last) {
            guard let address = ipv4(asciiLabels) else { return .failure(Failure(description: "it ends in a number but is not an IPv4 address")) }
            return .success(URLHost(ascii: address, unicode: address, kind: .ipv4))
        }
        return .success(URLHost(ascii: ascii, unicode: unicodeLabels.joined(separator: "."), kind: .domain))
    }

    /// The schemes the WHATWG URL Standard calls special that always have a host (all but
    /// file): the slashes before the host are optional (`https:evil.example` and
    /// `https:/evil.example` open `evil.example`), and any number may stand there.
    package static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// The host of a `scheme://[user@]host[:port]/...` URL (leading and trailing white space
    /// ignored; for http, https, ws, wss and ftp the slashes may be missing or many, as in a
    /// browser and in `check`'s URLParts), or nil when the text is not such a URL or its host is
    /// not valid.
    package static func ofURL(_ text: String) -> (scheme: String, host: URLHost)? {
        // (The one list of such schemes, `specialSchemes`, serves check's URLParts too.)
        var t = Substring(text)
        while let f = t.first, f.isWhitespace { t.removeFirst() }
        while let l = t.last, l.isWhitespace { t.removeLast() }
        guard let colon = t.firstIndex(of: ":") else { return nil }
        let scheme = t[..<colon]
        guard let f = scheme.first, f.isASCII, f.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        var rest = t[t.index(after: colon)...]
        // As the WHATWG parser reads a special scheme: any number of slashes (or backslashes)
        // before the host, none needed (`https:evil.example`); other schemes need "//".
        if specialSchemes.contains(scheme.lowercased()) {
            rest = rest.drop { $0 == "/" || $0 == "\\" }
        } else {
            guard rest.hasPrefix("//") else { return nil }
            rest = rest.dropFirst(2)
        }
        guard let raw = authorityHost(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }),
            case .success(let host) = parse(raw)
        else { return nil }
        return (scheme.lowercased(), host)
    }

    /// The host of a URL whose scheme always has one (`specialSchemes`: http, https, ws, wss,
    /// ftp), or nil: what `summarize` and `report` list as URL hosts. Another scheme's
    /// authority is that scheme's business (`vmess://` and `ss://` hold base64, not a host), so
    /// no host is made up from it.
    package static func ofHostURL(_ text: String) -> URLHost? {
        guard let (scheme, host) = ofURL(text), specialSchemes.contains(scheme) else { return nil }
        return host
    }

    /// The host part of an authority: after the last '@', before a port.
    package static func authorityHost(_ authority: Substring) -> Substring? {
        var a = authority
        if let at = a.lastIndex(of: "@") { a = a[a.index(after: at)...] }
        if a.first == "[" {
            guard let close = a.firstIndex(of: "]") else { return nil }
            return a[...close]
        }
        let host = a.prefix { $0 != ":" }
        return host.isEmpty ? nil : host
    }

    /// A host pattern from an allow or deny list ("staging.*", "*.Ｅxample.com.", "bücher.de")
    /// in the same two forms as a host: mapped and lower-cased like a host, trailing dot dropped;
    /// labels without wildcards punycode-encoded for `ascii` and decoded for `unicode`.
    package static func pattern(_ text: String) -> (ascii: String, unicode: String) {
        var labels = map(text).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if labels.count > 1, labels.last == "" { labels.removeLast() }
        var ascii: [String] = [], unicode: [String] = []
        for label in labels {
            if label.contains("*") || label.contains("?") || label.unicodeScalars.allSatisfy(\.isASCII) {
                ascii.append(label)
                if label.hasPrefix("xn--"), let d = Punycode.decode(String(label.dropFirst(4))),
                    let scalars = Optional(d.compactMap(Unicode.Scalar.init)), scalars.count == d.count
                {
                    unicode.append(String(String.UnicodeScalarView(scalars)))
                } else {
                    unicode.append(label)
                }
            } else {
                ascii.append(Punycode.encode(label.unicodeScalars.map(\.value)).map { "xn--" + $0 } ?? label)
                unicode.append(label)
            }
        }
        return (ascii.joined(separator: "."), unicode.joined(separator: "."))
    }

    /// The Unicode form with the commonest Cyrillic and Greek look-alikes of Latin letters
    /// replaced by those letters (a small part of the UTS-39 confusables): `xn--stging-…` written
    /// with a Cyrillic 'а' has the skeleton "staging…". For deny lists only: a skeleton must never
    /// make a host allowed.
    package var skeleton: String {
        String(String.UnicodeScalarView(unicode.unicodeScalars.map { Self.lookalikes[$0] ?? $0 }))
    }

    static let lookalikes: [Unicode.Scalar: Unicode.Scalar] = [
        // Cyrillic
        "а": "a", "в": "b", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
        "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "к": "k", "м": "m", "н": "h", "т": "t",
        "ո": "n", "ս": "u", "ɡ": "g",
        // Greek
        "α": "a", "ο": "o", "ν": "v", "ρ": "p", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x", "ε": "e",
    ]

    // MARK: - The steps

    /// UTS-46 mapping, as far as Foundation and the standard library give it: default-ignorable
    /// characters removed, NFKC, lower case, NFKC again; ideographic full stops become dots.
    static func map(_ s: String) -> String {
        var kept = String.UnicodeScalarView()
        for u in s.unicodeScalars where !isIgnored(u) { kept.append(u) }
        let folded = String(kept).precomposedStringWithCompatibilityMapping.lowercased().precomposedStringWithCompatibilityMapping
        var out = String.UnicodeScalarView()
        for u in folded.unicodeScalars {
            if u.value == 0x3002 || u.value == 0xFF0E || u.value == 0xFF61 { out.append(".") } else { out.append(u) }
        }
        return String(out)
    }

    /// Characters UTS-46 maps to nothing: soft hyphen, zero-width space/joiners, word joiner,
    /// BOM, variation selectors, combining grapheme joiner, Mongolian free variation selectors.
    static func isIgnored(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00AD, 0x034F, 0x180B...0x180D, 0x200B...0x200D, 0x2060, 0xFE00...0xFE0F, 0xFEFF: true
        default: false
        }
    }

    /// Characters UTS-46 disallows in a name (after mapping): controls, format characters,
    /// separators, unassigned and private-use code points.
    static func isDisallowed(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .control, .format, .unassigned, .surrogate, .privateUse, .spaceSeparator, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// WHATWG forbidden domain code points (controls, space, and the URL delimiters).
    static func isForbidden(_ u: Unicode.Scalar) -> Bool {
        u.value <= 0x20 || u.value == 0x7F || "#%/:<>?@[\\]^|".unicodeScalars.contains(u)
    }

    static func percentDecodedUTF8(_ s: String) -> String? {
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.first {
            if b == UInt8(ascii: "%"), u.count >= 3, let h = hexValue(u[u.startIndex + 1]), let l = hexValue(u[u.startIndex + 2]) {
                bytes.append(UInt8(h << 4 | l)); u = u.dropFirst(3)
            } else {
                bytes.append(b); u = u.dropFirst()
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
