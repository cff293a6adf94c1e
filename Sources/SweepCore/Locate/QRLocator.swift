import Imaging
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A QR finder pattern (the 7x7 module square in three corners of a QR code) found in an image.
package struct FinderPattern: Sendable, Equatable {
    /// Centre, in pixels of the image the locator was given.
    package var center: Point
    /// Module size in pixels (the smallest of the four directions measured, so a rotated code's
    /// diagonal does not inflate it).
    package var moduleSize: Double
    /// How many scan lines confirmed it (at every pyramid level added up).
    package var count: Int
}

/// A place where a QR code probably is: three finder patterns in the geometry of a code,
/// checked by the timing pattern between them, with the perspective transform from the code's
/// own module grid to the image.
package struct QRCandidate: Sendable {
    /// Finder centres as the code is drawn: top-left, top-right, bottom-left (a mirrored code
    /// is located as the code it mirrors, its module frame reflected).
    package var topLeft: Point, topRight: Point, bottomLeft: Point
    /// Modules per side, 17 + 4 x version (estimated from the finder distance and the timing pattern).
    package var dimension: Int
    /// Module size in pixels (mean of the three finders).
    package var moduleSize: Double
    /// The alignment pattern's centre, when one was found (versions 2 and up).
    package var alignment: Point?
    /// Timing-pattern score, 0...1: the fraction of one-module runs along both timing lines.
    package var score: Double
    /// The fraction of the seen finders' modules (7x7 and the light separator on their inner
    /// sides) that the frame finds as a finder is drawn: near 1 for a code, about a half for
    /// finder-like triples in pixel noise (only the lines the run test crossed match there).
    package var finderMatch: Double = 1
    /// Maps module coordinates (0...dimension on each axis, the code's own frame, y down) to
    /// image pixels.
    package var toImage: Homography
    /// The next-best frames (another version, or another fourth point), best first: a grid
    /// drawn through one of them may read where the best one's does not.
    package var otherFrames: [(dimension: Int, toImage: Homography)] = []

    package var version: Int { (dimension - 17) / 4 }

    /// The code's outline: the images of (0,0), (N,0), (N,N), (0,N).
    package var corners: Quad {
        let n = Double(dimension)
        return Quad([Point(x: 0, y: 0), Point(x: n, y: 0), Point(x: n, y: n), Point(x: 0, y: n)].map(toImage.apply))
    }

    package var center: Point { toImage.apply(Point(x: Double(dimension) / 2, y: Double(dimension) / 2)) }

    /// The same candidate with every point mapped by `t` (an image-to-image transform).
    package func mapped(by t: Homography) -> QRCandidate {
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
package enum QRLocator {
    package struct Options: Sendable, Equatable {
        /// Local binarisation: block radius (block 2r+1) and offset below the block mean.
        package var blockRadius = 17
        package var offset = 5
        /// Pyramid levels stop when the short side would fall below this.
        package var minSide = 120
        package var maxLevels = 6
        /// An image of at most this many megapixels is also looked at doubled: a code at a slant
        /// in a small photo has modules of 2 px or less across, too few for the run test.
        package var upscaleBelowMegapixels = 1.0
        /// Finders beyond this many (most-confirmed first) are dropped: a textured photo can
        /// make hundreds, and grouping is cubic in the worst case.
        package var maxFinders = 400
        /// Candidates below this timing score are dropped.
        package var minScore = 0.5
        /// Each finder is grouped with this many of its nearest similar-sized finders: on a
        /// sheet of many codes a code's own finders are among the nearest, and a lattice of
        /// finders would otherwise give a cubic number of right-angled triples to check.
        package var nearest = 10
        /// And this many more of the farther ones, the best confirmed (a big code's own finders
        /// beyond finder-like spots in its data).
        package var strongest = 5
        /// Candidates from two finders and a guessed third: at most this many, each with both
        /// timing lines at least this clean.
        package var maxPairGuesses = 12
        package var minGuessedScore = 0.6
        package init() {}
    }

    /// One level of the pyramid: the binary image (1 = dark) and its scale relative to the input.
    struct Level {
        var width: Int, height: Int
        var dark: [UInt8]
        var scale: Double  // input pixels per level pixel
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
    package static func locate(_ image: LumaImage, options: Options = Options()) -> [QRCandidate] {
        locateTimed(image, options: options).candidates
    }

    /// The same, with the milliseconds of each stage and the finder count (for the trace).
    package static func locateTimed(_ image: LumaImage, options: Options = Options())
        -> (candidates: [QRCandidate], finders: [FinderPattern], stages: [(String, Double)])
    {
        var stages: [(String, Double)] = []
        var t = ContinuousClock.now
        func lap(_ name: String) {
            stages.append((name, t.duration(to: .now).milliseconds))
            t = .now
        }
        let levels = pyramid(image, options: options)
        lap("binarise")
        guard !levels.isEmpty else { return ([], [], stages) }
        let finders = findFinders(levels, options: options)
        lap("finders")
        let candidates = group(finders, levels: levels, options: options)
        lap("group")
        return (candidates, finders, stages)
    }

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
                let byDistance = near[i].map { (j: $0, d: distance(finders[$0].center, c)) }.sorted { $0.d < $1.d }
                // A big code's own finders can lie beyond finder-like spots of its data (the
                // module patterns of some masks make a dozen): the best-confirmed of the farther
                // ones, confirmed at least half as often as this one, are kept too.
                let strong = byDistance.dropFirst(options.nearest).filter { 2 * finders[$0.j].count >= finders[i].count }
                    .sorted { a, b in finders[a.j].count != finders[b.j].count ? finders[a.j].count > finders[b.j].count : a.d < b.d }
                near[i] = (byDistance.prefix(options.nearest) + strong.prefix(options.strongest)).map(\.j)
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
            }) {
                continue
            }
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
}
