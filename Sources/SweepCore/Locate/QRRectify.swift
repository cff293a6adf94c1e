import Imaging
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Rectification

extension LumaImage {
    /// The square view of a located code: `side` pixels for the code's `dimension` modules and
    /// `margin` pixels of its surroundings on every side, sampled through `toImage` (module
    /// coordinates to this image's pixels) with bilinear interpolation, averaged over several
    /// samples per pixel where the view shrinks the code (screen moiré, huge modules). Points
    /// outside the image take the nearest edge pixel. Returns the view and the transform from
    /// view pixels back to this image.
    package func rectified(_ toImage: Homography, dimension: Int, side: Int, margin: Int) -> (image: LumaImage, toSource: Homography) {
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
        let m = Projective(toSource)
        let step = 1 / Double(ss), norm = 1 / Double(ss * ss)
        withGreys { px in
            out.withUnsafeMutableBufferPointer { dst in
                for v in 0..<total {
                    for u in 0..<total {
                        var acc = 0.0
                        for sy in 0..<ss {
                            let y = Double(v) + (Double(sy) + 0.5) * step
                            for sx in 0..<ss {
                                acc += px.grey(m.apply(Double(u) + (Double(sx) + 0.5) * step, y))
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

    /// The grey at a point (pixel centres at half-integers), bilinear between the four pixels
    /// round it; points outside take the nearest edge.
    package func bilinear(at p: Point) -> Double {
        withGreys { $0.grey(p) }
    }

    /// Runs `body` with a `GreySampler` over this image's pixels: `bilinear(at:)` without a
    /// bounds check or an array access per pixel, for loops of many samples (the grid decoder
    /// samples some 100,000 points a code while it fits the frame).
    @inline(__always) func withGreys<R>(_ body: (GreySampler) -> R) -> R {
        pixels.withUnsafeBufferPointer { body(GreySampler(src: $0, width: width, height: height)) }
    }
}

/// Bilinear greys read straight from a pixel buffer, valid only inside `LumaImage.withGreys`.
/// The same arithmetic as `bilinear(at:)` (which calls it), so results are identical.
struct GreySampler {
    let src: UnsafeBufferPointer<UInt8>
    let width: Int, height: Int

    @inline(__always) func grey(_ p: Point) -> Double {
        let x = min(Double(width - 1), max(0, p.x - 0.5)), y = min(Double(height - 1), max(0, p.y - 0.5))
        let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        let r0 = y0 * width, r1 = y1 * width
        let a = Double(src[r0 + x0]), b = Double(src[r0 + x1]), c = Double(src[r1 + x0]), d = Double(src[r1 + x1])
        let top = a + (b - a) * fx
        let bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }
}

/// A homography's nine coefficients as stored properties: `Homography.apply` without an
/// array access per coefficient, for loops that map many points through one transform.
struct Projective {
    let h0, h1, h2, h3, h4, h5, h6, h7, h8: Double
    init(_ m: Homography) {
        let h = m.h
        (h0, h1, h2, h3, h4, h5, h6, h7, h8) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8])
    }
    /// `Homography.apply`, the same arithmetic in the same order.
    @inline(__always) func apply(_ x: Double, _ y: Double) -> Point {
        let w = h6 * x + h7 * y + h8
        let iw = abs(w) < 1e-12 ? 1e12 : 1 / w
        return Point(x: (h0 * x + h1 * y + h2) * iw, y: (h3 * x + h4 * y + h5) * iw)
    }
}

extension LumaImage {

    /// A clean rendering of a located code's module grid: each module sampled at its centre
    /// through `toImage` (nine points within a fifth of a module, averaged), called dark when
    /// below the mean of the 7x7 modules around it (glare and shadow across the code even out),
    /// drawn `modulePixels` wide with a quiet zone of `quiet` modules. ZBar then reads a perfect
    /// code when the frame is right to a fraction of a module, even where the photo is too
    /// blurred or skewed for its own finder. `offset` (in modules) moves every sample point.
    /// Returns the view and the map back to this image.
    package func sampledGrid(
        _ toImage: Homography, dimension n: Int, modulePixels px: Int, quiet: Int,
        offset: Point = Point(x: 0, y: 0)
    ) -> (image: LumaImage, toSource: Homography) {
        var g = [Double](repeating: 0, count: n * n)
        for j in 0..<n {
            for i in 0..<n {
                var acc = 0.0
                for dy in [-0.2, 0.0, 0.2] {
                    for dx in [-0.2, 0.0, 0.2] {
                        acc += bilinear(at: toImage.apply(Point(x: Double(i) + 0.5 + offset.x + dx, y: Double(j) + 0.5 + offset.y + dy)))
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
