import CodeContent
import Payloads
import Records

/// A code's part of the record's public JSON shape (see `RecordCoding.swift`).
extension DetectedCode: Codable {
    package enum Field: String, CodingKey {
        case symbology, text, bytes = "bytes_b64", encoding, corners, frame, seconds, quality, pass, details
        /// What the payload says (`CodeContent`): written in reports, not on the worker wire; not read back.
        case content
        /// The orientation index, written only in `RecordStyle.exact` (the worker wire: any value
        /// kept); a report has the word in `details` (older records had the index here).
        case orientation
        /// zxing-cpp's facts whole, on the worker wire only (`RecordStyle.exact`).
        case facts
    }
    enum DetailField: String, CodingKey {
        case symbologyID = "symbology_id", orientation, gs1, decoder, version, ecLevel = "ec_level", mask, mirrored, eci
        case variant, inverted, sequenceIndex = "sequence_index", sequenceCount = "sequence_count", sequenceID = "sequence_id"
    }

    /// ZBar's orientation as a word (nil when ZBar did not say).
    public static let orientationNames = ["up", "right", "down", "left"]

    public func encode(to encoder: any Encoder) throws {
        let style = RecordStyle.of(encoder)
        let decoded = PayloadText.decode(bytes, eci: qr?.eci, forcedCharset: style.charset)
        var c = encoder.container(keyedBy: Field.self)
        try c.encode(symbology.rawValue, forKey: .symbology)
        if let text = decoded.text { try c.encode(text, forKey: .text) } else { try c.encodeNil(forKey: .text) }
        try c.encode(Base64.encode(bytes), forKey: .bytes)
        try c.encode(decoded.encoding, forKey: .encoding)
        try c.encode(corners.points.map { [style.round($0.x, 1), style.round($0.y, 1)] }, forKey: .corners)
        try c.encode(frame, forKey: .frame)
        try c.encodeIfPresent(seconds.map { $0.map { style.round($0, 3) } }, forKey: .seconds)
        try c.encode(quality, forKey: .quality)
        try c.encode(pass, forKey: .pass)
        if style.exact {
            try c.encode(orientation, forKey: .orientation)
            try c.encodeIfPresent(facts, forKey: .facts)
        }
        try encodeDetails(c.nestedContainer(keyedBy: DetailField.self, forKey: .details), exact: style.exact)
        if !style.exact, let content = CodeContent.read(decoded.text, gs1: isGS1) { try c.encode(content.json, forKey: .content) }
    }

    /// What the decoder tells about the code beyond its data: the AIM symbology identifier,
    /// ZBar's orientation (which way the code's top faces in the upright image) and, where the
    /// symbology decides it, whether the data is GS1; for a QR code the grid decoder read or
    /// checked, its version, error correction level, mask, mirroring and ECI. `exact` (the
    /// worker wire): `gs1` as the decoder said it, nil where it did not.
    func encodeDetails(_ details: KeyedEncodingContainer<DetailField>, exact: Bool) throws {
        var d = details
        try d.encodeIfPresent(symbologyID, forKey: .symbologyID)
        if (0...3).contains(orientation) { try d.encode(Self.orientationNames[orientation], forKey: .orientation) }
        try d.encodeIfPresent(exact ? gs1 : isGS1, forKey: .gs1)
        if symbology.reader != .zbar { try d.encode(symbology.reader.rawValue, forKey: .decoder) }
        if let q = qr {
            try d.encode(q.version, forKey: .version)
            try d.encode(q.ecLevel, forKey: .ecLevel)
            try d.encode(q.mask, forKey: .mask)
            try d.encode(q.mirrored, forKey: .mirrored)
            try d.encodeIfPresent(q.eci, forKey: .eci)
        } else if let f = facts {
            try d.encodeIfPresent(f.version, forKey: .version)
            try d.encodeIfPresent(f.ecLevel, forKey: .ecLevel)
            try d.encodeIfPresent(f.mask, forKey: .mask)
            try d.encodeIfPresent(f.mirrored, forKey: .mirrored)
            try d.encodeIfPresent(f.eci, forKey: .eci)
        }
        try d.encodeIfPresent(facts?.variant, forKey: .variant)
        try d.encodeIfPresent(facts?.inverted, forKey: .inverted)
        if let part = facts?.sequence {
            try d.encode(part.index, forKey: .sequenceIndex)
            try d.encode(part.count, forKey: .sequenceCount)
            try d.encode(part.id, forKey: .sequenceID)
        }
    }

