import Testing

@testable import LinkCheck

/// The address check's tables and the address forms libcurl reports, without a network.
@Suite("LinkCheck: special-purpose addresses, CIDRs, IP text")
struct AddressPolicyTests {
    @Test("every special-purpose network of issue 62 is refused by default, public addresses are not")
    func defaultTables() {
        let policy = AddressPolicy()
        for refused in [
            "0.1.2.3", "10.1.2.3", "100.64.0.1", "127.0.0.1", "127.255.255.254", "169.254.1.1", "172.16.0.1", "172.31.255.255", "192.0.0.8",
            "192.168.1.1", "198.18.0.1", "198.19.255.255", "224.0.0.1", "240.0.0.1", "255.255.255.255", "::", "::1", "fc00::1", "fd12:3456::1",
            "fe80::1", "ff02::1", "64:ff9b::a00:1",
        ] {
            #expect(policy.refusal(IPAddress(refused)!) != nil, "\(refused)")
        }
        for allowed in ["8.8.8.8", "93.184.216.34", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2606:4700::1111", "2001:4860:4860::8888"] {
            #expect(policy.refusal(IPAddress(allowed)!) == nil, "\(allowed)")
        }
    }

    @Test("the metadata endpoint is named; an IPv4-mapped IPv6 address is judged as its IPv4 address")
    func metadataAndMapped() {
        let policy = AddressPolicy()
        #expect(policy.refusal(IPAddress("169.254.169.254")!)?.contains("cloud metadata endpoint") == true)
        let mapped = policy.refusal(IPAddress("::ffff:127.0.0.1")!)
        #expect(mapped?.contains("127.0.0.1") == true && mapped?.contains("loopback") == true, "\(mapped ?? "nil")")
        #expect(policy.refusal(IPAddress("::ffff:7f00:1")!) != nil)
        #expect(policy.refusal(IPAddress("::ffff:8.8.8.8")!) == nil)
    }

    @Test("--links-allow-private permits them all; --links-allow-cidr permits one network only")
    func allowances() {
        #expect(AddressPolicy(allowPrivate: true).refusal(IPAddress("127.0.0.1")!) == nil)
        let intranet = AddressPolicy(allowed: [CIDR("10.20.0.0/16")!])
        #expect(intranet.refusal(IPAddress("10.20.3.4")!) == nil)
        #expect(intranet.refusal(IPAddress("10.21.0.1")!) != nil)
        #expect(intranet.refusal(IPAddress("169.254.169.254")!) != nil)
        let loop = AddressPolicy(allowed: [CIDR("127.0.0.0/8")!])
        #expect(loop.refusal(IPAddress("::ffff:127.0.0.1")!) == nil, "a mapped address is allowed as its IPv4 address")
    }

    @Test("IP text: dotted quads, IPv6 with ::, an IPv4 tail and a zone; malformed forms are not addresses")
    func parsing() {
        #expect(IPAddress("192.0.2.1")?.bytes == [192, 0, 2, 1])
        #expect(IPAddress("::1")?.bytes == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddress("[fe80::1%eth0]")?.bytes.prefix(2) == [0xFE, 0x80])
        #expect(IPAddress("::ffff:1.2.3.4")?.unmapped == IPAddress("1.2.3.4"))
        #expect(IPAddress("2001:db8:0:0:0:0:0:1") == IPAddress("2001:db8::1"))
        for bad in ["", "1.2.3", "1.2.3.256", "01.2.3.4", "1::2::3", "12345::", "a.b.c.d", "1:2:3:4:5:6:7:8:9"] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
        #expect(CIDR("10.0.0.0/33") == nil && CIDR("10.0.0.0/x") == nil && CIDR("fc00::/7") != nil)
        #expect(CIDR("172.16.0.0/12")!.contains(IPAddress("172.31.1.1")!))
        #expect(!CIDR("172.16.0.0/12")!.contains(IPAddress("172.32.0.0")!))
    }
}
