/// How a payload's bytes were turned into text. The bytes themselves are always kept
/// (`bytes_b64`); this is only our reading of them.
public struct PayloadText: Sendable, Equatable {
    /// The decoded text, or nil when the bytes are binary.
    public var text: String?
    /// "utf-8", "gb18030", "shift_jis", "big5", "euc-kr", "iso-8859-1", ..., or "binary".
    public var encoding: String
    public init(text: String?, encoding: String) { self.text = text; self.encoding = encoding }

    public static let binaryName = "binary"

    /// Decodes payload bytes, in this order:
    /// 1. a forced charset (`--charset`): always used, invalid bytes become U+FFFD;
    /// 2. the ECI charset, when the reader reports one and the bytes are valid in it
    ///    (ZBar does not report ECI; see docs/output.md);
    /// 3. a UTF-8 or UTF-16 byte order mark, then valid UTF-8;
    /// 4. the legacy-charset detector (GB18030, Shift-JIS, Big5, EUC-KR, ISO-8859-1);
    /// 5. otherwise binary: `text` nil.
    /// Text full of control characters (or holding NUL) is binary whatever its charset.
    public static func decode(_ bytes: [UInt8], eci: Int? = nil, forcedCharset: String? = nil) -> PayloadText {
        if let forcedCharset, let forced = decode(bytes, forced: forcedCharset) { return forced }
        if let eci, let name = Charset.eciCharsetName(eci),
            let text = CharsetConverter.decode(bytes, iconvName: iconvName(for: name)),
            looksLikeText(text.unicodeScalars)
        {
            return PayloadText(text: text, encoding: name)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            if let s = String(validating: bytes.dropFirst(3), as: UTF8.self) {
                return looksLikeText(s.unicodeScalars) ? PayloadText(text: s, encoding: Charset.utf8.rawValue) : binary
            }
        } else if bytes.count >= 2 && bytes.count % 2 == 0 && (bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])) {
            let charset: Charset = bytes[0] == 0xFE ? .utf16BE : .utf16LE
            if let s = CharsetConverter.decode(Array(bytes.dropFirst(2)), iconvName: charset.iconvName),
                looksLikeText(s.unicodeScalars)
            {
                return PayloadText(text: s, encoding: charset.rawValue)
            }
        }
        if let s = String(validating: bytes, as: UTF8.self) {
            return looksLikeText(s.unicodeScalars) ? PayloadText(text: s, encoding: Charset.utf8.rawValue) : binary
        }
        if let best = CharsetDetector.detect(bytes) {
            return PayloadText(text: best.text, encoding: best.charset.rawValue)
        }
        return binary
    }

    /// The form ZBar hands a QR payload under an ECI designator over in (even in binary mode):
    /// its text in UTF-8. nil without an ECI, or when the bytes are no text in its charset.
    package static func zbarConverted(_ bytes: [UInt8], eci: Int?) -> [UInt8]? {
        guard let eci, let text = decode(bytes, eci: eci).text else { return nil }
        return Array(text.utf8)
    }

    static let binary = PayloadText(text: nil, encoding: binaryName)

    /// The output name for a charset the user names: ours when we know it, else the name
    /// lowercased (any charset iconv knows works, e.g. windows-1252, koi8-r).
    package static func canonicalCharsetName(_ name: String) -> String {
        if name.lowercased() == binaryName { return binaryName }
        return Charset(named: name)?.rawValue ?? name.lowercased()
    }

    /// True when `--charset NAME` can be honoured.
    package static func isSupportedCharset(_ name: String) -> Bool {
        name.lowercased() == binaryName || CharsetConverter.isAvailable(iconvName(for: name))
    }

    static func iconvName(for name: String) -> String {
        Charset(named: name)?.iconvName ?? name.uppercased()
    }

    static func decode(_ bytes: [UInt8], forced: String) -> PayloadText? {
        let name = canonicalCharsetName(forced)
        if name == binaryName { return binary }
        var body = bytes
        if name == Charset.utf8.rawValue && body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        guard let text = CharsetConverter.decodeLossy(body, iconvName: iconvName(for: forced)) else { return nil }
        return PayloadText(text: text, encoding: name)
    }

    /// Text has few control characters other than tab, CR, LF (and GS/RS/EOT/FS/US in GS1 and
    /// ISO 15434 data), and no NUL.
    package static func looksLikeText(_ scalars: String.UnicodeScalarView) -> Bool {
        var controls = 0, total = 0
        for u in scalars {
            total += 1
            let v = u.value
            if v == 0 { return false }
            if (v < 0x20 && ![0x09, 0x0A, 0x0D, 0x1D, 0x1E, 0x04, 0x1C, 0x1F].contains(v)) || (0x7F...0x9F).contains(v) {
                controls += 1
            }
        }
        return total == 0 || controls * 10 <= total
    }
}
