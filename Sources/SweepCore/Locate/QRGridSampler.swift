import Imaging
import QRSymbol
import Records

extension QRGridReader {
    /// Samples one frame: the displacement field from the alignment patterns, the module values.
    struct Sampler {
        let image: LumaImage
        var frame: Homography
        let n: Int
        let moduleSize: Double
        /// Alignment lattice: the centre coordinates and each node's offset in modules.
        var lattice: [Int] = [] { didSet { latticeCentres = lattice.map { Double($0) + 0.5 } } }
        var offsets: [Point] = []
        /// The lattice's centres as module points (kept with `lattice`: `offset` needs them per sample).
        private(set) var latticeCentres: [Double] = []

        /// `refine`: fit the frame's corners to the known modules and follow the alignment
        /// patterns; `keepCorners` then leaves the corners as given (alignment patterns still
        /// followed), for a frame the fit may have pulled off. `centredAlignment`: versions 2-6 take
        /// the middle of the alignment pattern's best offsets (`searchAlignment`), else the first.
        init(
            image: LumaImage, frame: Homography, dimension n: Int, refine: Bool = true, keepCorners: Bool = false, centredAlignment: Bool = true
        ) {
            self.image = image; self.frame = frame; self.n = n
            let a = frame.apply(Point(x: 3.5, y: 3.5)), b = frame.apply(Point(x: Double(n) - 3.5, y: 3.5))
            let c = frame.apply(Point(x: 3.5, y: Double(n) - 3.5))
            moduleSize = (QRLocator.distance(a, b) + QRLocator.distance(a, c)) / (2 * Double(n - 7))
            let version = (n - 17) / 4
            guard refine else { return }
            if !keepCorners { refineFrame(version: version) }
            if version >= 2 { findAlignment(version: version, centred: centredAlignment) }
        }

        /// The modules whose colour the symbol fixes, as (u, v) centres and darkness (+1 dark,
        /// -1 light): the three finders and their separators, the timing patterns, the alignment
        /// patterns and the dark module.
        static func knownModules(version: Int, alignment: Bool = true) -> [(u: Double, v: Double, t: Double)] {
            let n = QRStructure.size(version: version)
            var out: [(u: Double, v: Double, t: Double)] = []
            func add(_ x: Int, _ y: Int, _ dark: Bool) { out.append((Double(x) + 0.5, Double(y) + 0.5, dark ? 1 : -1)) }
            for (fx, fy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
                for j in 0..<7 { for i in 0..<7 { add(fx + i, fy + j, max(abs(i - 3), abs(j - 3)) != 2) } }
            }
            for k in 0..<8 {
                add(7, k, false); add(k, 7, false)
                add(n - 8, k, false); add(n - 1 - k, 7, false)
                add(k, n - 8, false); add(7, n - 1 - k, false)
            }
            for k in 8..<(n - 8) { add(k, 6, k % 2 == 0); add(6, k, k % 2 == 0) }
            for (ax, ay) in alignment ? QRStructure.alignmentPatterns(version: version) : [] {
                for j in -2...2 { for i in -2...2 { add(ax + i, ay + j, max(abs(i), abs(j)) != 1) } }
            }
            add(8, n - 8, true)
            return out
        }

        /// Correlation (-1...1) of the greys at the known modules through `h` with their darkness.
        /// `spread` > 0 samples four points that far (modules) from each centre instead: a sharp
        /// picture then still tells a frame a fifth of a module off (at the centres it cannot).
        func knownScore(_ known: [(u: Double, v: Double, t: Double)], frame h: Homography, spread: Double = 0) -> Double {
            // The hot loop of the grid decoder (every corner trial of `descend`): the samples in
            // a fixed order, no array per call; the darkness sum is a sum of ±1, exact in any order.
            var sum = 0.0, sumSq = 0.0, dot = 0.0
            var tSum = 0.0
            let m = Projective(h)
            let s = spread
            image.withGreys { px in
                @inline(__always) func add(_ u: Double, _ v: Double, _ t: Double) {
                    let g = 255 - px.grey(m.apply(u, v))
                    sum += g; sumSq += g * g; dot += g * t
                }
                known.withUnsafeBufferPointer { ks in
                    if s > 0 {
                        for k in ks {
                            add(k.u - s, k.v - s, k.t); add(k.u + s, k.v - s, k.t)
                            add(k.u - s, k.v + s, k.t); add(k.u + s, k.v + s, k.t)
                            tSum += 4 * k.t
                        }
                    } else {
                        for k in ks {
                            add(k.u, k.v, k.t)
                            tSum += k.t
                        }
                    }
                }
            }
            let count = Double(known.count * (s > 0 ? 4 : 1))
            let meanT = tSum / count, varT = 1 - meanT * meanT
            let meanG = sum / count, varG = sumSq / count - meanG * meanG
            guard varG > 1, varT > 0 else { return 0 }
            return (dot / count - meanG * meanT) / (varG * varT).squareRoot()
        }

