/// The data bit stream of a QR Code symbol (ISO/IEC 18004 §7.4): segments in numeric,
/// alphanumeric, byte and kanji modes, ECI designators, FNC1 and structured append headers,
/// parsed from the data codewords after error correction.

/// What a symbol's data says.
package struct QRContent: Sendable, Equatable {
    /// The payload as the segments give it: numeric and alphanumeric as ASCII, byte segments as
    /// they are, kanji as Shift JIS (two bytes a character); ECI designators are not bytes.
    /// Under FNC1 an alphanumeric "%" is GS (0x1D) and "%%" a "%" (§7.4.8.2).
    package var bytes: [UInt8] = []
    /// The first ECI designator (the charset the bytes are in), if any.
    package var eci: Int?
    /// FNC1 in first position (GS1) or second position (an application indicator).
    package var fnc1: FNC1?
    /// Structured append: this symbol's place (0-based) among `total`, and the parity byte.
    package var structuredAppend: StructuredAppend?
    /// The modes of the segments, in order ("numeric", "alphanumeric", "byte", "kanji", "eci").
    package var modes: [String] = []

    package enum FNC1: Sendable, Equatable {
        case gs1
        case application(UInt8)
    }
    package struct StructuredAppend: Sendable, Equatable {
        package var index: Int, total: Int, parity: UInt8
        package init(index: Int, total: Int, parity: UInt8) { self.index = index; self.total = total; self.parity = parity }
    }
    package init() {}
}

