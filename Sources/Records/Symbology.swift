/// The symbologies CodeSweep reports. Raw values are the stable names used in every output.
public enum Symbology: String, Sendable, CaseIterable, Codable, Comparable {
    case qr = "qr"
    case sq = "sq"
    case ean13 = "ean13"
    case ean8 = "ean8"
    case upca = "upca"
    case upce = "upce"
    case isbn10 = "isbn10"
    case isbn13 = "isbn13"
    case ean2 = "ean2"
    case ean5 = "ean5"
    case itf = "itf"
    case code39 = "code39"
    case code93 = "code93"
    case code128 = "code128"
    case codabar = "codabar"
    case databar = "databar"
    case databarExpanded = "databar-exp"
    // Read by the isolated reader (zxing-cpp), not by ZBar.
    case datamatrix = "datamatrix"
    case pdf417 = "pdf417"
    case aztec = "aztec"
    // zxing-cpp 3.1 alone.
    case microqr = "microqr"
    case rmqr = "rmqr"
    case micropdf417 = "micropdf417"
    case maxicode = "maxicode"
    case databarLimited = "databar-ltd"
    case databarExpandedStacked = "databar-exp-stacked"
    case dxFilmEdge = "dxfilmedge"
    case telepen = "telepen"

    /// Which decoder reads the symbology: zxing-cpp for what ZBar lacks (Data Matrix, Aztec,
    /// and PDF417, whose ZBar decoder is off in Debian's build), ZBar for the rest. (zxing-cpp
    /// also reads QR codes, in its own passes; ZBar is their home.) The decoders' own numbers
    /// for each are in their bridges (`ZBarBridge`'s `zbarType`, `ZXingDecoder.formatBit`).
    public var reader: ReaderName {
        switch self {
        case .qr, .sq, .ean13, .ean8, .upca, .upce, .isbn10, .isbn13, .ean2, .ean5, .itf, .code39, .code93, .code128, .codabar, .databar,
            .databarExpanded:
            .zbar
        case .datamatrix, .pdf417, .aztec, .microqr, .rmqr, .micropdf417, .maxicode, .databarLimited, .databarExpandedStacked, .dxFilmEdge, .telepen:
            .zxing
        }
    }

    /// The AIM symbology identifier (ISO/IEC 15424) a scanner would prefix the data with, for
    /// what ZBar tells: ZBar reports no ECI, FNC1 or check-character status, so the plain
    /// modifier is given (`]Q1`: QR model 2 without ECI; `]C0`: Code 128 without a leading FNC1,
    /// so a GS1-128 code also reads `]C0`). EAN/UPC and ISBN are transmitted as EAN-13 (`]E0`),
    /// EAN-8 as `]E4`, the add-ons alone as `]E1`/`]E2`. nil for SQ Code, which has none.
    public var symbologyIdentifier: String? {
        switch self {
        case .qr: "]Q1"
        case .sq: nil
        case .ean13, .upca, .upce, .isbn10, .isbn13: "]E0"
        case .ean8: "]E4"
        case .ean2: "]E1"
        case .ean5: "]E2"
        case .itf: "]I0"
        case .code39: "]A0"
        case .code93: "]G0"
        case .code128: "]C0"
        case .codabar: "]F0"
        case .databar, .databarExpanded: "]e0"
        // Data Matrix ECC 200, PDF417, Aztec without FNC1; `DetectedCode.symbologyID` gives the
        // GS1 modifiers (]d2, ]z1) when zxing-cpp saw the data start with FNC1.
        case .datamatrix: "]d1"
        case .pdf417: "]L2"
        case .aztec: "]z0"
        case .microqr, .rmqr: "]Q1"
        case .micropdf417: "]L2"
        case .maxicode: "]U0"
        case .databarLimited, .databarExpandedStacked: "]e0"
        case .dxFilmEdge: "]X0"
        case .telepen: "]B0"
        }
    }

    /// Whether the data is GS1 element strings by the symbology itself (GS1 DataBar always is);
    /// nil where it depends on an FNC1 that ZBar does not report (Code 128, QR, …).
    public var isGS1: Bool? {
        switch self {
        case .databar, .databarExpanded, .databarLimited, .databarExpandedStacked: true
        default: nil
        }
    }