        /// Moves the frame's four corners (coordinate descent, steps from half a module down to
        /// a sixteenth) while the known modules' greys correlate better with what they must be:
        /// the locator's frame is fitted through three finder centres and a guessed fourth
        /// point, often a module off at the far side.
        mutating func refineFrame(version: Int) {
            // Alignment patterns only where there is one (versions 2-6): further out the frame
            // may be modules off there, and the lattice search follows them one by one instead.
            descend(Self.knownModules(version: version, alignment: version < 7), finest: 0.06, spread: 0)
        }

        /// After a read: every module the grid called surely (at most about 600, evenly
        /// spread) as a known module, the corners moved as in `refineFrame` down to a 32nd of a
        /// module; the displacement field is dropped (corners lie at the edge, where it is the
        /// edge nodes' anyway, and a symbol this well framed is planar enough there).
        mutating func polishCorners(_ grid: QRModuleGrid) {
            let stride = max(1, Int((Double(n * n) / 600).squareRoot().rounded(.up)))
            var known: [(u: Double, v: Double, t: Double)] = []
            for y in Swift.stride(from: 0, to: n, by: stride) {
                for x in Swift.stride(from: 0, to: n, by: stride) where abs(grid[x, y]) > 0.3 {
                    known.append((Double(x) + 0.5, Double(y) + 0.5, grid[x, y] > 0 ? 1 : -1))
                }
            }
            guard known.count >= 50 else { return }
            lattice = []; offsets = []
            // The frame is within a few hundredths of a module of the finders and timing already
            // (`refineFrame`): the search starts at an eighth of a module, not a half.
            descend(known, coarsest: 0.125, finest: 0.03, spread: 0.3)
        }

        /// Coordinate descent of the four corners on the known modules' correlation.
        mutating func descend(_ known: [(u: Double, v: Double, t: Double)], coarsest: Double = 0.5, finest: Double, spread: Double) {
            let d = Double(n)
            let square = [Point(x: 0, y: 0), Point(x: d, y: 0), Point(x: d, y: d), Point(x: 0, y: d)]
            var corners = square.map(frame.apply)
            func score(_ h: Homography) -> Double { knownScore(known, frame: h, spread: spread) }
            var best = score(frame)
            var step = moduleSize * coarsest
            var rounds = 0
            while step >= moduleSize * finest && rounds < 80 {
                rounds += 1
                var improved = false
                for c in 0..<4 {
                    for (dx, dy) in [(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)] {
                        var trial = corners
                        trial[c] = Point(x: trial[c].x + dx, y: trial[c].y + dy)
                        guard let h = Homography(from: square, to: trial) else { continue }
                        let s = score(h)
                        if s > best + 1e-6 { best = s; corners = trial; frame = h; improved = true }
                    }
                }
                if !improved { step /= 2 }
            }
        }

        func grey(_ p: Point) -> Double { image.bilinear(at: p) }

        /// The offset (in modules) the field gives module point (u, v): bilinear between the
        /// lattice nodes around it, the nearest edge's beyond the lattice.
        func offset(_ u: Double, _ v: Double) -> Point {
            guard lattice.count >= 2 else { return Point(x: 0, y: 0) }
            let c = latticeCentres
            func cell(_ t: Double) -> (Int, Double) {
                if t <= c[0] { return (0, 0) }
                if t >= c[c.count - 1] { return (c.count - 2, 1) }
                var i = 0
                while t > c[i + 1] { i += 1 }
                return (i, (t - c[i]) / (c[i + 1] - c[i]))
            }
            let (i, fx) = cell(u), (j, fy) = cell(v)
            let m = lattice.count
            let o00 = offsets[j * m + i], o10 = offsets[j * m + i + 1], o01 = offsets[(j + 1) * m + i], o11 = offsets[(j + 1) * m + i + 1]
            let x = (o00.x * (1 - fx) + o10.x * fx) * (1 - fy) + (o01.x * (1 - fx) + o11.x * fx) * fy
            let y = (o00.y * (1 - fx) + o10.y * fx) * (1 - fy) + (o01.y * (1 - fx) + o11.y * fx) * fy
            return Point(x: x, y: y)
        }

