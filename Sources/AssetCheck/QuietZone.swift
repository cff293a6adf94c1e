import Imaging
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The quiet zone: the light margin a decoder needs around the code, measured outward from
/// each side of the code's corner quad.
extension ScannabilityProbe {
    /// Light margin (px) outside side `side` (corner side → side+1). The corners a decoder
    /// reports are off by a pixel or two (inside the code at one end, outside at the other), so
    /// the margin is not measured from the corner line: at each point along the side, a walk
    /// along the side's normal starts `tolerance` px inside the line; where it starts on a dark
    /// module it follows that dark run out to the code's real edge, then counts light until a
    /// dark pixel or the image border (the image covers -0.5 ... width - 0.5). Points where the
    /// walk starts on a light module (the code's edge is light there) cannot show the edge and
    /// are passed over. The narrowest margin found counts, up to `limit`.
    ///
    /// What ends the margin is a *clearly* dark sample (below `clearlyDark`, a quarter of the way
    /// from the code's dark level to its light one), not one just under the midpoint: in a code
    /// turned a few degrees and resampled, a walk that runs along the border between a dark and
    /// a light module of the code's edge reads values hovering around the midpoint, and took a
    /// flicker there for the end of a quiet zone 0.3 modules wide (an F for a code on a wide
    /// white margin). Anything printed near the code is clearly dark. And a margin seen by one
    /// walk alone does not count: the side's margin is the second narrowest of its walks (one
    /// pixel apart), so a seam between two dark modules of a photographed code, read lighter
    /// than the midpoint for a pixel, cannot end the quiet zone either; a mark beside the code
    /// or the image border, met by neighbouring walks, does.
    static func quietZone(side: Int, quad: Quad, image: LumaImage, threshold: Double, clearlyDark: Double? = nil, limit: Double, tolerance: Double) -> Double {
        let a = quad.points[side], b = quad.points[(side + 1) % 4], c = quad.center
        let first = quietZone(from: a, to: b, center: c, image: image, threshold: threshold, clearlyDark: clearlyDark, limit: limit, tolerance: tolerance)
        // The side's line, corrected: a reported corner may lie more than the tolerance inside
        // (or outside) the code (a photographed version 7 code's corner 4.6 px inside: the walks
        // near it started inside and met the code's own modules). The code's real edge is
        // fitted from the outermost edge found in each eighth of the side; when it lies more
        // than half the tolerance from the line at either end, the side is measured again
        // along the fitted edge. This measures along the code's own edge, not the corners'.
        guard let (e0, e1) = first.edgeFit, max(abs(e0), abs(e1)) > tolerance / 2, let n = first.normal else { return first.margin }
        let a2 = Point(x: a.x + n.x * e0, y: a.y + n.y * e0), b2 = Point(x: b.x + n.x * e1, y: b.y + n.y * e1)
        return quietZone(from: a2, to: b2, center: c, image: image, threshold: threshold, clearlyDark: clearlyDark, limit: limit, tolerance: tolerance).margin
    }

    /// One side measured from the line a → b: the margin, the outward normal, and the fitted
    /// offset (px, along the normal) of the code's real edge at a and at b (nil: too few edges).
    static func quietZone(
        from a: Point, to b: Point, center c: Point, image: LumaImage, threshold: Double, clearlyDark: Double?,
        limit: Double, tolerance: Double
    ) -> (margin: Double, normal: Point?, edgeFit: (Double, Double)?) {
        let stop = clearlyDark ?? threshold
        let dx = b.x - a.x, dy = b.y - a.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > 0 else { return (0, nil, nil) }
        var nx = dy / len, ny = -dx / len
        let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        if (mid.x - c.x) * nx + (mid.y - c.y) * ny < 0 { nx = -nx; ny = -ny }
        let step = 0.25
        let maxX = Double(image.width) - 0.5, maxY = Double(image.height) - 0.5
        func inside(_ x: Double, _ y: Double) -> Bool { x >= -0.5 && y >= -0.5 && x <= maxX && y <= maxY }
        // The narrowest and second narrowest margins found, and how many walks measured.
        var narrowest = limit, second = limit, walks = 0
        func found(_ m: Double) {
            if m < narrowest { second = narrowest; narrowest = m } else if m < second { second = m }
        }
        // The outermost edge (offset from the line) found in each eighth of the side, where the
        // dark run ended within the tolerance.
        var outermost = [(t: Double, edge: Double)?](repeating: nil, count: 8)
        let samples = max(2, Int(len))
        image.withSampler { sample in
            for i in 0...samples {
                let t = Double(i) / Double(samples)
                let px = a.x + dx * t, py = a.y + dy * t
                var d = -tolerance
                func dark() -> Bool { sample(px + nx * d, py + ny * d) < threshold }
                guard inside(px + nx * d, py + ny * d), dark() else { continue }
                walks += 1
                // Out along the dark run to the code's edge (no further than `tolerance` past the line).
                var ended = false
                while d + step <= tolerance, inside(px + nx * (d + step), py + ny * (d + step)) {
                    d += step
                    if !dark() { d -= step; ended = true; break }
                }
                let edge = d + step / 2  // the crossing lies between the last dark and the first light sample
                if ended {
                    let k = min(7, Int(t * 8))
                    if outermost[k].map({ edge > $0.edge }) ?? true { outermost[k] = (t, edge) }
                }
                // Light from the edge until a dark sample or the border, or until it cannot be narrower.
                d += step
                while d - edge < second {
                    guard inside(px + nx * d, py + ny * d) else {
                        // The border: the last sample inside lies within `step` of the image's edge.
                        found(max(0, d - step / 2 - edge))
                        break
                    }
                    if sample(px + nx * d, py + ny * d) < stop { found(max(0, d - step / 2 - edge)); break }
                    d += step
                }
            }
        }
        var fit: (Double, Double)? = nil
        let points = outermost.compactMap { $0 }
        if points.count >= 4 {
            let mt = points.reduce(0) { $0 + $1.t } / Double(points.count), me = points.reduce(0) { $0 + $1.edge } / Double(points.count)
            let varT = points.reduce(0) { $0 + ($1.t - mt) * ($1.t - mt) }
            let slope = varT > 0 ? points.reduce(0) { $0 + ($1.t - mt) * ($1.edge - me) } / varT : 0
            fit = (me - slope * mt, me + slope * (1 - mt))
        }
        return (walks >= 2 ? second : narrowest, Point(x: nx, y: ny), fit)
    }
}
