import Imaging
import QRSymbol
import Records

/// Following the alignment patterns: where each one is, and what is left over (the offset a
/// bent symbol has there) once the frame is fitted to them all.
extension QRGridReader.Sampler {
    /// Finds the alignment patterns, nearest the top-left first, one diagonal of the
    /// lattice at a time: each searched within two modules of where the frame fitted (least
    /// squares) to the finders and the patterns found so far puts it. The frame is then
    /// fitted to all of them, and each node keeps what is left over (in modules) as its offset:
    /// a bent symbol is followed piece by piece.
    mutating func findAlignment(version: Int, centred: Bool) {
        let centres = QRStructure.alignmentCentres(version: version)
        let m = centres.count
        let d = Double(n)
        // Anchors: the finder centres where the refined frame puts them.
        var src = [Point(x: 3.5, y: 3.5), Point(x: d - 3.5, y: 3.5), Point(x: 3.5, y: d - 3.5)]
        var dst = src.map(frame.apply)
        var fitted = frame
        var found = [Point?](repeating: nil, count: m * m)
        let finderNodes = Set([0, m - 1, (m - 1) * m])
        for diagonal in 0...(2 * (m - 1)) {
            for j in 0..<m {
                let i = diagonal - j
                guard i >= 0, i < m, !finderNodes.contains(j * m + i) else { continue }
                let module = Point(x: Double(centres[i]) + 0.5, y: Double(centres[j]) + 0.5)
                if let o = searchAlignment(fitted, at: module, centred: centred && m == 2) {
                    found[j * m + i] = fitted.apply(Point(x: module.x + o.x, y: module.y + o.y))
                }
            }
            for k in 0..<(m * m)
            where found[k] != nil && !src.contains(where: { $0 == Point(x: Double(centres[k % m]) + 0.5, y: Double(centres[k / m]) + 0.5) }) {
                src.append(Point(x: Double(centres[k % m]) + 0.5, y: Double(centres[k / m]) + 0.5))
                dst.append(found[k]!)
            }
            if src.count >= 4, let h = Homography(fitting: src, to: dst) { fitted = h }
        }
        frame = fitted
        lattice = centres
        offsets = [Point](repeating: Point(x: 0, y: 0), count: m * m)
        guard let back = fitted.inverted else { return }
        var have = [Bool](repeating: false, count: m * m)
        for k in 0..<(m * m) {
            if finderNodes.contains(k) { have[k] = true; continue }
            guard let p = found[k] else { continue }
            let q = back.apply(p)
            offsets[k] = Point(x: q.x - Double(centres[k % m]) - 0.5, y: q.y - Double(centres[k / m]) - 0.5)
            have[k] = true
        }
        // Nodes without a pattern take their found neighbours' mean offset.
        for k in 0..<(m * m) where !have[k] {
            let i = k % m, j = k / m
            var near: [Point] = []
            for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let ii = i + di, jj = j + dj
                if ii >= 0, jj >= 0, ii < m, jj < m, have[jj * m + ii] { near.append(offsets[jj * m + ii]) }
            }
            if !near.isEmpty { offsets[k] = Point(x: near.map(\.x).reduce(0, +) / Double(near.count), y: near.map(\.y).reduce(0, +) / Double(near.count)) }
        }
    }

    /// The offset (modules), within two of where `h` puts it, at which the 5x5 alignment
    /// pattern centred on `centre` (module coordinates) matches best; nil when no place
    /// matches clearly. In a sharp picture the match is flat across the offsets that keep every
    /// sample inside its module (up to three quarters of a module), and the first of them sits
    /// a quarter module up and left. `centred` takes the middle of the offsets within a hair of
    /// the best (and within a module of it) instead: for versions 2-6, whose frame is fitted
    /// exactly through their one pattern, that quarter module threw a version 2 code's far
    /// corner most of a module off. (From version 7 the first is kept: centring there lost a
    /// bent version 15 code the lattice reads with it; not understood yet.)
    func searchAlignment(_ h: Homography, at centre: Point, centred: Bool) -> Point? {
        let step = 0.25, reach = 8  // ±2 modules
        var scores: [(score: Double, o: Point)] = []
        scores.reserveCapacity((2 * reach + 1) * (2 * reach + 1))
        let m = Projective(h)
        image.withGreys { px in
            for sy in -reach...reach {
                for sx in -reach...reach {
                    let o = Point(x: Double(sx) * step, y: Double(sy) * step)
                    scores.append((Self.alignmentScore(px, m, centre, o), o))
                }
            }
        }
        guard let best = scores.max(by: { $0.score < $1.score }), best.score > 0.6 else { return nil }
        guard centred else { return scores.first { $0.score == best.score }?.o }
        let top = scores.filter { $0.score >= best.score - 0.01 && abs($0.o.x - best.o.x) <= 1 && abs($0.o.y - best.o.y) <= 1 }
        let k = Double(top.count)
        return Point(x: top.map(\.o.x).reduce(0, +) / k, y: top.map(\.o.y).reduce(0, +) / k)
    }

    /// Correlation (-1...1) of the grey at the 5x5 modules round (ax, ay), offset by `o`,
    /// with the pattern's darkness (dark ring and centre, light ring between).
    static func alignmentScore(_ px: GreySampler, _ h: Projective, _ centre: Point, _ o: Point) -> Double {
        var sum = 0.0, sumSq = 0.0, dot = 0.0, tSum = 0.0
        for j in -2...2 {
            for i in -2...2 {
                let ring = max(abs(i), abs(j))
                let t: Double = ring == 1 ? -1 : 1  // darkness template
                let g = 255 - px.grey(h.apply(centre.x + Double(i) + o.x, centre.y + Double(j) + o.y))
                sum += g; sumSq += g * g; dot += g * t; tSum += t
            }
        }
        let count = 25.0
        let meanT = tSum / count, varT = 1 - meanT * meanT
        let meanG = sum / count, varG = sumSq / count - meanG * meanG
        guard varG > 1 else { return 0 }
        return (dot / count - meanG * meanT) / (varG * varT).squareRoot()
    }
}
