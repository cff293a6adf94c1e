import Foundation
import TestSupport
import Testing

@testable import AssetCheck

/// A payload cannot decide how long the gate runs: `url.pattern` is matched without
/// backtracking, with the answers of Swift's Regex on ordinary patterns.
@Suite("url.pattern runs in linear time", .serialized)
struct URLPatternTests {
    static let evilPattern = #"^https://(www\.)?example\.com/([a-z0-9]+-?)*$"#
    static let evilURL = "https://www.example.com/" + String(repeating: "a", count: 24) + "!"

    @Test("url.pattern runs without backtracking: the catastrophic pattern fails the 24-a URL at once, through check")
    func patternThroughCheck() throws {
        let dir = try TempDir("pattern")
        try Make.qr(Self.evilURL, to: dir.file("evil.png"))
        try Make.qr("https://www.example.com/spring-sale", to: dir.file("good.png"))
        try dir.write("rules.yml", Array("url:\n  pattern: '\(Self.evilPattern)'\n".utf8))
        let r = try run(codesweepBinary, ["check", "--rules", "rules.yml", "--json", "-", "evil.png", "good.png"], currentDirectory: dir.path, check: false)
        #expect(r.status == 1, "\(r.stderr)")
        let images = try #require(try TestJSON.parse(r.stdoutBytes)["images"]?.array)
        let rules = images.map { ($0["path"]?.string ?? "", ($0["violations"]?.array ?? []).compactMap { $0["rule"]?.string }) }
        #expect(rules.first { $0.0 == "evil.png" }?.1 == ["url.pattern"], "\(rules)")
        #expect(rules.first { $0.0 == "good.png" }?.1 == [], "\(rules)")
    }

    @Test("the matcher: the same answers as Swift's Regex on ordinary patterns, linear on hostile ones")
    func matcher() throws {
        let p = try URLPattern(Self.evilPattern)
        #expect(!p.wholeMatch(Self.evilURL))
        #expect(!p.wholeMatch("https://www.example.com/" + String(repeating: "a-", count: 5000) + "!"))
        #expect(p.wholeMatch("https://www.example.com/" + String(repeating: "ab-", count: 5000)))
        let cases: [(String, [String])] = [
            (
                #"^https://(www\.)?example\.com/[a-z0-9/-]+\?.*$"#,
                ["https://example.com/a?x", "https://www.example.com/a-b/c?", "https://wwwxexample.com/a?x", "https://example.com/?x"]
            ),
            (
                #"https?://[^/]+/(spring|summer)-\d{4}(\?utm_[a-z]+=\w+(&utm_[a-z]+=\w+)*)?"#,
                ["https://x/spring-2026", "http://x/summer-2025?utm_a=1&utm_b=2", "https://x/fall-2026", "https://x/spring-26"]
            ),
            (#"a{2,3}b{2}c{1,}"#, ["aabbc", "aaabbccc", "abbc", "aaaabbc", "aabc"]),
            (#"(?:ab|cd)*e?\s\S[.][^\]x]"#, ["ababe x.y", "cd x.]", " x.z", "abab  .y"]),
            (#"(?<host>[A-Z]+)\.[\w-]+$"#, ["EX.a_b-c", "ex.a", "EX."]),
            (#"(?i)^HTTPS://EXAMPLE\.com/.*"#, ["https://example.com/x", "HTTPS://Example.COM/", "http://example.com/"]),
            (#"x|^y$|"#, ["x", "y", "", "z"]),
        ]
        for (pattern, inputs) in cases {
            let ours = try URLPattern(pattern)
            let swift = try Regex(pattern)
            for input in inputs {
                #expect(ours.wholeMatch(input) == ((try? swift.wholeMatch(in: input)) != nil), "\(pattern) on \(input)")
            }
        }
        // What cannot run without backtracking is refused when the rules are read, with the reason.
        for bad in [#"(a)\1"#, "(?=a)a", "(?!a)b", "(?<=a)b", "*a", "(a", "a)", "[a", "[z-a]", #"\bword"#, "a{3,2}"] {
            #expect(throws: URLPattern.Invalid.self, "\(bad)") { try URLPattern(bad) }
        }
        #expect(throws: URLPattern.Invalid.self) { try URLPattern("(a{1000}){1000}") }
    }
}
