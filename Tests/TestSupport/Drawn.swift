import Foundation
import Imaging
import QRSymbol
import Records

/// Pictures drawn in memory for the texture probe and the plan executor's tests, in the unit
/// and the integration tests alike: a code-like patch of modules, bars at an angle, finder-like rings,
/// a QR symbol drawn through a frame.
package enum Drawn {
    /// A white image with a pseudo-random module pattern (`module` px per module, `modules`
    /// wide) at (x, y): the texture of a QR code without being one.
    package static func patch(width: Int, height: Int, x: Int, y: Int, module: Int, modules: Int = 33) -> LumaImage {
        var img = LumaImage(width: width, height: height, fill: 235)
        var state: UInt32 = 12345
        for my in 0..<modules {
            for mx in 0..<modules {
                state = state &* 1_103_515_245 &+ 12345
                let v: UInt8 = (state >> 16) & 1 == 0 ? 20 : 235
                for py in 0..<module { for px in 0..<module { img.pixels[(y + my * module + py) * width + x + mx * module + px] = v } }
            }
        }
        return img
    }

    /// Bars of pseudo-random widths (1-3 px times `unit`, a linear code's rhythm) at `degrees`,
    /// filling the box (x, y, w, h) of an image of `width` x `height`.
    package static func bars(
        width: Int, height: Int, box: (Int, Int, Int, Int), degrees: Double, unit: Double = 1, into base: LumaImage? = nil
    ) -> LumaImage {
        var img = base ?? LumaImage(width: width, height: height, fill: 235)
        var edges: [Double] = [0]
        var state: UInt32 = 777
        while edges.last! < 4000 { state = state &* 1_103_515_245 &+ 12345; edges.append(edges.last! + unit * Double(1 + (state >> 16) % 3)) }
        let a = degrees * Double.pi / 180, nx = cos(a), ny = sin(a)
        for y in box.1..<(box.1 + box.3) {
            for x in box.0..<(box.0 + box.2) {
                let t = Double(x) * nx + Double(y) * ny + 2000
                // The bar holding t: dark on every other one.
                var lo = 0, hi = edges.count - 1
                while hi - lo > 1 { let mid = (lo + hi) / 2; if edges[mid] <= t { lo = mid } else { hi = mid } }
                img.pixels[y * width + x] = lo % 2 == 0 ? 25 : 230
            }
        }
        return img
    }

    /// Finder-like rings (7 modules: dark ring, light ring, dark centre) of 1-3 px modules at
    /// many angles, scattered over the whole image: fine texture with straight edges, no bars.
    package static func rings(width: Int, height: Int) -> LumaImage {
        var img = LumaImage(width: width, height: height, fill: 200)
        var state: UInt32 = 4242
        func next(_ n: UInt32) -> Int { state = state &* 1_103_515_245 &+ 12345; return Int((state >> 16) % n) }
        for _ in 0..<(width * height / 900) {
            let m = Double(1 + next(3)), cx = Double(next(UInt32(width))), cy = Double(next(UInt32(height)))
            let a = Double(next(90)) * Double.pi / 180, c = cos(a), s = sin(a)
            let r = Int(5 * m)
            for y in max(0, Int(cy) - r)..<min(height, Int(cy) + r) {
                for x in max(0, Int(cx) - r)..<min(width, Int(cx) + r) {
                    let u = abs((Double(x) - cx) * c + (Double(y) - cy) * s) / m, v = abs(-(Double(x) - cx) * s + (Double(y) - cy) * c) / m
                    let k = max(u, v)
                    if k < 1.5 || (k >= 2.5 && k < 3.5) { img.pixels[y * width + x] = 30 } else if k < 2.5 { img.pixels[y * width + x] = 200 }
                }
            }
        }
        return img
    }

    /// A picture of `m` drawn through `toImage` (module coordinates to pixels, quiet zone
    /// included in what maps to the canvas) plus a displacement `bend` (pixels, by pixel
    /// position), 3x3 samples per pixel, then a box blur of `blur` pixels each way.
    package static func qr(
        _ m: QRMatrix, canvas: (Int, Int), toImage: Homography, bend: (Point) -> Point = { _ in Point(x: 0, y: 0) },
        blur: Int = 0, mirrored: Bool = false
    ) -> LumaImage {
        let (w, h) = canvas
        let back = toImage.inverted!
        var px = [UInt8](repeating: 255, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var dark = 0
                for sy in 0..<3 {
                    for sx in 0..<3 {
                        var p = Point(x: Double(x) + (Double(sx) + 0.5) / 3, y: Double(y) + (Double(sy) + 0.5) / 3)
                        let d = bend(p)
                        p = Point(x: p.x - d.x, y: p.y - d.y)
                        let q = back.apply(p)
                        var i = Int(q.x.rounded(.down)), j = Int(q.y.rounded(.down))
                        if mirrored { swap(&i, &j) }
                        if i >= 0, j >= 0, i < m.size, j < m.size, m[i, j] { dark += 1 }
                    }
                }
                px[y * w + x] = UInt8(235 - dark * 205 / 9)
            }
        }
        var img = LumaImage(width: w, height: h, pixels: px)
        if blur > 0 {
            var out = img.pixels
            for y in 0..<h {
                for x in 0..<w {
                    var s = 0, c = 0
                    for yy in max(0, y - blur)...min(h - 1, y + blur) {
                        for xx in max(0, x - blur)...min(w - 1, x + blur) { s += Int(img.pixels[yy * w + xx]); c += 1 }
                    }
                    out[y * w + x] = UInt8(s / c)
                }
            }
            img = LumaImage(width: w, height: h, pixels: out)
        }
        return img
    }

    /// The symbol's square (modules) placed by its four corners in the picture.
    package static func frame(_ m: QRMatrix, corners: [Point]) -> Homography {
        let n = Double(m.size)
        return Homography(from: [Point(x: 0, y: 0), Point(x: n, y: 0), Point(x: n, y: n), Point(x: 0, y: n)], to: corners)!
    }
}
