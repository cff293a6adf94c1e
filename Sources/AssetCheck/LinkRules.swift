import CodeContent
import LinkCheck
import Payloads

/// `--check-links` and the `links:` rules: whether each code's link is requested, which links
/// never are (`exclude`, lychee-style regular expressions matched anywhere in the URL), and how
/// a link is judged (LinkSettings: accepted statuses, timeout, redirects, retries, addresses).
package struct LinkRules: Sendable, Equatable {
    package var check = false
    package var exclude: [String] = []
    package var settings = LinkSettings()
    package init() {}

    /// The exclude patterns compiled; the first that does not compile is a rules error.
    package func excludeMatchers() throws(RulesFile.Error) -> [(String, URLPattern)] {
        try exclude.map { (p: String) throws(RulesFile.Error) -> (String, URLPattern) in
            var body = p
            var flags = ""
            if body.hasPrefix("(?i)") {
                flags = "(?i)"
                body = String(body.dropFirst(4))
            }
            do { return (p, try URLPattern("\(flags).*(?:\(body)).*")) } catch {
                throw RulesFile.Error("links.exclude", "'\(p)' is not a regular expression this check runs (\(error))")
            }
        }
    }
}

/// Check's URL rules as a redirect hop meets them: the scheme, allowed and denied hosts, and
/// look-alike hosts. A hop that breaks one is not followed, and the link fails naming it.
package struct HopRules: Sendable {
    package var url: URLRules
    package init(url: URLRules) { self.url = url }

    /// What is wrong with a hop to `target` (nil: it may be followed).
    package func problem(_ target: String) -> String? {
        guard let parts = try? URLParts.parse(target) else { return "not a URL" }
        if !url.schemes.contains(parts.scheme) {
            return "\(parts.scheme): links are not allowed (allowed: \(url.schemes.joined(separator: ", ")))"
        }
        guard let host = parts.parsedHost else { return url.allowHosts.isEmpty ? nil : "no host; allowed hosts: \(url.allowHosts.joined(separator: ", "))" }
        if !url.allowHosts.isEmpty && !url.allowHosts.contains(where: { Wildcard.hostMatches($0, host) }) {
            return "\(host.ascii) is not an allowed host (allowed: \(url.allowHosts.joined(separator: ", ")))"
        }
        if let deny = url.denyHosts.first(where: { Wildcard.denyReason($0, host, lookalikes: true) != nil }) {
            return "\(host.ascii) is denied ('\(deny)' in url.deny_hosts)"
        }
        if let look = host.lookalike, !url.allowHosts.contains(where: { !Evaluator.hasWildcard($0) && Wildcard.hostMatches($0, host) }) {
            return "\(host.ascii) is a look-alike host: \(look)"
        }
        return nil
    }

    /// The host rules as text, for the link cache's key (a change of rules asks again).
    package var fingerprintText: String {
        "schemes=\(url.schemes.joined(separator: ","))\nallow=\(url.allowHosts.joined(separator: ","))\ndeny=\(url.denyHosts.joined(separator: ","))"
    }
}
