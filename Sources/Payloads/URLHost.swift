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
public struct URLHost: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case domain, ipv4, ipv6 }
    /// The host as compared and shown: punycode labels, lower case, no trailing dot; IPv4 as a
    /// dotted quad; IPv6 in brackets.
    public var ascii: String
    /// The same with `xn--` labels decoded (equal to `ascii` for ASCII names and addresses).
    public var unicode: String
    public var kind: Kind
    public var description: String { ascii }

    /// Why a host is not one a browser would open.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func parse<S: StringProtocol>(_ input: S) -> Result<URLHost, Failure> {
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
        if labels.count > 1, labels.last == "" { labels.removeLast() } // the trailing dot
        guard !labels.isEmpty, labels != [""] else { return .failure(Failure(description: "it is empty")) }
        var asciiLabels: [String] = [], unicodeLabels: [String] = []
        for label in labels {
            if label.hasPrefix("xn--") {
                guard let scalars = Punycode.decode(String(label.dropFirst(4))), !scalars.allSatisfy({ $0 < 0x80 }) else {
                    return .failure(Failure(description: "its label '\(label)' is not valid punycode"))
                }
                var u = String.UnicodeScalarView()
                for v in scalars { guard let s = Unicode.Scalar(v) else { return .failure(Failure(description: "its label '\(label)' is not valid punycode")) }; u.append(s) }
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
            return .failure(Failure(description: "it contains \(bad.value < 0x21 || bad.value == 0x7F ? "a space or control character" : "'\(bad)'"), which a host cannot hold"))
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
    public static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// The host of a `scheme://[user@]host[:port]/...` URL (leading and trailing white space
    /// ignored; for http, https, ws, wss and ftp the slashes may be missing or many, as in a
    /// browser and in `check`'s URLParts), or nil when the text is not such a URL or its host is
    /// not valid.
    public static func ofURL(_ text: String) -> (scheme: String, host: URLHost)? {
        // (The one list of such schemes, `specialSchemes`, serves check's URLParts too.)
        var t = Substring(text)
        while let f = t.first, f.isWhitespace { t.removeFirst() }
        while let l = t.last, l.isWhitespace { t.removeLast() }
        guard let colon = t.firstIndex(of: ":") else { return nil }
        let scheme = t[..<colon]
        guard let f = scheme.first, f.isASCII, f.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) else { return nil }
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
              case .success(let host) = parse(raw) else { return nil }
        return (scheme.lowercased(), host)
    }

    /// The host of a URL whose scheme always has one (`specialSchemes`: http, https, ws, wss,
    /// ftp), or nil: what `summarize` and `report` list as URL hosts. Another scheme's
    /// authority is that scheme's business (`vmess://` and `ss://` hold base64, not a host), so
    /// no host is made up from it.
    public static func ofHostURL(_ text: String) -> URLHost? {
        guard let (scheme, host) = ofURL(text), specialSchemes.contains(scheme) else { return nil }
        return host
    }

    /// The host part of an authority: after the last '@', before a port.
    public static func authorityHost(_ authority: Substring) -> Substring? {
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
    public static func pattern(_ text: String) -> (ascii: String, unicode: String) {
        var labels = map(text).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if labels.count > 1, labels.last == "" { labels.removeLast() }
        var ascii: [String] = [], unicode: [String] = []
        for label in labels {
            if label.contains("*") || label.contains("?") || label.unicodeScalars.allSatisfy(\.isASCII) {
                ascii.append(label)
                if label.hasPrefix("xn--"), let d = Punycode.decode(String(label.dropFirst(4))),
                   let scalars = Optional(d.compactMap(Unicode.Scalar.init)), scalars.count == d.count {
                    unicode.append(String(String.UnicodeScalarView(scalars)))
                } else { unicode.append(label) }
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
    public var skeleton: String {
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
            } else { bytes.append(b); u = u.dropFirst() }
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

    /// "ends in a number": the last label is decimal digits, or 0x/0X and hex digits.
    static func endsInNumber(_ label: String) -> Bool {
        if !label.isEmpty, label.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lower = label.lowercased()
        return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy { $0.isHexDigit && $0.isASCII }
    }

    /// The WHATWG IPv6 parser: eight 16-bit pieces, `::` compressing one run of zeros, an
    /// embedded dotted quad (strict decimal) in the last 32 bits; nil when invalid.
    public static func ipv6<S: StringProtocol>(_ text: S) -> [UInt16]? {
        let input = Array(text.utf8)
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0, compress: Int? = nil, p = 0
        func hex(_ b: UInt8) -> Int? { hexValue(b) }
        if p < input.count, input[p] == UInt8(ascii: ":") {
            guard p + 1 < input.count, input[p + 1] == UInt8(ascii: ":") else { return nil }
            p += 2; pieceIndex += 1; compress = pieceIndex
        }
        while p < input.count {
            guard pieceIndex < 8 else { return nil }
            if input[p] == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                p += 1; pieceIndex += 1; compress = pieceIndex
                continue
            }
            var value = 0, length = 0
            while length < 4, p < input.count, let h = hex(input[p]) { value = value * 16 + h; p += 1; length += 1 }
            if p < input.count, input[p] == UInt8(ascii: ".") {
                guard length > 0 else { return nil }
                p -= length
                guard pieceIndex <= 6 else { return nil }
                var numbersSeen = 0
                while p < input.count {
                    var ipv4Piece: Int? = nil
                    if numbersSeen > 0 {
                        guard input[p] == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        p += 1
                    }
                    guard p < input.count, (48...57).contains(input[p]) else { return nil }
                    while p < input.count, (48...57).contains(input[p]) {
                        let n = Int(input[p] - 48)
                        if ipv4Piece == nil { ipv4Piece = n } else if ipv4Piece == 0 { return nil } else { ipv4Piece = ipv4Piece! * 10 + n }
                        guard ipv4Piece! <= 255 else { return nil }
                        p += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(ipv4Piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if p < input.count, input[p] == UInt8(ascii: ":") {
                p += 1
                guard p < input.count else { return nil }
            } else if p < input.count {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let c = compress {
            var swaps = pieceIndex - c
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                address.swapAt(pieceIndex, c + swaps - 1)
                pieceIndex -= 1; swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// The WHATWG IPv6 serializer (RFC 5952): lower-case hex without leading zeros, the first
    /// longest run of two or more zero pieces written `::`.
    public static func serializeIPv6(_ a: [UInt16]) -> String {
        var best: (start: Int, length: Int)? = nil
        var i = 0
        while i < 8 {
            if a[i] == 0 {
                var j = i
                while j < 8 && a[j] == 0 { j += 1 }
                if j - i >= 2 && (best == nil || j - i > best!.length) { best = (i, j - i) }
                i = j
            } else { i += 1 }
        }
        var out = ""
        var ignore0 = false
        for k in 0..<8 {
            if ignore0 && a[k] == 0 { continue }
            ignore0 = false
            if let b = best, b.start == k {
                out += k == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(a[k], radix: 16)
            if k != 7 { out += ":" }
        }
        return out
    }

    /// The IPv4 address an IPv6 address carries in its last 32 bits when it is IPv4-mapped
    /// (`::ffff:a.b.c.d`) or IPv4-compatible (`::a.b.c.d`, not `::` or `::1`): the machine a
    /// connection to it reaches on a dual-stack host.
    public var embeddedIPv4: String? {
        guard kind == .ipv6, let a = Self.ipv6(ascii.dropFirst().dropLast()) else { return nil }
        guard a[0..<5].allSatisfy({ $0 == 0 }), a[5] == 0xFFFF || (a[5] == 0 && (a[6] != 0 || a[7] > 1)) else { return nil }
        return [a[6] >> 8, a[6] & 0xFF, a[7] >> 8, a[7] & 0xFF].map { String($0) }.joined(separator: ".")
    }

    /// Loopback: 127.0.0.0/8, `[::1]`, and IPv6 forms of 127.x.
    public var isLoopback: Bool {
        switch kind {
        case .ipv4: ascii.hasPrefix("127.")
        case .ipv6: ascii == "[::1]" || (embeddedIPv4?.hasPrefix("127.") ?? false)
        case .domain: ascii == "localhost" || ascii.hasSuffix(".localhost")
        }
    }

    /// The IPv4 parser: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last
    /// part fills the remaining bytes.
    static func ipv4(_ labels: [String]) -> String? {
        guard (1...4).contains(labels.count) else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            var digits = Substring(label), radix = 10
            if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2); radix = 16 }
            else if digits.count > 1, digits.hasPrefix("0") { digits = digits.dropFirst(); radix = 8 }
            if digits.isEmpty { numbers.append(0); continue }
            guard digits.count <= 20, let n = UInt64(digits, radix: radix) else { return nil }
            numbers.append(n)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let lastBytes = 5 - numbers.count
        guard numbers.last! < (UInt64(1) << UInt64(8 * lastBytes)) else { return nil }
        var value = numbers.last!
        for (i, n) in numbers.dropLast().enumerated() { value += n << UInt64(8 * (3 - i)) }
        return (0..<4).map { String((value >> UInt64(8 * (3 - $0))) & 0xFF) }.joined(separator: ".")
    }
}

/// Punycode (RFC 3492), the encoding of IDNA `xn--` labels. Pure Swift.
public enum Punycode {
    static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    static func adapt(_ delta: Int, _ points: Int, _ first: Bool) -> Int {
        var d = first ? delta / damp : delta / 2
        d += d / points
        var k = 0
        while d > ((base - tMin) * tMax) / 2 { d /= base - tMin; k += base }
        return k + (base - tMin + 1) * d / (d + skew)
    }

    static func digit(_ d: Int) -> Character {
        Character(Unicode.Scalar(UInt8(d < 26 ? d + 97 : d - 26 + 48)))
    }

    static func value(_ c: Character) -> Int? {
        guard let a = c.asciiValue else { return nil }
        switch a {
        case 97...122: return Int(a) - 97
        case 65...90: return Int(a) - 65
        case 48...57: return Int(a) - 48 + 26
        default: return nil
        }
    }

    static func threshold(_ k: Int, _ bias: Int) -> Int { k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias }

    /// The punycode of a label's code points (without the `xn--` prefix).
    public static func encode(_ input: [UInt32]) -> String? {
        var out = String(String.UnicodeScalarView(input.filter { $0 < 0x80 }.compactMap(Unicode.Scalar.init)))
        let basic = out.count
        var handled = basic
        if basic > 0 { out.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.map(Int.init).filter({ $0 >= n }).min() else { return nil }
            let (grow, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - grow else { return nil }
            delta += grow
            n = m
            for c in input.map(Int.init) {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta, k = base
                    while true {
                        let t = threshold(k, bias)
                        if q < t { break }
                        out.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    out.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basic)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1; n += 1
        }
        return out
    }

    /// The code points of a punycode label (without the `xn--` prefix), or nil when invalid.
    public static func decode(_ text: String) -> [UInt32]? {
        let chars = Array(text)
        var out: [UInt32] = []
        var start = 0
        if let dash = chars.lastIndex(of: "-") {
            for c in chars[..<dash] { guard let a = c.asciiValue else { return nil }; out.append(UInt32(a)) }
            start = dash + 1
        }
        var n = initialN, i = 0, bias = initialBias, pos = start
        while pos < chars.count {
            let old = i
            var w = 1, k = base
            while true {
                guard pos < chars.count, let d = value(chars[pos]) else { return nil }
                pos += 1
                let (add, o1) = d.multipliedReportingOverflow(by: w)
                guard !o1, i <= Int(Int32.max) - add else { return nil }
                i += add
                let t = threshold(k, bias)
                if d < t { break }
                let (nw, o2) = w.multipliedReportingOverflow(by: base - t)
                guard !o2, nw <= Int(Int32.max) else { return nil }
                w = nw
                k += base
            }
            bias = adapt(i - old, out.count + 1, old == 0)
            n += i / (out.count + 1)
            guard n <= 0x10FFFF else { return nil }
            i %= out.count + 1
            out.insert(UInt32(n), at: i)
            i += 1
        }
        return out
    }
}
