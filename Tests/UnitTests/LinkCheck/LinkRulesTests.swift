import Foundation
import Testing

@testable import LinkCheck

/// Accepted statuses, credentials, Retry-After and the link cache, as pure values.
@Suite("LinkCheck: statuses, credentials, Retry-After, the cache")
struct LinkRulesTests {
    @Test("accepted statuses read lychee's ranges: ..= includes the end, .. excludes it")
    func statusRanges() throws {
        let r = try StatusRanges(parsing: "200..=204, 429,300..302")
        #expect(r.contains(200) && r.contains(204) && r.contains(429) && r.contains(301))
        #expect(!r.contains(205) && !r.contains(302) && !r.contains(404))
        for bad in ["", "ok", "299..=200", "200..200", "99", "1000"] { #expect(throws: StatusRanges.Invalid.self) { try StatusRanges(parsing: bad) } }
    }

    @Test("user:pass@ is taken out of a URL before it is requested; the host is the authority's")
    func credentials() {
        #expect(LinkURL.strippingCredentials("https://user:pass@example.com/a@b") == ("https://example.com/a@b", true))
        #expect(LinkURL.strippingCredentials("https://example.com/?u=a@b") == ("https://example.com/?u=a@b", false))
        #expect(LinkURL.host("https://u:p@Example.COM:8443/x") == "example.com")
        #expect(LinkURL.host("http://[::1]:80/") == "[::1]")
        #expect(LinkURL.scheme("HTTPS://x") == "https" && LinkURL.scheme("no scheme") == nil)
    }

    @Test("Retry-After: seconds or an HTTP date")
    func retryAfter() {
        #expect(RetryAfter.seconds("120") == 120)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("soon") == nil)
    }

    @Test("the cache gives back a passed link within its age only, never a failure; the key holds the rules")
    func cache() throws {
        var cache = LinkCache()
        let ok = LinkResult(
            url: "https://a.example/", outcome: .passed, status: 200, finalURL: "https://a.example/", chain: [LinkHop(url: "https://a.example/", status: 200)])
        let broken = LinkResult(url: "https://b.example/", outcome: .failed, failure: .status, status: 404)
        cache.record("k1", ok, now: 1000)
        cache.record("k2", broken, now: 1000)
        #expect(cache.fresh("k1", now: 1500, maxAge: 600)?.cached == true)
        #expect(cache.fresh("k1", now: 1700, maxAge: 600) == nil, "older than the age: asked again")
        #expect(cache.fresh("k2", now: 1001, maxAge: 600) == nil, "failures are always asked again")
        let back = try LinkCache(reading: cache.encoded())
        #expect(back.entries == cache.entries)
        #expect(throws: LinkCache.Unreadable.self) { try LinkCache(reading: Array("{not json".utf8)) }
        #expect(try LinkCache(reading: []).entries.isEmpty)
        var strict = LinkSettings()
        strict.maxRedirects = 0
        #expect(LinkCache.fingerprint(LinkSettings(), hostRules: "h") != LinkCache.fingerprint(strict, hostRules: "h"))
        #expect(LinkCache.fingerprint(LinkSettings(), hostRules: "h") != LinkCache.fingerprint(LinkSettings(), hostRules: "h2"))
        #expect(CacheAge.seconds("1d") == 86400 && CacheAge.seconds("30m") == 1800 && CacheAge.seconds("90") == 90 && CacheAge.seconds("x") == nil)
    }
}
