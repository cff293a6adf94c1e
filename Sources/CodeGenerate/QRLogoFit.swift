import Imaging
import QRSymbol

/// Choosing a symbol's free bits so that the modules under a logo plate already show what the
/// plate and the logo show (the technique of Russ Cox's "QArt codes", 2012).
///
/// After the payload's segments and the 4-bit terminator, a decoder reads no further: the rest
/// of the data bit stream (libqrencode fills it with zero bits and the pad codewords 0xEC 0x11)
/// may hold anything. Reed-Solomon over GF(2⁸) is linear over GF(2), so every codeword bit of a
/// block is an XOR of that block's free data bits plus a constant. Each codeword under the plate
/// becomes a set of equations "this module shows light/dark"; Gaussian elimination over GF(2)
/// takes a codeword's equations only when they agree with those already taken, so a codeword is
/// either made right as a whole or left alone and counted as damaged.

/// What a module of the symbol should show once the plate and logo are drawn over it.
package enum ModuleTarget: UInt8, Sendable {
    /// Not under the plate: the module shows itself.
    case open = 0
    case light, dark
    /// Under the logo, in a grey a scanner may read either way: counted as damaged.
    case unsure
}

extension ModuleTarget {
    /// Targets for the modules under a plate from what is drawn there: `picture` is the plate
    /// with its logo in grey (as a scanner sees it), `modulePx` pixels a module, its top-left
    /// pixel at module (plate.x, plate.y). A module is dark when its mean grey lies in the
    /// darker 40 % of the way from the foreground's grey to the background's and every pixel
    /// of its middle is on the dark side of halfway; light likewise; anything else is unsure.
    package static func under(
        plate: ModuleRect, picture: LumaImage, modulePx m: Int, symbolSize n: Int,
        foreground: UInt8, background: UInt8
    ) -> [ModuleTarget] {
        var out = [ModuleTarget](repeating: .open, count: n * n)
        let fg = Double(foreground), span = Double(Int(background) - Int(foreground))
        guard span != 0 else { return out }
        func t(_ v: UInt8) -> Double { (Double(v) - fg) / span }  // 0: foreground, 1: background
        let lo = m / 4, hi = m - m / 4
        for my in plate.y..<(plate.y + plate.height) where my >= 0 && my < n {
            for mx in plate.x..<(plate.x + plate.width) where mx >= 0 && mx < n {
                let px = (mx - plate.x) * m, py = (my - plate.y) * m
                var sum = 0.0, middleDark = false, middleLight = false
                for y in 0..<m {
                    for x in 0..<m {
                        let v = t(picture[px + x, py + y])
                        sum += v
                        if x >= lo && x < hi && y >= lo && y < hi { if v < 0.5 { middleDark = true } else { middleLight = true } }
                    }
                }
                let mean = sum / Double(m * m)
                out[my * n + mx] = mean <= 0.4 && !middleLight ? .dark : mean >= 0.6 && !middleDark ? .light : .unsure
            }
        }
        return out
    }
}

/// Which codewords under the plate do not show what the plate shows: the codewords the error
/// correction has to restore. Counted from the modules themselves, so it holds for any symbol.
package struct LogoDamage: Sendable, Equatable {
    /// Codewords with at least one module under the plate.
    package var covered: Int
    /// Covered codewords with a module that differs from its target or is unsure, per block.
    package var damagedPerBlock: [Int]
    package var damaged: Int { damagedPerBlock.reduce(0, +) }

    package init(_ matrix: QRMatrix, targets: [ModuleTarget]) {
        let bits = QRStructure.bitMap(version: matrix.version)
        let layout = QRBlockLayout(version: matrix.version, ec: matrix.ec)
        let blockOf = layout.interleaving().map(\.block)
        var covered = Set<Int>(), damaged = Set<Int>()
        for (i, target) in targets.enumerated() where target != .open && bits[i] >= 0 {
            let c = bits[i] >> 3
            covered.insert(c)
            if target == .unsure || matrix.modules[i] != (target == .dark) { damaged.insert(c) }
        }
        self.covered = covered.count
        var per = [Int](repeating: 0, count: layout.blockCount)
        for c in damaged { per[blockOf[c]] += 1 }
        damagedPerBlock = per
    }
}

