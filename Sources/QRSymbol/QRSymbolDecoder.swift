/// From sampled modules to a QR Code symbol's content: format information (both copies,
/// weighed by how sure each module is), version information from version 7, the mask undone,
/// the codewords read out and split into blocks, each block restored by Reed-Solomon (the least
/// sure codewords marked as erasures when plain decoding fails), and the data stream parsed.

/// The modules as sampled: `size` x `size`, row-major; each value's sign says dark (> 0) or
/// light (< 0), its magnitude how sure the sampler is (0: no idea, 1: sure).
package struct QRModuleGrid: Sendable, Equatable {
    package let size: Int
    package var values: [Float]
    package init(size: Int, values: [Float]) {
        precondition(values.count == size * size)
        self.size = size; self.values = values
    }
    @inlinable package subscript(x: Int, y: Int) -> Float { values[y * size + x] }
    package func isDark(_ x: Int, _ y: Int) -> Bool { values[y * size + x] > 0 }

    /// The grid as a mirror image reads it (rows and columns swapped).
    package var transposed: QRModuleGrid {
        var t = values
        for y in 0..<size { for x in 0..<size { t[x * size + y] = values[y * size + x] } }
        return QRModuleGrid(size: size, values: t)
    }

    /// A clean symbol as a grid of sure modules.
    package init(_ matrix: QRMatrix) {
        self.init(size: matrix.size, values: matrix.modules.map { $0 ? 1 : -1 })
    }
}

/// A decoded symbol.
package struct QRDecoded: Sendable, Equatable {
    package var content: QRContent
    package var version: Int
    package var ec: QRErrorCorrection
    package var mask: Int
    /// Codewords restored by error correction (errors and erasures that needed a change).
    package var corrected: Int
    /// Codewords marked as erasures in the blocks that needed them.
    package var erasures: Int
    /// Bits of the nearer format information copy that disagreed with the format chosen.
    package var formatDistance: Int
}

