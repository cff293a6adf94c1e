import CodeContent
import Payloads
import UserInput

/// The `url` rules on one code's payload, in the order they are reported: the link parses, then
/// its scheme, its host (allowed, denied, look-alike), and its form (pattern, query parameters,
/// campaign).
extension Evaluator {
    static let notLinks: Set<ContentType> = [.wifi, .epc, .swissQRBill, .vcard, .mecard, .emvco, .gs1, .secret]

    func checkURL(_ c: CodeResult) -> [Violation] {
        let u = rules.url
        guard let text = c.text else {
            return u.required
                ? [
                    Violation(
                        rule: "url.valid", message: "\(describe(c)) holds binary data, not a link",
                        fix: "encode the full link as text, starting with https://", code: c.index)
                ] : []
        }
        // With `required: false`, a payload of a known form that is no URI (Wi-Fi, a payment, a
        // contact, GS1 element strings, a key) is not a link to check.
        if !u.required, let content = CodeContent.read(text, gs1: c.code.isGS1), Self.notLinks.contains(content.type),
            content.field("digital_link") == nil
        {
            return []
        }
        let url: URLParts
        do { url = try URLParts.parse(text) } catch {
            return u.required
                ? [
                    Violation(
                        rule: "url.valid", message: "\(describeWithPayload(c)) is not a URL: \(error)",
                        fix: "encode the full link, starting with \(u.schemes.first ?? "https")://", code: c.index)
                ] : []
        }
        return schemeViolations(c, url, text) + hostViolations(c, url, text) + formViolations(c, url, text)
    }

    /// `url.schemes`.
    func schemeViolations(_ c: CodeResult, _ url: URLParts, _ text: String) -> [Violation] {
        let u = rules.url
        var v: [Violation] = []
        // An empty allow-list allows no scheme (an empty `--scheme ''` or `schemes: []` must not open the gate).
        if !u.schemes.contains(url.scheme) {
            let better = u.schemes.first ?? "https"
            let fixed = url.host.isEmpty || !text.contains("://") ? "" : ": \(better)" + text.drop(while: { $0 != ":" })
            let allowed = u.schemes.isEmpty ? "no scheme is allowed: url.schemes is empty" : "allowed: \(u.schemes.joined(separator: ", "))"
            v.append(
                Violation(
                    rule: "url.scheme", message: "\(describe(c)) links to \(quote(text)); \(url.scheme): links are not allowed (\(allowed))",
                    fix:
                        "re-generate the code with a \(better) link\(fixed)\(u.schemes.isEmpty ? ", and list the allowed schemes in url.schemes or --scheme" : "")",
                    code: c.index))
        }
        return v
    }

