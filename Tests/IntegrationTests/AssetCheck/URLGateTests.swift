import CodeContent
import Foundation
import Imaging
import Payloads
import Records
import Reporting
import TestSupport
import Testing

@testable import AssetCheck

/// The URL gate cannot be talked past: special schemes without slashes, IPv6 and IPv4 forms of
/// a host, an empty scheme list, trailing dots. Payloads are evaluated as records (no images), so
/// each case is the rule alone.
@Suite("The URL gate cannot be talked past", .serialized)
struct URLGateTests {
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

    @Test("special schemes take their host however many slashes follow the colon")
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

    @Test("IPv6 hosts are canonical, and an IPv6 deny pattern is an address, not a glob")
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

    @Test("an empty scheme list allows no scheme")
    func emptySchemes() throws {
        #expect(try Self.violations("javascript:alert(1)", Self.rules { $0.url.schemes = [] }) == ["url.scheme"])
        #expect(try Self.violations("https://www.example.com/", Self.rules { $0.url.schemes = [] }) == ["url.scheme"])
        let file = try RulesFile.parse("url: {schemes: []}")
        #expect(try Self.violations("javascript:alert(1)", file) == ["url.scheme"])
    }

    @Test("localhost in a deny list also covers 0.0.0.0, https://0/ and [::]; evil.example.. is evil.example")
    func denyHosts() throws {
        let local = Self.rules { $0.url.denyHosts = ["localhost"] }
        for payload in ["https://0.0.0.0/", "https://0/", "https://[::]/", "https://[::ffff:0.0.0.0]/", "https://0x0/", "https://127.1/"] {
            #expect(try Self.violations(payload, local) == ["url.deny_hosts"], "\(payload)")
        }
        let loopback = Self.rules { $0.url.denyHosts = ["127.0.0.1"] }
        #expect(try Self.violations("https://0/", loopback) == ["url.deny_hosts"])
        #expect(try Self.violations("https://0.0.0.1/", local).isEmpty)
        let evil = Self.rules { $0.url.denyHosts = ["evil.example"] }
        for payload in ["https://evil.example../", "https://evil.example../x", "https://EVIL.example./"] {
            #expect(try Self.violations(payload, evil) == ["url.deny_hosts"], "\(payload)")
        }
        #expect(try Self.violations("https://evil.example.../x", evil) == ["url.valid"], "an empty label: no host a browser opens")
        let sub = Self.rules { $0.url.denyHosts = ["*.evil.example"] }
        #expect(try Self.violations("https://a.evil.example../", sub) == ["url.deny_hosts"])
    }
}
