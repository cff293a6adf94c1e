import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An 8-bit grayscale image, row-major, one byte per pixel, no padding.
/// This is the only image type the engine works on: the loader produces it upright,
/// scan passes transform it, and the ZBar bridge scans it.
public struct LumaImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count must be width*height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A uniform image.
    public init(width: Int, height: Int, fill: UInt8) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    public var pixelCount: Int { width * height }
    public var megapixels: Double { Double(width * height) / 1_000_000 }
}

// MARK: - Transforms used by scan passes (scale, crop, pad, invert, rotate; the pixel filters are in
// LumaFilters.swift). Each returns a new image; none mutates self.

extension LumaImage {
    /// Box-filter (area-averaging) downscale by an integer factor. Edge pixels that do not
    /// fill a whole box are dropped (at most factor-1 pixels per side).
    public func downscaled(by factor: Int) -> LumaImage {
        precondition(factor >= 1)
        if factor == 1 { return self }
        let w = width / factor, h = height / factor
        guard w > 0, h > 0 else { return LumaImage(width: 0, height: 0, pixels: []) }
        var out = [UInt8](repeating: 0, count: w * h)
        let area = UInt32(factor * factor)
        let half = area / 2
        var rowSums = [UInt32](repeating: 0, count: w)
        let width = self.width
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                rowSums.withUnsafeMutableBufferPointer { sums in
                    for oy in 0..<h {
                        if factor == 2 {
                            // The common case (pyramids, halved views): two rows, pairs of pixels.
                            let r0 = 2 * oy * width, r1 = r0 + width, base = oy * w
                            for ox in 0..<w {
                                let s =
                                    UInt32(src[r0 + 2 * ox]) &+ UInt32(src[r0 + 2 * ox + 1])
                                    &+ UInt32(src[r1 + 2 * ox]) &+ UInt32(src[r1 + 2 * ox + 1])
                                dst[base + ox] = UInt8(truncatingIfNeeded: (s &+ 2) >> 2)
                            }
                            continue
                        }
                        for i in 0..<w { sums[i] = 0 }
                        for dy in 0..<factor {
                            var sx = (oy * factor + dy) * width
                            for ox in 0..<w {
                                var s: UInt32 = 0
                                for _ in 0..<factor { s &+= UInt32(src[sx]); sx += 1 }
                                sums[ox] &+= s
                            }
                        }
                        let base = oy * w
                        for ox in 0..<w { dst[base + ox] = UInt8(truncatingIfNeeded: (sums[ox] + half) / area) }
                    }
                }
            }
        }
        return LumaImage(width: w, height: h, pixels: out)
    }

    /// Bilinear upscale by an integer factor (for codes whose modules are 1-2 px wide). By 2 it is
    /// `doubled()`, the same pixels in integers.
    public func upscaled(by factor: Int) -> LumaImage {
        if factor == 2 && width >= 2 && height >= 2 { return doubled() }
        return bilinearUpscaled(by: factor)
    }

    /// Bilinear upscale by an integer factor, centre-aligned, edges clamped, in floating point.
    package func bilinearUpscaled(by factor: Int) -> LumaImage {
        precondition(factor >= 1)
        if factor == 1 || width == 0 || height == 0 { return self }
        let w = width * factor, h = height * factor
        var out = [UInt8](repeating: 0, count: w * h)
        let f = Double(factor)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let sy = max(0, min(Double(height - 1), (Double(y) + 0.5) / f - 0.5))
                    let y0 = Int(sy), y1 = min(y0 + 1, height - 1)
                    let fy = sy - Double(y0)
                    for x in 0..<w {
                        let sx = max(0, min(Double(width - 1), (Double(x) + 0.5) / f - 0.5))
                        let x0 = Int(sx), x1 = min(x0 + 1, width - 1)
                        let fx = sx - Double(x0)
                        let a = Double(src[y0 * width + x0]), b = Double(src[y0 * width + x1])
                        let c = Double(src[y1 * width + x0]), d = Double(src[y1 * width + x1])
                        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
                        dst[y * w + x] = UInt8(max(0, min(255, (top + (bottom - top) * fy).rounded())))
                    }
                }
            }
        }
        return LumaImage(width: w, height: h, pixels: out)
    }

    /// For each row, whether its pixels are those of the row above (row 0: false). A drawn code
    /// repeats each module's rows; the transforms that work a row at a time copy their output
    /// for such a row instead of computing it again.
    public func rowsRepeatingAbove() -> [Bool] {
        var same = [Bool](repeating: false, count: height)
        guard width > 0 else { return same }
        pixels.withUnsafeBufferPointer { src in
            for y in 1..<max(1, height) { same[y] = memcmp(src.baseAddress! + y * width, src.baseAddress! + (y - 1) * width, width) == 0 }
        }
        return same
    }

    /// Bilinear x2 upscale in integers (centre-aligned, weights 3/4 and 1/4 on each axis): the
    /// same pixels as `bilinearUpscaled(by: 2)` (every sum is exact in sixteenths), several times faster.
    public func doubled() -> LumaImage {
        guard width >= 2, height >= 2 else { return bilinearUpscaled(by: 2) }
        let w2 = width * 2
        // Rows like the one above (a drawn code's module rows) give the same output: copied.
        let same = rowsRepeatingAbove()
        // Rows first (into 4x fixed point), then columns.
        var rows = [UInt16](repeating: 0, count: w2 * height)
        pixels.withUnsafeBufferPointer { src in
            rows.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let s = y * width, d = y * w2
                    if same[y] {
                        (dst.baseAddress! + d).update(from: dst.baseAddress! + d - w2, count: w2)
                        continue
                    }
                    for x in 0..<width {
                        let p = UInt16(src[s + x]) * 3
                        let l = UInt16(src[s + max(0, x - 1)]), r = UInt16(src[s + min(width - 1, x + 1)])
                        dst[d + 2 * x] = p + l
                        dst[d + 2 * x + 1] = p + r
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: w2 * height * 2)
        rows.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let c = y * w2, u = max(0, y - 1) * w2, dn = min(height - 1, y + 1) * w2
                    let o0 = (2 * y) * w2, o1 = (2 * y + 1) * w2
                    // Rows y-1, y, y+1 like rows y-2, y-1, y (as clamped): the two rows above again.
                    if same[y] && (y == 1 || same[y - 1]) && (y == height - 1 || same[y + 1]) {
                        (dst.baseAddress! + o0).update(from: dst.baseAddress! + o0 - 2 * w2, count: 2 * w2)
                        continue
                    }
                    for x in 0..<w2 {
                        let p = UInt32(src[c + x]) * 3
                        dst[o0 + x] = UInt8((p + UInt32(src[u + x]) + 8) >> 4)
                        dst[o1 + x] = UInt8((p + UInt32(src[dn + x]) + 8) >> 4)
                    }
                }
            }
        }
        return LumaImage(width: w2, height: height * 2, pixels: out)
    }

    /// For strips under `minSide` pixels high or wide (one scanned line of a bar code): each
    /// line repeated so the short side reaches `minSide`, then a border of `minSide`/2 all round
    /// (ZBar needs several lines and a quiet zone). The border is white, but black round a frame
    /// at least 8 px on each side whose edge is mostly light yet has dark in it (`lightCodeAtEdge`:
    /// a light-on-dark code with no quiet zone, such as a 7-module rMQR cut at its modules; white
    /// would join its light modules), which is also scaled alike both ways (square modules).
    /// Returns the transform back to self.
    public func paddedThin(minSide: Int) -> (image: LumaImage, toSource: AffineTransform) {
        var ry = height < minSide ? (minSide + height - 1) / max(1, height) : 1
        var rx = width < minSide ? (minSide + width - 1) / max(1, width) : 1
        let light = lightCodeAtEdge
        // A 2D code's modules stay square: scaled alike both ways.
        if light { (rx, ry) = (max(rx, ry), max(rx, ry)) }
        let border = minSide / 2
        let w = width * rx + 2 * border, h = height * ry + 2 * border
        var out = [UInt8](repeating: light ? 0 : 255, count: w * h)
        for y in 0..<(height * ry) {
            let sy = y / ry
            for x in 0..<(width * rx) { out[(y + border) * w + x + border] = pixels[sy * width + x / rx] }
        }
        // Output pixel (u, v) shows source pixel ((u - border) / rx, (v - border) / ry).
        let back = AffineTransform(
            a: 1 / Double(rx), b: 0, c: 0, d: 1 / Double(ry),
            tx: -Double(border) / Double(rx), ty: -Double(border) / Double(ry))
        return (LumaImage(width: w, height: h, pixels: out), back)
    }

    /// Whether the frame's outermost pixels are mostly light (mean over 160) with some dark among
    /// them (a tenth under 64), on a frame of at least 8 px a side: light modules touching the edge.
    var lightCodeAtEdge: Bool {
        guard width >= 8, height >= 8 else { return false }
        var ring: [UInt8] = []
        for x in 0..<width { ring.append(pixels[x]); ring.append(pixels[(height - 1) * width + x]) }
        for y in 1..<(height - 1) { ring.append(pixels[y * width]); ring.append(pixels[y * width + width - 1]) }
        let mean = Double(ring.reduce(0) { $0 + Int($1) }) / Double(ring.count)
        let dark = Double(ring.filter { $0 < 64 }.count) / Double(ring.count)
        return mean > 160 && dark >= 0.1
    }

    /// Photographic negative (light codes on dark backgrounds become dark on light).
    public func inverted() -> LumaImage {
        LumaImage(width: width, height: height, pixels: pixels.map { 255 &- $0 })
    }

    /// The sub-image in the given pixel rectangle, clamped to the image.
    public func cropped(_ rect: PixelRect) -> LumaImage {
        let r = rect.clamped(width: width, height: height)
        guard r.width > 0, r.height > 0 else { return LumaImage(width: 0, height: 0, pixels: []) }
        var out = [UInt8]()
        out.reserveCapacity(r.width * r.height)
        pixels.withUnsafeBufferPointer { src in
            for y in r.y..<(r.y + r.height) {
                let start = y * width + r.x
                out.append(contentsOf: src[start..<(start + r.width)])
            }
        }
        return LumaImage(width: r.width, height: r.height, pixels: out)
    }

    /// Rotation about the centre by `degrees` (counter-clockwise as seen on screen), bilinear,
    /// into a canvas large enough to hold the whole rotated image; uncovered pixels are white.
    /// Returns the image and the transform mapping rotated coordinates back to this image.
    public func rotated(degrees: Double) -> (image: LumaImage, toSource: AffineTransform) {
        let a = degrees * .pi / 180
        let c = cos(a), s = sin(a)
        let w = Double(width), h = Double(height)
        let nw = Int((abs(w * c) + abs(h * s)).rounded(.up)), nh = Int((abs(w * s) + abs(h * c)).rounded(.up))
        let cx = w / 2, cy = h / 2, ncx = Double(nw) / 2, ncy = Double(nh) / 2
        // Destination (u,v) -> source: rotate by +a in image coordinates (y down): screen CCW.
        // src = R(a) * (dst - nc) + c, with R(a) = [[c, -s],[s, c]] applied as y-down CCW => use [[c, s],[-s, c]].
        let toSource = AffineTransform(
            a: c, b: s, c: -s, d: c,
            tx: cx - c * ncx + s * ncy, ty: cy - s * ncx - c * ncy)
        var out = [UInt8](repeating: 255, count: nw * nh)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for v in 0..<nh {
                    for u in 0..<nw {
                        let p = toSource.apply(Point(x: Double(u), y: Double(v)))
                        if p.x < 0 || p.y < 0 || p.x > w - 1 || p.y > h - 1 { continue }
                        let x0 = Int(p.x), y0 = Int(p.y)
                        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                        let fx = p.x - Double(x0), fy = p.y - Double(y0)
                        let q00 = Double(src[y0 * width + x0]), q10 = Double(src[y0 * width + x1])
                        let q01 = Double(src[y1 * width + x0]), q11 = Double(src[y1 * width + x1])
                        let top = q00 + (q10 - q00) * fx, bottom = q01 + (q11 - q01) * fx
                        dst[v * nw + u] = UInt8(max(0, min(255, (top + (bottom - top) * fy).rounded())))
                    }
                }
            }
        }
        return (LumaImage(width: nw, height: nh, pixels: out), toSource)
    }
}