    public init(from decoder: any Decoder) throws {
        let exact = (decoder.userInfo[RecordStyle.key] as? RecordStyle)?.exact == true
        let c = try decoder.container(keyedBy: Field.self)
        let name = try c.decode(String.self, forKey: .symbology)
        guard let symbology = Symbology(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .symbology, in: c, debugDescription: "unknown symbology '\(name)'")
        }
        let corners = try c.decode([[Double]].self, forKey: .corners)
        guard corners.count == 4, corners.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(forKey: .corners, in: c, debugDescription: "four [x, y] corners expected")
        }
        let details = c.contains(.details) ? try c.nestedContainer(keyedBy: DetailField.self, forKey: .details) : nil
        let orientation = try details?.decodeIfPresent(String.self, forKey: .orientation).flatMap { Self.orientationNames.firstIndex(of: $0) }
        self.init(
            symbology: symbology, bytes: try c.decode(Base64Bytes.self, forKey: .bytes).bytes, corners: Quad(corners.map { Point(x: $0[0], y: $0[1]) }),
            quality: try c.decodeIfPresent(Int.self, forKey: .quality) ?? 0,
            orientation: try orientation ?? c.decodeIfPresent(Int.self, forKey: .orientation) ?? -1,
            frame: try c.decodeIfPresent(Int.self, forKey: .frame) ?? 0,
            pass: try c.decodeIfPresent(String.self, forKey: .pass) ?? "",
            gs1: exact || symbology.reader == .zxing ? try details?.decodeIfPresent(Bool.self, forKey: .gs1) : nil)
        seconds = try c.decodeIfPresent([Double].self, forKey: .seconds)
        if let details, symbology == .qr, let version = try? details.decodeIfPresent(Int.self, forKey: .version) {
            qr = QRDetails(
                version: version, ecLevel: try details.decode(String.self, forKey: .ecLevel),
                mask: try details.decode(Int.self, forKey: .mask), mirrored: try details.decode(Bool.self, forKey: .mirrored),
                eci: try details.decodeIfPresent(Int.self, forKey: .eci))
        }
        if exact {
            facts = try c.decodeIfPresent(SymbolFacts.self, forKey: .facts)
        } else if let details {
            facts = try Self.facts(details, qr: qr != nil, written: symbologyID)
        }
    }

    /// zxing-cpp's facts as a report's `details` wrote them (`encodeDetails`), so a code read
    /// back is written again the same; nil where the details hold none.
    static func facts(_ d: KeyedDecodingContainer<DetailField>, qr: Bool, written: String?) throws -> SymbolFacts? {
        var f = SymbolFacts()
        let id = try d.decodeIfPresent(String.self, forKey: .symbologyID)
        if id != written { f.symbologyID = id }
        if !qr {
            f.version = try d.decodeIfPresent(String.self, forKey: .version)
            f.ecLevel = try d.decodeIfPresent(String.self, forKey: .ecLevel)
            f.mask = try d.decodeIfPresent(Int.self, forKey: .mask)
            f.mirrored = try d.decodeIfPresent(Bool.self, forKey: .mirrored)
            f.eci = try d.decodeIfPresent(Int.self, forKey: .eci)
        }
        f.variant = try d.decodeIfPresent(String.self, forKey: .variant)
        f.inverted = try d.decodeIfPresent(Bool.self, forKey: .inverted)
        if let index = try d.decodeIfPresent(Int.self, forKey: .sequenceIndex) {
            f.sequence = SequencePart(
                index: index, count: try d.decode(Int.self, forKey: .sequenceCount), id: try d.decode(String.self, forKey: .sequenceID))
        }
        return f == SymbolFacts() ? nil : f
    }

    /// The code as the record's JSON writes it.
    public func json(forcedCharset: String? = nil) -> JSONValue { RecordStyle(charset: forcedCharset).json(self) }
}
