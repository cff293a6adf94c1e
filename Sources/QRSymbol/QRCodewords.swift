/// The codeword layer of a QR Code symbol (ISO/IEC 18004 §7.5–§7.8): arithmetic in GF(2⁸), the
/// Reed-Solomon error correction encoder, the split of codewords into blocks and their
/// interleaving, and the data masks — enough to read a symbol's codewords out of its modules,
/// change some, and put them back. Pure value types, no C.

/// GF(2⁸) with the QR Code field polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), α = 2.
package enum GF256 {
    /// αⁱ for i in 0..<510 (doubled so products need no modulo).
    static let exp: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 510)
        var v = 1
        for i in 0..<255 {
            t[i] = UInt8(v); t[i + 255] = UInt8(v)
            v <<= 1
            if v & 0x100 != 0 { v ^= 0x11D }
        }
        return t
    }()
    /// log_α(v) for v in 1...255 (entry 0 unused).
    static let log: [Int] = {
        var t = [Int](repeating: 0, count: 256)
        for i in 0..<255 { t[Int(exp[i])] = i }
        return t
    }()

    package static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }
    package static func power(_ i: Int) -> UInt8 { exp[i % 255] }
}

/// The Reed-Solomon encoder of §7.5.2: the error correction codewords are the remainder of
/// data(x)·x^degree divided by the generator polynomial g(x) = (x − α⁰)(x − α¹)…(x − α^(degree−1)).
package struct ReedSolomonEncoder: Sendable {
    package let degree: Int
    /// g(x)'s coefficients, highest power first, the leading 1 included.
    package let generator: [UInt8]

    package init(degree: Int) {
        precondition(degree >= 1 && degree <= 68)
        self.degree = degree
        var g: [UInt8] = [1]
        for i in 0..<degree {
            // g(x)·(x + αⁱ): subtraction is addition in GF(2⁸).
            var next = [UInt8](repeating: 0, count: g.count + 1)
            for j in 0..<g.count {
                next[j] ^= g[j]
                next[j + 1] ^= GF256.multiply(g[j], GF256.power(i))
            }
            g = next
        }
        generator = g
    }

    /// The `degree` error correction codewords of `data`.
    package func errorCorrection(_ data: [UInt8]) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: degree)
        for d in data {
            let factor = d ^ r[0]
            for j in 0..<(degree - 1) { r[j] = r[j + 1] ^ GF256.multiply(generator[j + 1], factor) }
            r[degree - 1] = GF256.multiply(generator[degree], factor)
        }
        return r
    }
}