/// The data bit stream's segments (§7.4): how many bits they take before the terminator.
package enum QRDataStream {
    /// nil when a mode indicator is not one the standard defines (then nothing is free).
    package static func segmentBits(_ data: [UInt8], version: Int) -> Int? {
        let total = data.count * 8
        var pos = 0
        func read(_ n: Int) -> Int? {
            guard pos + n <= total else { return nil }
            var v = 0
            for _ in 0..<n { v = v << 1 | Int(data[pos >> 3] >> UInt8(7 - pos & 7) & 1); pos += 1 }
            return v
        }
        let size = version < 10 ? 0 : version < 27 ? 1 : 2
        while pos + 4 <= total {
            let start = pos
            guard let mode = read(4) else { break }
            var skip = 0
            switch mode {
            case 0: return start  // the terminator
            case 0b0111:  // ECI: a designator of 1, 2 or 3 bytes
                guard let first = read(8) else { return nil }
                skip = first & 0x80 == 0 ? 0 : first & 0x40 == 0 ? 8 : 16
            case 0b0100: guard let c = read([8, 16, 16][size]) else { return nil }; skip = 8 * c
            case 0b0001: guard let c = read([10, 12, 14][size]) else { return nil }; skip = 10 * (c / 3) + [0, 4, 7][c % 3]
            case 0b0010: guard let c = read([9, 11, 13][size]) else { return nil }; skip = 11 * (c / 2) + 6 * (c % 2)
            case 0b1000: guard let c = read([8, 10, 12][size]) else { return nil }; skip = 13 * c
            case 0b0011: skip = 16  // structured append
            case 0b0101: skip = 0  // FNC1, first position
            case 0b1001: skip = 8  // FNC1, second position
            default: return nil
            }
            guard pos + skip <= total else { return nil }
            pos += skip
        }
        return pos  // the capacity ends where a terminator would be
    }
}

/// A QR symbol whose free bits have been chosen to show the plate and logo.
package struct LogoFit: Sendable {
    package var matrix: QRMatrix
    /// Data bits after the segments and the terminator: what the fit may choose.
    package var freeBits: Int
    /// Bits of codewords under the plate with a clear target (the equations to satisfy).
    package var bitsToFix: Int
    /// Codewords whose covered modules the fit made show their targets (of those not already
    /// damaged by an unsure module).
    package var matchedCodewords: Int
    package var damage: LogoDamage
    /// false: the fit gave up (see `giveUpAbove`) or found no mask; `matrix` is as it came.
    package var solved: Bool

    /// `targets`: one per module of `matrix`, row-major. Codewords are taken cheapest first
    /// (fewest covered bits), nearest the centre first among equals. `giveUpAbove`: when a
    /// block without free bits (it holds only payload) already has more damaged codewords than
    /// this, nothing can save the symbol: the bits are left as they are (`solved` false).
    package init(_ matrix: QRMatrix, targets: [ModuleTarget], giveUpAbove: Int? = nil) {
        let n = matrix.size
        precondition(targets.count == n * n)
        let layout = QRBlockLayout(version: matrix.version, ec: matrix.ec)
        let bits = QRStructure.bitMap(version: matrix.version)
        let place = layout.interleaving()
        guard let mask = matrix.detectMask() else {
            self.init(matrix: matrix, freeBits: 0, bitsToFix: 0, matchedCodewords: 0, damage: LogoDamage(matrix, targets: targets), solved: false)
            return
        }
        var blocks = layout.blocks(of: matrix.codewords(mask: mask))
        let capacity = layout.dataCodewords * 8
        let used = QRDataStream.segmentBits(layout.dataStream(of: blocks), version: matrix.version).map { $0 + 4 } ?? capacity
        let freeStart = min(used, capacity)

        // Equations per codeword of the symbol: (bit in codeword, wanted value before masking).
        var wants = [[(bit: Int, value: Bool)]](repeating: [], count: layout.totalCodewords)
        var unsure = Set<Int>(), distance = [Int](repeating: .max, count: layout.totalCodewords)
        for (i, target) in targets.enumerated() where target != .open && bits[i] >= 0 {
            let c = bits[i] >> 3, x = i % n, y = i / n
            let d = abs(2 * x - (n - 1)) + abs(2 * y - (n - 1))
            distance[c] = min(distance[c], d)
            if target == .unsure { unsure.insert(c); continue }
            wants[c].append((bits[i] & 7, (target == .dark) != QRMask.flips(mask, x: x, y: y)))
        }
        let order = (0..<layout.totalCodewords).filter { !wants[$0].isEmpty && !unsure.contains($0) }
            .sorted { (wants[$0].count, distance[$0]) < (wants[$1].count, distance[$1]) }

        // Per block, its free bits (block-relative bit indices of its data).
        var start = 0
        let free: [[Int]] = layout.dataPerBlock.map { k in
            defer { start += k * 8 }
            let first = max(0, freeStart - start)
            return first < k * 8 ? Array(first..<(k * 8)) : []
        }
        if let limit = giveUpAbove {
            let damage = LogoDamage(matrix, targets: targets)
            if free.indices.contains(where: { free[$0].isEmpty && damage.damagedPerBlock[$0] > limit }) {
                self.init(
                    matrix: matrix, freeBits: capacity - freeStart, bitsToFix: order.reduce(0) { $0 + wants[$1].count },
                    matchedCodewords: 0, damage: damage, solved: false)
                return
            }
        }
        // Per block: the free bits as variables, and each codeword bit as a row over them.
        let encoder = ReedSolomonEncoder(degree: layout.ecPerBlock)
        var systems = (0..<layout.blockCount).map { BlockSystem(block: blocks[$0], dataCount: layout.dataPerBlock[$0], freeBits: free[$0], encoder: encoder) }
        var matched = 0
        for c in order {
            let (b, p) = place[c]
            if systems[b].take(wants[c].map { (p * 8 + $0.bit, $0.value) }) { matched += 1 }
        }
        for b in 0..<layout.blockCount { blocks[b] = systems[b].solved() }
        let fitted = matrix.replacingCodewords(layout.codewords(of: blocks), mask: mask)
        self.init(
            matrix: fitted, freeBits: capacity - freeStart, bitsToFix: order.reduce(0) { $0 + wants[$1].count },
            matchedCodewords: matched, damage: LogoDamage(fitted, targets: targets), solved: true)
    }

    init(matrix: QRMatrix, freeBits: Int, bitsToFix: Int, matchedCodewords: Int, damage: LogoDamage, solved: Bool) {
        self.matrix = matrix; self.freeBits = freeBits; self.bitsToFix = bitsToFix
        self.matchedCodewords = matchedCodewords; self.damage = damage; self.solved = solved
    }
}

