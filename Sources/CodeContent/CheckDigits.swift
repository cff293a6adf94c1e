/// The check digits payloads carry, each to its published algorithm.
public enum CheckDigits {
    /// ISO 7064 MOD 97-10 over letters (A=10 ... Z=35) and digits: IBAN (ISO 13616) and the
    /// creditor reference (ISO 11649) are valid when it is 1. Nil when a character is neither.
    public static func mod97(_ s: some StringProtocol) -> Int? {
        var r = 0
        for c in s.uppercased() {
            guard c.isASCII, let v = c.isNumber ? c.wholeNumberValue : (c.isLetter ? Int(c.asciiValue! - 55) : nil) else { return nil }
            r = v < 10 ? (r * 10 + v) % 97 : (r * 100 + v) % 97
        }
        return r
    }

    /// The Swiss QR reference's (and ISR's) modulo 10 recursive check digit of `digits`.
    public static func mod10Recursive(_ digits: some StringProtocol) -> Int? {
        let table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5]
        var carry = 0
        for c in digits {
            guard c.isASCII, let d = c.wholeNumberValue else { return nil }
            carry = table[(carry + d) % 10]
        }
        return (10 - carry) % 10
    }

    /// The GS1 check digit (weights 3 and 1 from the right) of `digits`, the data without it.
    public static func gs1(_ digits: some StringProtocol) -> Int? {
        var sum = 0
        for (i, c) in digits.reversed().enumerated() {
            guard c.isASCII, let d = c.wholeNumberValue else { return nil }
            sum += i % 2 == 0 ? 3 * d : d
        }
        return (10 - sum % 10) % 10
    }

    /// Whether `digits` ends in its right GS1 check digit.
    public static func gs1Valid(_ digits: some StringProtocol) -> Bool {
        guard digits.count >= 2, let last = digits.last?.wholeNumberValue, let want = gs1(digits.dropLast()) else { return false }
        return last == want
    }

    /// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR), the
    /// EMV QR code's CRC.
    public static func crc16CCITTFalse(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for b in bytes {
            crc ^= UInt16(b) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }

    /// RFC 4648 base32 (either case, `=` padding optional, spaces ignored) decoded; nil when a
    /// character is not of its alphabet or the length cannot be.
    public static func base32(_ s: some StringProtocol) -> [UInt8]? {
        var text = s.uppercased().filter { $0 != " " }
        while text.hasSuffix("=") { text.removeLast() }
        guard ![1, 3, 6].contains(text.count % 8) else { return nil }
        var out: [UInt8] = [], buffer = 0, bits = 0
        for c in text.utf8 {
            let v: Int
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = Int(c) - 65
            case UInt8(ascii: "2")...UInt8(ascii: "7"): v = Int(c) - 24
            default: return nil
            }
            buffer = (buffer << 5) | v; bits += 5
            if bits >= 8 { bits -= 8; out.append(UInt8((buffer >> bits) & 0xFF)) }
        }
        return out
    }
}

/// Amounts as payloads write them: decimal strings, checked, never turned into floats.
public enum DecimalText {
    /// Whether `s` is digits with at most `decimals` digits after one '.', at most `integerDigits` before it.
    public static func isAmount(_ s: some StringProtocol, integerDigits: Int, decimals: Int) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= integerDigits,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return false }
        guard parts.count == 2 else { return true }
        return !parts[1].isEmpty && parts[1].count <= decimals && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether the amount is zero (all its digits 0).
    public static func isZero(_ s: some StringProtocol) -> Bool { s.allSatisfy { $0 == "0" || $0 == "." } }

    /// The amount in hundredths (cents), for sums; nil when not an amount with at most two decimals.
    public static func cents(_ s: some StringProtocol) -> Int? {
        guard isAmount(s, integerDigits: 15, decimals: 2) else { return nil }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        let frac = parts.count == 2 ? String(parts[1]) : ""
        return Int(parts[0])! * 100 + Int((frac + "00").prefix(2))!
    }

    /// Hundredths written as a decimal string with two decimals ("430.00").
    public static func fromCents(_ c: Int) -> String {
        let frac = String(c % 100)
        return "\(c / 100)." + (frac.count == 1 ? "0" + frac : frac)
    }
}
