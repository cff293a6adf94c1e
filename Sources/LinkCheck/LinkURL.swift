import Foundation

/// What is done to a link's text before it is requested.
package enum LinkURL {
    /// The URL without its `user:pass@` part (which is never sent), and whether it had one.
    package static func strippingCredentials(_ url: String) -> (url: String, stripped: Bool) {
        guard let scheme = url.range(of: "://") else { return (url, false) }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return (url, false) }
        return (String(url[..<scheme.upperBound]) + String(rest[rest.index(after: at)...]), true)
    }

    /// The host of an absolute URL, lowercased, for the per-host limit (empty when none).
    package static func host(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "" }
        let rest = url[scheme.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return String(authority[...close]).lowercased() }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }

    /// The scheme, lowercased (nil: not an absolute URL).
    package static func scheme(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let s = url[..<colon]
        guard let first = s.first, first.isLetter, s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return s.lowercased()
    }
}

/// `Retry-After`: delay-seconds or an HTTP-date (RFC 9110, 10.2.3), as seconds from `now`.
package enum RetryAfter {
    package static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let s = Int(text), s >= 0 { return Double(s) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = f.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
