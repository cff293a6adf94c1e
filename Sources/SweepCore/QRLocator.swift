#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A QR finder pattern (the 7x7 module square in three corners of a QR code) found in an image.
public struct FinderPattern: Sendable, Equatable {
    /// Centre, in pixels of the image the locator was given.
    public var center: Point
    /// Module size in pixels (the smallest of the four directions measured, so a rotated code's
    /// diagonal does not inflate it).
    public var moduleSize: Double
    /// How many scan lines confirmed it (at every pyramid level added up).
    public var count: Int
}

/// A place where a QR code probably is: three finder patterns in the geometry of a code,
/// checked by the timing pattern between them, with the perspective transform from the code's
/// own module grid to the image.
public struct QRCandidate: Sendable {
    /// Finder centres as the code is drawn: top-left, top-right, bottom-left (a mirrored code
    /// is located as the code it mirrors, its module frame reflected).
    public var topLeft: Point, topRight: Point, bottomLeft: Point
    /// Modules per side, 17 + 4 x version (estimated from the finder distance and the timing pattern).
    public var dimension: Int
    /// Module size in pixels (mean of the three finders).
    public var moduleSize: Double
    /// The alignment pattern's centre, when one was found (versions 2 and up).
    public var alignment: Point?
    /// Timing-pattern score, 0...1: the fraction of one-module runs along both timing lines.
    public var score: Double
    /// The fraction of the seen finders' modules (7x7 and the light separator on their inner
    /// sides) that the frame finds as a finder is drawn: near 1 for a code, about a half for
    /// finder-like triples in pixel noise (only the lines the run test crossed match there).
    public var finderMatch: Double = 1
    /// Maps module coordinates (0...dimension on each axis, the code's own frame, y down) to
    /// image pixels.
    public var toImage: Homography
    /// The next-best frames (another version, or another fourth point), best first: a grid
    /// drawn through one of them may read where the best one's does not.
    public var otherFrames: [(dimension: Int, toImage: Homography)] = []

    public var version: Int { (dimension - 17) / 4 }

    /// The code's outline: the images of (0,0), (N,0), (N,N), (0,N).
    public var corners: Quad {
        let n = Double(dimension)
        return Quad([Point(x: 0, y: 0), Point(x: n, y: 0), Point(x: n, y: n), Point(x: 0, y: n)].map(toImage.apply))
    }

    public var center: Point { toImage.apply(Point(x: Double(dimension) / 2, y: Double(dimension) / 2)) }

    /// The same candidate with every point mapped by `t` (an image-to-image transform).
    public func mapped(by t: Homography) -> QRCandidate {
        var c = self
        c.topLeft = t.apply(topLeft); c.topRight = t.apply(topRight); c.bottomLeft = t.apply(bottomLeft)
        c.alignment = alignment.map(t.apply)
        c.toImage = t.concatenating(toImage)
        c.otherFrames = otherFrames.map { ($0.dimension, t.concatenating($0.toImage)) }
        let s = (t.apply(Point(x: center.x + moduleSize, y: center.y)).x - t.apply(center).x)
        c.moduleSize = abs(s)
        return c
    }
}

/// Finds QR codes by their finder patterns, as zxing-cpp and BoofCV do, so that the scan plan
/// knows where the codes are, how big their modules are and how many there are; each candidate
/// can then be rectified (warped to a square) for ZBar.
///
/// 1. Binarise locally (mean of a 35 px block, minus an offset) on a pyramid: the image, then
///    halved while it is big enough, so large modules are seen as well as small ones.
/// 2. Finder candidates: 1:1:3:1:1 dark-light-dark-light-dark runs along rows, confirmed along
///    the column through the centre and at least one diagonal; duplicates (rows of one finder,
///    levels of one pyramid) merged.
/// 3. Triples: similar module sizes, two legs of similar length at roughly a right angle,
///    10-190 modules between centres, and the timing pattern (alternating one-module runs
///    three modules inside each leg) present. On a sheet of many codes the timing test is
///    what rejects the triples mixing finders of neighbouring codes.
/// 4. The dimension from the leg length, the alignment pattern searched near where an affine
///    frame puts it, and the homography from the three finder centres and the alignment
///    pattern (or the parallelogram's fourth corner).
public enum QRLocator {
    public struct Options: Sendable, Equatable {
        /// Local binarisation: block radius (block 2r+1) and offset below the block mean.
        public var blockRadius = 17
        public var offset = 5
        /// Pyramid levels stop when the short side would fall below this.
        public var minSide = 120
        public var maxLevels = 6
        /// An image of at most this many megapixels is also looked at doubled: a code at a slant
        /// in a small photo has modules of 2 px or less across, too few for the run test.
        public var upscaleBelowMegapixels = 1.0
        /// Finders beyond this many (most-confirmed first) are dropped: a textured photo can
        /// make hundreds, and grouping is cubic in the worst case.
        public var maxFinders = 400
        /// Candidates below this timing score are dropped.
        public var minScore = 0.5
        /// Each finder is grouped with this many of its nearest similar-sized finders: on a
        /// sheet of many codes a code's own finders are among the nearest, and a lattice of
        /// finders would otherwise give a cubic number of right-angled triples to check.
        public var nearest = 10
        /// Candidates from two finders and a guessed third: at most this many, each with both
        /// timing lines at least this clean.
        public var maxPairGuesses = 12
        public var minGuessedScore = 0.6
        public init() {}
    }

