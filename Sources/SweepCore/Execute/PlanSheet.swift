import Records

/// Sheets of codes: big frames whose code-like places cover much of them (label sheets, asset
/// tags, scanned pages). Their codes can be too small for every reduced view, so the locator
/// and ZBar look at them at full resolution, tile by tile, where the full-resolution look sees
/// texture that nothing found so far explains.
extension PlanExecutor {
    /// The busy 8x8 blocks of the frame at full resolution (`TextureProbe.busyMask`).
    struct BusyMap {
        var mask: [Bool]
        var blocksWide: Int, blocksHigh: Int

        /// Busy blocks within `rect` (base pixels) outside every box of `explained` (base
        /// pixels), counted up to `enough`.
        func unexplained(in rect: PixelRect, explained: [PixelRect], enough: Int) -> Int {
            guard blocksWide > 0, blocksHigh > 0 else { return 0 }
            let bx0 = max(0, rect.x / 8), by0 = max(0, rect.y / 8)
            let bx1 = min(blocksWide, (rect.x + rect.width) / 8), by1 = min(blocksHigh, (rect.y + rect.height) / 8)
            guard bx1 > bx0, by1 > by0 else { return 0 }
            var covered = [Bool](repeating: false, count: (bx1 - bx0) * (by1 - by0))
            let w = bx1 - bx0
            for e in explained {
                let x0 = max(bx0, e.x / 8), y0 = max(by0, e.y / 8)
                let x1 = min(bx1, (e.x + e.width + 7) / 8), y1 = min(by1, (e.y + e.height + 7) / 8)
                guard x1 > x0, y1 > y0 else { continue }
                for y in y0..<y1 { for x in x0..<x1 { covered[(y - by0) * w + x - bx0] = true } }
            }
            var n = 0
            for y in by0..<by1 {
                for x in bx0..<bx1 where mask[y * blocksWide + x] && !covered[(y - by0) * w + x - bx0] {
                    n += 1
                    if n >= enough { return n }
                }
            }
            return n
        }
    }

    /// Tiles of `side` px overlapping by `overlap` px covering a `width` x `height` image, row by
    /// row; the last tile of a row (column) is set against the image's edge, so every tile is
    /// whole and any part of at most `overlap` px lies wholly in one tile.
    package static func sheetTiles(width: Int, height: Int, side: Int, overlap: Int) -> [PixelRect] {
        guard width > 0, height > 0, side > overlap, overlap >= 0 else { return [] }
        func starts(_ length: Int) -> [Int] {
            guard length > side else { return [0] }
            var out: [Int] = []
            var s = 0
            while s + side < length {
                out.append(s)
                s += side - overlap
            }
            out.append(length - side)
            return out
        }
        return starts(height).flatMap { y in
            starts(width).map { x in PixelRect(x: x, y: y, width: min(side, width), height: min(side, height)) }
        }
    }

    /// Whether the frame is a sheet of codes: big enough, code-like over much of it, in many
    /// separate places, and codes among them: several QR codes located in the reduced view
    /// (`located`: their count, when the locator is running), or, where nothing was read yet, a
    /// bar field in the frame as decoded. A page of text or a fabric has the places and neither.
    func isSheet(_ state: inout FrameState, located: Int? = nil) -> Bool {
        guard state.fullMegapixels >= settings.sheetMegapixels else { return false }
        // Bars are looked for only where nothing was read yet: a photo whose code the first view
        // or the grid decoder read, with fewer QR codes located, costs no look (fast takes none).
        // Located codes that some pass read: a field of finder-like rings makes candidates by
        // the dozen, some with format information by chance, none of them read.
        let qrCodes = located ?? (locate(&state).count - state.unreadLocatedIndices.count - state.notCodes.count)
        guard qrCodes >= settings.sheetMinLocated || state.merged.codes.isEmpty else { return false }
        let look = probe(&state)
        guard look.codeLike && look.busyArea >= settings.sheetBusyArea && look.places >= settings.sheetMinPlaces else { return false }
        if qrCodes >= settings.sheetMinLocated { return true }
        if let seen = state.barField[0] { return seen }
        let start = ContinuousClock.now
        let seen = TextureProbe.hasBarField(state.base, in: .whole)
        state.barField[0] = seen
        trace?("bar-field ms=\(ms(since: start)) at=base seen=\(seen)")
        return seen
    }

    /// The look at full resolution (the frame decoded at full size first if it is not yet): its
    /// busy blocks, taken once.
    func fullLook(_ state: inout FrameState) -> BusyMap {
        decodeFullResolution(&state)
        if let map = state.fullBusy { return map }
        let start = ContinuousClock.now
        let (mask, bw, bh) = TextureProbe.busyMask(state.base)
        let map = BusyMap(mask: mask, blocksWide: bw, blocksHigh: bh)
        state.fullBusy = map
        trace?("full-look ms=\(ms(since: start)) busy=\(mask.filter { $0 }.count) size=\(state.base.width)x\(state.base.height)")
        return map
    }