package enum QRSegments {
    static let alphanumeric: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// Character count bits per mode for a version (Table 3).
    static func countBits(mode: Int, version: Int) -> Int {
        let band = version <= 9 ? 0 : version <= 26 ? 1 : 2
        switch mode {
        case 1: return [10, 12, 14][band]
        case 2: return [9, 11, 13][band]
        case 4: return [8, 16, 16][band]
        default: return [8, 10, 12][band]  // 8: kanji
        }
    }

    /// Parses the data codewords (all blocks' data, in stream order) of a symbol of `version`.
    /// Nil when the stream does not parse: an unknown mode, a count running past the data,
    /// a numeric or alphanumeric group out of range, or an ECI designator that is malformed.
    package static func parse(_ data: [UInt8], version: Int) -> QRContent? {
        var reader = BitReader(data)
        var content = QRContent()
        while reader.remaining >= 4 {
            let mode = reader.read(4)
            switch mode {
            case 0:
                return content
            case 1:
                guard let count = reader.readCount(countBits(mode: 1, version: version)),
                    let digits = readNumeric(&reader, count: count)
                else { return nil }
                content.bytes += digits
                content.modes.append("numeric")
            case 2:
                guard let count = reader.readCount(countBits(mode: 2, version: version)),
                    let chars = readAlphanumeric(&reader, count: count, fnc1: content.fnc1 != nil)
                else { return nil }
                content.bytes += chars
                content.modes.append("alphanumeric")
            case 4:
                guard let count = reader.readCount(countBits(mode: 4, version: version)), reader.remaining >= 8 * count else { return nil }
                for _ in 0..<count { content.bytes.append(UInt8(reader.read(8))) }
                content.modes.append("byte")
            case 8:
                guard let count = reader.readCount(countBits(mode: 8, version: version)), reader.remaining >= 13 * count else { return nil }
                content.bytes += readKanji(&reader, count: count)
                content.modes.append("kanji")
            case 7:
                guard let value = readECIDesignator(&reader) else { return nil }
                if content.eci == nil { content.eci = value }
                content.modes.append("eci")
            case 5:
                content.fnc1 = .gs1
            case 9:
                guard reader.remaining >= 8 else { return nil }
                content.fnc1 = .application(UInt8(reader.read(8)))
            case 3:
                guard reader.remaining >= 16 else { return nil }
                let index = reader.read(4), total = reader.read(4) + 1, parity = UInt8(reader.read(8))
                guard index < total else { return nil }
                content.structuredAppend = QRContent.StructuredAppend(index: index, total: total, parity: parity)
            default:
                return nil
            }
        }
        // Fewer than four bits left: the terminator may be cut short (§7.4.9).
        return content
    }

    /// A numeric segment's `count` digits, as ASCII (groups of three in 10 bits, the rest in
    /// 4 or 7); nil when the data runs out or a group is out of range.
    static func readNumeric(_ reader: inout BitReader, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var left = count
        while left > 0 {
            let digits = min(3, left)
            let bits = [0, 4, 7, 10][digits]
            guard reader.remaining >= bits else { return nil }
            let v = reader.read(bits)
            guard v < [1, 10, 100, 1000][digits] else { return nil }
            var text = String(v)
            while text.count < digits { text = "0" + text }
            bytes += Array(text.utf8)
            left -= digits
        }
        return bytes
    }

    /// An alphanumeric segment's `count` characters, as ASCII (pairs in 11 bits, a last one in
    /// 6); under FNC1 "%%" stands for "%" and a lone "%" for GS. Nil when the data runs out or a
    /// value is out of range.
    static func readAlphanumeric(_ reader: inout BitReader, count: Int, fnc1: Bool) -> [UInt8]? {
        var chars: [UInt8] = []
        var left = count
        while left > 0 {
            if left >= 2 {
                guard reader.remaining >= 11 else { return nil }
                let v = reader.read(11)
                guard v < 45 * 45 else { return nil }
                chars += [alphanumeric[v / 45], alphanumeric[v % 45]]
                left -= 2
            } else {
                guard reader.remaining >= 6 else { return nil }
                let v = reader.read(6)
                guard v < 45 else { return nil }
                chars.append(alphanumeric[v])
                left -= 1
            }
        }
        guard fnc1 else { return chars }
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            if chars[i] == UInt8(ascii: "%") {
                if i + 1 < chars.count && chars[i + 1] == UInt8(ascii: "%") { out.append(UInt8(ascii: "%")); i += 2; continue }
                out.append(0x1D)
            } else {
                out.append(chars[i])
            }
            i += 1
        }
        return out
    }

    /// A kanji segment's `count` characters (13 bits each) as Shift JIS byte pairs; the caller
    /// has checked that the bits are there.
    static func readKanji(_ reader: inout BitReader, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            let v = reader.read(13)
            var c = (v / 0xC0) << 8 | (v % 0xC0)
            c += c < 0x1F00 ? 0x8140 : 0xC140
            bytes += [UInt8(c >> 8), UInt8(c & 0xFF)]
        }
        return bytes
    }

    /// An ECI designator: one, two or three bytes by the first byte's leading bits (§7.4.2.1);
    /// nil when malformed or cut short.
    static func readECIDesignator(_ reader: inout BitReader) -> Int? {
        guard reader.remaining >= 8 else { return nil }
        let first = reader.read(8)
        if first & 0x80 == 0 { return first }
        if first & 0xC0 == 0x80 {
            guard reader.remaining >= 8 else { return nil }
            return (first & 0x3F) << 8 | reader.read(8)
        }
        if first & 0xE0 == 0xC0 {
            guard reader.remaining >= 16 else { return nil }
            return (first & 0x1F) << 16 | reader.read(16)
        }
        return nil
    }

    struct BitReader {
        let data: [UInt8]
        var position = 0
        init(_ data: [UInt8]) { self.data = data }
        var remaining: Int { data.count * 8 - position }
        mutating func read(_ bits: Int) -> Int {
            var v = 0
            for _ in 0..<bits {
                let byte = data[position >> 3]
                v = v << 1 | Int((byte >> UInt8(7 - position & 7)) & 1)
                position += 1
            }
            return v
        }
        mutating func readCount(_ bits: Int) -> Int? { remaining >= bits ? read(bits) : nil }
    }
}
