import Imaging
import Records

/// ZBar places a linear code at the scan-line points where a decode ended: at one end of the
/// symbol when every scan line that read it ran the same way, so its box has no width along
/// the scan. Such a read is given the symbol's extent from the view: along the middle scan
/// line, from the point to each end of the bars, up to a light run as long as a quiet zone.
/// Without it, two passes that read the same code from its two ends reported it twice (8 of 96
/// Code 128s on a scanned label sheet at thorough), and its corners were a line, not the code.
enum LinearExtent {
    /// `raw` with the symbol's ends added to its points when its box is flat along the scan
    /// direction and the view shows the bars; `raw` itself otherwise.
    static func extended(_ raw: RawSymbol, in image: LumaImage) -> RawSymbol {
        guard !raw.symbology.isTwoDimensional, !raw.points.isEmpty, raw.orientation >= 0 else { return raw }
        // Up or down: bars upright, scan lines across x; left or right: scan lines down y.
        let acrossX = raw.orientation % 2 == 0
        let along = raw.points.map { acrossX ? $0.x : $0.y }, across = raw.points.map { acrossX ? $0.y : $0.x }
        guard along.max()! - along.min()! < 2 else { return raw }
        let at = along.reduce(0, +) / Double(along.count)
        let line = Int(((across.min()! + across.max()!) / 2).rounded())
        let length = acrossX ? image.width : image.height
        guard line >= 0, line < (acrossX ? image.height : image.width) else { return raw }
        let profile = (0..<length).map { acrossX ? image[$0, line] : image[line, $0] }
        guard let (first, last) = ends(profile, from: Int(at.rounded())) else { return raw }
        var out = raw
        let lo = across.min()!, hi = across.max()!
        for e in [Double(first), Double(last)] {
            out.points += acrossX ? [Point(x: e, y: lo), Point(x: e, y: hi)] : [Point(x: lo, y: e), Point(x: hi, y: e)]
        }
        return out
    }

    /// The ends of the bars around `start` on a grey profile. Each side is walked to its
    /// last dark run before a light run as long as a quiet zone (4.5 times the median of its
    /// first 16 runs, and longer than any of their bars by a quarter): the side with more runs
    /// is the code (the other starts with the quiet zone, or with the last few bars, ZBar's point
    /// being a little inside the symbol). Nil when the code's side shows fewer than 18 runs (a
    /// Code 128 of one character has 25) or the profile no contrast.
    static func ends(_ profile: [UInt8], from start: Int) -> (Int, Int)? {
        guard start >= 0, start < profile.count else { return nil }
        let lo = profile.min()!, hi = profile.max()!
        guard Int(hi) - Int(lo) > 40 else { return nil }
        let threshold = (Int(lo) + Int(hi)) / 2
        func walk(_ step: Int) -> (runs: Int, end: Int) {
            var runs: [(dark: Bool, length: Int, last: Int)] = []
            var i = start
            while i >= 0 && i < profile.count && runs.count < 400 {
                let dark = Int(profile[i]) < threshold
                if let r = runs.last, r.dark == dark {
                    runs[runs.count - 1].length += 1
                    runs[runs.count - 1].last = i
                } else {
                    runs.append((dark, 1, i))
                }
                i += step
            }
            let head = runs.prefix(16)
            let median = head.map(\.length).sorted()[head.count / 2]
            let widestBar = head.filter(\.dark).map(\.length).max() ?? 0
            let quiet = max(Double(median) * 4.5, Double(widestBar) * 1.25)
            var end = start, count = 0
            for r in runs {
                if !r.dark && Double(r.length) >= quiet { break }
                count += 1
                if r.dark { end = r.last }
            }
            return (count, end)
        }
        let right = walk(1), left = walk(-1)
        guard max(right.runs, left.runs) >= 18 else { return nil }
        return (left.end, right.end)
    }
}

extension DetectedCode {
    /// A decoder's read of a view as a code of the frame: its corners (a flat linear read's
    /// with the symbol's ends first, `LinearExtent`) mapped to full resolution by `toFull`.
    init(_ raw: RawSymbol, in view: LumaImage, toFull: Homography, frame: Int, pass: String) {
        self.init(
            symbology: raw.symbology, bytes: raw.bytes, corners: LinearExtent.extended(raw, in: view).corners.transformed(by: toFull),
            quality: raw.quality, orientation: raw.orientation, frame: frame, pass: pass, gs1: raw.gs1)
        facts = raw.facts
        // A QR code zxing-cpp read carries the same details as one the grid decoder read.
        if raw.symbology == .qr, let f = raw.facts, let version = f.version.flatMap({ Int($0) }), let ec = f.ecLevel, let mask = f.mask {
            qr = QRDetails(version: version, ecLevel: ec, mask: mask, mirrored: f.mirrored ?? false, eci: f.eci)
        }
    }
}
