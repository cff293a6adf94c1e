import Records

/// One barcode, one value (issue 58): the rules that keep a checksum-valid misread out of the
/// report, applied to a frame's codes once its passes are done (`CodeMerger.settle`), the same
/// at every effort.
///
/// - **Support**: the number of distinct passes (readers, views, scan-line bands) that read
///   a value, a confirmed held read counting its confirming view; then its quality (the scan
///   lines that agreed).
/// - Two linear reads of other values **on the same bars** (the same direction, their outlines
///   meeting within 4 px, and most of the shorter one's length along the scan inside the
///   other's) are one barcode: the value with more support wins; on a tie, the one read on at
///   least twice as many lines (unless one view read both: it could not tell them apart), or
///   the one read on more lines when both have a second read; otherwise neither is kept.
///   Neighbouring labels on a sheet (50 px apart) do not meet.
/// - A UPC-E or EAN-8 read inside the extent of a longer EAN/UPC is part of that code, not a
///   second one.
enum OneValuePerBarcode {
    /// Of the shorter read's length along the scan, the share the longer one must cover.
    static let sameBarsShare = 0.6

    /// The indices of `codes` to drop (`readBy`: what read each, its support).
    static func misreads(_ codes: [DetectedCode], readBy: [Set<String>]) -> Set<Int> {
        var drop = Set<Int>()
        for i in codes.indices where isCandidate(codes[i]) {
            for j in codes.indices where j > i && isCandidate(codes[j]) && sameBars(codes[i], codes[j]) {
                let a = codes[i], b = codes[j]
                if let short = shortInsideLong(i, j, codes) {
                    drop.insert(short)
                    continue
                }
                guard family(a.symbology) == family(b.symbology), value(a) != value(b) else { continue }
                drop.formUnion(loser(i, j, codes, readBy: readBy))
            }
        }
        return drop
    }

    /// Of two values on the same bars, the one (or both) to drop: the one with less support;
    /// on a tie of support, the one read on fewer lines when the other was read on at least
    /// `clearQuality` times as many, unless a single view read both (it could not tell them
    /// apart: neither is kept); otherwise the one read on fewer lines when both have a second
    /// read, and neither when they have not.
    static func loser(_ i: Int, _ j: Int, _ codes: [DetectedCode], readBy: [Set<String>]) -> Set<Int> {
        let si = readBy[i].count, sj = readBy[j].count
        if si != sj { return [si < sj ? i : j] }
        let qi = codes[i].quality, qj = codes[j].quality
        let oneView = si == 1 && readBy[i] == readBy[j]
        if !oneView && max(qi, qj) >= clearQuality * max(1, min(qi, qj)) { return [qi < qj ? i : j] }
        if si >= 2 && qi != qj { return [qi < qj ? i : j] }
        return [i, j]
    }

    /// How many times as many lines make one read of a value surer than another's.
    static let clearQuality = 2

    static func isCandidate(_ c: DetectedCode) -> Bool { !c.symbology.isTwoDimensional && !c.symbology.isAddOn }

    /// The codes' families: EAN-13, UPC-A and ISBN-13 are one (a UPC-A is an EAN-13 with a
    /// leading 0); ISBN-10, a relabelling with other digits, is none; the others their own.
    static func family(_ s: Symbology) -> String {
        switch s {
        case .ean13, .upca, .isbn13: return "ean13"
        case .isbn10: return "isbn10:own"
        default: return CodeMerger.family(s).rawValue
        }
    }

    /// The value as its family compares it (a UPC-A's 12 digits with the leading 0).
    static func value(_ c: DetectedCode) -> [UInt8] {
        c.symbology == .upca && c.bytes.count == 12 ? [UInt8(ascii: "0")] + c.bytes : c.bytes
    }

    /// The index of a UPC-E or EAN-8 read inside the extent of a longer EAN/UPC one, when
    /// `i` and `j` are such a pair.
    static func shortInsideLong(_ i: Int, _ j: Int, _ codes: [DetectedCode]) -> Int? {
        let short: Set<Symbology> = [.upce, .ean8], long: Set<Symbology> = [.ean13, .upca, .isbn13]
        if short.contains(codes[i].symbology) && long.contains(codes[j].symbology) && inside(codes[i], codes[j]) { return i }
        if short.contains(codes[j].symbology) && long.contains(codes[i].symbology) && inside(codes[j], codes[i]) { return j }
        return nil
    }

    /// Whether the bars run across x (scan lines along x).
    static func acrossX(_ c: DetectedCode) -> Bool {
        if c.orientation >= 0 { return c.orientation % 2 == 0 }
        let b = c.corners.boundingBox
        return b.maxX - b.minX >= b.maxY - b.minY
    }

    /// A read's extent along the scan direction.
    static func along(_ c: DetectedCode) -> (Double, Double) {
        let b = c.corners.boundingBox
        return acrossX(c) ? (b.minX, b.maxX) : (b.minY, b.maxY)
    }

    /// The same bars: the same direction, outlines meeting within 4 px, and most of the shorter
    /// one's length along the scan within the other's.
    static func sameBars(_ a: DetectedCode, _ b: DetectedCode) -> Bool {
        guard a.frame == b.frame, acrossX(a) == acrossX(b), a.corners.overlaps(b.corners, slack: 4) else { return false }
        return share(of: along(a), in: along(b)) >= sameBarsShare || share(of: along(b), in: along(a)) >= sameBarsShare
    }

    /// Whether `short`'s extent along the scan lies mostly inside `long`'s.
    static func inside(_ short: DetectedCode, _ long: DetectedCode) -> Bool {
        share(of: along(short), in: along(long)) >= sameBarsShare
    }

    /// The share of interval `a` inside interval `b` (a point: 1 inside, 0 outside).
    static func share(of a: (Double, Double), in b: (Double, Double)) -> Double {
        let length = a.1 - a.0
        guard length > 0 else { return a.0 >= b.0 && a.0 <= b.1 ? 1 : 0 }
        return max(0, min(a.1, b.1) - max(a.0, b.0)) / length
    }
}

extension CodeMerger {
    /// Drops the misreads `OneValuePerBarcode` finds among the codes; returns them.
    @discardableResult
    package mutating func settle() -> [DetectedCode] {
        let drop = OneValuePerBarcode.misreads(codes, readBy: readBy)
        let dropped = drop.sorted().map { codes[$0] }
        remove(drop)
        return dropped
    }
}
