/// The cheap look: does a frame hold texture that could be a code (many sharp light/dark
/// transitions packed in blocks)? Smooth photos say no and skip the expensive passes.
public enum TextureProbe {
    /// Busy blocks (each with a busy neighbour) needed to call an image code-like.
    public static let minBusyBlocks = 4

    /// What the look saw in one frame.
    public struct Result: Sendable {
        /// Code-like texture somewhere, at some scale.
        public var codeLike = false
        /// Where, as fractions of the frame (`.regions` crops).
        public var regions: [FractionalBox] = []
        /// Fine texture only (`.fineRegions` crops).
        public var fine: [FractionalBox] = []
        /// The fraction of the frame the code-like places cover.
        public var busyArea = 0.0
        /// Per view looked at: "WxH:busy blocks" (for the trace).
        public var seen: [String] = []
    }

    /// The look at several views of one frame (coarse to fine), the finest being `base`.
    public static func look(views: [LumaImage], base: LumaImage) -> Result {
        var r = Result()
        var seenSizes = Set<Int>()
        var coarse: [(box: FractionalBox, count: Int)] = []
        var regions: [FractionalBox] = []
        for view in views where seenSizes.insert(view.width &* 65_536 &+ view.height).inserted {
            let look = look(view)
            r.seen.append("\(view.width)x\(view.height):\(look.busy)")
            if look.busy >= minBusyBlocks {
                r.codeLike = true
                regions += look.regions
            }
            if view.width != base.width || view.height != base.height { coarse += zip(look.regions, look.counts).map { ($0, $1) } }
        }
        r.regions = FractionalBox.merged(regions)
        // A fine place inside a code-like one (a dense code: busy when shrunk in its middle,
        // fine only at its sharper edge) is widened to it, so the full-resolution crop
        // holds the whole code.
        r.fine = FractionalBox.merged(fineRegions(base, coarse: coarse).map { box in
            r.regions.filter { $0.overlaps(box) }.reduce(box) { $0.union($1) }
        })
        r.busyArea = FractionalBox.merged(r.regions, maxCount: .max, maxArea: 2).reduce(0) { $0 + $1.area }
        return r
    }

    /// Busy blocks (each with a busy neighbour) and the boxes around groups of them, as
    /// fractions of the image, grown to take in the code's quiet zone and its flat parts
    /// (finder patterns, wide bars) that are not busy themselves.
    public static func look(_ img: LumaImage, fine: Bool = false) -> (busy: Int, regions: [FractionalBox], counts: [Int]) {
        let (mask, bw, bh) = fine ? busyMask(img, minTransitions: 40, minFar: 24) : busyMask(img)
        guard bw > 0, bh > 0 else { return (0, [], []) }
        var seen = [Bool](repeating: false, count: bw * bh)
        var busy = 0
        var regions: [FractionalBox] = []
        var counts: [Int] = []
        var stack: [Int] = []
        for start in 0..<(bw * bh) where mask[start] && !seen[start] {
            // One 8-connected group of busy blocks.
            seen[start] = true
            stack = [start]
            var count = 0, x0 = bw, y0 = bh, x1 = 0, y1 = 0
            while let i = stack.popLast() {
                count += 1
                let x = i % bw, y = i / bw
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < bw, ny < bh else { continue }
                        let j = ny * bw + nx
                        if mask[j] && !seen[j] { seen[j] = true; stack.append(j) }
                    }
                }
            }
            guard count >= 2 else { continue } // a lone busy block is noise or a speck
            busy += count
            counts.append(count)
            let grow = max(3.0, 0.35 * Double(max(x1 - x0, y1 - y0) + 1))
            regions.append(FractionalBox(x0: (Double(x0) - grow) * 8 / Double(img.width),
                                         y0: (Double(y0) - grow) * 8 / Double(img.height),
                                         x1: (Double(x1 + 1) + grow) * 8 / Double(img.width),
                                         y1: (Double(y1 + 1) + grow) * 8 / Double(img.height)))
        }
        return (busy, regions, counts)
    }

    /// Fine texture: places busy at the finest scale (`finest`, looked at with the fine
    /// variant) with little busy there when shrunk (`coarse`: the groups the coarser looks found,
    /// with their block counts). Text and photo detail are busy at every scale; modules of
    /// 1-1.5 px only at the finest.
    public static func fineRegions(_ finest: LumaImage, coarse: [(box: FractionalBox, count: Int)]) -> [FractionalBox] {
        let fine = look(finest, fine: true)
        return FractionalBox.merged(zip(fine.regions, fine.counts).filter { box, count in
            let shrunk = coarse.filter { $0.box.overlaps(box) }.reduce(0) { $0 + $1.count }
            return count >= 2 && count >= 4 * shrunk
        }.map(\.0))
    }

    public static func busyBlockCount(_ img: LumaImage, minContrast: Int32 = 24) -> Int {
        look(img).busy
    }

    /// Number of 8x8 blocks that look like part of a code: enough contrast (at least
    /// `minContrast` levels, low-contrast prints included), many sharp transitions in both
    /// directions relative to the block's own range, and two-tone (most pixels far from the
    /// middle of the range; sensor noise and smooth gradients are not).
    /// The fine variant (more transitions, less two-tone) finds modules of 1-1.5 px, which
    /// the decoder's own resampling has already blurred towards grey.
    static func busyMask(_ img: LumaImage, minContrast: Int32 = 24, minTransitions: Int = 20, minFar: Int = 40) -> (mask: [Bool], bw: Int, bh: Int) {
        let w = img.width, h = img.height
        guard w >= 16, h >= 16 else { return ([], 0, 0) }
        let bw = (w - 1) / 8, bh = (h - 1) / 8
        var mask = [Bool](repeating: false, count: bw * bh)
        img.pixels.withUnsafeBufferPointer { p in
            var by = 0
            while by + 8 < h {
                var bx = 0
                while bx + 8 < w {
                    var lo: Int32 = 255, hi: Int32 = 0
                    for y in by..<(by + 8) { for x in bx..<(bx + 8) { let v = Int32(p[y * w + x]); lo = min(lo, v); hi = max(hi, v) } }
                    let t = (hi - lo) / 4
                    if hi - lo >= minContrast {
                        var hx = 0, vy = 0, far = 0
                        let mid = (hi + lo) / 2, band = (hi - lo) / 4
                        for y in by..<(by + 8) {
                            for x in bx..<(bx + 8) {
                                let v = Int32(p[y * w + x])
                                if abs(v - Int32(p[y * w + x + 1])) > t { hx += 1 }
                                if abs(v - Int32(p[(y + 1) * w + x])) > t { vy += 1 }
                                if abs(v - mid) > band { far += 1 }
                            }
                        }
                        if hx + vy >= minTransitions && (hx >= 6 || vy >= 6) && far >= minFar { mask[(by / 8) * bw + bx / 8] = true }
                    }
                    bx += 8
                }
                by += 8
            }
        }
        return (mask, bw, bh)
    }
}
