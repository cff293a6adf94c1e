import Imaging
import Records

/// Sheets of codes: big frames whose code-like places cover much of them (label sheets, asset
/// tags, scanned pages). Their codes can be too small for every reduced view, so the locator
/// and ZBar look at them at full resolution, tile by tile, where the full-resolution look sees
/// texture that nothing found so far explains. Made per `scan` call; it holds the busy blocks
/// of the full-resolution look, taken once.
final class SheetOfCodes {
    private let frame: FrameViews
    private let look: CheapLook
    private let settings: PlanSettings
    private let trace: (@Sendable (String) -> Void)?
    /// The busy blocks at full resolution (a sheet's full look), taken once.
    private var fullBusy: BusyMap?

    init(frame: FrameViews, look: CheapLook, settings: PlanSettings, trace: (@Sendable (String) -> Void)?) {
        self.frame = frame
        self.look = look
        self.settings = settings
        self.trace = trace
    }

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
    /// (`qrCodes`: the located codes some pass read, or their count while the locator is
    /// running; asked only of a big frame), or, where nothing of `codes` was read yet, a bar
    /// field in the frame as decoded. A page of text or a fabric has the places and neither.
    func isSheet(_ codes: [DetectedCode], qrCodes: () -> Int) -> Bool {
        guard frame.fullMegapixels >= settings.sheetMegapixels else { return false }
        // Bars are looked for only where nothing was read yet: a photo whose code the first view
        // or the grid decoder read, with fewer QR codes located, costs no look (fast takes none).
        // Located codes that some pass read: a field of finder-like rings makes candidates by
        // the dozen, some with format information by chance, none of them read.
        let qrCodes = qrCodes()
        guard qrCodes >= settings.sheetMinLocated || codes.isEmpty else { return false }
        let seen = look.probe()
        guard seen.codeLike && seen.busyArea >= settings.sheetBusyArea && seen.places >= settings.sheetMinPlaces else { return false }
        if qrCodes >= settings.sheetMinLocated { return true }
        return look.barFieldInBase()
    }

    /// The look at full resolution (the frame decoded at full size first if it is not yet): its
    /// busy blocks, taken once.
    private func fullLook() -> BusyMap {
        frame.decodeFullResolution()
        if let map = fullBusy { return map }
        let start = ContinuousClock.now
        let (mask, bw, bh) = TextureProbe.busyMask(frame.base)
        let map = BusyMap(mask: mask, blocksWide: bw, blocksHigh: bh)
        fullBusy = map
        trace?("full-look ms=\(ms(since: start)) busy=\(mask.filter { $0 }.count) size=\(frame.base.width)x\(frame.base.height)")
        return map
    }

    /// Outlines (full-resolution pixels) as boxes in base pixels, each grown by a tenth of its
    /// size and 8 px: the code and its quiet zone.
    private func explainedBoxes(_ outlines: [Quad]) -> [PixelRect] {
        guard let fullToBase = frame.baseToFull.inverted else { return [] }
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
    /// that `outlines` (full-resolution pixels) do not explain; none for a frame that is no sheet
    /// (`isSheet`, with `codes` and `qrCodes`). `merging`: when most tiles are kept, the frame
    /// whole (one view costs less than its overlapping tiles).
    func unexplainedTiles(_ outlines: [Quad], merging: Bool = true, codes: [DetectedCode], qrCodes: () -> Int) -> [PixelRect] {
        guard isSheet(codes, qrCodes: qrCodes) else { return [] }
        let map = fullLook()
        let explained = explainedBoxes(outlines)
        let w = frame.base.width, h = frame.base.height
        let all = Self.sheetTiles(width: w, height: h, side: settings.sheetTileSide, overlap: settings.sheetTileOverlap)
        let kept = all.filter { map.unexplained(in: $0, explained: explained, enough: TextureProbe.minBusyBlocks) >= TextureProbe.minBusyBlocks }
        // Most of the sheet: the frame whole costs less than its overlapping tiles.
        return merging && kept.count * 2 > all.count ? [PixelRect(x: 0, y: 0, width: w, height: h)] : kept
    }

    /// The locator at full resolution on a sheet's tiles where texture no located code explains
    /// is (a code whose modules the reduced view shrank under 2 px): the candidates found there,
    /// in full-resolution pixels, less those that a candidate found before (or in an
    /// overlapping tile) already stands for. Asked by the locator while it runs (`found`: what it
    /// found in the reduced view; `codes`: the codes read so far).
    func locateTiles(_ found: [QRCandidate], codes: [DetectedCode]) -> [QRCandidate] {
        // Only where the reduced view found a few codes: elsewhere the sheet's ZBar pass reads
        // what it missed, and a photo whose code it located costs no look here.
        guard found.count >= settings.sheetMinLocated, holdsCodes(found) else { return [] }
        let start = ContinuousClock.now
        let tiles = unexplainedTiles(found.map(\.corners), merging: false, codes: codes) { found.count }
        guard !tiles.isEmpty else { return [] }
        var options = QRLocator.Options()
        options.maxFinders = settings.sheetMaxFinders
        let baseToFull = Homography(frame.baseToFull)
        var all = found, added: [QRCandidate] = []
        for tile in tiles {
            let toFull = baseToFull.concatenating(Homography(.translation(Double(tile.x), Double(tile.y))))
            for c in LocatedQRCodes.denoised(QRLocator.locate(frame.base.cropped(tile), options: options), settings) {
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

    /// Whether the grid decoder reads at least `settings.sheetMinLocated` of the reduced view's
    /// first `4 * sheetMinLocated` candidates (full-resolution pixels) on the base frame: a
    /// field of finder-like rings or squares gives triples by the dozen, some with format
    /// information by chance, none a code, and is no reason to look at full resolution. (The
    /// grid pass reads them again; a few reads are cheap beside a full-resolution look.)
    private func holdsCodes(_ found: [QRCandidate]) -> Bool {
        guard let fullToBase = frame.baseToFull.inverted else { return false }
        let toBase = Homography(fullToBase)
        var codes = 0
        for candidate in found.prefix(4 * settings.sheetMinLocated) {
            if case .read = QRGridReader.read(frame.base, candidate: candidate.mapped(by: toBase)) { codes += 1 }
            if codes >= settings.sheetMinLocated { return true }
        }
        return false
    }
}
