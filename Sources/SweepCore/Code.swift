/// What one ZBar pass reports for one symbol, in the coordinates of the image it scanned.
public struct RawSymbol: Sendable, Equatable {
    public var symbology: Symbology
    public var bytes: [UInt8]
    public var points: [Point]
    public var quality: Int
    /// ZBar orientation: 0 up, 1 right, 2 down, 3 left, -1 unknown.
    public var orientation: Int
    public init(symbology: Symbology, bytes: [UInt8], points: [Point], quality: Int, orientation: Int) {
        self.symbology = symbology; self.bytes = bytes; self.points = points
        self.quality = quality; self.orientation = orientation
    }

    /// Corners clockwise from the code's own top-left. ZBar gives a QR's corners as
    /// top-left, bottom-left, bottom-right, top-right of the code as drawn; a linear code's
    /// points are scan-line hits, boxed here.
    public var corners: Quad {
        if symbology.isTwoDimensional && points.count == 4 {
            return Quad([points[0], points[3], points[2], points[1]])
        }
        if points.isEmpty { return Quad([Point](repeating: Point(x: 0, y: 0), count: 4)) }
        return Quad.bounding(points, orientation: max(0, orientation))
    }
}

/// A code found in an image, in upright full-resolution coordinates.
public struct DetectedCode: Sendable, Equatable {
    public var symbology: Symbology
    public var bytes: [UInt8]
    public var corners: Quad
    public var quality: Int
    public var orientation: Int
    /// Index of the frame or page (0 for single images).
    public var frame: Int
    /// Name of the scan pass that found it.
    public var pass: String

    public init(symbology: Symbology, bytes: [UInt8], corners: Quad, quality: Int, orientation: Int, frame: Int, pass: String) {
        self.symbology = symbology; self.bytes = bytes; self.corners = corners
        self.quality = quality; self.orientation = orientation; self.frame = frame; self.pass = pass
    }
}
