import AssetCheck
import CodeContent
import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

/// Issue 27, items 1-3 and 5: the URL gate cannot be talked past. Payloads are evaluated as
/// records (no images), so each case is the rule alone.
@Suite("Trust: the URL gate")
struct TrustGateTests {
    static func rules(_ edit: (inout CheckRules) -> Void) -> CheckRules { var r = CheckRules(); edit(&r); return r }

    /// The rules that fail for one QR code holding `payload`.
    static func violations(_ payload: String, _ rules: CheckRules) throws -> [String] {
        let evaluator = try Evaluator(rules: rules, context: PathContext(currentDirectory: "/"), today: "2026-01-01")
        var record = FileRecord(path: "a.png")
        record.codes = [
            DetectedCode(
                symbology: .qr, bytes: Array(payload.utf8), corners: Quad([Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 9, y: 9), Point(x: 0, y: 9)]),
                quality: 1, orientation: 0, frame: 0, pass: "p")
        ]
        return evaluator.evaluate(record, scans: [nil]).violations.map(\.rule)
    }

    @Test("1: special schemes take their host however many slashes follow the colon")
    func slashlessSpecialURLs() throws {
        let deny = Self.rules { $0.url.denyHosts = ["evil.example"] }
        for payload in ["https:evil.example/?utm_source=x", "https:/evil.example", "https:///evil.example/a", "HTTPS:evil.example:443/"] {
            #expect(try Self.violations(payload, deny) == ["url.deny_hosts"], "\(payload)")
        }
        let u = try URLParts.parse("https:evil.example/?utm_source=x")
        #expect(u.host == "evil.example" && u.path == "/" && u.query.map(\.name) == ["utm_source"])
        #expect(try URLParts.parse("https:/evil.example").host == "evil.example")
        // An allow list is not passed by them either, and a special URL without any host fails url.valid.
        #expect(try Self.violations("https:evil.example/", Self.rules { $0.url.allowHosts = ["example.com"] }) == ["url.allow_hosts"])
        #expect(try Self.violations("https:", CheckRules()) == ["url.valid"])
        #expect(try Self.violations("https:///", CheckRules()) == ["url.valid"])
        // The port starts at the first ':' outside brackets; credentials end at the last '@'.
        #expect(try URLParts.parse("https://user:pw@good.example@evil.example/").host == "evil.example")
        #expect(throws: URLParts.ParseError.self) { try URLParts.parse("https://a:b:80/") }
        // Non-special schemes keep their opaque path.
        #expect(try URLParts.parse("mailto:a@evil.example").host == "")
    }

    @Test("2: IPv6 hosts are canonical, and an IPv6 deny pattern is an address, not a glob")
    func ipv6Hosts() throws {
        #expect(URLHost.parse("[0:0::1]") == URLHost.parse("[::1]"))
        #expect(try URLHost.parse("[::0001]").get().ascii == "[::1]")
        #expect(try URLHost.parse("[::ffff:127.0.0.1]").get().ascii == "[::ffff:7f00:1]")
        #expect(try URLHost.parse("[2001:DB8:0:0:1:0:0:1]").get().ascii == "[2001:db8::1:0:0:1]")
        #expect(try URLHost.parse("[1:0:0:2:0:0:0:3]").get().ascii == "[1:0:0:2::3]")
        for bad in ["[1:2]", "[::1::]", "[1:2:3:4:5:6:7:8:9]", "[::127.0.0.01]", "[::1.2.3]", "[g::1]", "[:1]"] {
            #expect((try? URLHost.parse(bad).get()) == nil, "\(bad)")
        }
        let deny = Self.rules { $0.url.denyHosts = ["[::1]"] }
        for payload in ["https://[::1]/", "https://[0:0::1]/", "https://[::0001]/", "https://[::ffff:127.0.0.1]/", "https://[0:0:0:0:0:0:0:1]:8443/x"] {
            #expect(try Self.violations(payload, deny) == ["url.deny_hosts"], "\(payload)")
        }
        #expect(try Self.violations("https://[2001:db8::1]/", deny).isEmpty)
        // An IPv4 deny pattern catches the same address written as IPv4-mapped IPv6, in any form.
        #expect(try Self.violations("https://[::ffff:a00:1]/", Self.rules { $0.url.denyHosts = ["10.0.0.1"] }) == ["url.deny_hosts"])
        #expect(try Self.violations("https://[::ffff:a00:1]/", Self.rules { $0.url.denyHosts = ["0xa.1"] }) == ["url.deny_hosts"])
        // An allow list written as an address allows that address only.
        #expect(try Self.violations("https://[0::1]/", Self.rules { $0.url.allowHosts = ["[::1]"] }).isEmpty)
        #expect(try Self.violations("https://[::2]/", Self.rules { $0.url.allowHosts = ["[::1]"] }) == ["url.allow_hosts"])
    }

    @Test("3: an empty scheme list allows no scheme")
    func emptySchemes() throws {
        #expect(try Self.violations("javascript:alert(1)", Self.rules { $0.url.schemes = [] }) == ["url.scheme"])
        #expect(try Self.violations("https://www.example.com/", Self.rules { $0.url.schemes = [] }) == ["url.scheme"])
        let file = try RulesFile.parse("url: {schemes: []}")
        #expect(try Self.violations("javascript:alert(1)", file) == ["url.scheme"])
    }
}

