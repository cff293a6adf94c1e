import Records

/// A plane projective transform (3x3 matrix, row-major, h[8] normally 1):
/// x' = (h0 x + h1 y + h2) / w, y' = (h3 x + h4 y + h5) / w, w = h6 x + h7 y + h8.
/// Affine transforms are the special case h6 = h7 = 0; a perspective view of a flat code
/// (a QR on a poster photographed at a slant) is mapped to its square by one of these.
public struct Homography: Sendable, Equatable {
    public var h: [Double]

    public init(_ h: [Double]) {
        precondition(h.count == 9)
        self.h = h
    }

    public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

    public init(_ a: AffineTransform) {
        self.init([a.a, a.c, a.tx, a.b, a.d, a.ty, 0, 0, 1])
    }

    public func apply(_ p: Point) -> Point {
        let w = h[6] * p.x + h[7] * p.y + h[8]
        let iw = abs(w) < 1e-12 ? 1e12 : 1 / w
        return Point(x: (h[0] * p.x + h[1] * p.y + h[2]) * iw, y: (h[3] * p.x + h[4] * p.y + h[5]) * iw)
    }

    /// self after other: p -> self(other(p)).
    public func concatenating(_ other: Homography) -> Homography {
        var m = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                m[r * 3 + c] = h[r * 3] * other.h[c] + h[r * 3 + 1] * other.h[3 + c] + h[r * 3 + 2] * other.h[6 + c]
            }
        }
        return Homography(m)
    }

    /// The inverse transform, or nil when the matrix is singular.
    public var inverted: Homography? {
        let a = h
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard abs(det) > 1e-15 else { return nil }
        let inv = [
            c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ]
        return Homography(inv.map { $0 / det })
    }

    /// h0...h7 from eight equations (rows of nine: coefficients, then the right side) by
    /// Gauss-Jordan elimination with partial pivoting, and h8 = 1; nil when singular.
    static func solve(_ equations: [[Double]]) -> [Double]? {
        var m = equations
        for col in 0..<8 {
            var pivot = col
            for r in col..<8 where abs(m[r][col]) > abs(m[pivot][col]) { pivot = r }
            guard abs(m[pivot][col]) > 1e-12 else { return nil }
            m.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = m[r][col] / m[col][col]
                if f == 0 { continue }
                for c in col..<9 { m[r][c] -= f * m[col][c] }
            }
        }
        var out = (0..<8).map { m[$0][8] / m[$0][$0] }
        out.append(1)
        return out.allSatisfy(\.isFinite) ? out : nil
    }

    /// The transform taking each of four source points to its destination (no three of either
    /// four on a line), solved exactly; nil when the points are degenerate.
    public init?(from src: [Point], to dst: [Point]) {
        guard src.count == 4, dst.count == 4 else { return nil }
        // Eight equations in h0...h7 (h8 = 1), by Gaussian elimination with partial pivoting.
        var m = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (src[i].x, src[i].y, dst[i].x, dst[i].y)
            m[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            m[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let out = Self.solve(m) else { return nil }
        self.init(out)
    }
}

extension Homography {
    /// The transform that best takes each source point to its destination in the least-squares
    /// sense of the linear (DLT) equations, over four or more points; both sides are centred and
    /// scaled first so the normal equations stay well conditioned. Nil when degenerate.
    public init?(fitting src: [Point], to dst: [Point]) {
        guard src.count >= 4, src.count == dst.count else { return nil }
        func normaliser(_ p: [Point]) -> (cx: Double, cy: Double, s: Double) {
            let cx = p.map(\.x).reduce(0, +) / Double(p.count), cy = p.map(\.y).reduce(0, +) / Double(p.count)
            let d = p.map { (($0.x - cx) * ($0.x - cx) + ($0.y - cy) * ($0.y - cy)).squareRoot() }.reduce(0, +) / Double(p.count)
            return (cx, cy, d > 0 ? 1.4142135623730951 / d : 1)
        }
        let ns = normaliser(src), nd = normaliser(dst)
        // Normal equations AᵀA h = Aᵀb for h0...h7 (h8 = 1).
        var ata = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for (p, q) in zip(src, dst) {
            let x = (p.x - ns.cx) * ns.s, y = (p.y - ns.cy) * ns.s
            let u = (q.x - nd.cx) * nd.s, v = (q.y - nd.cy) * nd.s
            for row in [[x, y, 1, 0, 0, 0, -u * x, -u * y, u], [0, 0, 0, x, y, 1, -v * x, -v * y, v]] {
                for i in 0..<8 where row[i] != 0 {
                    for j in 0..<9 { ata[i][j] += row[i] * row[j] }
                }
            }
        }
        guard let h = Self.solve(ata) else { return nil }
        // Undo the normalisations: H = Tdst⁻¹ · H' · Tsrc.
        let tsrc = Homography([ns.s, 0, -ns.s * ns.cx, 0, ns.s, -ns.s * ns.cy, 0, 0, 1])
        let tdstInv = Homography([1 / nd.s, 0, nd.cx, 0, 1 / nd.s, nd.cy, 0, 0, 1])
        self = tdstInv.concatenating(Homography(h)).concatenating(tsrc)
    }
}

extension Quad {
    public func transformed(by t: Homography) -> Quad { Quad(points.map(t.apply)) }

    /// Whether the point lies inside the quad (any winding; the quad is taken as convex).
    public func contains(_ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = points[i], b = points[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// Area by the shoelace formula.
    public var area: Double {
        var s = 0.0
        for i in 0..<4 {
            let a = points[i], b = points[(i + 1) % 4]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }
}

extension AffineTransform {
    /// The inverse, or nil when singular.
    public var inverted: AffineTransform? {
        let det = a * d - b * c
        guard abs(det) > 1e-15 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
}
