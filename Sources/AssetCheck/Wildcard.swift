import Payloads
import UserInput

/// Host and query-name patterns: `Glob`'s dialect, case-insensitive (both sides lower-cased).
package enum Wildcard {
    package static func matches(_ pattern: String, _ text: String, caseInsensitive: Bool = false) -> Bool {
        caseInsensitive ? Glob(pattern.lowercased()).matches(text.lowercased()) : Glob(pattern).matches(text)
    }

    /// Host patterns: "example.com" matches exactly; "*.example.com" matches any subdomain
    /// (not example.com itself); other wildcards as in `matches`. The pattern is normalised as
    /// hosts are (`URLHost.pattern`) and compared with the host's punycode and Unicode forms.
    package static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        guard case .success(let h) = URLHost.parse(host) else {
            return matches(URLHost.pattern(pattern).ascii, host, caseInsensitive: true)
        }
        return hostMatches(pattern, h)
    }

    package static func hostMatches(_ pattern: String, _ host: URLHost, lookalikes: Bool = false) -> Bool {
        denyReason(pattern, host, lookalikes: lookalikes) != nil
    }

    /// How a host matches a pattern: nil (it does not), "" (as written), or why it counts as the
    /// same host (deny lists only, `lookalikes`: look-alike letters, the IPv4 address an IPv6
    /// address carries, one loopback address for another).
    /// An IP address pattern (`[::1]`, `[0:0::1]`, `127.0.0.1`, `0x7f.1`) is an address, not a
    /// glob: both sides are compared canonical (`[` would otherwise open a glob's character set).
    package static func denyReason(_ pattern: String, _ host: URLHost, lookalikes: Bool) -> String? {
        var literal: URLHost? = nil
        if pattern.hasPrefix("[") || !Glob(pattern).hasWildcard, case .success(let h) = URLHost.parse(pattern), h.kind != .domain {
            literal = h
        } else if pattern.hasPrefix("[") {
            return nil  // not a valid IPv6 address: matches nothing
        }
        if let literal {
            if literal.ascii == host.ascii { return "" }
            guard lookalikes else { return nil }
            if let v4 = host.embeddedIPv4, v4 == literal.ascii || v4 == literal.embeddedIPv4 { return " — the same address written as IPv6 (\(host.ascii))" }
            if literal.isLoopback && reachesThisMachine(host) { return " — \(thisMachine(host)), the same machine as \(literal.ascii)" }
            return nil
        }
        let p = URLHost.pattern(pattern)
        // `evil.example..` is `evil.example` to a resolver: every trailing dot is dropped.
        let ascii = trimmingDots(host.ascii), unicode = trimmingDots(host.unicode)
        if matches(p.ascii, ascii, caseInsensitive: true) || matches(p.unicode, unicode, caseInsensitive: true) { return "" }
        guard lookalikes else { return nil }
        if matches(p.unicode, trimmingDots(host.skeleton), caseInsensitive: true) { return " — it looks like a denied host, written with look-alike letters" }
        if let v4 = host.embeddedIPv4, matches(p.ascii, v4) { return " — the same address written as IPv6 (\(host.ascii))" }
        if host.kind != .domain, reachesThisMachine(host), p.ascii == "localhost" { return " — \(thisMachine(host)), the same machine as localhost" }
        return nil
    }

    /// Loopback addresses, and the unspecified addresses `0.0.0.0` (also written `0`) and `[::]`
    /// (and `[::ffff:0.0.0.0]`), which a connection on Linux and macOS delivers to this machine.
    static func reachesThisMachine(_ host: URLHost) -> Bool {
        host.isLoopback || host.ascii == "0.0.0.0" || host.ascii == "[::]" || host.embeddedIPv4 == "0.0.0.0"
    }

    static func thisMachine(_ host: URLHost) -> String {
        host.isLoopback ? "a loopback address" : "the unspecified address \(host.ascii), which reaches this machine"
    }

    static func trimmingDots(_ s: String) -> String {
        var t = Substring(s)
        while t.count > 1, t.hasSuffix(".") { t = t.dropLast() }
        return String(t)
    }
}
