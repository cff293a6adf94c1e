/// How a payload's bytes were turned into text.
public struct PayloadText: Sendable, Equatable {
    /// The decoded text, or nil when the bytes are binary.
    public var text: String?
    /// "utf-8", "iso-8859-1", ..., or "binary".
    public var encoding: String
    public init(text: String?, encoding: String) { self.text = text; self.encoding = encoding }

    /// Decodes payload bytes: valid UTF-8 (a BOM is dropped) as UTF-8; otherwise the charset
    /// detector decides (see CharsetDetector).
    public static func decode(_ bytes: [UInt8], forcedCharset: String? = nil) -> PayloadText {
        CharsetDetector.decode(bytes, forced: forcedCharset)
    }
}

/// Minimal detector: UTF-8 when valid, Latin-1 when the bytes look like text, else binary.
public enum CharsetDetector {
    public static func decode(_ bytes: [UInt8], forced: String?) -> PayloadText {
        if let forced {
            let name = forced.lowercased()
            if name == "utf-8" || name == "utf8" {
                return PayloadText(text: String(decoding: bytes, as: UTF8.self), encoding: "utf-8")
            }
            if name == "iso-8859-1" || name == "latin1" || name == "latin-1" {
                return PayloadText(text: latin1(bytes), encoding: "iso-8859-1")
            }
            if name == "binary" { return PayloadText(text: nil, encoding: "binary") }
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let s = String(validating: body, as: UTF8.self) {
            if looksLikeText(s.unicodeScalars) { return PayloadText(text: s, encoding: "utf-8") }
            return PayloadText(text: nil, encoding: "binary")
        }
        let s = latin1(bytes)
        if looksLikeText(s.unicodeScalars) { return PayloadText(text: s, encoding: "iso-8859-1") }
        return PayloadText(text: nil, encoding: "binary")
    }

    static func latin1(_ bytes: [UInt8]) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Text has few control characters other than tab, CR, LF (and GS/RS/EOT in GS1/ISO 15434 data).
    static func looksLikeText(_ scalars: String.UnicodeScalarView) -> Bool {
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