    /// Human name, as ZBar and most readers print it.
    public var displayName: String {
        switch self {
        case .qr: "QR Code"
        case .sq: "SQ Code"
        case .ean13: "EAN-13"
        case .ean8: "EAN-8"
        case .upca: "UPC-A"
        case .upce: "UPC-E"
        case .isbn10: "ISBN-10"
        case .isbn13: "ISBN-13"
        case .ean2: "EAN-2 add-on"
        case .ean5: "EAN-5 add-on"
        case .itf: "Interleaved 2 of 5"
        case .code39: "Code 39"
        case .code93: "Code 93"
        case .code128: "Code 128"
        case .codabar: "Codabar"
        case .databar: "GS1 DataBar"
        case .databarExpanded: "GS1 DataBar Expanded"
        case .datamatrix: "Data Matrix"
        case .pdf417: "PDF417"
        case .aztec: "Aztec"
        case .microqr: "Micro QR Code"
        case .rmqr: "rMQR Code"
        case .micropdf417: "MicroPDF417"
        case .maxicode: "MaxiCode"
        case .databarLimited: "GS1 DataBar Limited"
        case .databarExpandedStacked: "GS1 DataBar Expanded Stacked"
        case .dxFilmEdge: "DX Film Edge"
        case .telepen: "Telepen"
        }
    }

    /// The reading decoder's own name for the type (zbar_get_symbol_name, or zxing-cpp's
    /// BarcodeFormat name), for docs/output.md's table of symbologies.
    public var zbarName: String {
        switch self {
        case .qr: "QR-Code"
        case .sq: "SQ-Code"
        case .ean13: "EAN-13"
        case .ean8: "EAN-8"
        case .upca: "UPC-A"
        case .upce: "UPC-E"
        case .isbn10: "ISBN-10"
        case .isbn13: "ISBN-13"
        case .ean2: "EAN-2"
        case .ean5: "EAN-5"
        case .itf: "I2/5"
        case .code39: "CODE-39"
        case .code93: "CODE-93"
        case .code128: "CODE-128"
        case .codabar: "Codabar"
        case .databar: "DataBar"
        case .databarExpanded: "DataBar-Exp"
        case .datamatrix: "DataMatrix"
        case .pdf417: "PDF417"
        case .aztec: "Aztec"
        case .microqr: "MicroQRCode"
        case .rmqr: "rMQRCode"
        case .micropdf417: "MicroPDF417"
        case .maxicode: "MaxiCode"
        case .databarLimited: "DataBarLimited"
        case .databarExpandedStacked: "DataBarExpandedStacked"
        case .dxFilmEdge: "DXFilmEdge"
        case .telepen: "Telepen"
        }
    }

    public var isTwoDimensional: Bool {
        switch self {
        case .qr, .sq, .datamatrix, .pdf417, .aztec, .microqr, .rmqr, .micropdf417, .maxicode: true
        default: false
        }
    }
    /// EAN-2 and EAN-5: printed to the right of an EAN/UPC code, never read on their own.
    public var isAddOn: Bool { self == .ean2 || self == .ean5 }
    /// The codes an add-on can belong to.
    public static let addOnHosts: Set<Symbology> = [.ean13, .ean8, .upca, .upce, .isbn10, .isbn13]
    /// What to look for as well so that add-ons can be paired. Never UPC or ISBN: enabling
    /// those makes ZBar re-label EAN-13 reads, which would then be missing from the results.
    public static let addOnHostsToScan: Set<Symbology> = [.ean13, .ean8]

    public static func < (l: Symbology, r: Symbology) -> Bool {
        allCases.firstIndex(of: l)! < allCases.firstIndex(of: r)!
    }
}

/// A set of symbologies to look for, parsed from names and groups.
public struct SymbologySet: Sendable, Equatable, Codable {
    public var members: Set<Symbology>
    public init(_ members: Set<Symbology>) { self.members = members }

    /// Everything a user normally wants: all but the ISBN re-labellings of EAN-13 (which would
    /// hide the EAN-13 reading). Add-ons are in, but an add-on is only ever reported beside the
    /// EAN/UPC code it belongs to (`AddOnPairing`): read alone they are false reads on noise.
    public static let standard = SymbologySet(Set(Symbology.allCases).subtracting([.isbn10, .isbn13]))

