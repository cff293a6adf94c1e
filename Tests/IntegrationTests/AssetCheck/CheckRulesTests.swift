import CodeContent
import Foundation
import Payloads
import TestSupport
import Testing

@testable import AssetCheck

/// Every rule passing on the good asset and failing on the asset made to break it. The assets are
/// generated (qrencode, zint, /usr/bin/convert) and decoded for real by CheckFixtures.
@Suite("Check rules")
struct CheckRulesTests {
    @Test("The assets decode to what was encoded")
    func assetsDecode() async throws {
        let s = try await CheckFixtures.scanned.value
        #expect(s.records["good.png"]?.codes.map { PayloadText.decode($0.bytes).text } == [CheckFixtures.good])
        #expect(s.records["http.png"]?.codes.count == 1)
        #expect(s.records["missing.png"]?.codes.isEmpty == true)
        #expect(s.records["too-small.png"]?.codes.count == 1, "the 1 px code must still be found by the full scan plan")
        #expect(Set(s.records["two-codes.png"]?.codes.map(\.symbology) ?? []) == [.qr, .code128])
    }

    @Test("scheme allow-list: https passes, http fails (https is the default)")
    func scheme() async throws {
        let r = CheckRules()  // defaults: url.schemes = [https]
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        let bad = try await CheckFixtures.evaluate("http.png", r)
        #expect(bad.rules == ["url.scheme"])
        #expect(bad.violations[0].fix.contains("https://www.example.com/spring"))
        #expect(bad.violations[0].code == 1)
        let httpAllowed = CheckFixtures.rules { $0.url.schemes = ["https", "http"] }
        #expect(try await CheckFixtures.evaluate("http.png", httpAllowed).rules.isEmpty)
    }

    @Test("host allow-list with wildcards: example.com subdomains pass, a typo'd domain fails with a hint")
    func allowHosts() async throws {
        let r = CheckFixtures.rules { $0.url.allowHosts = ["example.com", "*.example.com"] }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        let bad = try await CheckFixtures.evaluate("wrong-host.png", r)
        #expect(bad.rules == ["url.allow_hosts"])
        #expect(bad.violations[0].message.contains("www.exmaple.com"))
        #expect(bad.violations[0].message.contains("typo of example.com"))
        // The bare domain does not match "*.example.com" alone.
        #expect(!Wildcard.hostMatches("*.example.com", "example.com"))
        #expect(Wildcard.hostMatches("*.example.com", "a.b.example.com"))
    }

    @Test("host deny-list and forbidden/required query parameters")
    func denyAndQuery() async throws {
        let r = CheckFixtures.rules {
            $0.url.denyHosts = ["staging.*", "localhost"]
            $0.url.forbiddenQuery = ["debug"]
            $0.url.requiredQuery = ["utm_*", "utm_medium"]
        }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        let bad = try await CheckFixtures.evaluate("staging.png", r)
        #expect(bad.rules.sorted() == ["url.deny_hosts", "url.forbidden_query", "url.required_query"])
        #expect(bad.violations.first { $0.rule == "url.required_query" }?.message.contains("'utm_medium'") == true)
        #expect(bad.violations.first { $0.rule == "url.forbidden_query" }?.message.contains("debug=1") == true)
    }