    /// Outlines (full-resolution pixels) as boxes in base pixels, each grown by a tenth of its
    /// size and 8 px: the code and its quiet zone.
    func explainedBoxes(_ outlines: [Quad], _ state: FrameState) -> [PixelRect] {
        guard let fullToBase = state.baseToFull.inverted else { return [] }
        let toBase = Homography(fullToBase)
        return outlines.compactMap { q in
            let b = q.transformed(by: toBase).boundingBox
            guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
            let g = 0.1 * max(b.maxX - b.minX, b.maxY - b.minY) + 8
            let x0 = Int(max(-1e9, b.minX - g)), y0 = Int(max(-1e9, b.minY - g))
            let x1 = Int(min(1e9, b.maxX + g)), y1 = Int(min(1e9, b.maxY + g))
            return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
    }

    /// The full-resolution tiles of a sheet where the full look sees at least a few busy blocks
    /// that `outlines` (full-resolution pixels) do not explain; none for a frame that is no sheet.
    /// `merging`: when most tiles are kept, the frame whole (one view costs less than its
    /// overlapping tiles). `located`: the located codes so far, while the locator runs.
    func unexplainedTiles(_ outlines: [Quad], merging: Bool = true, located: Int? = nil, _ state: inout FrameState) -> [PixelRect] {
        guard isSheet(&state, located: located) else { return [] }
        let map = fullLook(&state)
        let explained = explainedBoxes(outlines, state)
        let w = state.base.width, h = state.base.height
        let all = Self.sheetTiles(width: w, height: h, side: settings.sheetTileSide, overlap: settings.sheetTileOverlap)
        let kept = all.filter { map.unexplained(in: $0, explained: explained, enough: TextureProbe.minBusyBlocks) >= TextureProbe.minBusyBlocks }
        // Most of the sheet: the frame whole costs less than its overlapping tiles.
        return merging && kept.count * 2 > all.count ? [PixelRect(x: 0, y: 0, width: w, height: h)] : kept
    }

    /// The locator at full resolution on a sheet's tiles where texture no located code explains
    /// is (a code whose modules the reduced view shrank under 2 px): the candidates found there,
    /// in full-resolution pixels, less those that a candidate found before (or in an
    /// overlapping tile) already stands for.
    func locateTiles(_ found: [QRCandidate], _ state: inout FrameState) -> [QRCandidate] {
        // Only where the reduced view found a few codes: elsewhere the sheet's ZBar pass reads
        // what it missed, and a photo whose code it located costs no look here.
        guard found.count >= settings.sheetMinLocated, holdsCodes(found, state) else { return [] }
        let start = ContinuousClock.now
        let tiles = unexplainedTiles(found.map(\.corners), merging: false, located: found.count, &state)
        guard !tiles.isEmpty else { return [] }
        var options = QRLocator.Options()
        options.maxFinders = settings.sheetMaxFinders
        let baseToFull = Homography(state.baseToFull)
        var all = found, added: [QRCandidate] = []
        for tile in tiles {
            let toFull = baseToFull.concatenating(Homography(.translation(Double(tile.x), Double(tile.y))))
            for c in denoised(QRLocator.locate(state.base.cropped(tile), options: options)) {
                let m = c.mapped(by: toFull)
                let center = m.center
                if all.contains(where: { $0.corners.contains(center) && m.corners.contains($0.center) }) { continue }
                all.append(m)
                added.append(m)
            }
        }
        trace?("locate-tiles ms=\(ms(since: start)) tiles=\(tiles.count) candidates=\(added.count)")
        return added
    }

    /// A locator's candidates less pixel noise: more than `noisyLocatedAbove` of them with a
    /// median finder match under `noisyFinderMatch` keep only those matching `noisyKeepFinderMatch`.
    func denoised(_ candidates: [QRCandidate]) -> [QRCandidate] {
        guard candidates.count > settings.noisyLocatedAbove else { return candidates }
        let matches = candidates.map(\.finderMatch).sorted()
        guard matches[matches.count / 2] < settings.noisyFinderMatch else { return candidates }
        return candidates.filter { $0.finderMatch >= settings.noisyKeepFinderMatch }
    }
}

extension PlanExecutor {
    /// Whether the grid decoder reads at least `settings.sheetMinLocated` of the reduced view's
    /// first `4 * sheetMinLocated` candidates (full-resolution pixels) on the base frame: a
    /// field of finder-like rings or squares gives triples by the dozen, some with format
    /// information by chance, none a code, and is no reason to look at full resolution. (The
    /// grid pass reads them again; a few reads are cheap beside a full-resolution look.)
    func holdsCodes(_ found: [QRCandidate], _ state: FrameState) -> Bool {
        guard let fullToBase = state.baseToFull.inverted else { return false }
        let toBase = Homography(fullToBase)
        var codes = 0
        for candidate in found.prefix(4 * settings.sheetMinLocated) {
            if case .read = QRGridReader.read(state.base, candidate: candidate.mapped(by: toBase)) { codes += 1 }
            if codes >= settings.sheetMinLocated { return true }
        }
        return false
    }
}
