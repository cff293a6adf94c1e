/// Keeps one entry per code: the same symbology and payload at an overlapping place is the
/// same code, whichever pass (or tile) found it; the first pass to find it is kept.
public struct CodeMerger: Sendable {
    public private(set) var codes: [DetectedCode] = []
    public init() {}

    public mutating func add(_ code: DetectedCode) {
        for (i, existing) in codes.enumerated()
        where existing.frame == code.frame && existing.symbology == code.symbology && existing.bytes == code.bytes {
            let slack = max(4, diagonal(existing.corners) * 0.25)
            if existing.corners.overlaps(code.corners, slack: slack) {
                // A later pass at higher resolution may have better corners for a linear code
                // (more scan lines): keep the first pass's name, take the better quality.
                if !code.symbology.isTwoDimensional && code.quality > existing.quality {
                    codes[i].quality = code.quality
                }
                return
            }
        }
        codes.append(code)
    }

    /// Gives a code read without them its QR symbol details (the grid decoder confirmed it).
    mutating func attach(_ details: QRDetails, to index: Int) { codes[index].qr = details }

    func diagonal(_ q: Quad) -> Double {
        let b = q.boundingBox
        return ((b.maxX - b.minX) * (b.maxX - b.minX) + (b.maxY - b.minY) * (b.maxY - b.minY)).squareRoot()
    }
}
