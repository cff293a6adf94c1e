/// IP addresses in hosts: when a host is a number (IPv4 in the forms browsers accept), the WHATWG
/// IPv6 parser and serializer, and what an address reaches (an embedded IPv4 address, loopback).
extension URLHost {
    /// "ends in a number": the last label is decimal digits, or 0x/0X and hex digits.
    static func endsInNumber(_ label: String) -> Bool {
        if !label.isEmpty, label.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lower = label.lowercased()
        return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy { $0.isHexDigit && $0.isASCII }
    }

    /// The WHATWG IPv6 parser: eight 16-bit pieces, `::` compressing one run of zeros, an
    /// embedded dotted quad (strict decimal) in the last 32 bits; nil when invalid.
    package static func ipv6<S: StringProtocol>(_ text: S) -> [UInt16]? {
        let input = Array(text.utf8)
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0, compress: Int? = nil, p = 0
        func hex(_ b: UInt8) -> Int? { hexValue(b) }
        if p < input.count, input[p] == UInt8(ascii: ":") {
            guard p + 1 < input.count, input[p + 1] == UInt8(ascii: ":") else { return nil }
            p += 2; pieceIndex += 1; compress = pieceIndex
        }
        while p < input.count {
            guard pieceIndex < 8 else { return nil }
            if input[p] == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                p += 1; pieceIndex += 1; compress = pieceIndex
                continue
            }
            var value = 0, length = 0
            while length < 4, p < input.count, let h = hex(input[p]) { value = value * 16 + h; p += 1; length += 1 }
            if p < input.count, input[p] == UInt8(ascii: ".") {
                guard length > 0 else { return nil }
                p -= length
                guard pieceIndex <= 6 else { return nil }
                var numbersSeen = 0
                while p < input.count {
                    var ipv4Piece: Int? = nil
                    if numbersSeen > 0 {
                        guard input[p] == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        p += 1
                    }
                    guard p < input.count, (48...57).contains(input[p]) else { return nil }
                    while p < input.count, (48...57).contains(input[p]) {
                        let n = Int(input[p] - 48)
                        if ipv4Piece == nil { ipv4Piece = n } else if ipv4Piece == 0 { return nil } else { ipv4Piece = ipv4Piece! * 10 + n }
                        guard ipv4Piece! <= 255 else { return nil }
                        p += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(ipv4Piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if p < input.count, input[p] == UInt8(ascii: ":") {
                p += 1
                guard p < input.count else { return nil }
            } else if p < input.count {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let c = compress {
            var swaps = pieceIndex - c
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                address.swapAt(pieceIndex, c + swaps - 1)
                pieceIndex -= 1; swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// The WHATWG IPv6 serializer (RFC 5952): lower-case hex without leading zeros, the first
    /// longest run of two or more zero pieces written `::`.
    package static func serializeIPv6(_ a: [UInt16]) -> String {
        var best: (start: Int, length: Int)? = nil
        var i = 0
        while i < 8 {
            if a[i] == 0 {
                var j = i
                while j < 8 && a[j] == 0 { j += 1 }
                if j - i >= 2 && (best == nil || j - i > best!.length) { best = (i, j - i) }
                i = j
            } else {
                i += 1
            }
        }
        var out = ""
        var ignore0 = false
        for k in 0..<8 {
            if ignore0 && a[k] == 0 { continue }
            ignore0 = false
            if let b = best, b.start == k {
                out += k == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(a[k], radix: 16)
            if k != 7 { out += ":" }
        }
        return out
    }

    /// The IPv4 address an IPv6 address carries in its last 32 bits when it is IPv4-mapped
    /// (`::ffff:a.b.c.d`) or IPv4-compatible (`::a.b.c.d`, not `::` or `::1`): the machine a
    /// connection to it reaches on a dual-stack host.
    package var embeddedIPv4: String? {
        guard kind == .ipv6, let a = Self.ipv6(ascii.dropFirst().dropLast()) else { return nil }
        guard a[0..<5].allSatisfy({ $0 == 0 }), a[5] == 0xFFFF || (a[5] == 0 && (a[6] != 0 || a[7] > 1)) else { return nil }
        return [a[6] >> 8, a[6] & 0xFF, a[7] >> 8, a[7] & 0xFF].map { String($0) }.joined(separator: ".")
    }

    /// Loopback: 127.0.0.0/8, `[::1]`, and IPv6 forms of 127.x.
    package var isLoopback: Bool {
        switch kind {
        case .ipv4: ascii.hasPrefix("127.")
        case .ipv6: ascii == "[::1]" || (embeddedIPv4?.hasPrefix("127.") ?? false)
        case .domain: ascii == "localhost" || ascii.hasSuffix(".localhost")
        }
    }

    /// The IPv4 parser: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last
    /// part fills the remaining bytes.
    static func ipv4(_ labels: [String]) -> String? {
        guard (1...4).contains(labels.count) else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            var digits = Substring(label), radix = 10
            if digits.lowercased().hasPrefix("0x") {
                digits = digits.dropFirst(2); radix = 16
            } else if digits.count > 1, digits.hasPrefix("0") {
                digits = digits.dropFirst(); radix = 8
            }
            if digits.isEmpty { numbers.append(0); continue }
            guard digits.count <= 20, let n = UInt64(digits, radix: radix) else { return nil }
            numbers.append(n)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let lastBytes = 5 - numbers.count
        guard numbers.last! < (UInt64(1) << UInt64(8 * lastBytes)) else { return nil }
        var value = numbers.last!
        for (i, n) in numbers.dropLast().enumerated() { value += n << UInt64(8 * (3 - i)) }
        return (0..<4).map { String((value >> UInt64(8 * (3 - $0))) & 0xFF) }.joined(separator: ".")
    }
}