    /// One level of the pyramid: the binary image (1 = dark) and its scale relative to the input.
    struct Level {
        var width: Int, height: Int
        var dark: [UInt8]
        var scale: Double   // input pixels per level pixel
        @inline(__always) func isDark(_ x: Int, _ y: Int) -> Bool {
            x >= 0 && y >= 0 && x < width && y < height && dark[y * width + x] != 0
        }
        /// Dark or not at a fractional point (nearest pixel); outside counts as light.
        @inline(__always) func isDark(_ p: Point) -> Bool {
            // Truncation is the floor for the points inside; the rest are light.
            p.x >= 0 && p.y >= 0 && p.x < Double(width) && p.y < Double(height) && dark[Int(p.y) * width + Int(p.x)] != 0
        }
    }

    /// Candidates in `image`, best (highest timing score) first.
    public static func locate(_ image: LumaImage, options: Options = Options()) -> [QRCandidate] {
        locateTimed(image, options: options).candidates
    }

    /// The same, with the milliseconds of each stage and the finder count (for the trace).
    public static func locateTimed(_ image: LumaImage, options: Options = Options())
        -> (candidates: [QRCandidate], finders: Int, stages: [(String, Double)]) {
        var stages: [(String, Double)] = []
        var t = ContinuousClock.now
        func lap(_ name: String) {
            let d = t.duration(to: .now).components
            stages.append((name, Double(d.seconds) * 1000 + Double(d.attoseconds) / 1e15))
            t = .now
        }
        let levels = pyramid(image, options: options)
        lap("binarise")
        guard !levels.isEmpty else { return ([], 0, stages) }
        let finders = findFinders(levels, options: options)
        lap("finders")
        let candidates = group(finders, levels: levels, options: options)
        lap("group")
        return (candidates, finders.count, stages)
    }

    // MARK: - Pyramid and binarisation

