import Imaging
import Readers
import Records

/// One read of a view by a reader that stops at a cap (`ViewReader.symbolCap`: zxing-cpp 3.1
/// returns at most 255 symbols a read). A read that returns as many as the cap is not done:
/// the view is read again in 2 x 2 overlapping tiles, and a tile whose read is capped is split
/// again, until every read returns fewer than the cap. Symbols come back in the view's
/// pixels, one per code (the same symbology and bytes at the same place, read in two
/// overlapping tiles, is one). A read still capped on the smallest tile is said
/// (`stillCapped`): the record then warns that codes may be missing.
enum CappedRead {
    struct Result {
        var symbols: [RawSymbol] = []
        var failures: [String] = []
        /// A read returned the cap on a tile too small (or too deep) to split again.
        var stillCapped = false
        /// Reads made (1 when the first was not capped).
        var reads = 0
        /// The smallest tile read, when the view was tiled.
        var smallestTile: (width: Int, height: Int)?
    }

    /// Tiles overlap by at least this many pixels, and by twice the largest symbol the capped
    /// read found: a code no larger than the overlap lies wholly in one tile.
    static let minOverlap = 256
    /// Splits at most this deep (4^5 tiles of a view): a view holding more codes than that
    /// warns instead.
    static let maxDepth = 5

    static func read(_ image: LumaImage, reader: ViewReader, request: ViewRequest) -> Result {
        var result = Result()
        read(image, x: 0, y: 0, reader: reader, request: request, depth: 0, into: &result)
        return result
    }

    private static func read(_ image: LumaImage, x: Int, y: Int, reader: ViewReader, request: ViewRequest, depth: Int, into result: inout Result) {
        let outcome = reader.read(image, request)
        result.reads += 1
        if depth > 0 {
            let smallest = result.smallestTile.map { $0.width * $0.height } ?? Int.max
            if image.width * image.height < smallest { result.smallestTile = (image.width, image.height) }
        }
        if let failure = outcome.failure, !result.failures.contains(failure) { result.failures.append(failure) }
        for symbol in outcome.symbols {
            let moved = shifted(symbol, x: x, y: y)
            if !result.symbols.contains(where: { same($0, moved) }) { result.symbols.append(moved) }
        }
        guard let cap = reader.symbolCap, outcome.symbols.count >= cap else { return }
        let tiles = quadrants(width: image.width, height: image.height, overlap: overlap(outcome.symbols))
        guard depth < maxDepth, !tiles.isEmpty else {
            result.stillCapped = true
            return
        }
        for tile in tiles {
            read(image.cropped(tile), x: x + tile.x, y: y + tile.y, reader: reader, request: request, depth: depth + 1, into: &result)
        }
    }

    /// The tiles' overlap for a read that returned `symbols`.
    static func overlap(_ symbols: [RawSymbol]) -> Int {
        let largest =
            symbols.map { s -> Double in
                let b = s.corners.boundingBox
                return max(b.maxX - b.minX, b.maxY - b.minY)
            }.max() ?? 0
        return max(minOverlap, Int((2 * largest).rounded(.up)))
    }

    /// A `width` x `height` view cut in two along each side at least twice `overlap` long (so
    /// 2 x 2, 2 x 1 or 1 x 2 tiles), the halves overlapping by `overlap` px; none when neither
    /// side is.
    static func quadrants(width: Int, height: Int, overlap: Int) -> [PixelRect] {
        func halves(_ length: Int) -> [(start: Int, length: Int)] {
            guard length >= 2 * overlap else { return [(0, length)] }
            let half = (length + overlap + 1) / 2
            return [(0, half), (length - half, half)]
        }
        let xs = halves(width), ys = halves(height)
        guard xs.count * ys.count > 1 else { return [] }
        return ys.flatMap { y in xs.map { x in PixelRect(x: x.start, y: y.start, width: x.length, height: y.length) } }
    }

    static func shifted(_ symbol: RawSymbol, x: Int, y: Int) -> RawSymbol {
        guard x != 0 || y != 0 else { return symbol }
        var s = symbol
        s.points = symbol.points.map { Point(x: $0.x + Double(x), y: $0.y + Double(y)) }
        return s
    }

    /// One code read twice: the same symbology and bytes at an overlapping place, by the
    /// merger's measure (`CodeMerger.same`: within a quarter of the larger read's size).
    static func same(_ a: RawSymbol, _ b: RawSymbol) -> Bool {
        guard a.symbology == b.symbology, a.bytes == b.bytes else { return false }
        let slack = max(4, max(CodeMerger.diagonal(a.corners), CodeMerger.diagonal(b.corners)) * 0.25)
        return a.corners.overlaps(b.corners, slack: slack)
    }
}
