import Imaging
import Records

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
    /// The sums are taken in the same order as the plain per-pixel loops (ScannabilityGateTests compares
    /// with them bit for bit); flat weight tables and whole-row passes only make it cheaper.
    package func resampled(scale: Double) -> LumaImage {
        precondition(scale > 0)
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        guard width > 0, height > 0 else { return self }
        if w == width && h == height { return self }
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        let xs = ResampleSpans(n: w, step: sx, limit: width), ys = ResampleSpans(n: h, step: sy, limit: height)
        let sw = width, sh = height
        // Horizontal, tap by tap across the row: tap k of output column ox reads source column
        // columns[k * w + ox] with weight taps[k * w + ox]; past a column's span the weight is 0
        // (the sums are never negative, and adding +0 leaves them as they are).
        let kmax = xs.spans.map(\.count).max() ?? 1
        var columns = [Int](), taps = [Double](), totals = xs.spans.map(\.total)
        columns.reserveCapacity(kmax * w); taps.reserveCapacity(kmax * w)
        for k in 0..<kmax {
            for span in xs.spans {
                columns.append(k < span.count ? span.first + k : span.first)
                taps.append(k < span.count ? xs.weights[span.offset + k] : 0)
            }
        }
        var acc = [Double](repeating: 0, count: w)
        let same = rowsRepeatingAbove()  // a repeated row's sums are the row above's
        let tmp = [Double](unsafeUninitializedCapacity: w * sh) { mid, filled in
            pixels.withUnsafeBufferPointer { src in
                columns.withUnsafeBufferPointer { col in
                    taps.withUnsafeBufferPointer { wt in
                        totals.withUnsafeMutableBufferPointer { tot in
                            acc.withUnsafeMutableBufferPointer { a in
                                for y in 0..<sh {
                                    let row = src.baseAddress! + y * sw
                                    let m = mid.baseAddress! + y * w
                                    if same[y] {
                                        m.update(from: m - w, count: w)
                                        continue
                                    }
                                    for ox in 0..<w { a[ox] = 0 }
                                    for k in 0..<kmax {
                                        let c = col.baseAddress! + k * w, q = wt.baseAddress! + k * w
                                        for ox in 0..<w { a[ox] += Double(row[c[ox]]) * q[ox] }
                                    }
                                    for ox in 0..<w { m[ox] = tot[ox] > 0 ? a[ox] / tot[ox] : 255 }
                                }
                            }
                        }
                    }
                }
            }
            filled = w * sh
        }
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dst, filled in
            tmp.withUnsafeBufferPointer { mid in
                // Vertical: whole rows at a time (each pixel's terms still added in span order).
                acc.withUnsafeMutableBufferPointer { a in
                    for oy in 0..<h {
                        let span = ys.spans[oy], t = span.total
                        for x in 0..<w { a[x] = 0 }
                        for k in 0..<span.count {
                            let wt = ys.weights[span.offset + k], m = mid.baseAddress! + (span.first + k) * w
                            for x in 0..<w { a[x] += m[x] * wt }
                        }
                        let orow = oy * w
                        if t > 0 {
                            for x in 0..<w { dst[orow + x] = clampedByte(a[x] / t) }
                        } else {
                            for x in 0..<w { dst[orow + x] = 255 }
                        }
                    }
                }
            }
            filled = w * h
        }
        return LumaImage(width: w, height: h, pixels: out)
    }

    /// Separable Gaussian blur with standard deviation `sigma` pixels (kernel radius 3σ,
    /// edges clamped). Each pixel's sum is taken in kernel order, as the plain per-pixel loops
    /// take it (ScannabilityGateTests compares with them bit for bit); the passes run a row at a time
    /// over a copy of the row padded with its edge pixels, which the compiler vectorises.
    package func gaussianBlurred(sigma: Double) -> LumaImage {
        guard sigma > 0.05, width > 0, height > 0 else { return self }
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let w = width, h = height, taps = 2 * r + 1
        var tmp = [Double](unsafeUninitializedCapacity: w * h) { _, filled in filled = w * h }  // every element written below
        var out = [UInt8](unsafeUninitializedCapacity: w * h) { _, filled in filled = w * h }
        var padded = [Double](repeating: 0, count: w + 2 * r)
        let same = rowsRepeatingAbove()  // a repeated row's sums are the row above's
        var acc = [Double](repeating: 0, count: w)
        pixels.withUnsafeBufferPointer { src in
            kernel.withUnsafeBufferPointer { kp in
                tmp.withUnsafeMutableBufferPointer { mid in
                    padded.withUnsafeMutableBufferPointer { pad in
                        // Horizontal: pad[j] is the row's pixel at x = j - r, clamped to the row.
                        for y in 0..<h {
                            let row = y * w
                            let m = mid.baseAddress! + row
                            if same[y] {
                                m.update(from: m - w, count: w)
                                continue
                            }
                            for j in 0..<(w + 2 * r) { pad[j] = Double(src[row + min(w - 1, max(0, j - r))]) }
                            for x in 0..<w { m[x] = 0 }
                            for i in 0..<taps {
                                let k = kp[i], p = pad.baseAddress! + i
                                for x in 0..<w { m[x] += k * p[x] }
                            }
                        }
                    }
                    acc.withUnsafeMutableBufferPointer { a in
                        out.withUnsafeMutableBufferPointer { dst in
                            // Vertical: rows y - r ... y + r (clamped), added in kernel order.
                            for y in 0..<h {
                                for x in 0..<w { a[x] = 0 }
                                for i in 0..<taps {
                                    let k = kp[i], m = mid.baseAddress! + min(h - 1, max(0, y - r + i)) * w
                                    for x in 0..<w { a[x] += k * m[x] }
                                }
                                let row = y * w
                                for x in 0..<w { dst[row + x] = clampedByte(a[x]) }
                            }
                        }
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// Faded ink: every pixel moves toward the paper level `light` so that the remaining
    /// contrast is `fraction` of the original (1 = unchanged, 0 = blank). Computed once per
    /// grey level (a table of 256), the same value the per-pixel formula gives.
    package func contrastReduced(to fraction: Double, light: UInt8) -> LumaImage {
        let l = Double(light)
        let table = (0...255).map { v in UInt8(max(0, min(255, (l + (Double(v) - l) * fraction).rounded()))) }
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, filled in
            table.withUnsafeBufferPointer { t in
                pixels.withUnsafeBufferPointer { src in
                    for i in 0..<src.count { dst[i] = t[Int(src[i])] }
                }
            }
            filled = pixels.count
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// The p-th percentile (0...1) of the pixel values.
    package func percentile(_ p: Double) -> UInt8 { percentiles([p])[0] }

    /// Several percentiles (each 0...1) from one histogram.
    package func percentiles(_ ps: [Double]) -> [UInt8] {
        guard !pixels.isEmpty else { return ps.map { _ in 0 } }
        var hist = [Int](repeating: 0, count: 256)
        hist.withUnsafeMutableBufferPointer { h in
            pixels.withUnsafeBufferPointer { src in
                for v in src { h[Int(v)] += 1 }
            }
        }
        return ps.map { p in
            let target = max(1, Int((Double(pixels.count) * p).rounded(.up)))
            var acc = 0
            for i in 0..<256 { acc += hist[i]; if acc >= target { return UInt8(i) } }
            return 255
        }
    }

    /// Bilinear sample at a real position (clamped to the image).
    package func sample(_ p: Point) -> Double {
        withSampler { $0(p.x, p.y) }
    }

    /// Runs `body` with a bilinear sampler over the pixels (for many samples: one borrow).
    func withSampler<R>(_ body: (BilinearSampler) -> R) -> R {
        pixels.withUnsafeBufferPointer { body(BilinearSampler(pixels: $0, width: width, height: height)) }
    }
}

/// Bilinear samples at real positions, clamped to the image (`LumaImage.sample`).
struct BilinearSampler {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int, height: Int

    @inline(__always)
    func callAsFunction(_ px: Double, _ py: Double) -> Double {
        guard width > 0, height > 0 else { return 255 }
        let x = max(0, min(Double(width - 1), px)), y = max(0, min(Double(height - 1), py))
        let (x0, fx) = Self.split(x), (y0, fy) = Self.split(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let a = Double(pixels[y0 * width + x0]), b = Double(pixels[y0 * width + x1])
        let c = Double(pixels[y1 * width + x0]), d = Double(pixels[y1 * width + x1])
        return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
    }

    /// `(Int(v), v - Double(Int(v)))` for 0 ≤ v < 2^52 without a checked conversion: one less
    /// than the nearest integer when that is above v.
    @inline(__always)
    static func split(_ v: Double) -> (Int, Double) {
        let (i, r) = nearestEven(v)
        return r > v ? (i - 1, v - (r - 1)) : (i, v - r)
    }
}

/// The source spans of a resample along one axis: output `o` averages source pixels
/// `first ..< first + count` with `weights[offset ...]`, whose sum (taken in the same order as
/// the per-pixel loop takes it) is `total`.
struct ResampleSpans {
    struct Span { var first: Int, count: Int, offset: Int, total: Double }
    var spans: [Span] = []
    var weights: [Double] = []

    init(n: Int, step s: Double, limit: Int) {
        spans.reserveCapacity(n)
        for o in 0..<n {
            let a = Double(o) * s, b = min(Double(limit), Double(o + 1) * s)
            let i0 = Int(a), i1 = min(limit - 1, max(i0, Int((b - 1e-9).rounded(.down))))
            let offset = weights.count
            var t = 0.0
            for i in i0...i1 {
                let lo = max(a, Double(i)), hi = min(b, Double(i + 1))
                let wt = max(0, hi - lo)
                weights.append(wt)
                t += wt
            }
            spans.append(Span(first: i0, count: i1 - i0 + 1, offset: offset, total: t))
        }
    }
}

/// v rounded to the nearest integer, ties to even, as an Int and exactly as a Double, for
/// 0 ≤ v < 2^52, without libm or a checked conversion: adding 2^52 leaves that integer in the
/// low bits of the sum.
@inline(__always)
func nearestEven(_ v: Double) -> (Int, Double) {
    let s = v + 4_503_599_627_370_496
    return (Int(truncatingIfNeeded: s.bitPattern & 0xF_FFFF_FFFF_FFFF), s - 4_503_599_627_370_496)
}

/// `UInt8(max(0, min(255, v.rounded())))` (to nearest, ties away from zero) for the values a
/// degradation produces (0 ≤ v < 255.5) through `nearestEven`: a tie that went down to even
/// (the integer is then exactly v − 0.5, and that difference is exact) goes up.
@inline(__always)
func clampedByte(_ v: Double) -> UInt8 {
    guard v >= 0, v < 255.5 else { return v >= 255.5 ? 255 : UInt8(max(0, min(255, v.rounded()))) }
    let (i, r) = nearestEven(v)
    return UInt8(truncatingIfNeeded: r - v == -0.5 ? i + 1 : i)
}
