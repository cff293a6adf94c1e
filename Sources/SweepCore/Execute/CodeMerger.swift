import Records

/// Keeps one entry per code: the same symbology and payload at an overlapping place is the
/// same code, whichever pass (or tile) found it; the first pass to find it is kept.
///
/// A read that needs confirmation (a weak EAN/UPC read in a large photo, see
/// `PlanSettings.linearConfirmBelow`) is `hold`: it waits in `held`, outside `codes`, until
/// another view (`source`) reads the same code, or a read that needs none does; then it joins
/// `codes` as if first read where it was held. What is still held at the end is not reported.
package struct CodeMerger: Sendable {
    package private(set) var codes: [DetectedCode] = []
    /// What read each of `codes` (one entry per code): the passes that read it, and the views a
    /// held read was confirmed from. Its count is the code's support (`OneValuePerBarcode`).
    package private(set) var readBy: [Set<String>] = []
    package private(set) var held: [Held] = []
    /// Held reads their confirmation crop overruled (`overrules`): a read of the same code
    /// later is not held again, so it cannot confirm itself by a second misread.
    package private(set) var refuted: [DetectedCode] = []
    /// Whether a linear read on a stronger read of its symbology with other bytes is dropped
    /// (`misreadsEarlier`): in large frames (sheets, photos); in a small image the first,
    /// stronger read may itself be the misread (a 4 KB EAN-13 of the zxing-cpp corpus).
    package var oneCodePerPlace = false
    package init(oneCodePerPlace: Bool = false) { self.oneCodePerPlace = oneCodePerPlace }

    /// A read waiting for a second sighting, and the view it came from.
    package struct Held: Sendable, Equatable {
        package var code: DetectedCode
        /// The view that read it (reads from the same view confirm nothing).
        package var source: String
        /// That view's scale and turn, for the executor's confirmation crops.
        package var view: ReadView
        /// Whether the executor has tried its confirmation crops.
        package var checked = false
    }

    package mutating func add(_ code: DetectedCode) {
        if misreadsEarlier(code) { return }
        // A sure read confirms a held read of the same code: the held one was first.
        if let h = held.firstIndex(where: { Self.same($0.code, code) }) {
            let confirmed = held.remove(at: h)
            append(confirmed.code, readBy: [confirmed.code.pass, "view: " + confirmed.source])
        }
        for (i, existing) in codes.enumerated() where Self.same(existing, code) {
            readBy[i].insert(code.pass)
            // A later pass at higher resolution may have better corners for a linear code
            // (more scan lines): keep the first pass's name, take the better quality.
            if !code.symbology.isTwoDimensional && code.quality > existing.quality {
                codes[i].quality = code.quality
            }
            return
        }
        append(code, readBy: [code.pass])
    }

    private mutating func append(_ code: DetectedCode, readBy passes: Set<String>) {
        codes.append(code)
        readBy.append(passes)
    }

    /// Drops code `i` (`OneValuePerBarcode`).
    mutating func remove(_ indices: Set<Int>) {
        for i in indices.sorted(by: >) {
            codes.remove(at: i)
            readBy.remove(at: i)
        }
    }

    /// Gives a code read without them its QR symbol details (the grid decoder confirmed it).
    /// Details for a code read; `bytes`, when given, replace what the other decoder gave (the
    /// symbol's own bytes where ZBar handed over its ECI payload converted to UTF-8).
    mutating func attach(_ details: QRDetails, sequence: SymbolFacts? = nil, bytes: [UInt8]? = nil, to index: Int) {
        codes[index].qr = details
        if let part = sequence?.sequence, codes[index].facts?.sequence == nil {
            var facts = codes[index].facts ?? SymbolFacts()
            facts.sequence = part
            codes[index].facts = facts
        }
        if let bytes { codes[index].bytes = bytes }
    }

    /// Adds a read that counts only once confirmed: at once if the code is known already or
    /// held from another view, else it is held.
    /// - Returns: whether the read was held (and is new there).
    @discardableResult
    package mutating func hold(_ code: DetectedCode, source: String, view: ReadView = ReadView(), checked: Bool = false) -> Bool {
        if misreadsEarlier(code) || refuted.contains(where: { Self.same($0, code) }) || codes.contains(where: { Self.overrules($0, code) }) {
            return false
        }
        if let h = held.firstIndex(where: { Self.same($0.code, code) }) {
            // Read again by the same view: still one sighting.
            guard held[h].source != source else {
                held[h].code.quality = max(held[h].code.quality, code.quality)
                return false
            }
            let first = held.remove(at: h)
            append(first.code, readBy: [first.code.pass, "view: " + first.source, "view: " + source])
        }
        if codes.contains(where: { Self.same($0, code) }) {
            add(code)
            return false
        }
        held.append(Held(code: code, source: source, view: view, checked: checked))
        return true
    }

    /// Marks a held read's confirmation as tried.
    package mutating func markChecked(_ i: Int) { held[i].checked = true }

    /// Drops held read `i` for good (`refuted`).
    package mutating func refute(_ i: Int) { refuted.append(held.remove(at: i).code) }

    /// Whether `sure`, a linear read of another symbology, stands on the bars of `weak`, a
    /// read waiting for confirmation: their outlines meet (within 4 px) and it was read on more
    /// lines; add-ons, which sit beside their code, neither overrule nor are overruled.
    static func overrules(_ sure: DetectedCode, _ weak: DetectedCode) -> Bool {
        !sure.symbology.isTwoDimensional && sure.symbology != weak.symbology && !sure.symbology.isAddOn && !weak.symbology.isAddOn
            && sure.frame == weak.frame && sure.quality > weak.quality && sure.corners.overlaps(weak.corners, slack: 4)
    }

    /// The same code: same frame, symbology and payload, at an overlapping place (within a
    /// quarter of the larger read's size: a linear read on a few scan lines is a thin box).
    static func same(_ existing: DetectedCode, _ code: DetectedCode) -> Bool {
        guard existing.frame == code.frame && family(existing.symbology) == family(code.symbology) && existing.bytes == code.bytes else { return false }
        let slack = max(4, max(diagonal(existing.corners), diagonal(code.corners)) * 0.25)
        return existing.corners.overlaps(code.corners, slack: slack)
    }

    /// Symbologies one symbol can be read as: a DataBar Expanded Stacked (zxing-cpp's name) is a
    /// DataBar Expanded to ZBar, which tells no stacking; the first read's name is kept.
    static func family(_ s: Symbology) -> Symbology { s == .databarExpandedStacked ? .databarExpanded : s }

    /// One place, one code: a linear read on a code of its symbology read before on more scan
    /// lines (their outlines meet, within 4 px: labels 50 px apart are other places), with other
    /// bytes, is a misread of that code (ZBar joins the halves of two
    /// EAN-13s a scan line crosses, or of a code cut by a view's edge, into a valid check digit;
    /// on a label sheet the reduced, turned and tiled views of thorough made 26 such reads).
    func misreadsEarlier(_ code: DetectedCode) -> Bool {
        guard oneCodePerPlace && !code.symbology.isTwoDimensional else { return false }
        return codes.contains { existing in
            existing.frame == code.frame && existing.symbology == code.symbology && existing.bytes != code.bytes
                && existing.quality > code.quality
                && existing.corners.overlaps(code.corners, slack: 4)
        }
    }

    static func diagonal(_ q: Quad) -> Double {
        let b = q.boundingBox
        return ((b.maxX - b.minX) * (b.maxX - b.minX) + (b.maxY - b.minY) * (b.maxY - b.minY)).squareRoot()
    }
}
