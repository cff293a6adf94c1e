import Imaging
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The locator's first stages: the binarised pyramid and the finder patterns found on it.
extension QRLocator {
    // MARK: - Pyramid and binarisation

    static func pyramid(_ image: LumaImage, options: Options) -> [Level] {
        var levels: [Level] = []
        if image.megapixels <= options.upscaleBelowMegapixels && image.width >= 32 && image.height >= 32 {
            levels.append(binarise(image.doubled(), scale: 0.5, options: options))
        }
        var img = image
        var scale = 1.0
        while levels.count < options.maxLevels && min(img.width, img.height) >= min(options.minSide, min(image.width, image.height)) && img.width >= 32
            && img.height >= 32
        {
            levels.append(binarise(img, scale: scale, options: options))
            if min(img.width, img.height) / 2 < options.minSide { break }
            img = img.downscaled(by: 2)
            scale *= 2
        }
        return levels
    }

    /// Local mean binarisation at block granularity: the mean of each 8x8 block, then for
    /// every block the mean of the blocks within `blockRadius` pixels around it, and a pixel is
    /// dark when below that less `offset`. Three cheap passes instead of a sliding window per
    /// pixel (zxing's hybrid binariser works the same way).
    static func binarise(_ img: LumaImage, scale: Double, options: Options) -> Level {
        let w = img.width, h = img.height, B = blockSide
        let bw = (w + B - 1) / B, bh = (h + B - 1) / B
        var sums = [Int32](repeating: 0, count: bw * bh)
        // Rows like the one above (a drawn code's module rows): their block sums and dark pixels
        // are the row above's again.
        let same = img.rowsRepeatingAbove()
        var rowSums = [Int32](repeating: 0, count: bw)
        img.pixels.withUnsafeBufferPointer { src in
            sums.withUnsafeMutableBufferPointer { sm in
                rowSums.withUnsafeMutableBufferPointer { rs in
                    for y in 0..<h {
                        let row = y * w, brow = (y / B) * bw
                        if !same[y] {
                            var x = 0, bx = 0
                            while x + B <= w {
                                var acc: Int32 = 0
                                for k in 0..<B { acc &+= Int32(src[row + x + k]) }
                                rs[bx] = acc
                                x += B; bx += 1
                            }
                            if x < w {
                                var acc: Int32 = 0
                                for k in x..<w { acc &+= Int32(src[row + k]) }
                                rs[bx] = acc
                            }
                        }
                        for bx in 0..<bw { sm[brow + bx] &+= rs[bx] }
                    }
                }
            }
        }
        // Block-level integral of sums and pixel counts, then the threshold per block.
        let k = max(1, (options.blockRadius + B / 2) / B)
        let iw = bw + 1
        var isum = [Int64](repeating: 0, count: iw * (bh + 1)), icnt = [Int64](repeating: 0, count: iw * (bh + 1))
        for by in 0..<bh {
            var rs: Int64 = 0, rc: Int64 = 0
            let ch = min(B, h - by * B)
            for bx in 0..<bw {
                rs += Int64(sums[by * bw + bx]); rc += Int64(ch * min(B, w - bx * B))
                isum[(by + 1) * iw + bx + 1] = isum[by * iw + bx + 1] + rs
                icnt[(by + 1) * iw + bx + 1] = icnt[by * iw + bx + 1] + rc
            }
        }
        // Thresholds as bytes: a pixel is dark when strictly below (0 = never dark).
        var threshold = [UInt8](repeating: 0, count: bw * bh)
        for by in 0..<bh {
            let y0 = max(0, by - k), y1 = min(bh, by + k + 1)
            for bx in 0..<bw {
                let x0 = max(0, bx - k), x1 = min(bw, bx + k + 1)
                let sm = isum[y1 * iw + x1] - isum[y0 * iw + x1] - isum[y1 * iw + x0] + isum[y0 * iw + x0]
                let cn = icnt[y1 * iw + x1] - icnt[y0 * iw + x1] - icnt[y1 * iw + x0] + icnt[y0 * iw + x0]
                threshold[by * bw + bx] = UInt8(clamping: sm / max(1, cn) - Int64(options.offset))
            }
        }
        let dark = [UInt8](unsafeUninitializedCapacity: w * h) { dst, count in
            img.pixels.withUnsafeBufferPointer { src in
                threshold.withUnsafeBufferPointer { th in
                    for y in 0..<h {
                        let row = y * w, brow = (y / B) * bw
                        if same[y] && y % B != 0 {
                            (dst.baseAddress! + row).update(from: dst.baseAddress! + row - w, count: w)
                            continue
                        }
                        var x = 0, bx = 0
                        while x < w {
                            let end = min(w, x + B), t = th[brow + bx]
                            for i in (row + x)..<(row + end) { dst[i] = src[i] < t ? 1 : 0 }
                            x = end; bx += 1
                        }
                    }
                }
            }
            count = w * h
        }
        return Level(width: w, height: h, dark: dark, scale: scale)
    }