    /// `url.allow_hosts`, `url.deny_hosts`, and a look-alike host whatever the lists say.
    func hostViolations(_ c: CodeResult, _ url: URLParts, _ text: String) -> [Violation] {
        let u = rules.url
        var v: [Violation] = []
        if url.host.isEmpty && (!u.allowHosts.isEmpty) {
            v.append(
                Violation(
                    rule: "url.allow_hosts", message: "\(describe(c)) has no host; allowed hosts: \(u.allowHosts.joined(separator: ", "))",
                    fix: "encode a full link to one of the allowed hosts", code: c.index))
        } else if !url.host.isEmpty, let host = url.parsedHost {
            // The host as a phone opens it, and how the payload writes it when that differs.
            let shown = host.unicode != host.ascii ? "\(host.ascii) (\(host.unicode))" : host.ascii
            let written = url.writtenHost.lowercased() == host.ascii || url.writtenHost == host.unicode ? "" : ", written '\(url.writtenHost)'"
            if !u.allowHosts.isEmpty && !u.allowHosts.contains(where: { Wildcard.hostMatches($0, host) }) {
                var hint = ""
                let literal = u.allowHosts.map { $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 }.filter { !Self.hasWildcard($0) }
                let candidates = literal.map { ($0, DidYouMean.distance($0, url.host)) } + literal.map { ($0, DidYouMean.distance("www." + $0, url.host)) }
                if let best = candidates.min(by: { $0.1 < $1.1 }), best.1 > 0, best.1 <= 2 { hint = " — a typo of \(best.0)?" }
                v.append(
                    Violation(
                        rule: "url.allow_hosts",
                        message:
                            "\(describe(c)) points to \(shown)\(written), which is not an allowed host (allowed: \(u.allowHosts.joined(separator: ", ")))\(hint)",
                        fix:
                            "re-generate the code with a link to an allowed host\(hint.isEmpty ? "" : " (check the spelling of the domain)"), or add the host to url.allow_hosts if it is legitimate",
                        code: c.index))
            }
            let denied = u.denyHosts.lazy.compactMap({ d in Wildcard.denyReason(d, host, lookalikes: true).map { (d, $0) } }).first
            if let (deny, lookalike) = denied {
                v.append(
                    Violation(
                        rule: "url.deny_hosts",
                        message: "\(describe(c)) points to \(shown)\(written), which is denied ('\(deny)' in url.deny_hosts)\(lookalike)",
                        fix: "point the code at the production site, not a staging, test or internal host", code: c.index))
            }
            // A homograph is flagged whatever the lists say (once: a host deny_hosts already
            // refused is not flagged again), unless an allow-list entry without wildcards names
            // this very host (a real name in another script that is yours).
            if denied == nil, let look = host.lookalike, !u.allowHosts.contains(where: { !Self.hasWildcard($0) && Wildcard.hostMatches($0, host) }) {
                v.append(
                    Violation(
                        rule: "url.lookalike_host", message: "\(describe(c)) points to \(shown)\(written), a look-alike host: \(look)",
                        fix: "re-generate the code with the real host written in plain letters; if this host is really yours, list it in url.allow_hosts",
                        code: c.index))
            }
        }
        return v
    }

    /// `url.pattern`, `url.required_query`, `url.forbidden_query` and `url.campaign_expired`.
    func formViolations(_ c: CodeResult, _ url: URLParts, _ text: String) -> [Violation] {
        let u = rules.url
        var v: [Violation] = []
        if let regex, !regex.wholeMatch(text) {
            v.append(
                Violation(
                    rule: "url.pattern", message: "\(describe(c)) links to \(quote(text)), which does not match the required pattern \(u.pattern!)",
                    fix: "re-generate the code with a link of the agreed form", code: c.index))
        }
        for p in u.requiredQuery where !url.query.contains(where: { Wildcard.matches(p, $0.name, caseInsensitive: true) }) {
            v.append(
                Violation(
                    rule: "url.required_query", message: "\(describe(c)) links to \(quote(text)), which has no '\(p)' query parameter",
                    fix:
                        "add \(Self.hasWildcard(p) ? "the \(p) tracking parameters" : "\(p)=…") to the link (e.g. ?utm_source=poster&utm_medium=print&utm_campaign=…) and re-generate the code",
                    code: c.index))
        }
        for p in u.forbiddenQuery {
            for q in url.query where Wildcard.matches(p, q.name, caseInsensitive: true) {
                v.append(
                    Violation(
                        rule: "url.forbidden_query",
                        message:
                            "\(describe(c)) carries the query parameter '\(q.name)\(q.value.map { "=" + $0 } ?? "")', which must not ship ('\(p)' in url.forbidden_query)",
                        fix: "remove \(q.name) from the link and re-generate the code", code: c.index))
            }
        }
        if let campaign = url.query.first(where: { $0.name.lowercased() == u.campaignParameter.lowercased() })?.value,
            let expiry = u.campaignExpiry[campaign], expiry < today
        {
            v.append(
                Violation(
                    rule: "url.campaign_expired", message: "\(describe(c)) is for campaign '\(campaign)', which ended on \(expiry)",
                    fix: "update the code to the current campaign's link, or retire this asset", code: c.index))
        }
        return v
    }
}
