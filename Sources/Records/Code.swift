/// What one ZBar pass reports for one symbol, in the coordinates of the image it scanned.
public struct RawSymbol: Sendable, Equatable {
    public var symbology: Symbology
    public var bytes: [UInt8]
    public var points: [Point]
    public var quality: Int
    /// ZBar orientation: 0 up, 1 right, 2 down, 3 left, -1 unknown.
    public var orientation: Int
    /// Whether the decoder saw GS1 data (FNC1 first): zxing-cpp says; nil from ZBar.
    public var gs1: Bool?
    public init(symbology: Symbology, bytes: [UInt8], points: [Point], quality: Int, orientation: Int, gs1: Bool? = nil) {
        self.symbology = symbology; self.bytes = bytes; self.points = points
        self.quality = quality; self.orientation = orientation; self.gs1 = gs1
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
    /// GS1 data as the decoder saw it (zxing-cpp: FNC1 first); nil where the decoder does not say.
    public var gs1: Bool?
    /// A QR code's symbol facts (version, error correction level, mask, mirroring, ECI), from the
    /// grid decoder; nil where no decoder said.
    public var qr: QRDetails?

    public init(
        symbology: Symbology, bytes: [UInt8], corners: Quad, quality: Int, orientation: Int, frame: Int, pass: String,
        gs1: Bool? = nil
    ) {
        self.symbology = symbology; self.bytes = bytes; self.corners = corners
        self.quality = quality; self.orientation = orientation; self.frame = frame; self.pass = pass; self.gs1 = gs1
    }

    /// Whether the data is GS1 element strings: what the decoder saw, else what the symbology decides.
    public var isGS1: Bool? { gs1 ?? symbology.isGS1 }

    /// The AIM symbology identifier with the GS1 modifier where the decoder saw FNC1 first.
    public var symbologyID: String? {
        guard gs1 == true else { return symbology.symbologyIdentifier }
        switch symbology {
        case .datamatrix: return "]d2"
        case .aztec: return "]z1"
        default: return symbology.symbologyIdentifier
        }
    }
}

/// What a QR code's symbol says about itself beyond its data, as ZXingReader prints it.
public struct QRDetails: Sendable, Equatable, Codable {
    public var version: Int
    /// "L", "M", "Q" or "H".
    public var ecLevel: String
    public var mask: Int
    /// The code is drawn mirrored (read as its mirror image).
    public var mirrored: Bool
    /// The first ECI designator in the data (the charset of the bytes), if any.
    public var eci: Int?
    public init(version: Int, ecLevel: String, mask: Int, mirrored: Bool, eci: Int? = nil) {
        self.version = version; self.ecLevel = ecLevel; self.mask = mask; self.mirrored = mirrored; self.eci = eci
    }
}
