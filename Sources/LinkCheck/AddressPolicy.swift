/// Which addresses a link check may connect to. By default none in IANA's special-purpose
/// registries (loopback, private, link-local with the cloud metadata endpoint 169.254.169.254,
/// shared, benchmarking, multicast, reserved; IPv4-mapped IPv6 addresses judged as their IPv4
/// address): CI runners sit next to metadata endpoints and internal services, and payloads are
/// untrusted. `--links-allow-private` permits them all; `--links-allow-cidr` one network.
package struct AddressPolicy: Sendable, Equatable {
    package var allowPrivate = false
    package var allowed: [CIDR] = []
    package init(allowPrivate: Bool = false, allowed: [CIDR] = []) {
        self.allowPrivate = allowPrivate; self.allowed = allowed
    }

    /// The special-purpose networks refused by default, with the name said in a refusal.
    package static let specialPurpose: [(CIDR, String)] = [
        ("0.0.0.0/8", "this network"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared address space"),
        ("127.0.0.0/8", "loopback"), ("169.254.169.254/32", "cloud metadata endpoint"), ("169.254.0.0/16", "link-local"),
        ("172.16.0.0/12", "private"), ("192.0.0.0/24", "IETF protocol assignments"), ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "benchmarking"), ("224.0.0.0/4", "multicast"), ("240.0.0.0/4", "reserved"),
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("fc00::/7", "unique local"), ("fe80::/10", "link-local"),
        ("ff00::/8", "multicast"), ("64:ff9b::/96", "IPv4/IPv6 translation"),
    ].map { (CIDR($0.0)!, $0.1) }

    /// Why `address` may not be connected to (nil: it may). A mapped address is judged as the
    /// IPv4 address it stands for, so `::ffff:127.0.0.1` is loopback.
    package func refusal(_ address: IPAddress) -> String? {
        let judged = address.unmapped
        if allowPrivate { return nil }
        if allowed.contains(where: { $0.contains(judged) || $0.contains(address) }) { return nil }
        guard let (network, name) = Self.specialPurpose.first(where: { $0.0.contains(judged) }) else { return nil }
        let shown = judged == address ? "\(address)" : "\(address) (\(judged))"
        return "not checked: private address \(shown) (\(name), \(network)); --links-allow-private or --links-allow-cidr permit it"
    }
}