/// One Reed-Solomon block as linear equations over GF(2): its free data bits are the
/// variables; a codeword bit is its current value XOR a row of variables (a data bit: itself
/// or nothing; an error correction bit: the XOR of the free bits whose unit vector sets it).
/// Rows are kept in echelon form in the order they were taken.
struct BlockSystem {
    var block: [UInt8]
    let dataCount: Int
    let freeBits: [Int]
    let words: Int
    /// Row of every bit of the block (data bits: at most one variable).
    let rowOf: [[UInt64]]
    var rows: [[UInt64]] = [], rhs: [Bool] = [], pivots: [Int] = []
    let encoder: ReedSolomonEncoder

    init(block: [UInt8], dataCount: Int, freeBits: [Int], encoder: ReedSolomonEncoder) {
        self.block = block; self.dataCount = dataCount; self.freeBits = freeBits; self.encoder = encoder
        let w = max(1, (freeBits.count + 63) / 64)
        words = w
        var r = [[UInt64]](repeating: [UInt64](repeating: 0, count: w), count: block.count * 8)
        // The code is linear over GF(2⁸): the check codewords of the value b at data position p
        // are b × those of 1 at p, so one encoding per position serves its eight bits.
        var unitChecks: [Int: [UInt8]] = [:]
        for (v, bit) in freeBits.enumerated() {
            r[bit][v >> 6] |= 1 << UInt64(v & 63)
            let p = bit >> 3
            if unitChecks[p] == nil {
                var unit = [UInt8](repeating: 0, count: dataCount)
                unit[p] = 1
                unitChecks[p] = encoder.errorCorrection(unit)
            }
            let value: UInt8 = 0x80 >> UInt8(bit & 7)
            for (e, one) in unitChecks[p]!.enumerated() {
                let cw = GF256.multiply(one, value)
                guard cw != 0 else { continue }
                for t in 0..<8 where cw & (0x80 >> UInt8(t)) != 0 { r[(dataCount + e) * 8 + t][v >> 6] |= 1 << UInt64(v & 63) }
            }
        }
        rowOf = r
    }

    /// Takes the equations "bit `at` of the block is `value`" together, or none of them when
    /// they contradict those already taken.
    mutating func take(_ equations: [(at: Int, value: Bool)]) -> Bool {
        let kept = rows.count
        for (at, value) in equations {
            let current = block[at >> 3] & (0x80 >> UInt8(at & 7)) != 0
            var row = rowOf[at], b = value != current
            for k in 0..<rows.count where row[pivots[k] >> 6] & (1 << UInt64(pivots[k] & 63)) != 0 {
                for w in 0..<words { row[w] ^= rows[k][w] }
                b = b != rhs[k]
            }
            guard let w = row.firstIndex(where: { $0 != 0 }) else {
                if b { rows.removeLast(rows.count - kept); rhs.removeLast(rhs.count - kept); pivots.removeLast(pivots.count - kept); return false }
                continue
            }
            rows.append(row); rhs.append(b); pivots.append(w * 64 + row[w].trailingZeroBitCount)
        }
        return true
    }

    /// The block with its free bits set to a solution (variables no row determines keep their
    /// value) and its error correction codewords encoded again.
    func solved() -> [UInt8] {
        guard !freeBits.isEmpty else { return block }
        var x = [UInt64](repeating: 0, count: words)
        for k in stride(from: rows.count - 1, through: 0, by: -1) {
            var parity = rhs[k]
            for w in 0..<words where (rows[k][w] & x[w]).nonzeroBitCount & 1 == 1 { parity.toggle() }
            if parity { x[pivots[k] >> 6] |= 1 << UInt64(pivots[k] & 63) }
        }
        var data = Array(block.prefix(dataCount))
        for (v, bit) in freeBits.enumerated() where x[v >> 6] & (1 << UInt64(v & 63)) != 0 { data[bit >> 3] ^= 0x80 >> UInt8(bit & 7) }
        return data + encoder.errorCorrection(data)
    }
}
