import Foundation

/// Checks links: each distinct URL once, hop by hop (every redirect target held against the
/// URL rules before it is asked), HEAD first and GET when HEAD is refused, 429 and 503 retried
/// after their Retry-After, timeouts and other 5xx retried with backoff, within the limits on
/// requests in flight. Pure logic: the requests are the transport's.
package struct LinkChecker: Sendable {
    package var settings: LinkSettings
    package var transport: LinkTransport
    /// Why a redirect target may not be followed (check's URL rules: scheme, hosts, look-alikes).
    package var hopProblem: @Sendable (String) -> String?
    /// How a retry waits (a test passes one that does not).
    package var sleep: @Sendable (Double) async -> Void = { s in try? await Task.sleep(nanoseconds: UInt64(max(0, s) * 1e9)) }

    package init(settings: LinkSettings, transport: @escaping LinkTransport, hopProblem: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.settings = settings; self.transport = transport; self.hopProblem = hopProblem
    }

    /// The result of each URL of `urls`, keyed by the URL as given: each distinct URL (once its
    /// credentials are taken out) is requested once.
    package func check(_ urls: [String]) async -> [String: LinkResult] {
        let limiter = RequestLimiter(overall: settings.concurrency, perHost: settings.perHost)
        let distinct = Array(Set(urls.map { LinkURL.strippingCredentials($0).url })).sorted()
        let results = await withTaskGroup(of: (String, LinkResult).self) { group in
            for url in distinct {
                group.addTask { (url, await self.checkOne(url, limiter: limiter)) }
            }
            var out: [String: LinkResult] = [:]
            for await (url, result) in group { out[url] = result }
            return out
        }
        var out: [String: LinkResult] = [:]
        for url in urls { out[url] = results[LinkURL.strippingCredentials(url).url] }
        return out
    }

    func checkOne(_ given: String, limiter: RequestLimiter) async -> LinkResult {
        let start = LinkURL.strippingCredentials(given).url
        var current = start
        var chain: [LinkHop] = []
        var seen: Set<String> = [start]
        func failed(_ failure: LinkResult.Failure, _ reason: String, status: Int? = nil) -> LinkResult {
            LinkResult(url: start, outcome: .failed, failure: failure, status: status, finalURL: current, chain: chain, reason: reason)
        }
        while true {
            let answer = await ask(current, limiter: limiter)
            chain.append(LinkHop(url: current, status: answer.status))
            if let failure = answer.failure { return failed(failure, answer.message ?? failure.rawValue, status: answer.status) }
            guard let status = answer.status else { return failed(.error, "no answer") }
            if (300...399).contains(status), status != 304, let location = answer.location {
                let next = LinkURL.strippingCredentials(location).url
                if chain.count > settings.maxRedirects {
                    return failed(.tooManyRedirects, "more than \(settings.maxRedirects) redirects (--max-redirects); the next hop was \(next)", status: status)
                }
                if seen.contains(next) { return failed(.redirectLoop, "a redirect loop: \(current) redirects (\(status)) back to \(next)", status: status) }
                if let problem = hopProblem(next) {
                    return failed(.redirectRules, "redirect hop \(chain.count) (\(status)) to \(next) breaks the URL rules: \(problem)", status: status)
                }
                seen.insert(next)
                current = next
                continue
            }
            if settings.accepted.contains(status) {
                return LinkResult(url: start, outcome: .passed, status: status, finalURL: current, chain: chain)
            }
            let why = (300...399).contains(status) ? "HTTP \(status) without a Location to follow" : "HTTP \(status)"
            return failed(.status, "\(why) (accepted: \(settings.accepted))", status: status)
        }
    }

    /// One hop asked until it has an answer worth judging: HEAD, then GET on 405 or 501; a 429
    /// or 503 asked again after its Retry-After (when that is within the timeout); a timeout or
    /// another 5xx asked again after a backoff; `retries` times at most.
    func ask(_ url: String, limiter: RequestLimiter) async -> HopResponse {
        var method = HopRequest.Method.head
        var retried = 0
        let host = LinkURL.host(url)
        while true {
            let request = HopRequest(url: url, method: method)
            let answer = await limiter.limited(host) { await transport(request, settings) }
            if method == .head, answer.status == 405 || answer.status == 501 {
                method = .get
                continue
            }
            guard retried < settings.retries else { return answer }
            var wait = settings.backoff * Double(1 << retried)
            if let status = answer.status, status == 429 || status == 503 {
                if let header = answer.retryAfter, let asked = RetryAfter.seconds(header) {
                    guard asked <= settings.timeout else {
                        var late = answer
                        late.message = "HTTP \(status) with Retry-After \(header), longer than the link timeout (\(settings.timeout) s)"
                        late.failure = .status
                        return late
                    }
                    wait = asked
                }
            } else if answer.failure != .timeout && !(answer.status.map { (500...599).contains($0) } ?? false) {
                return answer
            }
            retried += 1
            await sleep(min(wait, settings.timeout))
        }
    }
}
