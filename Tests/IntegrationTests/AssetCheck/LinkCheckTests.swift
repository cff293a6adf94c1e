import Foundation
import TestSupport
import Testing

/// `check --check-links` against a web server the test starts on loopback (LinkServer): one
/// test per rule of issue 62. The loopback server is a private address, so each test allows
/// 127.0.0.0/8 (or all private addresses) except the ones that prove the refusal.
@Suite("check --check-links: links requested, judged and reported")
struct LinkCheckTests {
    static let allow = ["--links-allow-cidr", "127.0.0.0/8"]

    struct Checked {
        var result: ProcessResult
        var report: [String: Any]
        var dir: TempDir
        /// The `link` object of the first code of image `name`.
        func link(_ name: String) -> [String: Any]? {
            let images = report["images"] as? [[String: Any]] ?? []
            let image = images.first { ($0["path"] as? String)?.hasSuffix(name) == true }
            return (image?["codes"] as? [[String: Any]])?.first?["link"] as? [String: Any]
        }
        func rules(_ name: String) -> [String] {
            let images = report["images"] as? [[String: Any]] ?? []
            let image = images.first { ($0["path"] as? String)?.hasSuffix(name) == true }
            return (image?["violations"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } ?? []
        }
        var output: String { result.stdout + result.stderr }
    }

    /// Each payload as a QR code image (`1.png`, `2.png`, ...) checked with `args`, http allowed.
    func check(_ payloads: [String], _ args: [String], env: [String: String] = [:], dir given: TempDir? = nil) throws -> Checked {
        let dir = try given ?? TempDir("links")
        for (i, p) in payloads.enumerated() where !FileManager.default.fileExists(atPath: dir.file("\(i + 1).png")) {
            try Make.qr(p, to: dir.file("\(i + 1).png"), scale: 6, margin: 4)
        }
        let r = try run(
            codesweepBinary, ["check", "-j", "1", "--no-rules-file", "--scheme", "http,https", "--json", dir.file("report.json")] + args + [dir.path],
            env: env, check: false)
        let data = (try? Data(contentsOf: URL(fileURLWithPath: dir.file("report.json")))) ?? Data()
        let report = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Checked(result: r, report: report, dir: dir)
    }

    @Test("200 passes; 404 and 500 fail with their status (a 500 retried --link-retries times)")
    func statuses() throws {
        let s = try LinkServer()
        let c = try check([s.url("/ok"), s.url("/status/404"), s.url("/status/500")], ["--check-links", "--link-retries", "1"] + Self.allow)
        #expect(c.result.status == 1, "\(c.output)")
        #expect(c.link("1.png")?["outcome"] as? String == "passed" && c.link("1.png")?["status"] as? Int == 200, "\(c.output)")
        #expect(c.link("2.png")?["status"] as? Int == 404 && c.rules("2.png") == ["link.status"])
        #expect(c.link("3.png")?["status"] as? Int == 500 && c.rules("3.png") == ["link.status"])
        #expect(s.paths().filter { $0 == "/status/500" }.count == 2, "asked, then retried once: \(s.paths())")
        #expect(s.paths().filter { $0 == "/status/404" }.count == 1)
        #expect(c.rules("1.png").isEmpty)
    }

    @Test("a 301 is followed: the final URL and the chain are reported")
    func redirectFollowed() throws {
        let s = try LinkServer()
        let c = try check([s.url("/redirect/301")], ["--check-links"] + Self.allow)
        #expect(c.result.status == 0, "\(c.output)")
        let link = c.link("1.png")
        #expect(link?["final_url"] as? String == s.url("/ok"))
        let chain = (link?["redirects"] as? [[String: Any]])?.map { "\($0["url"] ?? "") \($0["status"] ?? "")" }
        #expect(chain == ["\(s.url("/redirect/301")) 301", "\(s.url("/ok")) 200"], "\(String(describing: chain))")
    }

    @Test("a 302 to a host outside the allow list is not followed, and the failure names the hop")
    func redirectOutsideAllowList() throws {
        let s = try LinkServer()
        let away = "https://outside.example/page"
        let c = try check([s.url("/to?u=\(away)")], ["--check-links", "--allow-host", "127.0.0.1"] + Self.allow)
        #expect(c.result.status == 1, "\(c.output)")
        #expect(c.rules("1.png") == ["link.redirect_rules"], "\(c.output)")
        let reason = c.link("1.png")?["reason"] as? String ?? ""
        #expect(reason.contains(away) && reason.contains("outside.example is not an allowed host"), "\(reason)")
    }

    @Test("a redirect loop fails as a loop")
    func loop() throws {
        let s = try LinkServer()
        let c = try check([s.url("/loop/a")], ["--check-links"] + Self.allow)
        #expect(c.result.status == 1 && c.rules("1.png") == ["link.redirect_loop"], "\(c.output)")
        #expect(s.paths() == ["/loop/a", "/loop/b"])
    }

