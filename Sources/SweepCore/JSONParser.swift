/// A strict JSON parser (RFC 8259) into JSONValue: used to read worker replies, resume files
/// and reports back. Rejects trailing garbage, so a line cut short by a kill is detected.
public enum JSONParser {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    public static func parse(_ text: String) throws(Failure) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var p = Cursor(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw Failure(offset: p.i, reason: "trailing characters") }
        return v
    }

    struct Cursor {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        func fail(_ r: String) -> Failure { Failure(offset: i, reason: r) }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard depth < 512 else { throw fail("nested too deeply") }
            guard i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var fields: [(String, JSONValue)] = []
                skipSpace()
                if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let k = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1
                    skipSpace()
                    fields.append((k, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [JSONValue] = []
                skipSpace()
                if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return try number()
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw fail("unknown literal") }
            i += w.count
        }

        mutating func number() throws(Failure) -> JSONValue {
            let start = i
            var isInt = true
            if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
            while i < bytes.count {
                let c = bytes[i]
                if c >= 0x30 && c <= 0x39 { i += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    isInt = false; i += 1; continue
                }
                break
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if isInt, let v = Int(text) { return .int(v) }
            guard !text.isEmpty, let d = Double(text) else { throw Failure(offset: start, reason: "bad number") }
            return .double(d)
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw fail("bad \\u escape")
                }
                v = v << 4 | d
                i += 1
            }
            return v
        }

        mutating func string() throws(Failure) -> String {
            i += 1 // opening quote
            var out = [UInt8]()
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let c = bytes[i]
                if c == UInt8(ascii: "\"") { i += 1; break }
                if c < 0x20 { throw fail("raw control character in string") }
                if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else { scalar = 0xFFFD }
                    }
                    let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw fail("bad escape")
                }
            }
            guard let s = String(validating: out, as: UTF8.self) else { throw fail("string is not valid UTF-8") }
            return s
        }
    }
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields.first { $0.0 == key }?.1 }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d): d == d.rounded() ? Int(d) : nil
        default: nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
}

extension FileRecord {
    /// Reads a record back from its JSON form (as written by `json()`).
    public init?(json v: JSONValue) {
        guard let path = v["path"]?.stringValue else { return nil }
        let bytes = v["path_b64"]?.stringValue.flatMap(Base64.decode) ?? Array(path.utf8)
        self.init(path: path, pathBytes: bytes)
        format = v["format"]?.stringValue.flatMap(ImageFormat.init(rawValue:))
        width = v["width"]?.intValue
        height = v["height"]?.intValue
        orientation = v["orientation"]?.intValue
        frames = v["frames"]?.intValue
        size = v["size"]?.intValue
        mtime = v["mtime"]?.doubleValue
        warnings = v["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        failedDecoder = v["failed_decoder"]?.stringValue
        if case .object(let h)? = v["hashes"] {
            hashes = Dictionary(h.compactMap { k, x in x.stringValue.map { (k, $0) } }, uniquingKeysWith: { a, _ in a })
        }
        metadata = v["metadata"].flatMap(ImageMetadata.init(json:))
        if case .object(let t)? = v["timings_ms"] { timings = t.compactMap { k, x in x.doubleValue.map { (k, $0) } } }
        if let e = v["error"], let k = e["kind"]?.stringValue {
            error = RecordError(ErrorKind(rawValue: k) ?? .internalError, e["message"]?.stringValue ?? "")
        }
        for c in v["codes"]?.arrayValue ?? [] {
            guard let sym = c["symbology"]?.stringValue.flatMap(Symbology.init(rawValue:)),
                  let payload = c["bytes_b64"]?.stringValue.flatMap(Base64.decode) else { return nil }
            let pts = (c["corners"]?.arrayValue ?? []).compactMap { p -> Point? in
                guard let xy = p.arrayValue, xy.count == 2, let x = xy[0].doubleValue, let y = xy[1].doubleValue else { return nil }
                return Point(x: x, y: y)
            }
            guard pts.count == 4 else { return nil }
            codes.append(DetectedCode(symbology: sym, bytes: payload, corners: Quad(pts), quality: c["quality"]?.intValue ?? 0,
                                      orientation: c["details"]?["orientation"]?.stringValue.flatMap { DetectedCode.orientationNames.firstIndex(of: $0) }
                                          ?? c["orientation"]?.intValue ?? -1, frame: c["frame"]?.intValue ?? 0,
                                      pass: c["pass"]?.stringValue ?? "",
                                      gs1: sym.engine == .zxing ? c["details"]?["gs1"]?.boolValue : nil))
        }
    }
}
