import Foundation
import TestSupport
import Testing

/// `--redact`: a Wi-Fi password, a TOTP secret and a URL token read from real PNGs are in every
/// output without it, and in none with it: scan's jsonl, json, csv, text and raw outputs (the
/// payload bytes decoded too), the HTML report made from the redacted records, and check's text,
/// JUnit, GitHub annotations and JSON.
@Suite("Content: redaction")
struct RedactionTests {
    static let secrets = ["Sup3rS3cretPass", "HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ", "tok3nValue99"]
    static let payloads = [
        "wifi.png": "WIFI:T:WPA;S:HomeNet;P:Sup3rS3cretPass;;",
        "otp.png": "otpauth://totp/ACME:jo?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME",
        "link.png": "https://example.com/reset?access_token=tok3nValue99",
    ]

    static func folder() throws -> (TempDir, String) {
        let temp = try TempDir("redact")
        let dir = try temp.mkdir("codes")
        for (name, text) in payloads { try Make.qr(text, to: dir + "/" + name) }
        return (temp, dir)
    }

    /// The output with every base64 payload in it decoded beside it, so a secret in the bytes is found too.
    static func withDecodedBytes(_ text: String) -> String {
        var out = text
        for word in text.split(whereSeparator: { "\",; \n".contains($0) }) where word.count >= 16 {
            if let d = Data(base64Encoded: String(word)) { out += "\n" + String(decoding: d, as: UTF8.self) }
        }
        return out
    }

    static func leaked(_ output: String) -> [String] { secrets.filter { withDecodedBytes(output).contains($0) } }

    @Test func scanOutputsHoldTheSecretsOnlyWithoutRedact() throws {
        let (temp, dir) = try Self.folder()
        let plain = try run(codesweepBinary, ["scan", "--quiet", dir], check: false)
        #expect(plain.status == 0 && Self.leaked(plain.stdout) == Self.secrets, "the records keep the secrets by default")
        for format in ["jsonl", "json", "csv", "text"] {
            let out = temp.file("out.\(format)")
            let r = try run(codesweepBinary, ["scan", "--quiet", "--redact", "--format", format, "-o", out, dir], check: false)
            #expect(r.status == 0, "\(format): \(r.stderr)")
            let written = try String(contentsOfFile: out, encoding: .utf8)
            #expect(Self.leaked(written).isEmpty, "\(format) leaks \(Self.leaked(written))")
            #expect(written.contains("********"), "\(format): the mask stands where the secret was")
        }
        let raw = try run(codesweepBinary, ["scan", "--quiet", "--redact", "--raw", dir], check: false)
        #expect(raw.status == 0 && Self.leaked(raw.stdout).isEmpty && raw.stdout.contains("P:********;"))
        // The redacted records still say what was there.
        let records = try TestJSON.lines(try String(contentsOfFile: temp.file("out.jsonl"), encoding: .utf8))
        let sensitive = records.flatMap { $0["codes"]?.array ?? [] }.flatMap { $0["content"]?["sensitive"]?.array ?? [] }
        #expect(sensitive.count == 3 && sensitive.allSatisfy { $0["redacted"]?.bool == true })
        let html = temp.file("report.html")
        let report = try run(codesweepBinary, ["report", temp.file("out.jsonl"), "--html", html], check: false)
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(Self.leaked(page).isEmpty && page.contains("wifi-password"))
    }

    @Test func checkOutputsHoldNoSecretWithRedact() throws {
        let (temp, dir) = try Self.folder()
        try "url:\n  required: false\nforbid_sensitive: true\n".write(toFile: temp.file("rules.yml"), atomically: true, encoding: .utf8)
        let args = ["check", "--isolation", "none", "--rules", temp.file("rules.yml"), "--verbose", dir]
        let plain = try run(codesweepBinary, args + ["--github"], check: false)
        #expect(plain.status == 1 && plain.stdout.contains("content.fields.password (wifi-password)"), "\(plain.stdout)")
        let r = try run(
            codesweepBinary, args + ["--redact", "--github", "--junit", temp.file("check.xml"), "--json", temp.file("check.json")], check: false)
        #expect(r.status == 1, "forbid_sensitive fails all three: \(r.stdout)")
        for output in [
            r.stdout, r.stderr, try String(contentsOfFile: temp.file("check.xml"), encoding: .utf8),
            try String(contentsOfFile: temp.file("check.json"), encoding: .utf8),
        ] {
            #expect(Self.leaked(output).isEmpty, "leaks \(Self.leaked(output)): \(output.prefix(2000))")
        }
        #expect(r.stdout.contains("forbid_sensitive"))
    }
}