    static func pyramid(_ image: LumaImage, options: Options) -> [Level] {
        var levels: [Level] = []
        if image.megapixels <= options.upscaleBelowMegapixels && image.width >= 32 && image.height >= 32 {
            levels.append(binarise(image.doubled(), scale: 0.5, options: options))
        }
        var img = image
        var scale = 1.0
        while levels.count < options.maxLevels && min(img.width, img.height) >= min(options.minSide, min(image.width, image.height)) && img.width >= 32 && img.height >= 32 {
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
        img.pixels.withUnsafeBufferPointer { src in
            sums.withUnsafeMutableBufferPointer { sm in
                for y in 0..<h {
                    let row = y * w, brow = (y / B) * bw
                    var x = 0, bx = 0
                    while x + B <= w {
                        var acc: Int32 = 0
                        for k in 0..<B { acc &+= Int32(src[row + x + k]) }
                        sm[brow + bx] &+= acc
                        x += B; bx += 1
                    }
                    if x < w {
                        var acc: Int32 = 0
                        for k in x..<w { acc &+= Int32(src[row + k]) }
                        sm[brow + bx] &+= acc
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
              abs(Double(r2) - 3 * m) < 1.3 * m else { return nil }
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
            var largest = 0.0   // the largest module found at this level so far
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
                                if let k = known({ abs($0.center.x - cx) < max(1.5, $0.moduleSize) && abs($0.center.y - Double(y)) < 3.5 * $0.moduleSize && abs($0.moduleSize - m) < 0.6 * max(m, $0.moduleSize) }, row: y) {
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
            // Into input pixels; merge with what coarser or finer levels found.
            for var f in levelFound where f.count >= 2 || f.moduleSize >= 3 {
                // Edge coordinates (pixel i spans [i, i+1)) scale as they are.
                f.center = Point(x: f.center.x * L.scale, y: f.center.y * L.scale)
                f.moduleSize *= L.scale
                if let k = found.firstIndex(where: { distance($0.center, f.center) < 1.5 * min($0.moduleSize, f.moduleSize) + 1 && ratio($0.moduleSize, f.moduleSize) < 1.8 }) {
                    // Keep the finer level's position (it is more precise); add up the confirmations.
                    found[k].count += f.count
                } else {
                    found.append(f)
                }
            }
        }
        if found.count > options.maxFinders {
            found.sort { $0.count > $1.count }
            found.removeLast(found.count - options.maxFinders)
        }
        return found
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

    // MARK: - Grouping

    static func group(_ finders: [FinderPattern], levels: [Level], options: Options) -> [QRCandidate] {
        var out: [QRCandidate] = []
        let n = finders.count
        guard n >= 2 else { return [] }
        var used = Set<Int>()
        // Neighbours of each finder that could share a code with it.
        var near = [[Int]](repeating: [], count: n)
        for i in 0..<n {
            for j in 0..<n where j != i {
                let m = (finders[i].moduleSize + finders[j].moduleSize) / 2
                guard ratio(finders[i].moduleSize, finders[j].moduleSize) < 2 else { continue }
                let d = distance(finders[i].center, finders[j].center) / m
                if d >= 9 && d <= 190 { near[i].append(j) }
            }
            if near[i].count > options.nearest {
                let c = finders[i].center
                near[i] = near[i].map { (j: $0, d: distance(finders[$0].center, c)) }
                    .sorted { $0.d < $1.d }.prefix(options.nearest).map(\.j)
            }
        }
        for a in 0..<n {
            let A = finders[a]
            let nb = near[a]
            guard nb.count >= 2 else { continue }
            for p in 0..<nb.count {
                for q in (p + 1)..<nb.count {
                    var (b, c) = (nb[p], nb[q])
                    let ab = vec(A.center, finders[b].center), ac = vec(A.center, finders[c].center)
                    let lab = len(ab), lac = len(ac)
                    guard max(lab, lac) / min(lab, lac) < 1.6 else { continue }
                    let cosAngle = (ab.x * ac.x + ab.y * ac.y) / (lab * lac)
                    guard abs(cosAngle) < 0.45 else { continue }
                    // Top-right then bottom-left, as drawn (y down: AB x AC > 0).
                    if ab.x * ac.y - ab.y * ac.x < 0 { swap(&b, &c) }
                    if let cand = candidate(A, finders[b], finders[c], levels: levels, options: options) {
                        out.append(cand)
                        used.formUnion([a, b, c])
                    }
                }
            }
        }
        out.sort { $0.score > $1.score }
        // Two finders and no third (under glare, a smudge or a fold): the pair as a side, the
        // code on the side its timing pattern is, the third finder guessed square to it; or the
        // pair as the diagonal. Such guesses rank after every three-finder candidate.
        var pairs: [QRCandidate] = []
        for i in 0..<n where !used.contains(i) {
            for j in near[i] where j > i && !used.contains(j) {
                for guess in pairGuesses(finders[i], finders[j]) {
                    if let cand = candidate(guess.0, guess.1, guess.2, levels: levels, options: options, guessed: true) {
                        pairs.append(cand)
                    }
                }
            }
        }
        pairs.sort { $0.score > $1.score }
        out += pairs.prefix(options.maxPairGuesses)
        // One candidate per place: a weaker one whose centre lies in a stronger one's outline and
        // that shares its size is the same code.
        var kept: [QRCandidate] = []
        for c in out {
            let corners = c.corners
            if kept.contains(where: { k in
                let d = distance(k.center, c.center)
                return d < 2 * k.moduleSize && abs(k.corners.area - corners.area) < 0.3 * max(k.corners.area, corners.area)
            }) { continue }
            kept.append(c)
        }
        return kept
    }

    /// The finder triples (top-left, top-right, bottom-left) two finders may belong to: each
    /// of them the corner, with the code on either side of their line, and the two as the
    /// diagonal (either way round). The guessed finder is square to the others.
    static func pairGuesses(_ p: FinderPattern, _ q: FinderPattern) -> [(FinderPattern, FinderPattern, FinderPattern)] {
        let m = (p.moduleSize + q.moduleSize) / 2
        func finder(_ x: Double, _ y: Double) -> FinderPattern { FinderPattern(center: Point(x: x, y: y), moduleSize: m, count: 0) }
        var out: [(FinderPattern, FinderPattern, FinderPattern)] = []
        for (corner, other) in [(p, q), (q, p)] {
            let d = vec(corner.center, other.center)
            for sign in [1.0, -1.0] {
                // Perpendicular of the same length; y down, so (−dy, dx) turns clockwise on screen.
                let t = finder(corner.center.x - sign * d.y, corner.center.y + sign * d.x)
                // Top-right then bottom-left as drawn: AB x AC > 0.
                let cross = d.x * (t.center.y - corner.center.y) - d.y * (t.center.x - corner.center.x)
                out.append(cross > 0 ? (corner, other, t) : (corner, t, other))
            }
        }
        let mid = Point(x: (p.center.x + q.center.x) / 2, y: (p.center.y + q.center.y) / 2)
        let h = Point(x: (q.center.x - p.center.x) / 2, y: (q.center.y - p.center.y) / 2)
        for sign in [1.0, -1.0] {
            let a = finder(mid.x - sign * h.y, mid.y + sign * h.x)
            let ab = vec(a.center, p.center), ac = vec(a.center, q.center)
            out.append(ab.x * ac.y - ab.y * ac.x > 0 ? (a, p, q) : (a, q, p))
        }
        return out
    }

    @inline(__always) static func vec(_ a: Point, _ b: Point) -> Point { Point(x: b.x - a.x, y: b.y - a.y) }
    @inline(__always) static func len(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    /// A code candidate from three finders (A top-left, B top-right, C bottom-left), or nil if
    /// the timing pattern is not there.
    static func candidate(_ A: FinderPattern, _ B: FinderPattern, _ C: FinderPattern, levels: [Level], options: Options,
                          guessed: Bool = false) -> QRCandidate? {
        let m = (A.moduleSize + B.moduleSize + C.moduleSize) / 3
        // The level where modules are nearest 4 px: timing runs of one module stay clear of
        // pixel noise, and the block threshold is local enough for them.
        let L = levels.min { abs(log2(m / $0.scale / 4)) < abs(log2(m / $1.scale / 4)) }!
        let s = L.scale
        func toL(_ p: Point) -> Point { Point(x: p.x / s, y: p.y / s) }
        let a = toL(A.center), b = toL(B.center), c = toL(C.center)
        let mm = m / s
        let dab = len(vec(a, b)) / mm, dac = len(vec(a, c)) / mm
        // Timing row (between A and B, three modules towards C) and column (A to C, towards B).
        let row = timing(L, from: a, to: b, across: vec(a, c), modules: dab, acrossModules: dac)
        guard row.score >= 0.3 else { return nil }
        let col = timing(L, from: a, to: c, across: vec(a, b), modules: dac, acrossModules: dab)
        guard col.score >= 0.3 else { return nil }
        var score = (row.score + col.score) / 2
        if guessed {
            // A guessed finder: both timing lines must be clean (one of them runs to the guess),
            // and the guess ranks below any candidate whose three finders were seen.
            guard min(row.score, col.score) >= options.minGuessedScore else { return nil }
            score *= 0.5
        } else {
            guard score >= options.minScore else { return nil }
        }
        // Dimension: centres are N - 7 modules apart; the timing run count says the same more
        // exactly when it is clean.
        var estimate = (dab + dac) / 2 + 7
        let counted = Double(row.modules + col.modules) / 2 + 14
        if row.score > 0.8 && col.score > 0.8 && abs(counted - estimate) < 4 { estimate = counted }
        let estimated = max(1, min(40, Int(((estimate - 17) / 4).rounded())))
        // Every frame that fits the three finder centres: the versions next to the estimate,
        // each with its fourth point from the parallelogram, from each alignment pattern found
        // near where it should be, and from the finders' outer sides. The one whose quiet zone,
        // outer modules and alignment pattern look most as they should wins.
        var best: (score: Double, toImage: Homography, n: Int, alignment: Point?)? = nil
        var all: [(score: Double, toImage: Homography, n: Int)] = []
        let dst = [A.center, B.center, C.center]
        // The versions' and frames' searches for the alignment pattern overlap: each pixel is tested once.
        var alignmentTests = AlignmentTests(L, module: mm)
        for version in [estimated, estimated - 1, estimated + 1] where version >= 1 && version <= 40 {
            let n = 17 + 4 * version
            let nd = Double(n)
            let src = [Point(x: 3.5, y: 3.5), Point(x: nd - 3.5, y: 3.5), Point(x: 3.5, y: nd - 3.5)]
            guard let affine = Homography(from: src + [Point(x: nd - 3.5, y: nd - 3.5)],
                                          to: dst + [Point(x: B.center.x + C.center.x - A.center.x, y: B.center.y + C.center.y - A.center.y)]) else { continue }
            var frames: [(Homography, Point?)] = [(affine, nil)]
            if let corner = outerCorner(L, a: a, b: b, c: c, dimension: nd, predicted: toL(affine.apply(Point(x: nd, y: nd))), module: mm),
               let h = Homography(from: src + [Point(x: nd, y: nd)], to: dst + [Point(x: corner.x * s, y: corner.y * s)]) {
                frames.append((h, nil))
            }
            if version >= 2 {
                // Searched where each frame so far puts the pattern (under a strong slant the
                // parallelogram's guess is modules away, the sides' corner much nearer).
                var seen: [Point] = []
                for (guess, _) in frames {
                    for al in alignments(L, predicted: toL(guess.apply(Point(x: nd - 6.5, y: nd - 6.5))), module: mm, tests: &alignmentTests)
                    where !seen.contains(where: { distance($0, al) < mm }) {
                        seen.append(al)
                        let ap = Point(x: al.x * s, y: al.y * s)
                        if let h = Homography(from: src + [Point(x: nd - 6.5, y: nd - 6.5)], to: dst + [ap]) { frames.append((h, ap)) }
                    }
                }
            }
            for (h, ap) in frames {
                let f = frameScore(L, Homography([1 / s, 0, 0, 0, 1 / s, 0, 0, 0, 1]).concatenating(h), dimension: n)
                all.append((f, h, n))
                // Another version must do clearly better than the estimate.
                if best == nil || f > best!.score + (n == 17 + 4 * estimated ? 1e-9 : 0.03) { best = (f, h, n, ap) }
            }
        }
        guard let chosen = best else { return nil }
        var candidate = QRCandidate(topLeft: A.center, topRight: B.center, bottomLeft: C.center, dimension: chosen.n,
                                    moduleSize: m, alignment: chosen.alignment, score: score, toImage: chosen.toImage)
        candidate.finderMatch = finderMatch(L, Homography([1 / s, 0, 0, 0, 1 / s, 0, 0, 0, 1]).concatenating(chosen.toImage),
                                            dimension: chosen.n, seen: guessed ? 2 : 3)
        candidate.otherFrames = all.filter { $0.toImage != chosen.toImage }.sorted { $0.score > $1.score }
            .prefix(3).map { ($0.n, $0.toImage) }
        return candidate
    }

    /// The fraction of finder modules the frame (module coordinates to level pixels) finds as
    /// drawn: each finder's 7x7 modules (dark ring, light ring, dark 3x3 core) and its separator
    /// (the light row and column on its inner sides). `seen` 2: the bottom-left finder was
    /// guessed and is left out.
    static func finderMatch(_ L: Level, _ h: Homography, dimension n: Int, seen: Int) -> Double {
        var match = 0, total = 0
        // Each finder's top-left module and the direction of its inner sides.
        let finders = [(0, 0, 1, 1), (n - 7, 0, -1, 1), (0, n - 7, 1, -1)].prefix(seen)
        for (fx, fy, sx, sy) in finders {
            for j in -1...7 {
                for i in -1...7 {
                    // The separator lies on the inner sides only: column 7 or row 7 of a
                    // top-left finder, mirrored for the others.
                    let si = sx > 0 ? i : 6 - i, sj = sy > 0 ? j : 6 - j
                    if si < 0 || sj < 0 { continue }
                    let ring = max(abs(i - 3), abs(j - 3))
                    let want = ring != 2 && ring != 4
                    let p = h.apply(Point(x: Double(fx + i) + 0.5, y: Double(fy + j) + 0.5))
                    if L.isDark(p) == want { match += 1 }
                    total += 1
                }
            }
        }
        return total > 0 ? Double(match) / Double(total) : 0
    }

    /// How well a module frame (module coordinates to level pixels) fits the code: the quiet
    /// zone just past the bottom and right sides light, the last row and column holding dark
    /// modules (a frame too large puts them in the quiet zone, one too small in the data), and,
    /// from version 2, the bottom-right alignment pattern where the frame puts it.
    static func frameScore(_ L: Level, _ h: Homography, dimension n: Int) -> Double {
        let nd = Double(n)
        func dark(_ u: Double, _ v: Double) -> Bool { L.isDark(h.apply(Point(x: u, y: v))) }
        var outsideLight = 0, insideDark = 0
        for k in 0..<n {
            let t = Double(k) + 0.5
            if !dark(t, nd + 0.5) { outsideLight += 1 }
            if !dark(nd + 0.5, t) { outsideLight += 1 }
            if dark(t, nd - 0.5) { insideDark += 1 }
            if dark(nd - 0.5, t) { insideDark += 1 }
        }
        let edges = Double(outsideLight) / Double(2 * n) + min(1, 2.5 * Double(insideDark) / Double(2 * n))
        guard n >= 25 else { return edges / 2 }
        do {
            // The 5x5 alignment pattern centred on module (n-7, n-7): dark ring, light ring, dark centre.
            var match = 0
            for j in -2...2 {
                for i in -2...2 {
                    let ring = max(abs(i), abs(j))
                    if dark(nd - 6.5 + Double(i), nd - 6.5 + Double(j)) == (ring != 1) { match += 1 }
                }
            }
            // Chance alone matches about half the 25 modules: only a clear match counts.
            return (edges + max(0, Double(match - 15) / 10)) / 3
        }
    }

    /// Scores the timing line from finder centre `p` to `q`, offset 2.6-3.4 modules towards
    /// the third finder: the fraction of runs about one module long (runs over 2.5 modules count
    /// against), and how many modules it counted.
    static func timing(_ L: Level, from p: Point, to q: Point, across: Point, modules: Double, acrossModules: Double) -> (score: Double, modules: Int) {
        let along = vec(p, q)
        let unitAcross = Point(x: across.x / acrossModules, y: across.y / acrossModules) // one module towards the third finder
        // From the first finder's edge to the second's (3.5 modules from each centre).
        let t0 = 3.5 / modules, t1 = 1 - 3.5 / modules
        guard t1 > t0 else { return (0, 0) }
        let expected = modules - 7
        let steps = max(12, Int(expected * 3))
        let perModule = Double(steps) / expected
        var best: (Double, Int) = (0, 0)
        // Three modules in is the timing line; 2.6 and 3.4 allow for a frame that is a little off.
        for off in [3.0, 2.6, 3.4] {
            var good = 0, bad = 0
            var last = false
            var runLen = 0
            func close() {
                let len = Double(runLen) / perModule
                if len >= 0.45 && len <= 1.7 { good += 1 } else if len > 2.5 { bad += 1 }
            }
            for k in 0...steps {
                let t = t0 + (t1 - t0) * Double(k) / Double(steps)
                let d = L.isDark(Point(x: p.x + along.x * t + unitAcross.x * off, y: p.y + along.y * t + unitAcross.y * off))
                if k > 0 && d == last { runLen += 1 } else {
                    if k > 0 { close() }
                    last = d; runLen = 1
                }
            }
            close()
            let score = min(1, max(0, Double(good - 2 * bad)) / max(1, expected))
            if score > best.0 { best = (score, good) }
            if score >= 0.8 { break }
        }
        return best
    }

    /// The code's bottom-right corner: the line of the top-right finder's outer (right) side
    /// meets the line of the bottom-left finder's bottom side. Each side is fitted through the
    /// outermost dark pixel on six lines across the finder; nil when the sides are not clear or
    /// the corner is far from the parallelogram's guess.
    static func outerCorner(_ L: Level, a: Point, b: Point, c: Point, dimension n: Double, predicted: Point, module m: Double) -> Point? {
        let eu = Point(x: (b.x - a.x) / (n - 7), y: (b.y - a.y) / (n - 7))
        let ev = Point(x: (c.x - a.x) / (n - 7), y: (c.y - a.y) / (n - 7))
        func side(_ center: Point, out: Point, across: Point) -> (Point, Point)? {
            var pts: [Point] = []
            for k in [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5] {
                let o = Point(x: center.x + across.x * k, y: center.y + across.y * k)
                // From 5.5 modules out inwards: past whatever lies beyond the quiet zone (the
                // paper's edge) to light, then the first dark pixel is the finder's outer side.
                let steps = Int(5.5 * max(len(out), 0.5) * 4)
                var hit: Point? = nil
                var light = false
                for i in 0...steps {
                    let t = 5.5 * (1 - Double(i) / Double(steps))
                    let p = Point(x: o.x + out.x * t, y: o.y + out.y * t)
                    if !L.isDark(p) { light = true; continue }
                    guard light else { continue }
                    if t >= 2.2 && t <= 4.9 { hit = p }
                    break
                }
                if let h = hit { pts.append(h) }
            }
            guard pts.count >= 4 else { return nil }
            // Least-squares line through the points: centroid and principal direction.
            let mx = pts.map(\.x).reduce(0, +) / Double(pts.count), my = pts.map(\.y).reduce(0, +) / Double(pts.count)
            var sxx = 0.0, syy = 0.0, sxy = 0.0
            for p in pts { sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my) }
            let angle = 0.5 * atan2(2 * sxy, sxx - syy)
            return (Point(x: mx, y: my), Point(x: cos(angle), y: sin(angle)))
        }
        guard let right = side(b, out: eu, across: ev), let bottom = side(c, out: ev, across: eu) else { return nil }
        // Intersection of p1 + t d1 and p2 + s d2.
        let (p1, d1) = right, (p2, d2) = bottom
        let den = d1.x * d2.y - d1.y * d2.x
        guard abs(den) > 0.2 else { return nil }
        let t = ((p2.x - p1.x) * d2.y - (p2.y - p1.y) * d2.x) / den
        let corner = Point(x: p1.x + d1.x * t, y: p1.y + d1.y * t)
        guard distance(corner, predicted) < max(3, 0.5 * n) * m else { return nil }
        return corner
    }

    /// Alignment patterns (a one-module dark dot in a light ring in a dark ring) within a
    /// few modules of where the affine frame predicts one, nearest first (at most four; the
    /// data area holds look-alikes, which the frame score sorts out).
    static func alignments(_ L: Level, predicted: Point, module m: Double, tests: inout AlignmentTests) -> [Point] {
        let radius = max(4, Int((m * 4).rounded()))
        let px = Int(predicted.x), py = Int(predicted.y)
        var found: [(Point, Double)] = []
        for dy in -radius...radius {
            for dx in -radius...radius {
                guard let c = tests.center(px + dx, py + dy) else { continue }
                if found.contains(where: { distance($0.0, c) < m }) { continue }
                found.append((c, Double(dx * dx + dy * dy)))
            }
        }
        return found.sorted { $0.1 < $1.1 }.prefix(4).map(\.0)
    }

    /// The alignment-pattern test of single pixels (dark, with one-module runs through it across
    /// and down: then the centre of those runs), remembered in a window round the first pixel
    /// asked, so that searches round nearby predictions cost one test a pixel.
    struct AlignmentTests {
        let L: Level, m: Double, cap: Int
        var x0 = 0, y0 = 0, side = 0
        var state: [UInt8] = []       // 0 untested, 1 no, 2 yes
        var centers: [Point] = []

        init(_ L: Level, module m: Double) { self.L = L; self.m = m; cap = Int(m * 2.5) + 2 }

        mutating func center(_ x: Int, _ y: Int) -> Point? {
            if side == 0 {
                side = 2 * (3 * max(4, Int((m * 4).rounded()))) + 1
                x0 = x - side / 2; y0 = y - side / 2
                state = [UInt8](repeating: 0, count: side * side)
                centers = [Point](repeating: Point(x: 0, y: 0), count: side * side)
            }
            let u = x - x0, v = y - y0
            guard u >= 0, v >= 0, u < side, v < side else { return test(x, y) }
            let k = v * side + u
            switch state[k] {
            case 1: return nil
            case 2: return centers[k]
            default:
                let c = test(x, y)
                state[k] = c == nil ? 1 : 2
                if let c { centers[k] = c }
                return c
            }
        }

        func test(_ x: Int, _ y: Int) -> Point? {
            func oneModule(_ r: Int) -> Bool { Double(r) >= 0.4 * m && Double(r) <= 1.9 * m }
            guard L.isDark(x, y),
                  let h = runsThrough(L, x, y, 1, 0, cap: cap), h.runs.allSatisfy(oneModule),
                  let v = runsThrough(L, x, y, 0, 1, cap: cap), v.runs.allSatisfy(oneModule) else { return nil }
            return Point(x: Double(x) + h.center + 0.5, y: Double(y) + v.center + 0.5)
        }
    }
}

// MARK: - Rectification

extension LumaImage {
    /// The square view of a located code: `side` pixels for the code's `dimension` modules and
    /// `margin` pixels of its surroundings on every side, sampled through `toImage` (module
    /// coordinates to this image's pixels) with bilinear interpolation, averaged over several
    /// samples per pixel where the view shrinks the code (screen moiré, huge modules). Points
    /// outside the image take the nearest edge pixel. Returns the view and the transform from
    /// view pixels back to this image.
    public func rectified(_ toImage: Homography, dimension: Int, side: Int, margin: Int) -> (image: LumaImage, toSource: Homography) {
        let total = side + 2 * margin
        let k = Double(dimension) / Double(side)
        // View pixel (edge coordinates) -> module coordinates -> image pixels.
        let viewToModules = Homography([k, 0, -Double(margin) * k, 0, k, -Double(margin) * k, 0, 0, 1])
        let toSource = toImage.concatenating(viewToModules)
        var out = [UInt8](repeating: 255, count: total * total)
        guard width > 0, height > 0 else { return (LumaImage(width: total, height: total, pixels: out), toSource) }
        // Source pixels per view pixel, from the code's centre: 2 or more means averaging.
        let c = toSource.apply(Point(x: Double(total) / 2, y: Double(total) / 2))
        let cx = toSource.apply(Point(x: Double(total) / 2 + 1, y: Double(total) / 2))
        let stretch = ((cx.x - c.x) * (cx.x - c.x) + (cx.y - c.y) * (cx.y - c.y)).squareRoot()
        let ss = max(1, min(4, Int(stretch.rounded(.down))))
        let h = toSource.h
        let (h0, h1, h2, h3, h4, h5, h6, h7, h8) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8])
        let maxX = Double(width - 1), maxY = Double(height - 1)
        let width = self.width, lastX = width - 1, lastY = height - 1
        let step = 1 / Double(ss), norm = 1 / Double(ss * ss)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for v in 0..<total {
                    for u in 0..<total {
                        var acc = 0.0
                        for sy in 0..<ss {
                            let y = Double(v) + (Double(sy) + 0.5) * step
                            for sx in 0..<ss {
                                let x = Double(u) + (Double(sx) + 0.5) * step
                                let iw = 1 / (h6 * x + h7 * y + h8)
                                let px = min(maxX, max(0, (h0 * x + h1 * y + h2) * iw - 0.5))
                                let py = min(maxY, max(0, (h3 * x + h4 * y + h5) * iw - 0.5))
                                let x0 = Int(px), y0 = Int(py)
                                let x1 = min(x0 + 1, lastX), y1 = min(y0 + 1, lastY)
                                let fx = px - Double(x0), fy = py - Double(y0)
                                let r0 = y0 * width, r1 = y1 * width
                                let q00 = Double(src[r0 + x0]), q10 = Double(src[r0 + x1])
                                let q01 = Double(src[r1 + x0]), q11 = Double(src[r1 + x1])
                                let top = q00 + (q10 - q00) * fx, bottom = q01 + (q11 - q01) * fx
                                acc += top + (bottom - top) * fy
                            }
                        }
                        // Bilinear means of bytes stay within 0...255: round half up.
                        dst[v * total + u] = UInt8(acc * norm + 0.5)
                    }
                }
            }
        }
        return (LumaImage(width: total, height: total, pixels: out), toSource)
    }

    /// A clean rendering of a located code's module grid: each module sampled at its centre
    /// through `toImage` (nine points within a fifth of a module, averaged), called dark when
    /// below the mean of the 7x7 modules around it (glare and shadow across the code even out),
    /// drawn `modulePixels` wide with a quiet zone of `quiet` modules. ZBar then reads a perfect
    /// code when the frame is right to a fraction of a module, even where the photo is too
    /// blurred or skewed for its own finder. `offset` (in modules) moves every sample point.
    /// Returns the view and the map back to this image.
    public func sampledGrid(_ toImage: Homography, dimension n: Int, modulePixels px: Int, quiet: Int,
                            offset: Point = Point(x: 0, y: 0)) -> (image: LumaImage, toSource: Homography) {
        var g = [Double](repeating: 0, count: n * n)
        let maxX = Double(width - 1), maxY = Double(height - 1)
        for j in 0..<n {
            for i in 0..<n {
                var acc = 0.0
                for dy in [-0.2, 0.0, 0.2] {
                    for dx in [-0.2, 0.0, 0.2] {
                        let p = toImage.apply(Point(x: Double(i) + 0.5 + offset.x + dx, y: Double(j) + 0.5 + offset.y + dy))
                        let x = min(maxX, max(0, p.x - 0.5)), y = min(maxY, max(0, p.y - 0.5))
                        let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                        let fx = x - Double(x0), fy = y - Double(y0)
                        let top = Double(self[x0, y0]) + (Double(self[x1, y0]) - Double(self[x0, y0])) * fx
                        let bottom = Double(self[x0, y1]) + (Double(self[x1, y1]) - Double(self[x0, y1])) * fx
                        acc += top + (bottom - top) * fy
                    }
                }
                g[j * n + i] = acc / 9
            }
        }
        let side = (n + 2 * quiet) * px
        var out = [UInt8](repeating: 255, count: side * side)
        for j in 0..<n {
            for i in 0..<n {
                var sum = 0.0, count = 0.0
                for jj in max(0, j - 3)...min(n - 1, j + 3) {
                    for ii in max(0, i - 3)...min(n - 1, i + 3) { sum += g[jj * n + ii]; count += 1 }
                }
                guard g[j * n + i] < sum / count else { continue }
                for y in 0..<px {
                    let row = ((j + quiet) * px + y) * side + (i + quiet) * px
                    for x in 0..<px { out[row + x] = 0 }
                }
            }
        }
        let k = 1 / Double(px)
        let viewToModules = Homography([k, 0, -Double(quiet), 0, k, -Double(quiet), 0, 0, 1])
        return (LumaImage(width: side, height: side, pixels: out), toImage.concatenating(viewToModules))
    }
}