    @Test("regex on the whole URL and campaign expiry")
    func patternAndCampaign() async throws {
        let r = CheckFixtures.rules {
            $0.url.pattern = #"https://www\.example\.com/[a-z]+\?.*"#
            $0.url.campaignExpiry = ["winter-2025": "2025-03-31"]
        }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        let bad = try await CheckFixtures.evaluate("staging.png", r, today: "2026-01-01")
        #expect(bad.rules.sorted() == ["url.campaign_expired", "url.pattern"])
        // Before the campaign ended it is fine.
        #expect(try await CheckFixtures.evaluate("staging.png", r, today: "2025-03-31").rules == ["url.pattern"])
        #expect(throws: Evaluator.InvalidRule.self) {
            try Evaluator(rules: CheckFixtures.rules { $0.url.pattern = "(" }, context: PathContext(currentDirectory: "/"), today: "2026-01-01")
        }
    }

    @Test("require_code: an image matching the glob without a code fails")
    func requireCode() async throws {
        let r = CheckFixtures.rules { $0.requireCode = ["*.png"] }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        #expect(try await CheckFixtures.evaluate("missing.png", r).rules == ["require_code"])
        // Not required for other names, and a path glob is anchored at the rules folder.
        #expect(try await CheckFixtures.evaluate("missing.png", CheckFixtures.rules { $0.requireCode = ["posters/*"] }).rules.isEmpty)
        #expect(try await CheckFixtures.evaluate("missing.png", CheckFixtures.rules { $0.requireCode = ["**/missing.*"] }).rules == ["require_code"])
    }

    @Test("min/max codes and allowed symbologies")
    func countsAndSymbologies() async throws {
        let r = CheckFixtures.rules {
            $0.maxCodes = 1; $0.minCodes = 1; $0.symbologies = [.qr]
        }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        #expect(try await CheckFixtures.evaluate("two-codes.png", r).rules.sorted() == ["max_codes", "symbologies"])
        #expect(try await CheckFixtures.evaluate("missing.png", r).rules == ["min_codes"])
    }

    @Test("expectations: the exact payload passes, another payload fails, a listed image that is missing fails")
    func expectations() async throws {
        let s = try await CheckFixtures.scanned.value
        let text = """
            good.png: "\(CheckFixtures.good)"
            mismatch.png: "\(CheckFixtures.good)"
            gone.png: "https://www.example.com/gone"
            """
        let list = try RulesFile.parseExpectations(text, source: "expected.yml", directory: s.dir.path + "/assets")
        let r = CheckFixtures.rules { $0.expectations = list }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        let bad = try await CheckFixtures.evaluate("mismatch.png", r)
        #expect(bad.rules == ["expectations"])
        #expect(bad.violations[0].message.contains("/summer?"))
        let evaluator = try Evaluator(rules: r, context: PathContext(currentDirectory: s.dir.path), today: "2026-01-01")
        let missing = evaluator.unmatchedExpectations(checked: s.records.values.map(\.path))
        #expect(missing.map(\.path) == ["assets/gone.png"])
        #expect(missing.first?.status == .failed)
    }

    @Test("scannability: a 4 px-module code grades at least C, a 1 px-module code grades F and fails min_grade")
    func grade() async throws {
        let s = try await CheckFixtures.scanned.value
        let good = try #require(s.scans["good.png"]?.first ?? nil)
        #expect(good.readsAsIs)
        #expect(good.version == 6, "qrencode -l M, 93 bytes: version 6 (41 modules)")
        #expect(abs((good.modulePx ?? 0) - 4) < 0.5)
        #expect(good.quietZoneModules ?? 0 >= 4)
        #expect(good.contrast > 0.7)
        #expect(good.grade >= .C)
        let small = try #require(s.scans["too-small.png"]?.first ?? nil)
        #expect(small.grade == .F)
        #expect((small.modulePx ?? 9) < 1.5)
        let r = CheckFixtures.rules { $0.minGrade = .C }
        #expect(try await CheckFixtures.evaluate("good.png", r).rules.isEmpty)
        let bad = try await CheckFixtures.evaluate("too-small.png", r)
        #expect(bad.rules == ["min_grade"])
        #expect(bad.violations[0].fix.contains("make the code larger"))
    }

    @Test("the rules file: every key, and unknown keys are errors")
    func rulesFile() throws {
        let yaml = """
            version: 1
            paths: [assets]
            require_code: ["posters/*"]
            min_codes: 0
            max_codes: 2
            symbologies: qr,ean13
            min_grade: B
            url:
              applies_to: [qr]
              required: false
              schemes: [HTTPS]
              allow_hosts: ["*.example.com"]
              deny_hosts: [staging.example.com]
              pattern: '^https://.*$'
              required_query: [utm_source]
              forbidden_query: [debug]
              campaigns:
                param: cmp
                expires: {spring: 2025-06-30}
            expect:
              a.png: https://example.com/a
            """
        let r = try RulesFile.parse(yaml)
        #expect(r.paths == ["assets"] && r.requireCode == ["posters/*"] && r.maxCodes == 2 && r.minGrade == .B)
        #expect(r.symbologies == [.qr, .ean13])
        #expect(r.url.schemes == ["https"] && r.url.required == false && r.url.campaignParameter == "cmp")
        #expect(r.url.campaignExpiry == ["spring": "2025-06-30"])
        #expect(r.expectations == [Expectation(path: "a.png", payloads: ["https://example.com/a"])])
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("min_grde: C") }
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("url:\n  scheme: [https]") }
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("min_grade: Q") }
    }

    @Test("URL parsing")
    func urlParsing() throws {
        let u = try URLParts.parse("HTTPS://User@WWW.Example.com.:8443/a/b?utm_source=x%20y&debug&q=1+2#top")
        #expect(u.scheme == "https" && u.host == "www.example.com" && u.port == 8443 && u.path == "/a/b" && u.fragment == "top")
        #expect(u.query.map(\.name) == ["utm_source", "debug", "q"])
        #expect(u.query.map(\.value) == ["x y", nil, "1 2"])
        #expect(throws: URLParts.ParseError.noScheme) { try URLParts.parse("www.example.com/x") }
        // As a browser reads it (WHATWG): the slashes before a special URL's host are optional.
        #expect(try URLParts.parse("https:///x").host == "x")
        #expect(throws: URLParts.ParseError.noHost) { try URLParts.parse("https://") }
        #expect(throws: URLParts.ParseError.noHost) { try URLParts.parse("https://user@/x") }
        #expect(throws: URLParts.ParseError.self) { try URLParts.parse("https://example.com/a b") }
        #expect(try URLParts.parse("mailto:a@example.com").host == "")
    }
}
