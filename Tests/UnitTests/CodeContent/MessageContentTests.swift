import CodeContent
import Records
import Testing

/// Wi-Fi, one-time-password, contact, place, phone, message and mail payloads read to their
/// specifications, with the broken ones named.
@Suite("Content: networks, accounts, contacts")
struct MessageContentTests {
    @Test func wifi() throws {
        let c = try #require(CodeContent.read("WIFI:T:WPA;S:my\\;net;P:pa\\:ss;H:true;;"))
        #expect(c.type == .wifi && c.valid, "\(c.problems)")
        #expect(c.string("ssid") == "my;net" && c.string("auth") == "WPA" && c.field("hidden") == .bool(true) && c.string("password") == "pa:ss")
        #expect(c.sensitive.map(\.field) == ["password"] && c.sensitive.map(\.kind) == [.wifiPassword] && c.sensitive.map(\.written) == ["pa\\:ss"])
        let open = try #require(CodeContent.read("WIFI:S:Cafe;T:nopass;;"))
        #expect(open.valid && open.sensitive.isEmpty)
        #expect(CodeContent.read("WIFI:T:WPA;S:x;;")?.problems == ["the network is secured (WPA) but the code holds no password (P)"])
        #expect(CodeContent.read("WIFI:T:WPA;P:secret;;")?.problems.first?.contains("names no network") == true)
        #expect(CodeContent.read("WIFI:T:ROT13;S:x;P:y;;")?.problems.first?.contains("security type") == true)
    }

    @Test func otpauth() throws {
        let google = "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example"
        let c = try #require(CodeContent.read(google))
        #expect(c.type == .otpauth && c.valid, "\(c.problems)")
        #expect(c.field("secret_bits") == .int(80))
        #expect(c.string("issuer") == "Example" && c.string("account") == "alice@google.com" && c.field("digits") == .int(6) && c.field("period") == .int(30))
        #expect(c.sensitive.map(\.written) == ["JBSWY3DPEHPK3PXP"] && c.sensitive.first?.kind == .otpSecret)
        let long = try #require(
            CodeContent.read("otpauth://totp/ACME%20Co:john?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA256&digits=8"))
        #expect(long.valid && long.field("secret_bits") == .int(160) && long.string("algorithm") == "SHA256", "\(long.problems)")
        #expect(CodeContent.read("otpauth://totp/x?secret=JBSWY3DPEHPK3PX1")?.problems.contains { $0.contains("not valid base32") } == true)
        #expect(
            CodeContent.read("otpauth://hotp/x?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ")?.problems == [
                "an hotp account needs a counter parameter (a whole number)"
            ])
        #expect(CodeContent.read("otpauth://totp/x")?.problems.contains { $0.contains("no secret") } == true)
    }

    @Test func vcardAndMecard() throws {
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Gump;Forrest;;Mr.;\r\nFN:Forrest Gump\r\nORG:Bubba Gump Shrimp Co.\r\nTEL;TYPE=WORK,VOICE:(111) 555-12\r\n 12\r\nEMAIL:forrestgump@example.com\r\nEND:VCARD"
        let c = try #require(CodeContent.read(card))
        #expect(c.type == .vcard && c.valid, "\(c.problems)")
        #expect(c.string("name") == "Forrest Gump" && c.field("phones") == .array([.string("(111) 555-1212")]))
        #expect(c.field("emails") == .array([.string("forrestgump@example.com")]) && c.string("organization") == "Bubba Gump Shrimp Co.")
        #expect(CodeContent.read("BEGIN:VCARD\nVERSION:3.0\nTEL:1\n")?.problems == ["it names nobody (no FN or N)", "it does not end with END:VCARD"])
        let me = try #require(CodeContent.read("MECARD:N:Doe,John;TEL:13035551212;EMAIL:john.doe@example.com;;"))
        #expect(me.type == .mecard && me.valid && me.string("name") == "John Doe" && me.field("phones") == .array([.string("13035551212")]))
        #expect(CodeContent.read("MECARD:TEL:1;;")?.problems == ["it names nobody (N is missing)"])
    }

    @Test func geoTelSmsMailto() throws {
        let geo = try #require(CodeContent.read("geo:48.2010,16.3695,183"))  // RFC 5870's example
        #expect(geo.type == .geo && geo.valid && geo.string("latitude") == "48.2010" && geo.string("altitude") == "183")
        #expect(CodeContent.read("geo:91.5,10")?.problems == ["the latitude '91.5' is beyond ±90"])
        let tel = try #require(CodeContent.read("tel:+1-201-555-0123"))  // RFC 3966's example
        #expect(tel.type == .tel && tel.valid && tel.string("number") == "+1-201-555-0123")
        #expect(CodeContent.read("tel:call-me")?.valid == false)
        let sms = try #require(CodeContent.read("sms:+15105550101?body=hello%20there"))
        #expect(sms.type == .sms && sms.valid && sms.string("body") == "hello there" && sms.field("numbers") == .array([.string("+15105550101")]))
        #expect(CodeContent.read("SMSTO:+15105550101:hi")?.string("body") == "hi")
        let mail = try #require(CodeContent.read("mailto:chris@example.com?subject=Hi%20there&cc=a@example.org"))  // RFC 6068
        #expect(mail.type == .mailto && mail.valid && mail.string("subject") == "Hi there" && mail.field("cc") == .array([.string("a@example.org")]))
        #expect(CodeContent.read("mailto:nobody")?.problems == ["'nobody' is not an email address"])
        #expect(CodeContent.read("MATMSG:TO:a@example.com;SUB:s;BODY:b;;")?.string("subject") == "s")
    }

    @Test func plainTextHasNoContent() {
        #expect(CodeContent.read("hello world") == nil)
        #expect(CodeContent.read("4006381333931") == nil)
        #expect(CodeContent.read(nil) == nil)
    }
}
