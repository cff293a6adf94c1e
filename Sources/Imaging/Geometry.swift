import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An integer pixel rectangle.
public struct PixelRect: Sendable, Equatable, Hashable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// The rectangle grown by `margin` pixels on every side (clamp it afterwards).
    public func expanded(by margin: Int) -> PixelRect {
        PixelRect(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }
    public func clamped(width w: Int, height h: Int) -> PixelRect {
        let x0 = max(0, min(x, w)), y0 = max(0, min(y, h))
        let x1 = max(x0, min(x + width, w)), y1 = max(y0, min(y + height, h))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A region of interest as fractions (0...1) of the upright image.
public struct FractionalRect: Sendable, Equatable, Codable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// Parses "x,y,w,h" with each value in 0...1 and x+w, y+h <= 1.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Double(trimSpaces($0)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            x >= 0, y >= 0, w > 0, h > 0, x + w <= 1.000001, y + h <= 1.000001
        else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }
    public func pixels(width: Int, height: Int) -> PixelRect {
        let x0 = Int((x * Double(width)).rounded(.down)), y0 = Int((y * Double(height)).rounded(.down))
        let x1 = Int(((x + self.width) * Double(width)).rounded(.up)), y1 = Int(((y + self.height) * Double(height)).rounded(.up))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).clamped(width: width, height: height)
    }
}

/// x' = a*x + c*y + tx ; y' = b*x + d*y + ty
public struct AffineTransform: Sendable, Equatable {
    public var a, b, c, d, tx, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public static func translation(_ dx: Double, _ dy: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }
    /// Maps coordinates in an image scaled by `s` back to the original: x = x'/s. Coordinates
    /// are pixel-edge based (pixel i spans [i, i+1)), as ZBar reports corners and as the box
    /// downscale and centre-aligned upscale sample: scaled pixel j covers [j/s, (j+1)/s).
    public static func unscale(_ s: Double) -> AffineTransform {
        AffineTransform(a: 1 / s, b: 0, c: 0, d: 1 / s, tx: 0, ty: 0)
    }
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }
    /// self after other: p -> self(other(p)).
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b,
            c: a * other.c + c * other.d, d: b * other.c + d * other.d,
            tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
    }
}

extension Quad {
    public func transformed(by t: AffineTransform) -> Quad { Quad(points.map(t.apply)) }
}

/// A box as fractions of an image (0...1 on each axis): where the texture probe saw code-like
/// texture, kept in fractions so that it applies at any scale of the same frame.
public struct FractionalBox: Sendable, Equatable, Hashable {
    public var x0: Double, y0: Double, x1: Double, y1: Double
    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = max(0, x0); self.y0 = max(0, y0); self.x1 = min(1, x1); self.y1 = min(1, y1)
    }
    public static let whole = FractionalBox(x0: 0, y0: 0, x1: 1, y1: 1)
    public var area: Double { max(0, x1 - x0) * max(0, y1 - y0) }

    package func overlaps(_ o: FractionalBox) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
    package func contains(_ p: Point) -> Bool { p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1 }
    package func union(_ o: FractionalBox) -> FractionalBox {
        FractionalBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    /// The pixels it covers in a width x height image, rounded outwards.
    public func pixels(width: Int, height: Int) -> PixelRect {
        let px0 = Int((x0 * Double(width)).rounded(.down)), py0 = Int((y0 * Double(height)).rounded(.down))
        let px1 = Int((x1 * Double(width)).rounded(.up)), py1 = Int((y1 * Double(height)).rounded(.up))
        return PixelRect(x: px0, y: py0, width: px1 - px0, height: py1 - py0).clamped(width: width, height: height)
    }

    /// Overlapping boxes joined until none overlap; when they cover most of the image, or are
    /// too many to be worth cropping one by one, the whole image.
    public static func merged(_ boxes: [FractionalBox], maxCount: Int = 12, maxArea: Double = 0.5) -> [FractionalBox] {
        var out = boxes
        var changed = true
        while changed {
            changed = false
            outer: for i in out.indices {
                for j in out.indices where j > i && out[i].overlaps(out[j]) {
                    out[i] = out[i].union(out[j])
                    out.remove(at: j)
                    changed = true
                    break outer
                }
            }
        }
        if out.count > maxCount || out.reduce(0, { $0 + $1.area }) > maxArea { return [.whole] }
        return out.sorted { ($0.y0, $0.x0) < ($1.y0, $1.x0) }
    }
}