/// How a version and level split the symbol's codewords into Reed-Solomon blocks (Table 9):
/// every block has the same number of error correction codewords; the first blocks hold
/// ⌊data / blocks⌋ data codewords, the last `data mod blocks` one more.
package struct QRBlockLayout: Sendable, Equatable {
    package let version: Int
    package let ec: QRErrorCorrection
    package let ecPerBlock: Int
    /// Data codewords of each block, in block order.
    package let dataPerBlock: [Int]

    package var blockCount: Int { dataPerBlock.count }
    package var totalCodewords: Int { QRStructure.totalCodewords[version - 1] }
    package var dataCodewords: Int { dataPerBlock.reduce(0, +) }
    package func length(ofBlock b: Int) -> Int { dataPerBlock[b] + ecPerBlock }

    /// Codewords a block can restore when it does not know where the errors are: half its error
    /// correction codewords, less the misdecode protection codewords of the smallest symbols
    /// (Table 9's p: 1-L 3, 1-M 2, 1-Q and 1-H 1, 2-L 2, 3-L 1).
    package var correctablePerBlock: Int {
        let p: Int
        switch (version, ec) {
        case (1, .L): p = 3
        case (1, .M), (2, .L): p = 2
        case (1, _), (3, .L): p = 1
        default: p = 0
        }
        return (ecPerBlock - p) / 2
    }

    package init(version: Int, ec: QRErrorCorrection) {
        precondition((1...40).contains(version))
        self.version = version; self.ec = ec
        let row: Int
        switch ec {
        case .L: row = 0
        case .M: row = 1
        case .Q: row = 2
        case .H: row = 3
        }
        let blocks = Self.blocks[row][version - 1], ecc = Self.ecPerBlock[row][version - 1]
        let total = QRStructure.totalCodewords[version - 1]
        let short = total / blocks, longCount = total % blocks
        ecPerBlock = ecc
        dataPerBlock = (0..<blocks).map { $0 < blocks - longCount ? short - ecc : short - ecc + 1 }
    }

    /// Error correction codewords per block, per level (L, M, Q, H) and version (Table 9).
    static let ecPerBlock: [[Int]] = [
        [
            7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            30, 30, 30,
        ],
        [
            10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
            28, 28, 28,
        ],
        [
            13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            30, 30, 30,
        ],
        [
            17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            30, 30, 30,
        ],
    ]
    /// Reed-Solomon blocks, per level (L, M, Q, H) and version (Table 9).
    static let blocks: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    /// For every codeword of the symbol (in placement order), its block and its position in the
    /// block (data first, then error correction), after §7.6's interleaving: data codewords
    /// taken column by column across the blocks, then the error correction codewords likewise.
    package func interleaving() -> [(block: Int, position: Int)] {
        var out: [(block: Int, position: Int)] = []
        out.reserveCapacity(totalCodewords)
        for i in 0..<(dataPerBlock.max() ?? 0) {
            for b in 0..<blockCount where i < dataPerBlock[b] { out.append((b, i)) }
        }
        for i in 0..<ecPerBlock {
            for b in 0..<blockCount { out.append((b, dataPerBlock[b] + i)) }
        }
        return out
    }

    /// The symbol's codeword sequence split into blocks (each: data, then error correction).
    package func blocks(of codewords: [UInt8]) -> [[UInt8]] {
        precondition(codewords.count == totalCodewords)
        var out = (0..<blockCount).map { [UInt8](repeating: 0, count: length(ofBlock: $0)) }
        for (i, at) in interleaving().enumerated() { out[at.block][at.position] = codewords[i] }
        return out
    }

    /// The blocks put back into one codeword sequence.
    package func codewords(of blocks: [[UInt8]]) -> [UInt8] {
        interleaving().map { blocks[$0.block][$0.position] }
    }

    /// The data codewords in bit stream order: block 0's data, then block 1's, …
    package func dataStream(of blocks: [[UInt8]]) -> [UInt8] {
        (0..<blockCount).flatMap { blocks[$0].prefix(dataPerBlock[$0]) }
    }
}

/// The eight data masks of §7.8.2; `x` is the column, `y` the row.
package enum QRMask {
    package static func flips(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (y + x) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (y + x) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (y * x) % 2 + (y * x) % 3 == 0
        case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
        default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
        }
    }
}

extension QRMatrix {
    /// The codewords the modules carry, in placement order, with `mask` undone.
    package func codewords(mask: Int) -> [UInt8] {
        let bits = QRStructure.bitMap(version: version)
        var out = [UInt8](repeating: 0, count: QRStructure.totalCodewords[version - 1])
        for y in 0..<size {
            for x in 0..<size {
                let b = bits[y * size + x]
                guard b >= 0, self[x, y] != QRMask.flips(mask, x: x, y: y) else { continue }
                out[b >> 3] |= 0x80 >> UInt8(b & 7)
            }
        }
        return out
    }

    /// The same symbol carrying `codewords` under `mask`; function patterns, format and version
    /// information and remainder bits stay as they are.
    package func replacingCodewords(_ codewords: [UInt8], mask: Int) -> QRMatrix {
        precondition(codewords.count == QRStructure.totalCodewords[version - 1])
        let bits = QRStructure.bitMap(version: version)
        var m = modules
        for y in 0..<size {
            for x in 0..<size {
                let b = bits[y * size + x]
                guard b >= 0 else { continue }
                let bit = codewords[b >> 3] & (0x80 >> UInt8(b & 7)) != 0
                m[y * size + x] = bit != QRMask.flips(mask, x: x, y: y)
            }
        }
        return QRMatrix(version: version, ec: ec, size: size, modules: m)
    }

    /// The mask the symbol was made with: the one under which every block's error correction
    /// codewords are those of its data (under any other mask nearly every block fails).
    package func detectMask() -> Int? {
        let layout = QRBlockLayout(version: version, ec: ec)
        let rs = ReedSolomonEncoder(degree: layout.ecPerBlock)
        return (0..<8).first { mask in
            layout.blocks(of: codewords(mask: mask)).enumerated().allSatisfy { b, block in
                let k = layout.dataPerBlock[b]
                return rs.errorCorrection(Array(block.prefix(k))) == Array(block.dropFirst(k))
            }
        }
    }
}
