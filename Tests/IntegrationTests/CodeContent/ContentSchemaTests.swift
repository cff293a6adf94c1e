import Foundation
import TestSupport
import Testing

/// One code of every content type, made with qrencode and scanned by the CLI, with and without
/// --redact: each reads as its type and the records keep docs/schema/record.schema.json, whose
/// per-type field lists (`content_fields_<type>`, no other property allowed) document every field
/// the reader writes.
@Suite("Content: every type against the schema")
struct ContentSchemaTests {
    static let payloads: [(type: String, text: String)] = [
        ("wifi", "WIFI:T:WPA;S:my\\;net;P:pa\\:ss;H:true;;"),
        ("otpauth", "otpauth://totp/ACME%20Co:john?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA256&digits=8"),
        ("epc", "BCD\n002\n1\nSCT\nBHBLDEHHXXX\nFranz Mustermann\nDE71110220330123456789\nEUR12.3\nGDDS\nRF18539007547034\n\n"),
        (
            "vcard",
            "BEGIN:VCARD\nVERSION:3.0\nN:Gump;Forrest;;Mr.;\nFN:Forrest Gump\nORG:Bubba\nTITLE:Boss\nTEL:+1 555 1212\nEMAIL:f@example.com\nURL:https://example.com\nADR:;;1 Main St;Town;;12345;US\nEND:VCARD"
        ),
        (
            "mecard",
            "MECARD:N:Doe,John;NICKNAME:JD;ORG:Acme;TEL:13035551212;EMAIL:john.doe@example.com;URL:https://example.com;ADR:1 Main St;BDAY:19700101;NOTE:hi;;"
        ),
        ("gs1", "(01)09506000134352(17)201225(10)ABC123(21)S1(00)106141411234567897(3103)001250(3912)9781250"),
        ("gs1", "https://id.gs1.org/01/09506000134352/10/ABC?17=271231"),
        ("emvco", PaymentSamples.pix),
        ("geo", "geo:48.2010,16.3695,183;crs=wgs84;u=10?q=Vienna"),
        ("tel", "tel:+1-201-555-0123"),
        ("sms", "sms:+15105550101?body=hi"),
        ("mailto", "mailto:a@example.com?cc=b@example.com&bcc=c@example.com&subject=Hi&body=Yo"),
        ("secret", "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"),
        ("url", "https://bob:pw@xn--pypal-4ve.com:8443/a?token=abc&x=1"),
        ("secret", "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"),
        ("swiss-qr-bill", PaymentSample.qrBill.joined(separator: "\n")),
        ("hotp", "otpauth://hotp/x?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&counter=7"),
    ]

    @Test func everyTypeReadsAndKeepsTheSchema() throws {
        let temp = try TempDir("content-schema")
        let dir = try temp.mkdir("codes")
        for (i, p) in Self.payloads.enumerated() { try Make.qr(p.text, to: dir + "/c\(i).png") }
        for redact in [false, true] {
            let r = try run(codesweepBinary, ["scan", "--quiet", "--jobs", "2", dir] + (redact ? ["--redact"] : []), check: false)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try SchemaCheck.problems(r.stdout, schema: "record.schema.json", lines: true) == [])
            for record in try TestJSON.lines(r.stdout) {
                let name = URL(fileURLWithPath: try #require(record["path"]?.string)).deletingPathExtension().lastPathComponent
                let want = Self.payloads[try #require(Int(name.dropFirst()))]
                let content = record["codes"]?.array?.first?["content"]
                if redact && want.type == "secret" {
                    // The whole payload was the secret: it is the mask alone now, of no known form.
                    #expect(record["codes"]?.array?.first?["text"]?.string == "********" && content == nil, "\(name)")
                    continue
                }
                #expect(content?["type"]?.string == (want.type == "hotp" ? "otpauth" : want.type), "\(name): \(want.text)")
                #expect(content?["valid"]?.bool == true, "\(name): \(content?["problems"]?.array?.compactMap(\.string) ?? [])")
            }
        }
    }
}

enum PaymentSamples {
    /// The Banco Central do Brasil's Pix manual example (EMVCo merchant-presented).
    static let pix = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
}
