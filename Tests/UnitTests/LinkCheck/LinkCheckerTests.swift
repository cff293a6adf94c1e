import Foundation
import Testing

@testable import LinkCheck

/// LinkChecker's rules on a transport that answers from a table and records what it was asked.
@Suite("LinkCheck: redirects, retries, HEAD then GET, one request per URL")
struct LinkCheckerTests {
    final class Table: @unchecked Sendable {
        let lock = NSLock()
        var answers: [String: [HopResponse]]
        var asked: [HopRequest] = []
        init(_ answers: [String: [HopResponse]]) { self.answers = answers }
        /// The next answer for the URL (the last one repeats); HEAD and GET alike unless keyed "GET url".
        func answer(_ r: HopRequest) -> HopResponse {
            lock.withLock {
                asked.append(r)
                let key = answers["\(r.method.rawValue) \(r.url)"] != nil ? "\(r.method.rawValue) \(r.url)" : r.url
                guard var list = answers[key], !list.isEmpty else { return HopResponse(status: 404) }
                let next = list.removeFirst()
                answers[key] = list.isEmpty ? [next] : list
                return next
            }
        }
    }

    func checker(_ table: Table, _ edit: (inout LinkSettings) -> Void = { _ in }, hop: @escaping @Sendable (String) -> String? = { _ in nil }) -> LinkChecker {
        var s = LinkSettings()
        s.backoff = 0.001
        edit(&s)
        var c = LinkChecker(settings: s, transport: { r, _ in table.answer(r) }, hopProblem: hop)
        c.sleep = { _ in }
        return c
    }

    static func to(_ status: Int, _ location: String) -> HopResponse { HopResponse(status: status, location: location) }

    @Test("200 passes, 404 and 500 fail with their status; a 500 is retried")
    func statuses() async {
        let t = Table(["u/ok": [HopResponse(status: 200)], "u/404": [HopResponse(status: 404)], "u/500": [HopResponse(status: 500)]])
        let r = await checker(t).check(["u/ok", "u/404", "u/500"])
        #expect(r["u/ok"]?.outcome == .passed)
        #expect(r["u/404"]?.failure == .status && r["u/404"]?.status == 404)
        #expect(r["u/500"]?.failure == .status)
        #expect(t.asked.filter { $0.url == "u/500" }.count == 3, "asked once and retried twice")
        #expect(t.asked.filter { $0.url == "u/404" }.count == 1)
    }

    @Test("a redirect is followed hop by hop: the chain and the final URL")
    func redirectFollowed() async {
        let t = Table(["a": [Self.to(301, "b")], "b": [Self.to(302, "c")], "c": [HopResponse(status: 200)]])
        let r = await checker(t).check(["a"])["a"]!
        #expect(r.outcome == .passed && r.finalURL == "c")
        #expect(r.chain == [LinkHop(url: "a", status: 301), LinkHop(url: "b", status: 302), LinkHop(url: "c", status: 200)])
    }

    @Test("a hop that breaks the URL rules is not followed, and the failure names it")
    func hopRules() async {
        let t = Table(["a": [Self.to(302, "http://elsewhere.example/")]])
        let r = await checker(t, hop: { $0.contains("elsewhere") ? "not an allowed host" : nil }).check(["a"])["a"]!
        #expect(r.failure == .redirectRules)
        #expect(r.reason?.contains("http://elsewhere.example/") == true && r.reason?.contains("not an allowed host") == true)
        #expect(!t.asked.contains { $0.url.contains("elsewhere") })
    }

    @Test("a loop fails as a loop; more hops than --max-redirects fail as too many")
    func loopsAndLimits() async {
        let loop = Table(["a": [Self.to(302, "b")], "b": [Self.to(302, "a")]])
        #expect(await checker(loop).check(["a"])["a"]?.failure == .redirectLoop)
        let long = Table(["1": [Self.to(301, "2")], "2": [Self.to(301, "3")], "3": [Self.to(301, "4")], "4": [HopResponse(status: 200)]])
        #expect(await checker(long) { $0.maxRedirects = 2 }.check(["1"])["1"]?.failure == .tooManyRedirects)
        #expect(await checker(long) { $0.maxRedirects = 3 }.check(["1"])["1"]?.outcome == .passed)
    }

    @Test("HEAD refused with 405 or 501 is asked again with GET")
    func headThenGet() async {
        let t = Table([
            "HEAD a": [HopResponse(status: 405)], "GET a": [HopResponse(status: 200)], "HEAD b": [HopResponse(status: 501)],
            "GET b": [HopResponse(status: 200)],
        ])
        let r = await checker(t).check(["a", "b"])
        #expect(r["a"]?.outcome == .passed && r["b"]?.outcome == .passed)
        #expect(t.asked.map { "\($0.method.rawValue) \($0.url)" }.sorted() == ["GET a", "GET b", "HEAD a", "HEAD b"])
    }

    @Test("429 is asked again after Retry-After; a Retry-After past the timeout fails at once")
    func retryAfter() async {
        final class Waits: @unchecked Sendable {
            let lock = NSLock()
            var seconds: [Double] = []
        }
        let waits = Waits()
        let t = Table(["a": [HopResponse(status: 429, retryAfter: "3"), HopResponse(status: 200)], "b": [HopResponse(status: 503, retryAfter: "3600")]])
        var c = checker(t)
        c.sleep = { s in waits.lock.withLock { waits.seconds.append(s) } }
        let r = await c.check(["a", "b"])
        #expect(r["a"]?.outcome == .passed)
        #expect(waits.seconds == [3])
        #expect(r["b"]?.failure == .status && r["b"]?.reason?.contains("Retry-After 3600") == true)
    }

    @Test("a timeout is retried --link-retries times; a refused address is not retried")
    func retries() async {
        let t = Table(["slow": [.failed(.timeout, "timed out")], "private": [.failed(.privateAddress, "not checked: private address 127.0.0.1")]])
        let r = await checker(t) { $0.retries = 1 }.check(["slow", "private"])
        #expect(r["slow"]?.failure == .timeout && t.asked.filter { $0.url == "slow" }.count == 2)
        #expect(r["private"]?.failure == .privateAddress && t.asked.filter { $0.url == "private" }.count == 1)
    }

    @Test("one request per distinct URL, however many codes carry it; credentials never go with it")
    func distinct() async {
        let t = Table(["https://example.com/": [HopResponse(status: 200)]])
        let r = await checker(t).check(["https://example.com/", "https://example.com/", "https://user:pw@example.com/"])
        #expect(r.count == 2)
        #expect(t.asked.allSatisfy { $0.url == "https://example.com/" })
        #expect(t.asked.count == 1, "the URL with credentials is the same URL once they are taken out")
    }

    @Test("no more requests in flight to one host than the per-host limit")
    func perHost() async {
        final class Gauge: @unchecked Sendable {
            let lock = NSLock()
            var now = 0, most = 0
        }
        let g = Gauge()
        var s = LinkSettings()
        s.perHost = 2
        s.concurrency = 8
        let urls = (0..<10).map { "https://one.example/\($0)" }
        let c = LinkChecker(settings: s) { _, _ in
            g.lock.withLock {
                g.now += 1; g.most = max(g.most, g.now)
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
            g.lock.withLock { g.now -= 1 }
            return HopResponse(status: 200)
        }
        let r = await c.check(urls)
        #expect(r.values.allSatisfy { $0.outcome == .passed })
        #expect(g.most <= 2 && g.most >= 1, "\(g.most)")
    }
}
