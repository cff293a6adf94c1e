import Glibc

/// Whether this machine has a route anywhere but itself: a UDP socket "connected" to a
/// documentation address (RFC 5737's 192.0.2.1, RFC 3849's 2001:db8::1), which sends nothing
/// and fails with ENETUNREACH when there is no route. A runner without network gets one clear
/// error instead of a failure per link.
package enum NetworkProbe {
    package static func hasRoute() -> Bool { ipv4() || ipv6() }

    static func ipv4() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = UInt16(9).bigEndian
        a.sin_addr.s_addr = UInt32(0xC000_0201).bigEndian
        return withUnsafePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    static func ipv6() -> Bool {
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = UInt16(9).bigEndian
        withUnsafeMutableBytes(of: &a.sin6_addr) { b in
            let bytes: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
            for (i, v) in bytes.enumerated() { b[i] = v }
        }
        return withUnsafePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }
}
