import Imaging
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cheap look: does a frame hold texture that could be a code (many sharp light/dark
/// transitions packed in blocks)? Smooth photos say no and skip the expensive passes.
package enum TextureProbe {
    /// Busy blocks (each with a busy neighbour) needed to call an image code-like.
    package static let minBusyBlocks = 4

    /// What the look saw in one frame.
    package struct Result: Sendable {
        /// Code-like texture somewhere, at some scale.
        package var codeLike = false
        /// Where, as fractions of the frame (`.regions` crops).
        package var regions: [FractionalBox] = []
        /// Fine texture only (`.fineRegions` crops).
        package var fine: [FractionalBox] = []
        /// For each fine place: whether it holds a bar field (looked for in places bigger than
        /// `barFieldMinArea` only; the smaller ones are cropped whatever they hold).
        package var fineBars: [Bool] = []
        /// For each code-like place: whether it holds a bar field (looked for in places of at
        /// most `barFieldMaxRegionArea` only: the small places `.smallRegions` crops).
        package var regionBars: [Bool] = []
        /// The fraction of the frame the code-like places cover.
        package var busyArea = 0.0
        /// Per view looked at: "WxH:busy blocks" (for the trace).
        package var seen: [String] = []
        /// The most separate places (groups of at least `minBusyBlocks` busy blocks) any view
        /// showed: a sheet of codes shows hundreds, a close-up of one code or a photo a few.
        package var places = 0
    }

    /// The look at several views of one frame (coarse to fine), the finest being `base`.
    package static func look(views: [LumaImage], base: LumaImage) -> Result {
        var r = Result()
        var seenSizes = Set<Int>()
        var coarse: [(box: FractionalBox, count: Int)] = []
        var regions: [FractionalBox] = []
        for view in views where seenSizes.insert(view.width &* 65_536 &+ view.height).inserted {
            let look = look(view)
            r.seen.append("\(view.width)x\(view.height):\(look.busy)")
            r.places = max(r.places, look.counts.filter { $0 >= minBusyBlocks }.count)
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
        r.fine = FractionalBox.merged(
            fineRegions(base, coarse: coarse).map { box in
                r.regions.filter { $0.overlaps(box) }.reduce(box) { $0.union($1) }
            })
        r.fineBars = r.fine.map { $0.area > barFieldMinArea && hasBarField(base, in: $0) }
        r.regionBars = r.regions.map { $0.area <= barFieldMaxRegionArea && hasBarField(base, in: $0) }
        r.busyArea = FractionalBox.merged(r.regions, maxCount: .max, maxArea: 2).reduce(0) { $0 + $1.area }
        return r
    }

    /// Fine places bigger than this fraction of the frame are searched for a bar field.
    package static let barFieldMinArea = 0.01
    /// Code-like places no bigger than this fraction of the frame are searched for a bar field.
    package static let barFieldMaxRegionArea = 0.05

    /// The cheap bar-field test: does the place hold parallel bars (a linear code) rather than
    /// texture (text, fabric, squares)? Per 16x16 block, the Sobel gradients' structure tensor: a block
    /// of bars has edges in most of its pixels (not one edge: a square's side) all at one angle
    /// (coherence near 1; text and squares mix two or more). Bars when at least `minBlocks` such
    /// blocks of one orientation (within 10° of their neighbour) touch and reach over three blocks
    /// across the bars: a code is one wide patch, while the sides of scattered squares are as
    /// many angles as squares, each side a few modules thick.
    /// `minEdgeShare`: the share of a block's pixels that must be on an edge; a block with
    /// under 60 % must have a coherence over 0.97 (printed bars; a photo's texture is rarely so).
    /// Blocks whose middle lies in one of `ignoring` (fractions of `img`: codes read already) count for nothing.
    package static func hasBarField(
        _ img: LumaImage, in box: FractionalBox, minBlocks: Int = 4, minEdgeShare: Double = 0.6, ignoring: [FractionalBox] = []
    ) -> Bool {
        let r = box.pixels(width: img.width, height: img.height).clamped(width: img.width, height: img.height)
        let B = 16
        let gw = (r.width - 2) / B, gh = (r.height - 2) / B
        guard gw >= 1, gh >= 1 else { return false }
        // Each block's orientation of the gradient in 10° bins over 180°, or -1: no bars there.
        var bin = [Int](repeating: -1, count: gw * gh)
        let w = img.width
        img.pixels.withUnsafeBufferPointer { p in
            for gy in 0..<gh {
                for gx in 0..<gw {
                    let bx = r.x + 1 + gx * B, by = r.y + 1 + gy * B
                    let middle = Point(x: Double(bx + B / 2) / Double(img.width), y: Double(by + B / 2) / Double(img.height))
                    if ignoring.contains(where: { $0.contains(middle) }) { continue }
                    var jxx = 0, jyy = 0, jxy = 0, edges = 0
                    for y in by..<(by + B) {
                        for x in bx..<(bx + B) {
                            // Sobel: smoothed across the gradient, so a stair-stepped bar edge
                            // keeps its one direction.
                            let i = y * w + x
                            let a = Int(p[i - w - 1]), b = Int(p[i - w]), c = Int(p[i - w + 1])
                            let d = Int(p[i - 1]), f = Int(p[i + 1])
                            let g = Int(p[i + w - 1]), h = Int(p[i + w]), k = Int(p[i + w + 1])
                            let dx = (c + 2 * f + k) - (a + 2 * d + g), dy = (g + 2 * h + k) - (a + 2 * b + c)
                            jxx += dx * dx; jyy += dy * dy; jxy += dx * dy
                            if dx * dx + dy * dy > 96 * 96 { edges += 1 }
                        }
                    }
                    let trace = Double(jxx + jyy)
                    guard Double(edges) >= Double(B * B) * minEdgeShare, trace > 0 else { continue }
                    let d = Double(jxx - jyy), c = 2 * Double(jxy)
                    // Fewer edges than the usual 60 %: only print-sharp bars (one angle, no other).
                    let coherence = (d * d + c * c).squareRoot() / trace
                    guard coherence > (edges * 10 >= B * B * 6 ? 0.65 : 0.97) else { continue }
                    var angle = 0.5 * atan2(c, d) * 180 / Double.pi
                    if angle < 0 { angle += 180 }
                    bin[gy * gw + gx] = min(17, Int(angle / 10))
                }
            }
        }
        // Touching blocks (8-neighbours) whose bins are at most one apart, grouped.
        var seen = [Bool](repeating: false, count: gw * gh)
        for start in 0..<(gw * gh) where bin[start] >= 0 && !seen[start] {
            seen[start] = true
            var stack = [start], size = 0
            // Across the bars (along the gradient) a code spans many modules; one side of a
            // square ring spans three: the group must reach over at least three blocks that way.
            let theta = (Double(bin[start]) + 0.5) * 10 * Double.pi / 180
            var lo = Double.infinity, hi = -Double.infinity
            while let k = stack.popLast() {
                size += 1
                let kx = k % gw, ky = k / gw
                let across = Double(kx) * cos(theta) + Double(ky) * sin(theta)
                lo = min(lo, across); hi = max(hi, across)
                if size >= minBlocks && hi - lo >= 2 { return true }
                for ny in max(0, ky - 1)...min(gh - 1, ky + 1) {
                    for nx in max(0, kx - 1)...min(gw - 1, kx + 1) {
                        let n = ny * gw + nx
                        guard !seen[n], bin[n] >= 0 else { continue }
                        let diff = abs(bin[n] - bin[k])
                        guard min(diff, 18 - diff) <= 1 else { continue }
                        seen[n] = true
                        stack.append(n)
                    }
                }
            }
        }
        return false
    }

    /// Busy blocks (each with a busy neighbour) and the boxes around groups of them, as
    /// fractions of the image, grown to take in the code's quiet zone and its flat parts
    /// (finder patterns, wide bars) that are not busy themselves.
    package static func look(_ img: LumaImage, fine: Bool = false) -> (busy: Int, regions: [FractionalBox], counts: [Int]) {
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
            guard count >= 2 else { continue }  // a lone busy block is noise or a speck
            busy += count
            counts.append(count)
            let grow = max(3.0, 0.35 * Double(max(x1 - x0, y1 - y0) + 1))
            regions.append(
                FractionalBox(
                    x0: (Double(x0) - grow) * 8 / Double(img.width),
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
    package static func fineRegions(_ finest: LumaImage, coarse: [(box: FractionalBox, count: Int)]) -> [FractionalBox] {
        let fine = look(finest, fine: true)
        return FractionalBox.merged(
            zip(fine.regions, fine.counts).filter { box, count in
                let shrunk = coarse.filter { $0.box.overlaps(box) }.reduce(0) { $0 + $1.count }
                return count >= 2 && count >= 4 * shrunk
            }.map(\.0))
    }

    package static func busyBlockCount(_ img: LumaImage, minContrast: Int32 = 24) -> Int {
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
        // Eight pixels of a block row at a time (SIMD8): the block's range, then the transitions
        // to the right and below and the pixels far from the middle, counted lane by lane. The
        // same tests as one pixel at a time (`busyMaskScalar`, kept for the tests that say so).
        let one = SIMD8<UInt8>(repeating: 1), zero = SIMD8<UInt8>(repeating: 0)
        @inline(__always) func absDiff(_ a: SIMD8<UInt8>, _ b: SIMD8<UInt8>) -> SIMD8<UInt8> {
            pointwiseMax(a, b) &- pointwiseMin(a, b)
        }
        img.pixels.withUnsafeBytes { raw in
            @inline(__always) func row(_ offset: Int) -> SIMD8<UInt8> { raw.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self) }
            var by = 0
            while by + 8 < h {
                var bx = 0
                while bx + 8 < w {
                    var lo = row(by * w + bx), hi = lo
                    for y in (by + 1)..<(by + 8) { let r = row(y * w + bx); lo = pointwiseMin(lo, r); hi = pointwiseMax(hi, r) }
                    let l = Int32(lo.min()), u = Int32(hi.max())
                    if u - l >= minContrast {
                        let t = SIMD8<UInt8>(repeating: UInt8((u - l) / 4))
                        let mid = SIMD8<UInt8>(repeating: UInt8((u + l) / 2)), band = SIMD8<UInt8>(repeating: UInt8((u - l) / 4))
                        var hx = zero, vy = zero, far = zero
                        var v = row(by * w + bx)
                        for y in by..<(by + 8) {
                            let below = row((y + 1) * w + bx), right = row(y * w + bx + 1)
                            hx &+= zero.replacing(with: one, where: absDiff(v, right) .> t)
                            vy &+= zero.replacing(with: one, where: absDiff(v, below) .> t)
                            far &+= zero.replacing(with: one, where: absDiff(v, mid) .> band)
                            v = below
                        }
                        let nh = Int(hx.wrappedSum()), nv = Int(vy.wrappedSum()), nf = Int(far.wrappedSum())
                        if nh + nv >= minTransitions && (nh >= 6 || nv >= 6) && nf >= minFar { mask[(by / 8) * bw + bx / 8] = true }
                    }
                    bx += 8
                }
                by += 8
            }
        }
        return (mask, bw, bh)
    }

    /// `busyMask` one pixel at a time: the definition the SIMD version must match.
    static func busyMaskScalar(_ img: LumaImage, minContrast: Int32 = 24, minTransitions: Int = 20, minFar: Int = 40) -> (mask: [Bool], bw: Int, bh: Int) {
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
