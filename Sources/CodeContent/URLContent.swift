import Payloads

/// `url`: a link, its parts as a browser takes them (`URLParts`, the host through `URLHost`),
/// a look-alike host named, and credentials in it flagged: a password in `user:password@`, the
/// value of a token-like query parameter, a JWT anywhere in it.
enum URLContent {
    /// A scheme followed by `//`, or an http(s) scheme (which a browser reads without slashes).
    static func looksLikeURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        if lower.hasPrefix("http:") || lower.hasPrefix("https:") { return true }
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text[colon...].hasPrefix("://") else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isASCII && scheme.first!.isLetter && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// Query parameter names whose value is a credential (compared lower-cased, `-` as `_`).
    static let tokenNames: Set<String> = [
        "access_token", "id_token", "refresh_token", "token", "auth", "auth_token", "authorization", "apikey", "api_key", "sig",
        "signature", "secret", "client_secret", "password", "passwd", "pwd", "pass", "session", "sessionid", "session_id",
        "x_amz_signature", "x_amz_credential", "x_amz_security_token", "x_goog_signature", "x_goog_credential",
    ]

    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.url)
        do {
            let u = try URLParts.parse(text)
            c.set("scheme", .string(u.scheme))
            c.set("host", u.host)
            if let h = u.parsedHost, h.unicode != h.ascii { c.set("host_unicode", h.unicode) }
            if let p = u.port { c.set("port", .int(p)) }
            c.set("path", u.path)
            if !u.query.isEmpty { c.set("query", .array(u.query.map { .string($0.name) })) }
            if let look = u.parsedHost?.lookalike { c.set("lookalike", look.description) }
        } catch {
            c.set("scheme", String(text.prefix { $0 != ":" }).lowercased())
            c.problem("the link is not a valid URL: \(error.description)")
        }
        flagCredentials(text, in: &c)
        return c
    }

    /// The password of `user:password@`, token-like query values and JWTs, as the text writes them.
    static func flagCredentials(_ text: String, in c: inout CodeContent) {
        let beforeFragment = text.prefix { $0 != "#" }
        if let schemeEnd = beforeFragment.firstRange(of: "://") {
            let authority = beforeFragment[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let password = authority[authority.index(after: colon)..<at]
                c.secret("userinfo", kind: .urlPassword, written: String(password), before: ":")
            }
        }
        if let q = beforeFragment.firstIndex(of: "?") {
            for pair in beforeFragment[beforeFragment.index(after: q)...].split(separator: "&") {
                guard let eq = pair.firstIndex(of: "=") else { continue }
                let name = URLParts.percentDecoded(pair[..<eq]), value = String(pair[pair.index(after: eq)...])
                let key = name.lowercased().replacing("-", with: "_")
                if tokenNames.contains(key) || value == Redaction.mask { c.secret("query.\(name)", kind: .urlToken, written: value, before: pair[..<eq] + "=") }
            }
        }
        for jwt in JWT.find(in: text) { c.secret("jwt", kind: .jwt, written: jwt) }
    }
}

/// JSON Web Tokens (RFC 7519) in text: `eyJ` (a base64url JSON header), a payload, a signature.
enum JWT {
    static func find(in text: String) -> [String] {
        var out: [String] = []
        let chars = Array(text.unicodeScalars)
        var i = 0
        while i + 3 < chars.count {
            guard chars[i] == "e", chars[i + 1] == "y", chars[i + 2] == "J", i == 0 || !isBase64URL(chars[i - 1]) else { i += 1; continue }
            var j = i, dots = 0
            while j < chars.count, isBase64URL(chars[j]) || (chars[j] == "." && dots < 2) {
                if chars[j] == "." { dots += 1 }
                j += 1
            }
            let token = String(String.UnicodeScalarView(chars[i..<j]))
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            if dots == 2, parts[0].count >= 10, parts[1].count >= 4 { out.append(token) }
            i = max(j, i + 1)
        }
        return out
    }

    static func isBase64URL(_ s: Unicode.Scalar) -> Bool {
        s.isASCII && (("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_")
    }
}
