/// Format and version information (ISO/IEC 18004 §7.9, §7.10): the BCH codes that say a
/// symbol's error correction level and mask (15 bits, twice) and, from version 7, its version
/// (18 bits, twice). Encoding for the generator, decoding with the Hamming distance for the reader:
/// a decode at distance 0-3 is sure, the nearest of two copies wins.

/// A symbol's error correction level and mask, as its format information says.
package struct QRFormat: Sendable, Equatable, Hashable {
    package var ec: QRErrorCorrection
    package var mask: Int
    package init(ec: QRErrorCorrection, mask: Int) { self.ec = ec; self.mask = mask }

    /// The two bits the format information gives each level (Table 12): L 01, M 00, Q 11, H 10.
    static func bits(_ ec: QRErrorCorrection) -> Int {
        switch ec {
        case .L: 1
        case .M: 0
        case .Q: 3
        case .H: 2
        }
    }

    /// The 15 format bits as placed in the symbol: 5 data bits, 10 BCH bits, masked with 0x5412.
    package var codeword: Int {
        let data = Self.bits(ec) << 3 | mask
        var rem = data
        for _ in 0..<10 { rem = (rem << 1) ^ ((rem >> 9) * 0x537) }
        return (data << 10 | (rem & 0x3FF)) ^ 0x5412
    }

    /// All 32 formats with their codewords.
    package static let all: [(format: QRFormat, codeword: Int)] = QRErrorCorrection.allCases.flatMap { ec in
        (0..<8).map { m in
            let f = QRFormat(ec: ec, mask: m); return (f, f.codeword)
        }
    }

    /// The format nearest to `bits` (15 bits as read) and its Hamming distance. The codewords are
    /// at least 7 apart, so a distance of 3 or less names one format surely.
    package static func decode(_ bits: Int) -> (format: QRFormat, distance: Int) {
        var best = (format: all[0].format, distance: 99)
        for (f, c) in all {
            let d = (c ^ bits).nonzeroBitCount
            if d < best.distance { best = (f, d) }
        }
        return best
    }

    /// Module positions (x, y) of the format bits, bit 0 (the least significant) first: the copy
    /// around the top-left finder, and the copy split between the other two finders.
    package static func positions(size n: Int) -> (first: [(x: Int, y: Int)], second: [(x: Int, y: Int)]) {
        var first: [(x: Int, y: Int)] = []
        for i in 0...5 { first.append((8, i)) }
        first += [(8, 7), (8, 8), (7, 8)]
        for i in 9..<15 { first.append((14 - i, 8)) }
        var second: [(x: Int, y: Int)] = []
        for i in 0..<8 { second.append((n - 1 - i, 8)) }
        for i in 8..<15 { second.append((8, n - 15 + i)) }
        return (first, second)
    }
}

/// Version information (§7.10): versions 7-40 carry their number in 18 bits, twice.
package enum QRVersionInformation {
    /// The 18 bits for `version` (7...40): 6 data bits and 12 BCH bits (generator 0x1F25).
    package static func codeword(_ version: Int) -> Int {
        var rem = version
        for _ in 0..<12 { rem = (rem << 1) ^ ((rem >> 11) * 0x1F25) }
        return version << 12 | (rem & 0xFFF)
    }

    /// The version nearest to `bits` (18 bits as read) and its distance; the codewords are at
    /// least 8 apart, so 3 or less is sure.
    package static func decode(_ bits: Int) -> (version: Int, distance: Int) {
        var best = (version: 7, distance: 99)
        for v in 7...40 {
            let d = (codeword(v) ^ bits).nonzeroBitCount
            if d < best.distance { best = (v, d) }
        }
        return best
    }

    /// Module positions (x, y) of the version bits, bit 0 first: the 6x3 block left of the
    /// top-right finder, and the 3x6 block above the bottom-left finder.
    package static func positions(size n: Int) -> (topRight: [(x: Int, y: Int)], bottomLeft: [(x: Int, y: Int)]) {
        var a: [(x: Int, y: Int)] = [], b: [(x: Int, y: Int)] = []
        for i in 0..<18 {
            a.append((n - 11 + i % 3, i / 3))
            b.append((i / 3, n - 11 + i % 3))
        }
        return (a, b)
    }
}

extension QRMatrix {
    /// The same symbol with its format information (both copies) saying `format`; the codeword
    /// modules are left as they are.
    package func writingFormat(_ format: QRFormat) -> QRMatrix {
        var m = modules
        let code = format.codeword
        let (first, second) = QRFormat.positions(size: size)
        for (i, p) in first.enumerated() { m[p.y * size + p.x] = code >> i & 1 == 1 }
        for (i, p) in second.enumerated() { m[p.y * size + p.x] = code >> i & 1 == 1 }
        return QRMatrix(version: version, ec: format.ec, size: size, modules: m)
    }

    /// The same symbol under another mask: its codewords unmasked with its own mask, masked
    /// with `mask`, and the format information rewritten. Nil when the symbol's own mask
    /// cannot be found.
    package func remasked(to mask: Int) -> QRMatrix? {
        guard let own = detectMask() else { return nil }
        return replacingCodewords(codewords(mask: own), mask: mask).writingFormat(QRFormat(ec: ec, mask: mask))
    }
}
