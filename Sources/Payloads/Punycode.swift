/// Punycode (RFC 3492), the encoding of IDNA `xn--` labels. Pure Swift.
package enum Punycode {
    static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    static func adapt(_ delta: Int, _ points: Int, _ first: Bool) -> Int {
        var d = first ? delta / damp : delta / 2
        d += d / points
        var k = 0
        while d > ((base - tMin) * tMax) / 2 { d /= base - tMin; k += base }
        return k + (base - tMin + 1) * d / (d + skew)
    }

    static func digit(_ d: Int) -> Character {
        Character(Unicode.Scalar(UInt8(d < 26 ? d + 97 : d - 26 + 48)))
    }

    static func value(_ c: Character) -> Int? {
        guard let a = c.asciiValue else { return nil }
        switch a {
        case 97...122: return Int(a) - 97
        case 65...90: return Int(a) - 65
        case 48...57: return Int(a) - 48 + 26
        default: return nil
        }
    }

    static func threshold(_ k: Int, _ bias: Int) -> Int { k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias }

    /// The punycode of a label's code points (without the `xn--` prefix).
    package static func encode(_ input: [UInt32]) -> String? {
        var out = String(String.UnicodeScalarView(input.filter { $0 < 0x80 }.compactMap(Unicode.Scalar.init)))
        let basic = out.count
        var handled = basic
        if basic > 0 { out.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.map(Int.init).filter({ $0 >= n }).min() else { return nil }
            let (grow, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - grow else { return nil }
            delta += grow
            n = m
            for c in input.map(Int.init) {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta, k = base
                    while true {
                        let t = threshold(k, bias)
                        if q < t { break }
                        out.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    out.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basic)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1; n += 1
        }
        return out
    }

    /// The code points of a punycode label (without the `xn--` prefix), or nil when invalid.
    package static func decode(_ text: String) -> [UInt32]? {
        let chars = Array(text)
        var out: [UInt32] = []
        var start = 0
        if let dash = chars.lastIndex(of: "-") {
            for c in chars[..<dash] { guard let a = c.asciiValue else { return nil }; out.append(UInt32(a)) }
            start = dash + 1
        }
        var n = initialN, i = 0, bias = initialBias, pos = start
        while pos < chars.count {
            let old = i
            var w = 1, k = base
            while true {
                guard pos < chars.count, let d = value(chars[pos]) else { return nil }
                pos += 1
                let (add, o1) = d.multipliedReportingOverflow(by: w)
                guard !o1, i <= Int(Int32.max) - add else { return nil }
                i += add
                let t = threshold(k, bias)
                if d < t { break }
                let (nw, o2) = w.multipliedReportingOverflow(by: base - t)
                guard !o2, nw <= Int(Int32.max) else { return nil }
                w = nw
                k += base
            }
            bias = adapt(i - old, out.count + 1, old == 0)
            n += i / (out.count + 1)
            guard n <= 0x10FFFF else { return nil }
            i %= out.count + 1
            out.insert(UInt32(n), at: i)
            i += 1
        }
        return out
    }
}
