import SweepCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Degradations that stand in for what a phone camera does to a printed or displayed code:
// it sees it smaller (resampling), out of focus (blur) and washed out (lower contrast).
// Each returns a new image; none mutates self. Kept here (not in LumaImage.swift) on purpose.

extension LumaImage {
    /// Area-averaging resample by a real factor `scale` (< 1 shrinks). Each output pixel is the
    /// coverage-weighted mean of the source pixels under its footprint, like a camera sensor cell.
    public func resampled(scale: Double) -> LumaImage {
        precondition(scale > 0)
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        guard width > 0, height > 0 else { return self }
        if w == width && h == height { return self }
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        // Horizontal then vertical pass with per-output-pixel source spans and edge weights.
        func spans(_ n: Int, _ s: Double, _ limit: Int) -> [(Int, Int, [Double])] {
            (0..<n).map { o in
                let a = Double(o) * s, b = min(Double(limit), Double(o + 1) * s)
                let i0 = Int(a), i1 = min(limit - 1, max(i0, Int((b - 1e-9).rounded(.down))))
                var weights: [Double] = []
                for i in i0...i1 {
                    let lo = max(a, Double(i)), hi = min(b, Double(i + 1))
                    weights.append(max(0, hi - lo))
                }
                return (i0, i1, weights)
            }
        }
        let xs = spans(w, sx, width), ys = spans(h, sy, height)
        var tmp = [Double](repeating: 0, count: w * height)
        for y in 0..<height {
            let row = y * width
            for (ox, (i0, _, wts)) in xs.enumerated() {
                var s = 0.0, t = 0.0
                for (k, wt) in wts.enumerated() { s += Double(pixels[row + i0 + k]) * wt; t += wt }
                tmp[y * w + ox] = t > 0 ? s / t : 255
            }
        }
        var out = [UInt8](repeating: 0, count: w * h)
        for (oy, (j0, _, wts)) in ys.enumerated() {
            for x in 0..<w {
                var s = 0.0, t = 0.0
                for (k, wt) in wts.enumerated() { s += tmp[(j0 + k) * w + x] * wt; t += wt }
                out[oy * w + x] = UInt8(max(0, min(255, (t > 0 ? s / t : 255).rounded())))
            }
        }
        return LumaImage(width: w, height: h, pixels: out)
    }

    /// Separable Gaussian blur with standard deviation `sigma` pixels (kernel radius 3σ,
    /// edges clamped).
    public func gaussianBlurred(sigma: Double) -> LumaImage {
        guard sigma > 0.05, width > 0, height > 0 else { return self }
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        // Unsafe buffers and a clamp only near the borders; the sums are taken in the same
        // order as the plain loops (GaussianBlurTests compares with them bit for bit).
        let w = width, h = height
        var tmp = [Double](repeating: 0, count: w * h)
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            kernel.withUnsafeBufferPointer { kp in
                tmp.withUnsafeMutableBufferPointer { mid in
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            var s = 0.0
                            if x >= r && x + r < w {
                                let base = row + x - r
                                for i in 0...(2 * r) { s += kp[i] * Double(src[base + i]) }
                            } else {
                                for k in -r...r { s += kp[k + r] * Double(src[row + min(w - 1, max(0, x + k))]) }
                            }
                            mid[row + x] = s
                        }
                    }
                    out.withUnsafeMutableBufferPointer { dst in
                        for y in 0..<h {
                            let inside = y >= r && y + r < h
                            for x in 0..<w {
                                var s = 0.0
                                if inside {
                                    var j = (y - r) * w + x
                                    for i in 0...(2 * r) { s += kp[i] * mid[j]; j += w }
                                } else {
                                    for k in -r...r { s += kp[k + r] * mid[min(h - 1, max(0, y + k)) * w + x] }
                                }
                                dst[y * w + x] = UInt8(max(0, min(255, s.rounded())))
                            }
                        }
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// Faded ink: every pixel moves toward the paper level `light` so that the remaining
    /// contrast is `fraction` of the original (1 = unchanged, 0 = blank).
    public func contrastReduced(to fraction: Double, light: UInt8) -> LumaImage {
        let l = Double(light)
        return LumaImage(width: width, height: height, pixels: pixels.map {
            UInt8(max(0, min(255, (l + (Double($0) - l) * fraction).rounded())))
        })
    }

    /// The p-th percentile (0...1) of the pixel values.
    public func percentile(_ p: Double) -> UInt8 {
        guard !pixels.isEmpty else { return 0 }
        var hist = [Int](repeating: 0, count: 256)
        for v in pixels { hist[Int(v)] += 1 }
        let target = max(1, Int((Double(pixels.count) * p).rounded(.up)))
        var acc = 0
        for i in 0..<256 { acc += hist[i]; if acc >= target { return UInt8(i) } }
        return 255
    }

    /// Bilinear sample at a real position (clamped to the image).
    public func sample(_ p: Point) -> Double {
        guard width > 0, height > 0 else { return 255 }
        let x = max(0, min(Double(width - 1), p.x)), y = max(0, min(Double(height - 1), p.y))
        let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        let a = Double(self[x0, y0]), b = Double(self[x1, y0]), c = Double(self[x0, y1]), d = Double(self[x1, y1])
        return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
    }
}
