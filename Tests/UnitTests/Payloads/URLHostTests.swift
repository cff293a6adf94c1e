import Payloads
import Testing

/// A link's host as a browser reads it (WHATWG's host parser) and punycode (RFC 3492), on the
/// standards' own examples.
@Suite("URL hosts and punycode")
struct URLHostTests {
    @Test("punycode: RFC 3492's and IDNA's examples, both ways")
    func punycode() {
        for (text, code) in [("münchen", "mnchen-3ya"), ("bücher", "bcher-kva"), ("ü", "tda")] {
            let scalars = text.unicodeScalars.map(\.value)
            #expect(Punycode.encode(scalars) == code)
            #expect(Punycode.decode(code) == scalars)
        }
        #expect(Punycode.decode("a-b-c-") != nil && Punycode.decode("99999999999999") == nil, "an overflow is no label")
    }

    @Test("a host is lower case with no trailing dot, and a Unicode label is its punycode")
    func domains() throws {
        let plain = try URLHost.parse("Example.COM.").get()
        #expect(plain.ascii == "example.com" && plain.kind == .domain)
        let idn = try URLHost.parse("Bücher.example").get()
        #expect(idn.ascii == "xn--bcher-kva.example" && idn.unicode == "bücher.example")
        let back = try URLHost.parse("xn--mnchen-3ya.de").get()
        #expect(back.unicode == "münchen.de")
        #expect(throws: URLHost.Failure.self) { try URLHost.parse("").get() }
        #expect(throws: URLHost.Failure.self) { try URLHost.parse("xn--abc-").get() }
    }

    @Test("IPv4 in the forms a browser accepts (hex, short) is the dotted quad; IPv6 is compressed")
    func addresses() throws {
        #expect(try URLHost.parse("0x7f.1").get().ascii == "127.0.0.1")
        #expect(try URLHost.parse("192.168.257").get().ascii == "192.168.1.1")
        #expect(try URLHost.parse("3232235777").get().ascii == "192.168.1.1")
        #expect(try URLHost.parse("0x7f.1").get().kind == .ipv4)
        let v6 = try URLHost.parse("[0:0:0:0:0:0:0:1]").get()
        #expect(v6.ascii == "[::1]" && v6.kind == .ipv6)
        #expect(throws: URLHost.Failure.self) { try URLHost.parse("[1::2::3]").get() }
        #expect(throws: URLHost.Failure.self) { try URLHost.parse("1.2.3.256").get() }
    }
}
