/// A point in image pixel coordinates (x right, y down).
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// Four corners, clockwise (in y-down image coordinates) from the code's own top-left.
public struct Quad: Sendable, Equatable {
    public var points: [Point]
    public init(_ points: [Point]) {
        precondition(points.count == 4)
        self.points = points
    }
    public var boundingBox: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
    }
    public var center: Point {
        Point(x: points.map(\.x).reduce(0, +) / 4, y: points.map(\.y).reduce(0, +) / 4)
    }

    /// Whether two quads overlap: their bounding boxes intersect, or one holds the other's centre.
    public func overlaps(_ other: Quad, slack: Double = 2) -> Bool {
        let a = boundingBox, b = other.boundingBox
        return a.minX - slack <= b.maxX && b.minX - slack <= a.maxX && a.minY - slack <= b.maxY && b.minY - slack <= a.maxY
    }

    /// Whether two outlines are one symbol read twice: the other's centre within this one's
    /// bounding box and the boxes' areas within a factor of 2 (a code inside another, as in a
    /// "double QR", is much smaller: another symbol).
    package func isSameSymbol(as other: Quad) -> Bool {
        let a = boundingBox, b = other.boundingBox, c = other.center
        let areaA = (a.maxX - a.minX) * (a.maxY - a.minY), areaB = (b.maxX - b.minX) * (b.maxY - b.minY)
        guard c.x >= a.minX && c.x <= a.maxX && c.y >= a.minY && c.y <= a.maxY, areaA > 0, areaB > 0 else { return false }
        return areaA <= 2 * areaB && areaB <= 2 * areaA
    }

    /// Axis-aligned box around points, ordered clockwise from the code's own top-left given
    /// ZBar's orientation (0 up, 1 right, 2 down, 3 left).
    public static func bounding(_ pts: [Point], orientation: Int) -> Quad {
        let xs = pts.map(\.x), ys = pts.map(\.y)
        let minX = xs.min() ?? 0, maxX = xs.max() ?? 0, minY = ys.min() ?? 0, maxY = ys.max() ?? 0
        let box = [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)]
        let k = ((orientation % 4) + 4) % 4
        return Quad((0..<4).map { box[($0 + k) % 4] })
    }
}
