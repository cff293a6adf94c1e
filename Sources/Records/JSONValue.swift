/// A JSON value with ordered object keys, and a strict serializer: output is always valid
/// UTF-8 JSON on one line, with every control character (and U+2028/U+2029, DEL) escaped, so
/// untrusted payloads can never break a line of JSON Lines or reach a terminal raw.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (l: JSONValue, r: JSONValue) -> Bool {
        switch (l, r) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                if d == d.rounded() && abs(d) < 1e15 { out += String(Int(d)) } else { out += String(d) }
            } else {
                out += "null"
            }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += pretty ? ", " : "," }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            out += "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                JSONValue.writeString(k, to: &out)
                out += pretty ? ": " : ":"
                v.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    static let hex: [Character] = Array("0123456789abcdef")

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let v = u.value
                if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                    out += "\\u"
                    for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
