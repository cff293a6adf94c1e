import Foundation

/// An IP address as bytes (4 for IPv4, 16 for IPv6), read from the text libcurl reports for the
/// connected address (`192.0.2.1`, `::1`, `::ffff:127.0.0.1`) or from a CIDR.
package struct IPAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    package var bytes: [UInt8]
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    package init?(_ text: String) {
        if let v4 = Self.parseIPv4(Substring(text)) {
            bytes = v4
        } else if let v6 = Self.parseIPv6(text) {
            bytes = v6
        } else {
            return nil
        }
    }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for; self otherwise.
    package var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return self }
        return IPAddress(bytes: Array(bytes[12..<16]))!
    }

    package var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        if unmapped != self { return "::ffff:\(unmapped)" }
        var groups: [String] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(String(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]), radix: 16)) }
        return groups.joined(separator: ":")
    }

    /// Dotted decimal, four parts, each 0-255 without leading zeros (no octal or hex forms here:
    /// this reads libcurl's own rendering and CIDRs a person writes).
    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for p in parts {
            guard !p.isEmpty, p.count <= 3, p.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(p), v <= 255, p == "0" || !p.hasPrefix("0") else {
                return nil
            }
            out.append(UInt8(v))
        }
        return out
    }

    /// RFC 4291's text forms: eight groups, `::` once, an IPv4 tail; a zone (`%eth0`) is dropped.
    static func parseIPv6(_ raw: String) -> [UInt8]? {
        var text = Substring(raw)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        guard text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ s: String) -> [UInt8]? {
            if s.isEmpty { return [] }
            var out: [UInt8] = []
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            for (i, p) in parts.enumerated() {
                if i == parts.count - 1, p.contains(".") {
                    guard let v4 = parseIPv4(p) else { return nil }
                    out += v4
                    continue
                }
                guard !p.isEmpty, p.count <= 4, let v = UInt16(p, radix: 16) else { return nil }
                out += [UInt8(v >> 8), UInt8(v & 0xFF)]
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}

/// A network written `10.0.0.0/8` or `fc00::/7` (a bare address: that address alone).
package struct CIDR: Sendable, Equatable, Hashable, CustomStringConvertible {
    package var network: IPAddress
    package var prefix: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard let p = Int(parts[1]), (0...bits).contains(p), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            prefix = p
        } else {
            prefix = bits
        }
        network = address
    }

    package func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var left = prefix
        for (a, n) in zip(address.bytes, network.bytes) where left > 0 {
            let take = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
            if a & mask != n & mask { return false }
            left -= take
        }
        return true
    }

    package var description: String { "\(network)/\(prefix)" }
}