    @Test("an answer slower than --link-timeout fails as a timeout")
    func slow() throws {
        let s = try LinkServer()
        let c = try check([s.url("/slow")], ["--check-links", "--link-timeout", "1", "--link-retries", "0"] + Self.allow)
        #expect(c.result.status == 1 && c.rules("1.png") == ["link.timeout"], "\(c.output)")
    }

    @Test("HEAD refused with 405 is asked again with GET, which passes")
    func headThenGet() throws {
        let s = try LinkServer()
        let c = try check([s.url("/head405")], ["--check-links"] + Self.allow)
        #expect(c.result.status == 0, "\(c.output)")
        #expect(s.requests.map { "\($0["method"] ?? "") \($0["path"] ?? "")" } == ["HEAD /head405", "GET /head405"])
    }

    @Test("429 with Retry-After is asked again after the wait, then passes")
    func retryAfter() throws {
        let s = try LinkServer()
        let c = try check([s.url("/busy/a")], ["--check-links"] + Self.allow)
        #expect(c.result.status == 0, "\(c.output)")
        let times = s.requests.compactMap { $0["time"] as? Double }
        #expect(times.count == 2 && times[1] - times[0] >= 0.9, "\(times)")
    }

    @Test("private addresses are refused by default: loopback, a name pinned to 127.0.0.1, an IPv4-mapped IPv6 address; the server sees nothing")
    func privateRefused() throws {
        let s = try LinkServer()
        let named = "http://links.test:\(s.port)/ok"
        let mapped = "http://[::ffff:127.0.0.1]:\(s.port)/ok"
        let c = try check([s.url("/ok"), named, mapped], ["--check-links", "--link-resolve", "links.test:\(s.port):127.0.0.1"])
        #expect(c.result.status == 1, "\(c.output)")
        for name in ["1.png", "2.png", "3.png"] {
            #expect(c.rules(name) == ["link.private_address"], "\(name): \(c.output)")
            #expect((c.link(name)?["reason"] as? String)?.contains("not checked: private address") == true)
        }
        #expect((c.link("3.png")?["reason"] as? String)?.contains("127.0.0.1") == true)
        #expect(s.requests.isEmpty, "\(s.requests)")
        // The same name with loopback allowed is requested (the pin works): the refusal was the address's.
        let allowed = try check([named], ["--check-links", "--link-resolve", "links.test:\(s.port):127.0.0.1"] + Self.allow)
        #expect(allowed.result.status == 0, "\(allowed.output)")
        #expect(s.requests.first?["host"] as? String == "links.test:\(s.port)")
    }