package enum QRSymbolDecoder {
    /// Why a grid did not decode.
    package enum Failure: Error, Sendable, Equatable {
        /// Neither format information copy is within 3 bits of a format (not a QR code, or the
        /// grid is far off): the caller should spend nothing more on this frame.
        case format
        /// Version information names another version: sample again at that size.
        case version(Int)
        /// A block could not be restored within the limits.
        case blocks
        /// The restored data does not parse as segments.
        case data
    }

    package struct Options: Sendable, Equatable {
        /// Check codewords kept back in every block as a margin against miscorrection when
        /// erasures are used (a random block "decodes" when the erasures take all the checks).
        package var erasureReserve = 4
        /// At most this share of a block's check codewords are marked as erasures.
        package var maxErasureShare = 1.0
        /// Try erasures at all.
        package var useErasures = true
        package init() {}
    }

    /// The format the grid's format information names, with the Hamming distance of the better
    /// copy; decided by the bits weighed by how sure each was, so one sure copy outvotes a
    /// doubtful one. Nil when no format is within 3 bits of either copy.
    package static func format(of grid: QRModuleGrid) -> (format: QRFormat, distance: Int)? {
        let copies = QRFormat.positions(size: grid.size)
        return nearest(QRFormat.all.map { ($0.format, $0.codeword) }, in: grid, at: [copies.first, copies.second])
            .map { (format: $0.value, distance: $0.distance) }
    }

    /// The version the version information names (sizes of version 7 and up), weighed as the
    /// format; nil when neither copy is within 3 bits of a version.
    package static func version(of grid: QRModuleGrid) -> Int? {
        let copies = QRVersionInformation.positions(size: grid.size)
        return nearest((7...40).map { ($0, QRVersionInformation.codeword($0)) }, in: grid, at: [copies.topRight, copies.bottomLeft])?.value
    }

    /// Of `codes` (a value and its codeword, bit 0 at each copy's first position), the one whose
    /// bits disagree least with the grid's at the copies' positions, each disagreement weighed by
    /// how sure its module is; with the Hamming distance of the nearer copy, and nil when that is
    /// over 3.
    static func nearest<Value>(_ codes: [(Value, Int)], in grid: QRModuleGrid, at copies: [[(x: Int, y: Int)]]) -> (value: Value, distance: Int)? {
        var best: (value: Value, cost: Float, distance: Int)? = nil
        for (value, code) in codes {
            var cost: Float = 0
            var distance = Int.max
            for positions in copies {
                var d = 0
                for (i, p) in positions.enumerated() {
                    let v = grid[p.x, p.y]
                    if (v > 0) != (code >> i & 1 == 1) { cost += abs(v); d += 1 }
                }
                distance = min(distance, d)
            }
            if best == nil || cost < best!.cost { best = (value, cost, distance) }
        }
        guard let b = best, b.distance <= 3 else { return nil }
        return (b.value, b.distance)
    }

    /// Decodes a grid whose size is that of a version (21, 25, … 177).
    package static func decode(_ grid: QRModuleGrid, options: Options = Options()) -> Result<QRDecoded, Failure> {
        let n = grid.size
        guard n >= 21, n <= 177, (n - 17) % 4 == 0 else { return .failure(.format) }
        let version = (n - 17) / 4
        guard let (format, distance) = format(of: grid) else { return .failure(.format) }
        if version >= 7 {
            // A version other than the size's: the caller samples again (a version decoded
            // with a wrong-sized grid would read garbage).
            if let v = Self.version(of: grid), v != version { return .failure(.version(v)) }
        }
        let layout = QRBlockLayout(version: version, ec: format.ec)
        let bits = QRStructure.bitMap(version: version)
        let total = layout.totalCodewords
        var codewords = [UInt8](repeating: 0, count: total)
        // How sure each codeword is: the least sure of its eight modules.
        var sureness = [Float](repeating: 1, count: total)
        for y in 0..<n {
            for x in 0..<n {
                let b = bits[y * n + x]
                guard b >= 0 else { continue }
                let v = grid.values[y * n + x]
                if (v > 0) != QRMask.flips(format.mask, x: x, y: y) { codewords[b >> 3] |= 0x80 >> UInt8(b & 7) }
                sureness[b >> 3] = min(sureness[b >> 3], abs(v))
            }
        }
        var blocks = layout.blocks(of: codewords)
        // The same split for the sureness values.
        var blockSureness = (0..<layout.blockCount).map { [Float](repeating: 0, count: layout.length(ofBlock: $0)) }
        for (i, at) in layout.interleaving().enumerated() { blockSureness[at.block][at.position] = sureness[i] }
        let ec = layout.ecPerBlock
        let protection = ec - 2 * layout.correctablePerBlock  // Table 9's p (0 from version 4)
        var corrected = 0, erased = 0
        for b in 0..<layout.blockCount {
            if let done = ReedSolomonDecoder.decode(&blocks[b], ecCount: ec, reserve: protection) {
                corrected += done.corrected.count
                continue
            }
            guard options.useErasures else { return .failure(.blocks) }
            // The least sure codewords as erasures, more of them each try.
            let order = blockSureness[b].indices.sorted { blockSureness[b][$0] < blockSureness[b][$1] }
            let most = min(Int(Double(ec) * options.maxErasureShare), ec - options.erasureReserve - protection)
            var restored = false
            var f = 2
            while f <= most {
                if let done = ReedSolomonDecoder.decode(
                    &blocks[b], ecCount: ec, erasures: Array(order.prefix(f)),
                    reserve: options.erasureReserve + protection)
                {
                    corrected += done.corrected.count
                    erased += f
                    restored = true
                    break
                }
                f += 2
            }
            if !restored { return .failure(.blocks) }
        }
        guard let content = QRSegments.parse(layout.dataStream(of: blocks), version: version) else { return .failure(.data) }
        return .success(
            QRDecoded(
                content: content, version: version, ec: format.ec, mask: format.mask,
                corrected: corrected, erasures: erased, formatDistance: distance))
    }
}
