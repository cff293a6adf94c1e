/// What checking one link found: passed, failed (and why), or excluded (never requested).
package struct LinkResult: Sendable, Equatable, Codable {
    package enum Outcome: String, Sendable, Codable { case passed, failed, excluded }
    /// Why a link failed; the rule id is `link.` + the raw value.
    package enum Failure: String, Sendable, Codable {
        case status, timeout, dns, tls, connect
        case privateAddress = "private_address"
        case redirectLoop = "redirect_loop"
        case tooManyRedirects = "too_many_redirects"
        case redirectRules = "redirect_rules"
        case noNetwork = "no_network"
        case error
    }

    /// The link as requested (credentials stripped).
    package var url: String
    package var outcome: Outcome
    package var failure: Failure?
    /// The final hop's HTTP status (nil: no answer).
    package var status: Int?
    /// The last URL asked.
    package var finalURL: String?
    /// Every hop asked, in order, with its status: the first is `url`.
    package var chain: [LinkHop] = []
    /// Why it failed, or why it was excluded, in words.
    package var reason: String?
    /// Taken from `--link-cache` (passed within `--link-cache-age`), not asked this run.
    package var cached = false

    package init(
        url: String, outcome: Outcome, failure: Failure? = nil, status: Int? = nil, finalURL: String? = nil, chain: [LinkHop] = [], reason: String? = nil
    ) {
        self.url = url; self.outcome = outcome; self.failure = failure; self.status = status; self.finalURL = finalURL
        self.chain = chain; self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case url, outcome, failure, status, chain, reason
        case finalURL = "final_url"
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decode(String.self, forKey: .url)
        outcome = try c.decode(Outcome.self, forKey: .outcome)
        failure = try c.decodeIfPresent(Failure.self, forKey: .failure)
        status = try c.decodeIfPresent(Int.self, forKey: .status)
        finalURL = try c.decodeIfPresent(String.self, forKey: .finalURL)
        chain = try c.decodeIfPresent([LinkHop].self, forKey: .chain) ?? []
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
    }

    /// The redirect chain in words: `a (301) → b (200)`.
    package var chainText: String {
        chain.map { "\($0.url) (\($0.status.map(String.init) ?? "no answer"))" }.joined(separator: " → ")
    }

    /// One line for people: `200, final https://…` / `404: HTTP 404 …`.
    package var summary: String {
        switch outcome {
        case .excluded: return "excluded (\(reason ?? "links.exclude")), not requested"
        case .passed, .failed:
            var s = outcome == .passed ? "ok \(status.map(String.init) ?? "")" : "broken: \(reason ?? "failed")"
            if let finalURL, finalURL != url { s += "; final URL \(finalURL)" }
            if chain.count > 1 { s += "; redirects: \(chainText)" }
            if cached { s += " (from the link cache)" }
            return s
        }
    }
}

/// One request of a link's chain: the URL asked and the status answered (nil: none).
package struct LinkHop: Sendable, Equatable, Codable {
    package var url: String
    package var status: Int?
    package init(url: String, status: Int?) { self.url = url; self.status = status }
}
