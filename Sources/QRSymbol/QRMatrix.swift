/// QR Code error correction levels (ISO/IEC 18004 §7.5.1) with the share of codewords each can
/// restore, as the standard states it (approximately: 7, 15, 25, 30 %).
package enum QRErrorCorrection: String, Sendable, CaseIterable, Comparable {
    case L, M, Q, H
    package var restorableFraction: Double {
        switch self {
        case .L: 0.07
        case .M: 0.15
        case .Q: 0.25
        case .H: 0.30
        }
    }
    package static func < (l: Self, r: Self) -> Bool { l.restorableFraction < r.restorableFraction }
    package init?(flag: String) {
        switch flag.uppercased() {
        case "L": self = .L
        case "M": self = .M
        case "Q": self = .Q
        case "H": self = .H
        default: return nil
        }
    }
}

/// A QR Code symbol as modules (no quiet zone): `size` × `size`, row-major, true = dark.
package struct QRMatrix: Sendable, Equatable {
    package let version: Int
    package let ec: QRErrorCorrection
    package let size: Int
    package let modules: [Bool]

    package init(version: Int, ec: QRErrorCorrection, size: Int, modules: [Bool]) {
        precondition(modules.count == size * size)
        self.version = version; self.ec = ec; self.size = size; self.modules = modules
    }
    @inlinable package subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// Horizontal runs of dark modules, row by row: (first x, y, length).
    package func darkRuns() -> [(x: Int, y: Int, length: Int)] {
        var out: [(x: Int, y: Int, length: Int)] = []
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else { x += 1; continue }
                var run = 1
                while x + run < size && self[x + run, y] { run += 1 }
                out.append((x, y, run))
                x += run
            }
        }
        return out
    }
}

/// Facts of the QR Code symbol structure (ISO/IEC 18004), enough to know which codeword every
/// module belongs to: function patterns, alignment pattern centres, total codewords per version,
/// and the placement of codeword bits in two-module columns from the bottom-right corner.
package enum QRStructure {
    package static func size(version: Int) -> Int { 17 + 4 * version }

    /// Total codewords (data + error correction) per version 1...40 (Table 9).
    package static let totalCodewords: [Int] = [
        26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085,
        1156, 1258, 1364, 1474, 1588, 1706, 1828, 1921, 2051, 2185, 2323, 2465, 2611, 2761, 2876, 3034, 3196, 3362, 3532, 3706,
    ]

    /// Remainder bits after the last codeword, per version.
    package static func remainderBits(version: Int) -> Int {
        switch version {
        case 2...6: 7
        case 14...20, 28...34: 3
        case 21...27: 4
        default: 0
        }
    }

    /// Row/column coordinates of alignment pattern centres (Annex E).
    package static func alignmentCentres(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let table: [[Int]] = [
            [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
            [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78],
            [6, 30, 56, 82], [6, 30, 58, 86], [6, 34, 62, 90], [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102],
            [6, 28, 54, 80, 106], [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118], [6, 26, 50, 74, 98, 122],
            [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130], [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138],
            [6, 30, 58, 86, 114, 142], [6, 34, 62, 90, 118, 146], [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154],
            [6, 28, 54, 80, 106, 132, 158], [6, 32, 58, 84, 110, 136, 162], [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
        ]
        return table[version - 2]
    }

    /// Alignment pattern centres as (x, y), leaving out the three that would overlap finders.
    package static func alignmentPatterns(version: Int) -> [(x: Int, y: Int)] {
        let c = alignmentCentres(version: version)
        guard let last = c.last else { return [] }
        var out: [(Int, Int)] = []
        for y in c { for x in c where !((x == 6 && y == 6) || (x == 6 && y == last) || (x == last && y == 6)) { out.append((x, y)) } }
        return out
    }

    package enum Role: UInt8, Sendable { case data = 0, finder, timing, alignment, format, version }

    /// The role of every module, row-major: finders with their separators, timing, alignment,
    /// format and version information; everything else carries codeword bits.
    package static func roles(version: Int) -> [Role] {
        let n = size(version: version)
        var r = [Role](repeating: .data, count: n * n)
        func set(_ x: Int, _ y: Int, _ role: Role) { if x >= 0, y >= 0, x < n, y < n { r[y * n + x] = role } }
        for (fx, fy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for dy in -1...7 { for dx in -1...7 { set(fx + dx, fy + dy, .finder) } }
        }
        for i in 8..<(n - 8) { set(i, 6, .timing); set(6, i, .timing) }
        for (ax, ay) in alignmentPatterns(version: version) {
            for dy in -2...2 { for dx in -2...2 { set(ax + dx, ay + dy, .alignment) } }
        }
        for i in 0...8 where r[8 * n + i] == .data { set(i, 8, .format) }
        for i in 0...8 where r[i * n + 8] == .data { set(8, i, .format) }
        for i in 0..<8 { set(n - 1 - i, 8, .format); set(8, n - 1 - i, .format) }  // includes the dark module
        if version >= 7 {
            for i in 0..<6 { for j in 0..<3 { set(n - 11 + j, i, .version); set(i, n - 11 + j, .version) } }
        }
        return r
    }

    /// For every module, the index of the codeword its bit belongs to (-1: function pattern or a
    /// remainder bit), following the placement of §7.7.3: two-module columns from the right,
    /// upwards then downwards, skipping the vertical timing column.
    package static func codewordMap(version: Int) -> [Int] {
        bitMap(version: version).map { $0 < 0 ? -1 : $0 / 8 }
    }

    /// For every module, the index of the codeword bit it carries in the symbol's codeword
    /// sequence (codeword × 8 + bit, bit 0 the most significant), -1 for function patterns and
    /// remainder bits.
    package static func bitMap(version: Int) -> [Int] {
        let n = size(version: version)
        let roles = roles(version: version)
        var map = [Int](repeating: -1, count: n * n)
        let bits = totalCodewords[version - 1] * 8
        var bit = 0
        var upward = true
        var right = n - 1
        while right > 0 {
            if right == 6 { right -= 1 }
            for i in 0..<n {
                let y = upward ? n - 1 - i : i
                for x in [right, right - 1] where roles[y * n + x] == .data {
                    if bit < bits { map[y * n + x] = bit }
                    bit += 1
                }
            }
            upward.toggle()
            right -= 2
        }
        return map
    }
}
