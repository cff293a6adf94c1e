import AssetCheck
import Foundation
import TestSupport
import Testing

/// `check`'s content rules on real images: `forbid_sensitive` fails a PNG whose QR code holds a
/// Wi-Fi password and passes one of an open network; `content.valid` fails a QR-bill whose
/// reference's check digit is wrong, naming it; `content.type` fails a payload of another type.
@Suite("Content: check rules")
struct CheckContentTests {
    static func check(_ rules: String, _ files: [String: String]) throws -> ProcessResult {
        let temp = try TempDir("content-check")
        let dir = try temp.mkdir("assets")
        for (name, text) in files { try Make.qr(text, to: dir + "/" + name) }
        try rules.write(toFile: temp.file("rules.yml"), atomically: true, encoding: .utf8)
        return try run(codesweepBinary, ["check", "--isolation", "none", "--rules", temp.file("rules.yml"), dir], check: false)
    }

    @Test func forbidSensitiveFailsAWifiPasswordAndPassesAnOpenNetwork() throws {
        let rules = "url:\n  required: false\nforbid_sensitive: true\n"
        let leak = try Self.check(rules, ["wifi.png": "WIFI:T:WPA2;S:Office;P:letmein-2024;;"])
        #expect(leak.status == 1)
        #expect(leak.stdout.contains("forbid_sensitive") && leak.stdout.contains("content.fields.password (wifi-password)"), "\(leak.stdout)")
        let open = try Self.check(rules, ["wifi.png": "WIFI:T:nopass;S:Guest;;"])
        #expect(open.status == 0, "\(open.stdout)")
    }

    @Test func contentValidAndTypeName() throws {
        var bill = PaymentSample.qrBill
        bill[28] = "210000000003139471430009018"
        let rules = "url:\n  required: false\ncontent:\n  type: [swiss-qr-bill]\n  valid: true\n"
        let bad = try Self.check(rules, ["bill.png": bill.joined(separator: "\n"), "link.png": "https://example.com/"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("content.valid") && bad.stdout.contains("check digit 8, expected 7"), "\(bad.stdout)")
        #expect(bad.stdout.contains("content.type") && bad.stdout.contains("a url payload"), "\(bad.stdout)")
        let good = try Self.check(rules, ["bill.png": PaymentSample.qrBill.joined(separator: "\n")])
        #expect(good.status == 0, "\(good.stdout)")
    }
}

@Suite("Content: rules file")
struct ContentRulesFileTests {
    @Test func contentKeysParseAndMistakesAreRefused() throws {
        let rules = try RulesFile.parse("content:\n  type: [wifi, none]\n  valid: true\nforbid_sensitive: yes\n")
        #expect(rules.content.types == ["wifi", "none"] && rules.content.valid && rules.content.forbidSensitive)
        #expect(try RulesFile.parse("version: 1\n").content.any == false)
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("content:\n  type: [wify]\n") }
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("content:\n  vaild: true\n") }
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("forbid_sensitive: maybe\n") }
        do {
            _ = try RulesFile.parse("content:\n  type: [wify]\n")
        } catch {
            #expect("\(error)".contains("unknown content type 'wify'"))
        }
    }
}

enum PaymentSample {
    /// SIX's sample QR-bill (QR-IBAN, QR reference), one line a field.
    static let qrBill = [
        "SPC", "0200", "1", "CH4431999123000889012", "S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH",
        "", "", "", "", "", "", "", "1949.75", "CHF", "S", "Pia-Maria Rutschmann-Schnyder", "Grosse Marktgasse", "28", "9400",
        "Rorschach", "CH", "QRR", "210000000003139471430009017", "Order of 15 June 2020", "EPD",
    ]
}
