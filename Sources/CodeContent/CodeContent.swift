import Records

/// What a code's payload says, read to its own specification: its type, its fields, whether it
/// keeps the specification (check digits, lengths, versions; `problems` names each break) and
/// which fields give something away (`sensitive`). Made from the payload text alone; the text and
/// bytes of the code are never changed by it.
public struct CodeContent: Sendable, Equatable {
    public var type: ContentType
    /// The fields in output order: strings (amounts are decimal strings, never floats),
    /// numbers, booleans, arrays and objects.
    public var fields: [(String, JSONValue)] = []
    /// Each way the payload breaks its type's specification, said for a person; empty: valid.
    public var problems: [String] = []
    /// What the payload gives away: a password, a one-time-password seed, a key, credentials.
    public var sensitive: [Secret] = []

    public init(_ type: ContentType) { self.type = type }

    public var valid: Bool { problems.isEmpty }

    public static func == (l: CodeContent, r: CodeContent) -> Bool {
        l.type == r.type && l.problems == r.problems && l.sensitive == r.sensitive && JSONValue.object(l.fields) == JSONValue.object(r.fields)
    }

    /// A field's value, or nil.
    public func field(_ name: String) -> JSONValue? { fields.first { $0.0 == name }?.1 }

    /// A string field's value, or nil.
    public func string(_ name: String) -> String? {
        if case .string(let s)? = field(name) { return s }
        return nil
    }

    mutating func set(_ name: String, _ value: JSONValue?) {
        guard let value else { return }
        if let i = fields.firstIndex(where: { $0.0 == name }) { fields[i].1 = value } else { fields.append((name, value)) }
    }

    /// A string field, left out when nil or empty.
    mutating func set(_ name: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        set(name, .string(value))
    }

    mutating func problem(_ text: String) { problems.append(text) }

    /// `field` gives away a secret of `kind`, written in the payload as `written`, right after
    /// `before` (its key: `P:`, `secret=`), which `Redaction` looks for first.
    mutating func secret(_ field: String, kind: SecretKind, written: String, before: String = "") {
        guard !written.isEmpty, !sensitive.contains(where: { $0.field == field && $0.written == written }) else { return }
        var s = Secret(field: field, kind: kind, written: written)
        s.before = before
        sensitive.append(s)
    }

    /// The `content` object of the record: type, fields, valid, problems, sensitive.
    public var json: JSONValue {
        .object([
            ("type", .string(type.rawValue)),
            ("fields", .object(fields)),
            ("valid", .bool(valid)),
            ("problems", .array(problems.map(JSONValue.string))),
            ("sensitive", .array(sensitive.map(\.json))),
        ])
    }
}

/// The payload forms `CodeContent` knows.
public enum ContentType: String, Sendable, CaseIterable, Comparable {
    case url, wifi, otpauth, epc, swissQRBill = "swiss-qr-bill", vcard, mecard, gs1, emvco, geo, tel, sms, mailto
    /// A private key or seed on its own: a WIF key, an extended private key, a BIP-39 mnemonic, a JWT.
    case secret

    public static func < (l: ContentType, r: ContentType) -> Bool { l.rawValue < r.rawValue }
}

/// What kind of thing a sensitive field gives away.
public enum SecretKind: String, Sendable {
    case wifiPassword = "wifi-password", otpSecret = "otp-secret", privateKey = "private-key", seedPhrase = "seed-phrase"
    case urlPassword = "url-password", urlToken = "url-token", jwt
}

/// One field that gives something away.
public struct Secret: Sendable, Equatable {
    /// The field's name in `fields` (for a URL: `userinfo` or `query.<name>`).
    public var field: String
    public var kind: SecretKind
    /// The secret as the payload text writes it (what `--redact` masks); not written to records.
    public var written: String
    /// What the payload writes just before it (`P:`, `secret=`, `token=`), so that masking a short
    /// secret does not mask the same characters elsewhere in the payload; "" when nothing fixed is.
    public var before = ""
    /// Already masked by `--redact` (the payload was read back from a redacted record).
    public var redacted: Bool { written == Redaction.mask }

    public init(field: String, kind: SecretKind, written: String) { self.field = field; self.kind = kind; self.written = written }

    public var json: JSONValue {
        var o: [(String, JSONValue)] = [("field", .string(field)), ("kind", .string(kind.rawValue))]
        if redacted { o.append(("redacted", .bool(true))) }
        return .object(o)
    }
}

extension CodeContent {
    /// The content of a payload whose text has a known form; nil for other text and for binary
    /// payloads (`text` nil). `gs1`: the decoder saw GS1 data (FNC1 first).
    public static func read(_ text: String?, gs1: Bool? = nil) -> CodeContent? {
        guard let text, !text.isEmpty else { return nil }
        if gs1 == true || text.hasPrefix("\u{1D}") || text.hasPrefix("]C1") || text.hasPrefix("]d2") || text.hasPrefix("]Q3") {
            return GS1Content.read(text)
        }
        let head = text.prefix(12).uppercased()
        if head.hasPrefix("WIFI:") { return WifiContent.read(text) }
        if head.hasPrefix("OTPAUTH://") { return OTPAuthContent.read(text) }
        if head.hasPrefix("BCD\n") || head.hasPrefix("BCD\r\n") { return EPCContent.read(text) }
        if head.hasPrefix("SPC\n") || head.hasPrefix("SPC\r\n") { return SwissQRBill.read(text) }
        if head.hasPrefix("BEGIN:VCARD") { return VCardContent.read(text) }
        if head.hasPrefix("MECARD:") { return MECardContent.read(text) }
        if head.hasPrefix("GEO:") { return GeoContent.read(text) }
        if head.hasPrefix("TEL:") { return TelContent.read(text) }
        if head.hasPrefix("SMS:") || head.hasPrefix("SMSTO:") { return SMSContent.read(text) }
        if head.hasPrefix("MAILTO:") || head.hasPrefix("MATMSG:") { return MailtoContent.read(text) }
        if text.hasPrefix("000201") { return EMVCoContent.read(text) }
        if text.hasPrefix("(") && GS1Content.looksBracketed(text) { return GS1Content.read(text) }
        if URLContent.looksLikeURL(text) { return GS1DigitalLink.read(text) ?? URLContent.read(text) }
        return SecretContent.read(text)
    }
}