        /// Module point to image point through the frame and the field.
        func map(_ u: Double, _ v: Double) -> Point {
            let o = offset(u, v)
            return frame.apply(Point(x: u + o.x, y: v + o.y))
        }

        /// The module grids to decode: each module's grey against the mean of the 7x7 modules
        /// round it, and against the midpoint of the finders' dark and light (even light).
        func grids() -> [QRModuleGrid] {
            var g = [Double](repeating: 0, count: n * n)
            let spread = moduleSize >= 3 ? 0.2 : 0
            let f = Projective(frame)
            // `map`, with the frame's coefficients read once.
            func mapped(_ u: Double, _ v: Double) -> Point { let o = offset(u, v); return f.apply(u + o.x, v + o.y) }
            image.withGreys { px in
                for j in 0..<n {
                    for i in 0..<n {
                        let u = Double(i) + 0.5, v = Double(j) + 0.5
                        if spread > 0 {
                            var acc = 0.0
                            for (dx, dy) in [(0.0, 0.0), (-spread, -spread), (spread, -spread), (-spread, spread), (spread, spread)] {
                                acc += px.grey(mapped(u + dx, v + dy))
                            }
                            g[j * n + i] = acc / 5
                        } else {
                            g[j * n + i] = px.grey(mapped(u, v))
                        }
                    }
                }
            }
            // The finders' dark (outer ring, core) and light (inner ring) greys: the contrast.
            var dark = 0.0, light = 0.0, nd = 0.0, nl = 0.0
            for (fx, fy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
                for j in 0..<7 {
                    for i in 0..<7 {
                        let ring = max(abs(i - 3), abs(j - 3))
                        if ring == 2 { light += g[(fy + j) * n + fx + i]; nl += 1 } else { dark += g[(fy + j) * n + fx + i]; nd += 1 }
                    }
                }
            }
            dark /= nd; light /= nl
            let contrast = max(8, light - dark)
            // Local means over 7x7 modules (a summed table).
            let w = n + 1
            var table = [Double](repeating: 0, count: w * w)
            for j in 0..<n {
                var row = 0.0
                for i in 0..<n {
                    row += g[j * n + i]
                    table[(j + 1) * w + i + 1] = table[j * w + i + 1] + row
                }
            }
            var local = [Float](repeating: 0, count: n * n), global = [Float](repeating: 0, count: n * n)
            let mid = (dark + light) / 2
            for j in 0..<n {
                for i in 0..<n {
                    let x0 = max(0, i - 3), x1 = min(n, i + 4), y0 = max(0, j - 3), y1 = min(n, j + 4)
                    let s = table[y1 * w + x1] - table[y0 * w + x1] - table[y1 * w + x0] + table[y0 * w + x0]
                    let mean = s / Double((x1 - x0) * (y1 - y0))
                    let v = g[j * n + i]
                    local[j * n + i] = Float(max(-1, min(1, (mean - v) / (0.5 * contrast))))
                    global[j * n + i] = Float(max(-1, min(1, (mid - v) / (0.5 * contrast))))
                }
            }
            return [QRModuleGrid(size: n, values: local), QRModuleGrid(size: n, values: global)]
        }

        func corners(mirrored: Bool) -> Quad {
            let d = Double(n)
            let tl = map(0, 0), tr = map(d, 0), br = map(d, d), bl = map(0, d)
            return Quad(mirrored ? [tl, bl, br, tr] : [tl, tr, br, bl])
        }

        /// Which way the code's top faces, from the direction of its top edge in the image.
        func orientation(mirrored: Bool) -> Int {
            let d = Double(n)
            let a = map(0, 0), b = mirrored ? map(0, d) : map(d, 0)
            let dx = b.x - a.x, dy = b.y - a.y
            if abs(dx) >= abs(dy) { return dx >= 0 ? 0 : 2 }
            return dy >= 0 ? 1 : 3
        }
    }
}
