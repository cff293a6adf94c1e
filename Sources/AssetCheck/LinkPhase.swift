import Foundation
import LinkCheck
import Reporting
import UserInput

/// How `--check-links` runs: the rules, the transport (CurlBridge's libcurl, passed in by the
/// command), the cache file, and how to tell that the runner has no network at all.
package struct LinkRun: Sendable {
    package var transport: LinkTransport
    /// `--link-cache FILE` (nil: no cache).
    package var cachePath: String?
    /// `--link-cache-age`: seconds a passed result is trusted.
    package var cacheAge: Double = 86400
    /// Whether the machine has a route anywhere (NetworkProbe), asked only when every request failed to connect.
    package var networkAvailable: @Sendable () -> Bool
    package var now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    package init(transport: @escaping LinkTransport, networkAvailable: @escaping @Sendable () -> Bool) {
        self.transport = transport; self.networkAvailable = networkAvailable
    }
}

/// What the links came to, for the summaries.
package struct LinkSummary: Sendable, Equatable {
    package var checked = 0, passed = 0, failed = 0, excluded = 0, cached = 0
    /// Said on stderr and in the reports: a cache that did not read, a proxy named.
    package var warnings: [String] = []
    package init() {}
}

/// `--check-links` on a runner without network: one error, not a failure per link (exit 2).
package struct NoNetwork: Error, CustomStringConvertible {
    package var links: Int
    package var description: String {
        "--check-links: this machine has no network (no route to any address but its own), so "
            + (links == 1 ? "the link could not be checked. " : "none of the \(links) links could be checked. ")
            + "Run the check where the links can be reached, or without --check-links (and links: check: false)."
    }
}

extension CheckRunner {
    /// Every http(s) link of the images' codes requested once (or taken from the cache), each
    /// code given its link's result, and a `link.*` violation for each broken link.
    func checkLinks(_ results: inout [ImageResult], _ run: LinkRun, evaluator: Evaluator) async throws -> LinkSummary {
        var summary = LinkSummary()
        let excluders = try rules.links.excludeMatchers()
        var urls: [String] = []
        for img in results where img.error == nil {
            for c in img.codes { if let url = Self.link(c) { urls.append(url) } }
        }
        let hop = HopRules(url: rules.url)
        let fingerprint = LinkCache.fingerprint(rules.links.settings, hostRules: hop.fingerprintText)
        var cache = loadCache(run, &summary)
        let now = run.now()
        var known: [String: LinkResult] = [:]
        var ask: [String] = []
        for url in Set(urls) {
            if let (pattern, _) = excluders.first(where: { $0.1.wholeMatch(url) }) {
                known[url] = LinkResult(url: LinkURL.strippingCredentials(url).url, outcome: .excluded, reason: "links.exclude '\(pattern)'")
            } else if let hit = cache?.fresh(LinkCache.key(url, rules: fingerprint), now: now, maxAge: run.cacheAge) {
                known[url] = hit
            } else {
                ask.append(url)
            }
        }
        let checker = LinkChecker(settings: rules.links.settings, transport: run.transport, hopProblem: { hop.problem($0) })
        let asked = await checker.check(ask)
        if !asked.isEmpty, asked.values.allSatisfy({ $0.failure == .dns || $0.failure == .connect }), !run.networkAvailable() {
            throw NoNetwork(links: asked.count)
        }
        for (url, result) in asked {
            known[url] = result
            cache?.record(LinkCache.key(url, rules: fingerprint), result, now: now)
        }
        if var cache, let path = run.cachePath {
            cache.prune(now: now, keep: max(run.cacheAge, 86400) * 7)
            do { try SafeFile.write(cache.encoded(), to: path) } catch {
                summary.warnings.append("the link cache \(ArgumentBytes.display(path)) was not written: \(error)")
            }
        }
        for i in results.indices {
            for k in results[i].codes.indices {
                guard let url = Self.link(results[i].codes[k]), let result = known[url] else { continue }
                results[i].codes[k].link = result
                if let v = evaluator.linkViolation(results[i].codes[k], result) { results[i].violations.append(v) }
            }
        }
        for r in known.values {
            switch r.outcome {
            case .passed: summary.passed += 1
            case .failed: summary.failed += 1
            case .excluded: summary.excluded += 1
            }
            if r.cached { summary.cached += 1 }
        }
        summary.checked = known.count
        return summary
    }

    /// The code's payload when it is an http or https link.
    static func link(_ c: CodeResult) -> String? {
        guard let text = c.text, let scheme = LinkURL.scheme(text), scheme == "http" || scheme == "https" else { return nil }
        guard text.dropFirst(scheme.count + 1).hasPrefix("//") else { return nil }
        return text
    }

    /// The cache named by `--link-cache`: empty when the file is not there yet; a file that does
    /// not read is a warning and an empty cache (rewritten at the end).
    func loadCache(_ run: LinkRun, _ summary: inout LinkSummary) -> LinkCache? {
        guard let path = run.cachePath else { return nil }
        guard UserPath.exists(path) else { return LinkCache() }
        do {
            return try LinkCache(reading: FileIO.readInput(path, limit: 64 << 20, what: "the link cache"))
        } catch {
            summary.warnings.append("the link cache \(ArgumentBytes.display(path)) could not be read, so every link is asked again: \(error)")
            return LinkCache()
        }
    }
}

extension Evaluator {
    /// The violation of a broken link (nil for a link that passed or was excluded).
    func linkViolation(_ c: CodeResult, _ r: LinkResult) -> Violation? {
        guard r.outcome == .failed, let failure = r.failure else { return nil }
        var message = "\(describe(c)) links to \(quote(r.url)), which is broken: \(r.reason ?? failure.rawValue)"
        if let final = r.finalURL, final != r.url { message += "; final URL \(final)" }
        if r.chain.count > 1 { message += "; redirects: \(r.chainText)" }
        let fix: String
        switch failure {
        case .status: fix = "point the code at a page that exists (restore the page, or re-generate the code with its current link)"
        case .privateAddress:
            fix = "point the code at a public address; if the host really is internal and meant to be checked, use --links-allow-cidr for its network"
        case .redirectRules: fix = "link straight to the final page, or fix the redirect so that every hop keeps to the URL rules"
        case .redirectLoop, .tooManyRedirects: fix = "fix the redirects on the server, or link straight to the final page"
        case .timeout, .dns, .tls, .connect, .noNetwork, .error:
            fix = "check that the host is up and its name and certificate are right; a link people cannot open makes the code useless"
        }
        return Violation(rule: "link.\(failure.rawValue)", message: message, fix: fix, code: c.index)
    }
}