    public static let groups: [(name: String, help: String, members: Set<Symbology>)] = [
        ("all", "every symbology ZBar and zxing-cpp read, add-ons and ISBN included", Set(Symbology.allCases)),
        ("default", "all except ISBN re-labelling (add-ons only beside their EAN/UPC code)", standard.members),
        ("2d", "QR Code, Micro QR, rMQR, SQ Code, Data Matrix, PDF417, MicroPDF417, Aztec and MaxiCode", Set(Symbology.allCases.filter(\.isTwoDimensional))),
        ("1d", "every linear symbology except ISBN re-labelling", standard.members.filter { !$0.isTwoDimensional }),
        (
            "zxing",
            "what zxing-cpp alone reads: Data Matrix, PDF417, Aztec, Micro QR, rMQR, MicroPDF417, MaxiCode, DataBar Limited and Expanded Stacked, DX film edge, Telepen",
            Set(Symbology.allCases.filter { $0.reader == .zxing })
        ),
        ("ean", "EAN-13, EAN-8, UPC-A, UPC-E", [.ean13, .ean8, .upca, .upce]),
        ("addons", "EAN-2 and EAN-5 add-ons (reported beside their EAN/UPC code)", [.ean2, .ean5]),
        ("qr-family", "QR Code, Micro QR and rMQR", [.qr, .microqr, .rmqr]),
        ("databar-all", "every GS1 DataBar", [.databar, .databarExpanded, .databarLimited, .databarExpandedStacked]),
    ]

    /// Parses a comma-separated list of names and groups; `-name` removes. Unknown names throw.
    public static func parse(_ text: String) throws(SymbologyParseError) -> SymbologySet {
        var set = Set<Symbology>()
        let items = text.split(separator: ",").map { trimSpaces($0).lowercased() }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw SymbologyParseError(name: text) }
        for (i, raw) in items.enumerated() {
            let remove = raw.hasPrefix("-")
            let name = remove ? String(raw.dropFirst()) : raw
            let found: Set<Symbology>
            if let g = groups.first(where: { $0.name == name }) {
                found = g.members
            } else if let s = Symbology(rawValue: name) ?? aliases[name] {
                found = [s]
            } else {
                throw SymbologyParseError(name: name)
            }
            if remove {
                if i == 0 { set = standard.members }
                set.subtract(found)
            } else {
                set.formUnion(found)
            }
        }
        guard !set.isEmpty else { throw SymbologyParseError(name: text) }
        return SymbologySet(set)
    }

    static let aliases: [String: Symbology] = [
        "qrcode": .qr, "qr-code": .qr, "ean-13": .ean13, "ean-8": .ean8, "upc-a": .upca, "upc-e": .upce,
        "i25": .itf, "i2/5": .itf, "interleaved2of5": .itf, "code-39": .code39, "code-93": .code93,
        "code-128": .code128, "rss14": .databar, "rss-expanded": .databarExpanded, "databar-expanded": .databarExpanded,
        "ean-2": .ean2, "ean-5": .ean5, "isbn-10": .isbn10, "isbn-13": .isbn13,
        "data-matrix": .datamatrix, "dm": .datamatrix, "gs1-datamatrix": .datamatrix, "pdf-417": .pdf417, "aztec-code": .aztec,
        "micro-qr": .microqr, "microqrcode": .microqr, "rmqrcode": .rmqr, "rmqr-code": .rmqr, "micro-pdf417": .micropdf417,
        "databar-limited": .databarLimited, "rss-limited": .databarLimited, "databar-expanded-stacked": .databarExpandedStacked,
        "rss-expanded-stacked": .databarExpandedStacked, "dx-film-edge": .dxFilmEdge, "dx": .dxFilmEdge,
    ]

    public var linear: Set<Symbology> { members.filter { !$0.isTwoDimensional } }
    public var hasLinear: Bool { !linear.isEmpty }
    public var hasTwoDimensional: Bool { members.contains(where: \.isTwoDimensional) }
}

/// The decoders CodeSweep runs: ZBar for most linear symbologies, zxing-cpp 3.1 for what ZBar
/// lacks (and every format on clean digital frames), the grid decoder for located QR codes. Raw values are the names printed and recorded.
public enum ReaderName: String, Sendable, CaseIterable, Codable {
    case zbar = "zbar"
    case zxing = "zxing-cpp"
    /// CodeSweep's own QR grid decoder (`QRGridReader`): located QR codes sampled module by
    /// module and decoded in Swift, no view made for a library.
    case grid = "qr-grid"
}

public struct SymbologyParseError: Error, Sendable, CustomStringConvertible {
    public let name: String
    public var description: String {
        "unknown symbology '\(name)' (see `codesweep symbologies`)"
    }
}
