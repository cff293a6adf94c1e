import Imaging
import QRSymbol
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// From three finders to a code candidate: the timing pattern, the version, the alignment
/// pattern and the perspective frame that fits best.
extension QRLocator {
    /// A code candidate from three finders (A top-left, B top-right, C bottom-left), or nil if
    /// the timing pattern is not there.
    static func candidate(
        _ A: FinderPattern, _ B: FinderPattern, _ C: FinderPattern, levels: [Level], options: Options,
        guessed: Bool = false
    ) -> QRCandidate? {
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
        // The versions' and frames' searches for the alignment pattern overlap: each pixel is tested once.
        var alignmentTests = AlignmentTests(L, module: mm)
        let foreshortened = foreshortenedCorner(L, a: a, b: b, c: c, module: mm)
        for version in [estimated, estimated - 1, estimated + 1] where version >= 1 && version <= 40 {
            let n = QRStructure.size(version: version)
            for (h, ap) in frames(version: version, A, B, C, level: L, module: mm, foreshortened: foreshortened, tests: &alignmentTests) {
                let f = frameScore(L, Homography([1 / s, 0, 0, 0, 1 / s, 0, 0, 0, 1]).concatenating(h), dimension: n)
                all.append((f, h, n))
                // Another version must do clearly better than the estimate.
                if best == nil || f > best!.score + (n == QRStructure.size(version: estimated) ? 1e-9 : 0.03) { best = (f, h, n, ap) }
            }
        }
        guard let chosen = best else { return nil }
        var candidate = QRCandidate(
            topLeft: A.center, topRight: B.center, bottomLeft: C.center, dimension: chosen.n,
            moduleSize: m, alignment: chosen.alignment, score: score, toImage: chosen.toImage)
        candidate.finderMatch = finderMatch(
            L, Homography([1 / s, 0, 0, 0, 1 / s, 0, 0, 0, 1]).concatenating(chosen.toImage),
            dimension: chosen.n, seen: guessed ? 2 : 3)
        candidate.otherFrames = all.filter { $0.toImage != chosen.toImage }.sorted { $0.score > $1.score }
            .prefix(3).map { ($0.n, $0.toImage) }
        return candidate
    }

    /// The frames that fit the three finder centres for one version: its fourth point from the
    /// parallelogram, from the foreshortened corner and from the finders' outer sides, then from
    /// each alignment pattern found where those frames put it (with the pattern's centre, in
    /// image pixels); none when the parallelogram gives no frame.
    static func frames(
        version: Int, _ A: FinderPattern, _ B: FinderPattern, _ C: FinderPattern, level L: Level, module mm: Double,
        foreshortened: Point?, tests alignmentTests: inout AlignmentTests
    ) -> [(Homography, Point?)] {
        let s = L.scale
        func toL(_ p: Point) -> Point { Point(x: p.x / s, y: p.y / s) }
        let a = toL(A.center), b = toL(B.center), c = toL(C.center)
        let dst = [A.center, B.center, C.center]
        let nd = Double(QRStructure.size(version: version))
        let src = [Point(x: 3.5, y: 3.5), Point(x: nd - 3.5, y: 3.5), Point(x: 3.5, y: nd - 3.5)]
        guard
            let affine = Homography(
                from: src + [Point(x: nd - 3.5, y: nd - 3.5)],
                to: dst + [Point(x: B.center.x + C.center.x - A.center.x, y: B.center.y + C.center.y - A.center.y)])
        else { return [] }
        var frames: [(Homography, Point?)] = [(affine, nil)]
        if let far = foreshortened, let h = Homography(from: src + [Point(x: nd - 3.5, y: nd - 3.5)], to: dst + [Point(x: far.x * s, y: far.y * s)]) {
            frames.append((h, nil))
        }
        if let corner = outerCorner(L, a: a, b: b, c: c, dimension: nd, predicted: toL(affine.apply(Point(x: nd, y: nd))), module: mm),
            let h = Homography(from: src + [Point(x: nd, y: nd)], to: dst + [Point(x: corner.x * s, y: corner.y * s)])
        {
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
        return frames
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
        let unitAcross = Point(x: across.x / acrossModules, y: across.y / acrossModules)  // one module towards the third finder
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
                if k > 0 && d == last {
                    runLen += 1
                } else {
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

    /// Where the three finders put the fourth finder-centre point (module n-3.5, n-3.5) when
    /// each side of the code is foreshortened as its finders' widths say: along a line, a
    /// homography's scale falls as 1/w² (w its projective divisor), so the ratio of the two
    /// finders' widths along the side between them gives the ratio of their w; with both sides'
    /// ratios the fourth point follows (in homogeneous coordinates the three centres span the
    /// plane). Under a strong slant (a code photographed close up and from low down) the
    /// parallelogram's fourth point is modules off and the far corner's finder-side lines too
    /// short to extend so far; this one holds there. Level pixels in and out; nil when a width
    /// cannot be measured or the slant is beyond a plane seen from the front.
    static func foreshortenedCorner(_ L: Level, a: Point, b: Point, c: Point, module m: Double) -> Point? {
        let ab = vec(a, b), ac = vec(a, c)
        let lab = len(ab), lac = len(ac)
        guard lab > 0, lac > 0 else { return nil }
        let u = Point(x: ab.x / lab, y: ab.y / lab), v = Point(x: ac.x / lac, y: ac.y / lac)
        guard let au = finderWidth(L, center: a, along: u, module: m), let bu = finderWidth(L, center: b, along: u, module: m),
            let av = finderWidth(L, center: a, along: v, module: m), let cv = finderWidth(L, center: c, along: v, module: m)
        else { return nil }
        let wB = (au / bu).squareRoot(), wC = (av / cv).squareRoot()
        let wD = wB + wC - 1
        guard wD > 0.25 else { return nil }
        return Point(x: (wB * b.x + wC * c.x - a.x) / wD, y: (wB * b.y + wC * c.y - a.y) / wD)
    }

    /// A finder's width (level pixels) along the unit direction `d` through its centre: from
    /// the outer side of its dark ring on one side to the other's (7 modules as drawn), walked
    /// out from the dark core through the light ring and the dark ring. nil when the centre is
    /// not dark or the rings are not within a finder's reach of it.
    static func finderWidth(_ L: Level, center: Point, along d: Point, module m: Double) -> Double? {
        guard L.isDark(center) else { return nil }
        func reach(_ sign: Double) -> Double? {
            // The runs along the ray (a quarter pixel a sample), specks under 0.4 module
            // merged into the run before them: binarised noise inside a ring is no ring.
            var runs: [(dark: Bool, length: Double)] = []
            var t = 0.0
            while t < 7 * m {
                let dark = L.isDark(Point(x: center.x + sign * d.x * t, y: center.y + sign * d.y * t))
                if let last = runs.last, last.dark == dark { runs[runs.count - 1].length += 0.25 } else { runs.append((dark, 0.25)) }
                t += 0.25
            }
            var merged: [(dark: Bool, length: Double)] = []
            for r in runs {
                if let last = merged.last, last.dark == r.dark || r.length < 0.4 * m {
                    merged[merged.count - 1].length += r.length
                } else {
                    merged.append(r)
                }
            }
            // The dark core, the light ring, the dark ring: their outer side.
            guard merged.count >= 4, merged[0].dark else { return nil }
            return merged[0].length + merged[1].length + merged[2].length
        }
        guard let plus = reach(1), let minus = reach(-1) else { return nil }
        let w = plus + minus
        return w > 3.5 * m && w < 14 * m ? w : nil
    }
}