    /// Side of the binariser's blocks.
    static let blockSide = 8

    // MARK: - Finder patterns

    /// Whether five run lengths stand in 1:1:3:1:1 (loosely: blur, perspective, print gain).
    @inline(__always) static func finderRatio(_ r0: Int, _ r1: Int, _ r2: Int, _ r3: Int, _ r4: Int) -> Double? {
        let total = r0 + r1 + r2 + r3 + r4
        guard total >= 7 else { return nil }
        let m = Double(total) / 7
        let tol = 0.6 * m
        guard abs(Double(r0) - m) <= tol, abs(Double(r1) - m) <= tol, abs(Double(r3) - m) <= tol, abs(Double(r4) - m) <= tol,
            abs(Double(r2) - 3 * m) < 1.3 * m
        else { return nil }
        return m
    }

    @inline(__always) static func finderRatio(_ r: Runs) -> Double? { finderRatio(r.r0, r.r1, r.r2, r.r3, r.r4) }

    /// Five run lengths across a pattern: outer dark, light, centre dark, light, outer dark.
    struct Runs {
        var r0, r1, r2, r3, r4: Int
        init(_ r0: Int, _ r1: Int, _ r2: Int, _ r3: Int, _ r4: Int) { self.r0 = r0; self.r1 = r1; self.r2 = r2; self.r3 = r3; self.r4 = r4 }
        func allSatisfy(_ p: (Int) -> Bool) -> Bool { p(r0) && p(r1) && p(r2) && p(r3) && p(r4) }
    }

    /// The five runs through (x, y) along (dx, dy): the dark run holding the point, then the
    /// light and dark runs on each side (each capped at `cap` pixels). Nil when the point is
    /// light or a run runs off the image or past the cap.
    static func runsThrough(_ L: Level, _ x: Int, _ y: Int, _ dx: Int, _ dy: Int, cap: Int) -> (runs: Runs, center: Double)? {
        guard L.isDark(x, y) else { return nil }
        func walk(_ sx: Int, _ sy: Int) -> (Int, Int, Int)? {
            // Returns lengths of (rest of centre dark, light, outer dark) going in direction (sx, sy).
            var cx = x + sx, cy = y + sy
            var c = 0
            while L.isDark(cx, cy) { c += 1; cx += sx; cy += sy; if c > 3 * cap { return nil } }
            var l = 0
            while cx >= 0, cy >= 0, cx < L.width, cy < L.height, !L.isDark(cx, cy) { l += 1; cx += sx; cy += sy; if l > cap { return nil } }
            var d = 0
            while L.isDark(cx, cy) { d += 1; cx += sx; cy += sy; if d > cap { return nil } }
            // The outer dark run must end inside the image (on light), else it is not a ring.
            guard l > 0, d > 0, cx >= 0, cy >= 0, cx < L.width, cy < L.height else { return nil }
            return (c, l, d)
        }
        guard let a = walk(-dx, -dy), let b = walk(dx, dy) else { return nil }
        let runs = Runs(a.2, a.1, a.0 + 1 + b.0, b.1, b.2)
        // Centre of the middle run, as an offset along the direction from the point.
        let center = Double(b.0 - a.0) / 2
        return (runs, center)
    }

    /// Where the run of `v` (0 or 1) starting at `x` ends in a row of `w` dark bytes: eight
    /// bytes at a time while they all equal `v` (most of a row is long runs).
    @inline(__always) static func runEnd(_ p: UnsafePointer<UInt8>, _ x: Int, _ w: Int, _ v: UInt8) -> Int {
        var x = x
        let pattern: UInt64 = v == 0 ? 0 : 0x0101_0101_0101_0101
        while x + 8 <= w {
            let diff = UInt64(littleEndian: UnsafeRawPointer(p + x).loadUnaligned(as: UInt64.self)) ^ pattern
            if diff != 0 { return x + diff.trailingZeroBitCount / 8 }
            x += 8
        }
        while x < w && p[x] == v { x += 1 }
        return x
    }