@Suite("Trust: campaign dates")
struct TrustDateTests {
    @Test("5: campaign expiry dates must be real days")
    func invalidDates() throws {
        for bad in ["2020-13-45", "2020-02-30", "2021-02-29", "2020-00-10", "2020-04-31", "1900-02-29", "2020-01-00"] {
            #expect(!Evaluator.isDate(bad), "\(bad)")
            #expect(throws: Evaluator.InvalidRule.self, "\(bad)") {
                try Evaluator(
                    rules: TrustGateTests.rules { $0.url.campaignExpiry = ["spring": bad] }, context: PathContext(currentDirectory: "/"), today: "2026-01-01")
            }
        }
        for good in ["2020-02-29", "2000-02-29", "2025-12-31", "2025-06-30"] { #expect(Evaluator.isDate(good), "\(good)") }
    }
}

@Suite("Trust: the grade of turned codes")
struct TrustGradeTests {
    @Test("4: a code turned 3, 10, 30 or 45 degrees on a wide white margin keeps its quiet zone (and grade A at 5 px modules)")
    func rotatedQuietZone() throws {
        let dir = try TempDir("trust-rotated")
        var paths: [String] = []
        for module in [4, 5] {
            try run(Tools.qrencode, ["-s", "\(module)", "-m", "8", "-o", dir.file("m\(module).png"), "https://www.example.com/spring?utm_source=poster"])
            for angle in [3, 10, 30, 45] {
                let p = dir.file("m\(module)-r\(angle).png")
                try run(
                    Tools.convert,
                    [dir.file("m\(module).png"), "-bordercolor", "white", "-border", "100", "-background", "white", "-rotate", "\(angle)", "-flatten", p])
                paths.append(p)
            }
        }
        let r = try run(codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--json", "-"] + paths, check: false)
        let json = try TestJSON.parse(r.stdout)
        let images = try #require(json["images"]?.array)
        #expect(images.count == paths.count)
        for image in images {
            let path = image["path"]?.string ?? "?"
            let s = image["codes"]?.array?.first?["scannability"]
            let quiet = s?["quiet_zone_modules"]?.double ?? -1
            #expect(quiet >= 7.5, "\(path): quiet zone \(quiet) modules")
            if path.contains("/m5-") { #expect(s?["grade"]?.string == "A", "\(path): \(String(describing: s?["grades"]))") }
        }
        // A mark one module beside the code still ends its quiet zone, upright and turned.
        try run(Tools.qrencode, ["-s", "5", "-m", "8", "-o", dir.file("near.png"), "https://www.example.com/spring?utm_source=poster"])
        try run(Tools.convert, [dir.file("near.png"), "-fill", "black", "-draw", "rectangle 25,50 34,120", dir.file("near-r0.png")])
        try run(
            Tools.convert,
            [dir.file("near-r0.png"), "-bordercolor", "white", "-border", "100", "-background", "white", "-rotate", "10", "-flatten", dir.file("near-r10.png")])
        let near = try TestJSON.parse(
            try run(
                codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--json", "-", dir.file("near-r0.png"), dir.file("near-r10.png")],
                check: false
            ).stdout)
        for image in near["images"]?.array ?? [] {
            let quiet = image["codes"]?.array?.first?["scannability"]?["quiet_zone_modules"]?.double ?? -1
            #expect(quiet > 0.7 && quiet < 1.5, "\(image["path"]?.string ?? "?"): quiet zone \(quiet) modules (the mark is 1.2 modules away)")
        }
    }
}

@Suite("Trust: one reading of a URL's host")
struct TrustURLHostTests {
    @Test("summarize's and report's host reads special URLs as check does")
    func ofURL() throws {
        #expect(URLHost.ofURL("https:evil.example/?a=1")?.host.ascii == "evil.example")
        #expect(URLHost.ofURL("https:/evil.example")?.host.ascii == "evil.example")
        #expect(URLHost.ofURL("HTTP:///Evil.Example:80/x")?.host.ascii == "evil.example")
        #expect(URLHost.ofURL("https://[0:0::1]/")?.host.ascii == "[::1]")
        #expect(URLHost.ofURL("mailto:a@evil.example") == nil)
        #expect(URLHost.ofURL("foo://evil.example/")?.host.ascii == "evil.example")
        for text in ["https:evil.example/", "https:/evil.example", "https://[0:0::1]/", "https://user@good.example@evil.example/"] {
            #expect(
                URLHost.ofURL(text)?.host.ascii.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
                    == (try? URLParts.parse(text))?.host, "\(text)")
        }
    }
}
