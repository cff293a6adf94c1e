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
    /// What the decoder tells beyond the data (zxing-cpp: its identifier, version, EC level, ECI,
    /// structured append); nil from ZBar.
    public var facts: SymbolFacts?
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
    /// Index of the frame or page (0 for single images); in a video, the sample it read best in.
    public var frame: Int
    /// In a video: the times of the first and last sampled frames that read it, in seconds (one
    /// code on screen twice is two codes); nil elsewhere.
    public var seconds: [Double]?
    /// Name of the scan pass that found it.
    public var pass: String
    /// GS1 data as the decoder saw it (zxing-cpp: FNC1 first); nil where the decoder does not say.
    public var gs1: Bool?
    /// A QR code's symbol facts (version, error correction level, mask, mirroring, ECI), from the
    /// grid decoder; nil where no decoder said.
    public var qr: QRDetails?
    /// What zxing-cpp told of the symbol (identifier, variant, version, EC level, ECI,
    /// structured append); nil from ZBar and the grid decoder.
    public var facts: SymbolFacts?

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
        if let id = facts?.symbologyID { return id }
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

/// What zxing-cpp says of a symbol beyond its data, as ZXingReader prints it. Each nil where
/// the decoder did not say.
public struct SymbolFacts: Sendable, Equatable, Codable {
    /// The AIM symbology identifier as read (`]Q1`, `]d2`, `]e0`).
    public var symbologyID: String?
    /// The format's variant where it is not the plain one ("compact", "stacked", "model 1").
    public var variant: String?
    /// The symbol's version or size as the decoder names it ("7", "M2", "R13x77", "12x12").
    public var version: String?
    /// Error correction: "L"/"M"/"Q"/"H" (QR family), a percentage (Aztec, PDF417), a mode (MaxiCode).
    public var ecLevel: String?
    /// A QR-family symbol's data mask.
    public var mask: Int?
    public var mirrored: Bool?
    public var inverted: Bool?
    /// The first ECI designator in the data.
    public var eci: Int?
    /// Structured append: this symbol's place in a sequence.
    public var sequence: SequencePart?
    public init() {}

    /// The first ECI number in zxing-cpp's ECI-marked bytes (`\\nnnnnn` after the identifier).
    public static func firstECI(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i + 6 < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") {
                if bytes[i + 1] == UInt8(ascii: "\\") { i += 2; continue }
                let digits = bytes[(i + 1)...(i + 6)]
                if digits.allSatisfy({ (48...57).contains($0) }) { return Int(String(decoding: digits, as: UTF8.self)) }
            }
            i += 1
        }
        return nil
    }
}

/// One part of a structured-append sequence (ISO/IEC 18004 8.3 for QR; Data Matrix, Aztec,
/// PDF417 and MaxiCode have their own): its 0-based index, the count of parts (0 where the
/// symbology does not say), and the sequence's id (QR: the parity byte; others their file id).
public struct SequencePart: Sendable, Equatable, Hashable, Codable {
    public var index: Int
    public var count: Int
    public var id: String
    public init(index: Int, count: Int, id: String) { self.index = index; self.count = count; self.id = id }
}
