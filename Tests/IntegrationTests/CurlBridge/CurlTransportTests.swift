import CurlBridge
import LinkCheck
import Testing

/// CurlBridge's one-hop requests against the loopback server: a redirect is reported, not
/// followed; Retry-After is read; a refused address is never connected to, and the name's next
/// allowed address is.
@Suite("CurlBridge: one hop per request, addresses vetted before connecting")
struct CurlTransportTests {
    func settings(_ policy: AddressPolicy = AddressPolicy(allowed: [CIDR("127.0.0.0/8")!])) -> LinkSettings {
        var s = LinkSettings()
        s.addresses = policy
        s.timeout = 5
        return s
    }

    @Test("a redirect comes back with its absolute target and is not followed; Retry-After is read")
    func oneHop() throws {
        let s = try LinkServer()
        let moved = CurlTransport.fetch(HopRequest(url: s.url("/redirect/301"), method: .head), settings())
        #expect(moved.status == 301 && moved.location == s.url("/ok"), "\(moved)")
        #expect(s.paths() == ["/redirect/301"])
        let busy = CurlTransport.fetch(HopRequest(url: s.url("/busy/x"), method: .get), settings())
        #expect(busy.status == 429 && busy.retryAfter == "1", "\(busy)")
    }

    @Test("of a name's addresses, the refused one is never connected to and the allowed one is; none allowed fails as a private address")
    func addressesVetted() throws {
        let s = try LinkServer()
        var pinned = settings()
        pinned.resolve = ["two.test:\(s.port):10.255.255.1,127.0.0.1"]
        let ok = CurlTransport.fetch(HopRequest(url: "http://two.test:\(s.port)/ok", method: .head), pinned)
        #expect(ok.status == 200, "\(ok)")
        var strict = settings(AddressPolicy())
        strict.resolve = pinned.resolve
        let refused = CurlTransport.fetch(HopRequest(url: "http://two.test:\(s.port)/ok", method: .head), strict)
        #expect(refused.failure == .privateAddress && refused.message?.contains("not checked: private address") == true, "\(refused)")
        #expect(s.paths() == ["/ok"], "only the allowed request reached the server: \(s.paths())")
    }
}