    @Test("user:pass@ is stripped before the request: the server sees no credentials; no cookie, the tool's user agent")
    func credentials() throws {
        let s = try LinkServer()
        let c = try check(
            ["http://alice:s3cret@127.0.0.1:\(s.port)/ok"], ["--check-links", "--url-optional"] + Self.allow,
            env: ["http_proxy": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9"])
        #expect(c.link("1.png")?["outcome"] as? String == "passed", "the environment's proxy is not used: \(c.output)")
        #expect(c.link("1.png")?["url"] as? String == s.url("/ok"))
        let seen = s.requests
        #expect(seen.count == 1 && seen[0]["authorization"] == nil && seen[0]["cookie"] == nil, "\(seen)")
        #expect((seen.first?["user-agent"] as? String)?.hasPrefix("codesweep/") == true, "\(seen)")
        #expect(!(String(data: (try? Data(contentsOf: URL(fileURLWithPath: s.log))) ?? Data(), encoding: .utf8) ?? "").contains("s3cret"))
    }

    @Test("--link-cache: a second run asks nothing about links that passed, and asks again about a broken one")
    func cache() throws {
        let s = try LinkServer()
        let dir = try TempDir("links-cache")
        let args = ["--check-links", "--link-cache", dir.file("links.json")] + Self.allow
        let first = try check([s.url("/ok"), s.url("/status/404")], args + ["--link-retries", "0"], dir: dir)
        #expect(first.result.status == 1 && s.paths().sorted() == ["/ok", "/status/404"], "\(first.output) \(s.paths())")
        let second = try check([s.url("/ok"), s.url("/status/404")], args + ["--link-retries", "0"], dir: dir)
        #expect(s.paths().filter { $0 == "/ok" }.count == 1, "the passed link came from the cache: \(s.paths())")
        #expect(s.paths().filter { $0 == "/status/404" }.count == 2, "the broken link was asked again")
        #expect(second.link("1.png")?["cached"] as? Bool == true)
        #expect((second.report["links"] as? [String: Any])?["cached"] as? Int == 1)
        // A cache that does not read is a warning, and every link is asked again.
        try Data("{broken".utf8).write(to: URL(fileURLWithPath: dir.file("links.json")))
        let third = try check([s.url("/ok"), s.url("/status/404")], args + ["--link-retries", "0"], dir: dir)
        #expect(third.result.stderr.contains("could not be read"), "\(third.output)")
        #expect(s.paths().filter { $0 == "/ok" }.count == 2)
    }

    @Test("without --check-links no request is made; a link flag without it is a usage error")
    func noRequestWithout() throws {
        let s = try LinkServer()
        let c = try check([s.url("/ok"), s.url("/status/404")], [])
        #expect(c.result.status == 0, "\(c.output)")
        #expect(s.requests.isEmpty && c.report["links"] == nil)
        let flag = try check([s.url("/ok")], ["--link-cache", c.dir.file("x.json")], dir: c.dir)
        #expect(flag.result.status == 2 && flag.result.stderr.contains("--link-cache needs --check-links"), "\(flag.output)")
        #expect(s.requests.isEmpty)
    }

    @Test("links: check: true and links.exclude in .codesweep.yml; an excluded link is never requested")
    func rulesFile() throws {
        let s = try LinkServer()
        let dir = try TempDir("links-yml")
        try Make.qr(s.url("/ok"), to: dir.file("a.png"), scale: 6, margin: 4)
        try Make.qr(s.url("/status/404?skip=1"), to: dir.file("b.png"), scale: 6, margin: 4)
        let yml = "url:\n  schemes: [http]\nlinks:\n  check: true\n  exclude: ['skip=1$']\n"
        try Data(yml.utf8).write(to: URL(fileURLWithPath: dir.file(".codesweep.yml")))
        let r = try run(codesweepBinary, ["check", "-j", "1", "-v", "--links-allow-private"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("excluded (links.exclude 'skip=1$')"), "\(r.stdout)")
        #expect(s.paths() == ["/ok"])
    }

    @Test("every output shows each link's status, final URL, redirect chain and why it failed")
    func outputs() throws {
        let s = try LinkServer()
        let dir = try TempDir("links-out")
        let args = ["--check-links", "--junit", dir.file("junit.xml"), "--github", "-v"] + Self.allow
        let c = try check([s.url("/redirect/302"), s.url("/to?u=/status/404")], args, dir: dir)
        #expect(c.result.status == 1, "\(c.output)")
        let text = c.result.stdout
        #expect(text.contains("link: ok 200; final URL \(s.url("/ok")); redirects: \(s.url("/redirect/302")) (302) → \(s.url("/ok")) (200)"), "\(text)")
        #expect(text.contains("link.status") && text.contains("HTTP 404") && text.contains("links: 2 distinct, 1 ok, 1 broken"), "\(text)")
        #expect(text.contains("::error file=") && text.contains("title=codesweep link.status"), "GitHub annotations: \(text)")
        #expect(text.contains("final URL \(s.url("/status/404")); redirects: \(s.url("/to?u=/status/404")) (302) → \(s.url("/status/404")) (404)"))
        let junit = (try? String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)) ?? ""
        #expect(junit.contains("link: ok 200; final URL") && junit.contains("type=\"link.status\"") && junit.contains("(302) → "), "\(junit)")
        let failed = c.link("2.png")
        #expect(failed?["failure"] as? String == "link.status" && (failed?["reason"] as? String)?.contains("HTTP 404") == true)
        #expect((failed?["redirects"] as? [Any])?.count == 2 && failed?["final_url"] as? String == s.url("/status/404"))
    }

    @Test("a certificate no one trusts fails as TLS; nothing is asked over it")
    func tls() throws {
        let s = try LinkServer(tls: true)
        let c = try check([s.url("/ok")], ["--check-links", "--link-retries", "0"] + Self.allow)
        #expect(c.result.status == 1 && c.rules("1.png") == ["link.tls"], "\(c.output)")
        #expect(s.requests.isEmpty)
    }

    @Test("--link-proxy sends the request through the proxy named, with a warning that addresses cannot be checked")
    func proxy() throws {
        let s = try LinkServer()  // Python's handler answers an absolute request target as a proxy would
        let c = try check(["http://through.proxy.test/ok"], ["--check-links", "--link-proxy", s.url("")])
        #expect(c.result.status == 0, "\(c.output)")
        #expect(c.result.stderr.contains("warning: --link-proxy") && c.result.stderr.contains("cannot be checked"), "\(c.result.stderr)")
        #expect(s.paths() == ["http://through.proxy.test/ok"], "\(s.paths())")
    }

    @Test(
        "a runner with no network at all gets one clear error (exit 2), not a failure per link",
        .enabled(if: (try? run("unshare", ["-n", "true"], check: false).status) == 0, "needs unshare -n (root)"))
    func noNetwork() throws {
        let dir = try TempDir("links-offline")
        try Make.qr("https://www.example.com/a", to: dir.file("a.png"), scale: 6, margin: 4)
        try Make.qr("https://www.example.org/b", to: dir.file("b.png"), scale: 6, margin: 4)
        let r = try run("unshare", ["-n", codesweepBinary, "check", "-j", "1", "--no-rules-file", "--check-links", dir.path], check: false)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("no network") && r.stderr.contains("none of the 2 links"), "\(r.stderr)")
    }
}
