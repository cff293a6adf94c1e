import Forensics
import Records
import Reporting
import Testing

/// `summarize` counts what the unique payloads say: Wi-Fi networks and how many give their
/// password away, TOTP seeds, SEPA payments with their total, invalid ones.
@Suite("Content: summarize")
struct ContentSummaryTests {
    static func code(_ text: String) -> DetectedCode {
        let quad = Quad([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        return DetectedCode(symbology: .qr, bytes: Array(text.utf8), corners: quad, quality: 1, orientation: 0, frame: 0, pass: "grid")
    }

    static func epc(_ amount: String, _ iban: String = "DE89370400440532013000") -> String { "BCD\n002\n1\nSCT\n\nShop\n\(iban)\nEUR\(amount)\n\n\nInvoice" }

    @Test func groupsByTypeWithPasswordsAndTotals() {
        var summary = PayloadSummary()
        let texts = [
            "WIFI:T:WPA;S:a;P:x1;;", "WIFI:T:WPA;S:b;P:x2;;", "WIFI:T:nopass;S:c;;", "WIFI:T:WPA;S:a;P:x1;;",  // the last one again
            "otpauth://totp/A:b?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ", Self.epc("400"), Self.epc("30.00"), Self.epc("1", "DE00370400440532013000"),
            "hello",
        ]
        var record = FileRecord(path: "shots/a.png")
        record.codes = texts.map(Self.code)
        summary.add(record, texts: texts)
        let text = summary.text
        #expect(text.contains("3 Wi-Fi networks (2 with passwords)"), "\(text)")
        #expect(text.contains("1 TOTP seed"))
        // The invalid payment (a bad IBAN) is counted but not summed.
        #expect(text.contains("3 SEPA payments totalling EUR 430.00 [1 invalid]"), "\(text)")
        #expect(summary.json["by_content_type"]?["epc"]?["totals"]?["EUR"] == .string("430.00"))
    }
}