    static func findFinders(_ levels: [Level], options: Options) -> [FinderPattern] {
        var found: [FinderPattern] = []
        for L in levels {
            var levelFound: [FinderPattern] = []
            var largest = 0.0  // the largest module found at this level so far
            /// The finder found at this level that a hit at (x, y) of module m belongs to, if any.
            /// Finders are found row by row, each centred within a few modules of its first row,
            /// so the search walks back from the newest and stops well above the row.
            func known(_ matches: (FinderPattern) -> Bool, row y: Int) -> Int? {
                var k = levelFound.count - 1
                while k >= 0 {
                    if Double(y) - levelFound[k].center.y > 11 * largest + 8 { return nil }
                    if matches(levelFound[k]) { return k }
                    k -= 1
                }
                return nil
            }
            let W = L.width
            var runs = [Int](repeating: 0, count: W + 1), starts = [Int](repeating: 0, count: W + 1)
            L.dark.withUnsafeBufferPointer { d in
                runs.withUnsafeMutableBufferPointer { runs in
                    starts.withUnsafeMutableBufferPointer { starts in
                        for y in 0..<L.height {
                            // The row's runs, starting with its first dark one.
                            let row = d.baseAddress! + y * W
                            var n = 0
                            var x = runEnd(row, 0, W, 0)
                            while x < W {
                                let e = runEnd(row, x, W, row[x])
                                runs[n] = e - x; starts[n] = x; n += 1
                                x = e
                            }
                            var i = 0
                            while i + 4 < n {
                                defer { i += 2 }
                                guard let m = finderRatio(runs[i], runs[i + 1], runs[i + 2], runs[i + 3], runs[i + 4]) else { continue }
                                let cx = Double(starts[i + 2]) + Double(runs[i + 2]) / 2
                                // Already known here: count the row and move on.
                                if let k = known(
                                    {
                                        abs($0.center.x - cx) < max(1.5, $0.moduleSize) && abs($0.center.y - Double(y)) < 3.5 * $0.moduleSize
                                            && abs($0.moduleSize - m) < 0.6 * max(m, $0.moduleSize)
                                    }, row: y)
                                {
                                    levelFound[k].count += 1
                                    continue
                                }
                                if let f = confirm(L, x: Int(cx), y: y, module: m) {
                                    if let k = known({ distance($0.center, f.center) < max(1.5, 1.2 * $0.moduleSize) }, row: y) {
                                        levelFound[k].count += 1
                                    } else {
                                        levelFound.append(f)
                                        largest = max(largest, f.moduleSize)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            merge(levelFound, scale: L.scale, into: &found)
        }
        if found.count > options.maxFinders {
            found.sort { $0.count > $1.count }
            found.removeLast(found.count - options.maxFinders)
        }
        return found
    }

    /// A level's finders into input pixels, merged with what coarser or finer levels found.
    static func merge(_ levelFound: [FinderPattern], scale: Double, into found: inout [FinderPattern]) {
        for var f in levelFound where f.count >= 2 || f.moduleSize >= 3 {
            // Edge coordinates (pixel i spans [i, i+1)) scale as they are.
            f.center = Point(x: f.center.x * scale, y: f.center.y * scale)
            f.moduleSize *= scale
            if let k = found.firstIndex(where: {
                distance($0.center, f.center) < 1.5 * min($0.moduleSize, f.moduleSize) + 1 && ratio($0.moduleSize, f.moduleSize) < 1.8
            }) {
                // Keep the finer level's position (it is more precise); add up the confirmations.
                found[k].count += f.count
            } else {
                found.append(f)
            }
        }
    }

    /// Confirms a row hit: the column through its centre (which also re-centres it vertically),
    /// the row again through the new centre, and at least one of the two diagonals.
    static func confirm(_ L: Level, x: Int, y: Int, module m: Double) -> FinderPattern? {
        let cap = Int(m * 3) + 3
        guard let v = runsThrough(L, x, y, 0, 1, cap: cap), let mv = finderRatio(v.runs), ratio(mv, m) < 2.2 else { return nil }
        let cy = Double(y) + v.center
        let iy = Int(cy.rounded())
        guard let h = runsThrough(L, x, iy, 1, 0, cap: cap), let mh = finderRatio(h.runs) else { return nil }
        let cx = Double(x) + h.center
        let ix = Int(cx.rounded())
        var sizes = [mh, mv]
        for d in [1, -1] {
            if let g = runsThrough(L, ix, iy, 1, d, cap: cap), let md = finderRatio(g.runs) {
                // Pixels along a diagonal are sqrt(2) long.
                sizes.append(md * 2.0.squareRoot())
            }
        }
        guard sizes.count >= 3 else { return nil }
        return FinderPattern(center: Point(x: cx + 0.5, y: cy + 0.5), moduleSize: sizes.min()!, count: 1)
    }

    @inline(__always) static func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    @inline(__always) static func ratio(_ a: Double, _ b: Double) -> Double { max(a, b) / max(1e-9, min(a, b)) }
}
