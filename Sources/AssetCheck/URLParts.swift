import SweepCore
import CodeSweep

/// A URL split into the parts the rules look at (RFC 3986 generic syntax, parsed by hand so the
/// checks do not depend on a platform's URL type and its leniency). The host goes through
/// `URLHost`, the WHATWG host parser phones follow (percent-decoding, UTS-46 mapping, punycode,
/// IPv4 forms), the same one `summarize` and `report` use.
public struct URLParts: Sendable, Equatable {
    public var scheme: String          // lowercased
    /// The host as a browser takes it (`URLHost.ascii`), without brackets or port; "" for scheme:path URLs.
    public var host: String
    /// The parsed host (nil for scheme:path URLs) and the host as the payload writes it.
    public var parsedHost: URLHost? = nil
    public var writtenHost = ""
    public var port: Int?
    public var path: String
    public var query: [(name: String, value: String?)]
    public var fragment: String?

    public static func == (l: URLParts, r: URLParts) -> Bool {
        l.scheme == r.scheme && l.host == r.host && l.port == r.port && l.path == r.path && l.fragment == r.fragment
            && l.query.map(\.name) == r.query.map(\.name) && l.query.map(\.value) == r.query.map(\.value)
    }

    /// Why a payload is not a URL, for messages.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noScheme, badCharacter(Character), noHost, badPort(String), badHost(String, reason: String)
        public var description: String {
            switch self {
            case .noScheme: "it has no scheme (like https://)"
            case .badCharacter(let c): "it contains \(c.unicodeScalars.first.map { $0.value < 0x20 || $0 == " " ? "a space or control character" : "'\(c)'" } ?? "a bad character"), which a URL cannot hold unescaped"
            case .noHost: "it has no host name after '//'"
            case .badPort(let p): "its port '\(p)' is not a number from 0 to 65535"
            case .badHost(let h, let reason): "its host '\(h)' is not a valid host name" + (reason.isEmpty ? "" : " (\(reason))")
            }
        }
    }

    public static func parse(_ text: String) throws(ParseError) -> URLParts {
        // Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { throw .noScheme }
        let scheme = text[..<colon]
        guard scheme.first!.isASCII, scheme.first!.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { throw .noScheme }
        for c in text where c.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || "<>\"{}|\\^`".unicodeScalars.contains($0) }) {
            throw .badCharacter(c)
        }
        var rest = text[text.index(after: colon)...]
        var fragment: String? = nil
        if let hash = rest.firstIndex(of: "#") { fragment = String(rest[rest.index(after: hash)...]); rest = rest[..<hash] }
        var queryText: Substring? = nil
        if let q = rest.firstIndex(of: "?") { queryText = rest[rest.index(after: q)...]; rest = rest[..<q] }
        var host = "", port: Int? = nil, path = String(rest)
        var parsedHost: URLHost? = nil, writtenHost = ""
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let authorityEnd = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            var authority = afterSlashes[..<authorityEnd]
            path = String(afterSlashes[authorityEnd...])
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else { throw .badHost(String(authority), reason: "no closing ']'") }
                host = String(authority[authority.index(after: authority.startIndex)..<close])
                let after = authority[authority.index(after: close)...]
                if after.hasPrefix(":") { port = try parsePort(after.dropFirst()) } else if !after.isEmpty { throw .badHost(String(authority), reason: "text after ']'") }
            } else if let c = authority.lastIndex(of: ":") {
                host = String(authority[..<c])
                port = try parsePort(authority[authority.index(after: c)...])
            } else {
                host = String(authority)
            }
            guard !host.isEmpty else { throw .noHost }
            let bracketed = authority.hasPrefix("[")
            switch URLHost.parse(bracketed ? "[" + host + "]" : host) {
            case .success(let h):
                parsedHost = h
                writtenHost = host
                host = h.kind == .ipv6 ? String(h.ascii.dropFirst().dropLast()) : h.ascii
            case .failure(let f):
                throw .badHost(host, reason: f.description)
            }
            guard !host.isEmpty, !host.contains("..") else { throw .badHost(writtenHost, reason: "an empty label") }
        }
        var query: [(String, String?)] = []
        if let queryText, !queryText.isEmpty {
            for pair in queryText.split(separator: "&", omittingEmptySubsequences: true) {
                if let eq = pair.firstIndex(of: "=") {
                    query.append((percentDecoded(pair[..<eq]), percentDecoded(pair[pair.index(after: eq)...])))
                } else {
                    query.append((percentDecoded(pair), nil))
                }
            }
        }
        return URLParts(scheme: scheme.lowercased(), host: host, parsedHost: parsedHost, writtenHost: writtenHost,
                        port: port, path: path, query: query, fragment: fragment)
    }

    static func parsePort(_ s: Substring) throws(ParseError) -> Int? {
        if s.isEmpty { return nil }
        guard s.allSatisfy({ $0.isASCII && $0.isNumber }), let p = Int(s), p <= 65535 else { throw .badPort(String(s)) }
        return p
    }

    /// %XX sequences decoded as UTF-8 ('+' is a space in form-encoded queries); invalid ones kept.
    static func percentDecoded<S: StringProtocol>(_ s: S) -> String {
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.first {
            if b == UInt8(ascii: "%"), u.count >= 3, let h = hex(u[u.startIndex + 1]), let l = hex(u[u.startIndex + 2]) {
                bytes.append(h << 4 | l); u = u.dropFirst(3)
            } else {
                bytes.append(b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b); u = u.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Host and query-name patterns: `Glob`'s dialect, case-insensitive (both sides lower-cased).
public enum Wildcard {
    public static func matches(_ pattern: String, _ text: String, caseInsensitive: Bool = false) -> Bool {
        caseInsensitive ? Glob(pattern.lowercased()).matches(text.lowercased()) : Glob(pattern).matches(text)
    }

    /// Host patterns: "example.com" matches exactly; "*.example.com" matches any subdomain
    /// (not example.com itself); other wildcards as in `matches`. The pattern is normalised as
    /// hosts are (`URLHost.pattern`) and compared with the host's punycode and Unicode forms.
    public static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        guard case .success(let h) = URLHost.parse(host) else {
            return matches(URLHost.pattern(pattern).ascii, host, caseInsensitive: true)
        }
        return hostMatches(pattern, h)
    }

    public static func hostMatches(_ pattern: String, _ host: URLHost, lookalikes: Bool = false) -> Bool {
        let p = URLHost.pattern(pattern)
        return matches(p.ascii, host.ascii, caseInsensitive: true) || matches(p.unicode, host.unicode, caseInsensitive: true)
            || (lookalikes && matches(p.unicode, host.skeleton, caseInsensitive: true))
    }
}
