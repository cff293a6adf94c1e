import Payloads

/// A URL split into the parts the rules look at (RFC 3986 generic syntax, parsed by hand so the
/// checks do not depend on a platform's URL type and its leniency). The host goes through
/// `URLHost`, the WHATWG host parser phones follow (percent-decoding, UTS-46 mapping, punycode,
/// IPv4 forms), the same one `summarize` and `report` use.
package struct URLParts: Sendable, Equatable {
    package var scheme: String  // lowercased
    /// The host as a browser takes it (`URLHost.ascii`), without brackets or port; "" for scheme:path URLs.
    package var host: String
    /// The parsed host (nil for scheme:path URLs) and the host as the payload writes it.
    package var parsedHost: URLHost? = nil
    package var writtenHost = ""
    package var port: Int?
    /// What stands before the authority's last `@` (`user:password`), as written; nil when none.
    package var userinfo: String? = nil
    package var path: String
    package var query: [(name: String, value: String?)]
    package var fragment: String?

    package static func == (l: URLParts, r: URLParts) -> Bool {
        l.scheme == r.scheme && l.host == r.host && l.port == r.port && l.path == r.path && l.fragment == r.fragment
            && l.query.map(\.name) == r.query.map(\.name) && l.query.map(\.value) == r.query.map(\.value)
    }

    /// Why a payload is not a URL, for messages.
    package enum ParseError: Error, Equatable, CustomStringConvertible {
        case noScheme, badCharacter(Character), noHost, badPort(String), badHost(String, reason: String)
        package var description: String {
            switch self {
            case .noScheme: "it has no scheme (like https://)"
            case .badCharacter(let c):
                "it contains \(c.unicodeScalars.first.map { $0.value < 0x20 || $0 == " " ? "a space or control character" : "'\(c)'" } ?? "a bad character"), which a URL cannot hold unescaped"
            case .noHost: "it has no host name (an http(s) link needs one)"
            case .badPort(let p): "its port '\(p)' is not a number from 0 to 65535"
            case .badHost(let h, let reason): "its host '\(h)' is not a valid host name" + (reason.isEmpty ? "" : " (\(reason))")
            }
        }
    }

    static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// Parses as the WHATWG URL Standard's basic URL parser does (no base URL), except that what
    /// a browser would silently repair is refused: spaces, control characters (tabs and newlines
    /// included), `<>"{}|\^`` ` ``. For a special scheme (http, https, ws, wss, ftp) any number of
    /// slashes may stand between the scheme and the host, which is required; the authority ends
    /// at the first `/`, `?` or `#`; the credentials end at its last `@`; the port starts at the
    /// first `:` outside brackets; the host goes through `URLHost` (IPv6 canonicalised).
    package static func parse(_ text: String) throws(ParseError) -> URLParts {
        // Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { throw .noScheme }
        let schemeText = text[..<colon]
        guard schemeText.first!.isASCII, schemeText.first!.isLetter,
            schemeText.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { throw .noScheme }
        let scheme = schemeText.lowercased()
        for c in text where c.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || "<>\"{}|\\^`".unicodeScalars.contains($0) }) {
            throw .badCharacter(c)
        }
        var rest = text[text.index(after: colon)...]
        var fragment: String? = nil
        if let hash = rest.firstIndex(of: "#") { fragment = String(rest[rest.index(after: hash)...]); rest = rest[..<hash] }
        var queryText: Substring? = nil
        if let q = rest.firstIndex(of: "?") { queryText = rest[rest.index(after: q)...]; rest = rest[..<q] }
        var host = "", port: Int? = nil, path = String(rest)
        var parsedHost: URLHost? = nil, writtenHost = "", userinfo: String? = nil
        let special = URLHost.specialSchemes.contains(scheme)
        if special || rest.hasPrefix("//") {
            // Special: the "special authority ignore slashes" state skips every slash.
            let afterSlashes = special ? rest.drop(while: { $0 == "/" }) : rest.dropFirst(2)
            let authorityEnd = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            var authority = afterSlashes[..<authorityEnd]
            path = String(afterSlashes[authorityEnd...])
            if special && path.isEmpty { path = "/" }
            if let at = authority.lastIndex(of: "@") {
                userinfo = String(authority[..<at])
                authority = authority[authority.index(after: at)...]
            }
            // The port starts at the first ':' outside brackets.
            var inBrackets = false, portColon: Substring.Index? = nil
            for i in authority.indices {
                let c = authority[i]
                if c == "[" { inBrackets = true } else if c == "]" { inBrackets = false } else if c == ":" && !inBrackets { portColon = i; break }
            }
            host = String(authority[..<(portColon ?? authority.endIndex)])
            if let portColon { port = try parsePort(authority[authority.index(after: portColon)...]) }
            if let p = port, defaultPorts[scheme] == p { port = nil }
            guard !host.isEmpty else {
                if scheme == "file" { return URLParts(scheme: scheme, host: "", port: nil, path: path, query: parseQuery(queryText), fragment: fragment) }
                throw .noHost
            }
            if host.hasPrefix("[") && !host.hasSuffix("]") { throw .badHost(host, reason: "no closing ']'") }
            switch URLHost.parse(host) {
            case .success(let h):
                parsedHost = h
                writtenHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
                host = h.kind == .ipv6 ? String(h.ascii.dropFirst().dropLast()) : h.ascii
            case .failure(let f):
                throw .badHost(host, reason: f.description)
            }
            guard !host.isEmpty, !host.contains("..") else { throw .badHost(writtenHost, reason: "an empty label") }
        }
        return URLParts(
            scheme: scheme, host: host, parsedHost: parsedHost, writtenHost: writtenHost,
            port: port, userinfo: userinfo, path: path, query: parseQuery(queryText), fragment: fragment)
    }

    static func parseQuery(_ queryText: Substring?) -> [(name: String, value: String?)] {
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
        return query
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
