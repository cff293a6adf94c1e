import CodeContent
import Payloads
import Records
import Reporting

/// The parts of a `report --html` card that say where a file came from (its provenance, as the
/// scan recorded it) and which host a link goes to. Every value comes from the report, which an
/// attacker may have written: all of it goes through `HTMLReport.text`/`attr`.
extension HTMLReport {
    /// The record's provenance as a definition list: digests (sha256 first), capture time,
    /// camera, GPS position, software, size; only the fields the record has. Empty when none.
    func provenance(_ r: FileRecord) -> String {
        var rows: [(label: String, value: String, cls: String)] = []
        if let hashes = r.hashes {
            for (name, hex) in hashes.sorted(by: { ($0.key == "sha256" ? 0 : 1, $0.key) < ($1.key == "sha256" ? 0 : 1, $1.key) }) {
                rows.append((name, hex, "hash"))
            }
        }
        if let m = r.metadata {
            if let t = m.captureTime { rows.append(("captured", t, "")) }
            if let camera = Self.camera(make: m.cameraMake, model: m.cameraModel) { rows.append(("camera", camera, "")) }
            if let g = m.gps { rows.append(("GPS", Self.position(g), "")) }
            if let s = m.software { rows.append(("software", s, "")) }
        }
        if let size = r.size { rows.append(("size", Self.bytes(size), "")) }
        guard !rows.isEmpty else { return "" }
        var o = "<dl class=\"prov\">"
        for row in rows {
            o += "<dt>\(Self.text(row.label))</dt><dd\(row.cls.isEmpty ? "" : " class=\"\(row.cls)\"")>\(Self.text(row.value))</dd>"
        }
        return o + "</dl>\n"
    }

    /// "Canon EOS R5" from make "Canon" and model "Canon EOS R5" (the model usually names the
    /// make already); "Apple iPhone 12" from "Apple" and "iPhone 12".
    static func camera(make: String?, model: String?) -> String? {
        switch (make, model) {
        case (let mk?, let md?): md.lowercased().hasPrefix(mk.lowercased()) ? md : mk + " " + md
        case (let mk?, nil): mk
        case (nil, let md?): md
        case (nil, nil): nil
        }
    }

    /// "48.8582, -2.2945 (altitude -35.5 m)": signed decimal degrees as recorded.
    static func position(_ g: GPSPosition) -> String {
        var s = NumberText.trimmed(g.latitude, decimals: 7) + ", " + NumberText.trimmed(g.longitude, decimals: 7)
        if let alt = g.altitude { s += " (altitude \(NumberText.trimmed(alt, decimals: 2)) m)" }
        return s
    }

    /// "1234567 bytes (1.2 MiB)".
    static func bytes(_ n: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var v = Double(n), u = -1
        while v >= 1024 && u < units.count - 1 { v /= 1024; u += 1 }
        return u < 0 ? "\(n) bytes" : "\(n) bytes (\(NumberText.fixed(v, decimals: 1)) \(units[u]))"
    }

    /// A host as the filter and the cards show it: Unicode for an internationalised name (the
    /// punycode beside it), punycode first for a look-alike (as a browser shows it).
    static func hostLabel(_ h: URLHost) -> String {
        if h.unicode == h.ascii { return h.ascii }
        return h.lookalike == nil ? "\(h.unicode) (\(h.ascii))" : "\(h.ascii) (\(h.unicode))"
    }

    /// The host line under a code whose payload is a URL with an internationalised host: its
    /// Unicode and punycode forms, and for a look-alike the warning, always visible.
    static func hostNote(_ h: URLHost) -> String {
        guard h.unicode != h.ascii else { return "" }
        if let look = h.lookalike {
            return "<br/><span class=\"warn\">look-alike host \(text(h.ascii)) (\(text(h.unicode))): \(text(look.description))</span>"
        }
        return "<br/><span class=\"note\">host \(text(h.unicode)) = \(text(h.ascii))</span>"
    }

    /// What the payload says, under it: its type, its fields, its problems (a warning), what it gives away.
    static func contentNote(_ c: CodeContent) -> String {
        var o = "<br/><span class=\"note\">\(text(c.type.rawValue))\(c.valid ? "" : " (invalid)"): "
        o += c.fields.flatMap { fieldLines($0.0, $0.1) }.map { "\(text($0.0)) = \(text($0.1))" }.joined(separator: "; ") + "</span>"
        if !c.problems.isEmpty { o += "<br/><span class=\"warn\">\(text(c.problems.joined(separator: "; ")))</span>" }
        if !c.sensitive.isEmpty {
            let list = c.sensitive.map { "\($0.field) (\($0.kind.rawValue)\($0.redacted ? ", redacted" : ""))" }
            o += "<br/><span class=\"warn\">gives away: \(text(list.joined(separator: ", ")))</span>"
        }
        return o
    }

    /// A field as name = value lines: objects by their dotted names, arrays joined.
    static func fieldLines(_ name: String, _ value: JSONValue) -> [(String, String)] {
        switch value {
        case .object(let fields): return fields.flatMap { fieldLines(name + "." + $0.0, $0.1) }
        case .array(let items): return [(name, items.map { item in fieldLines("", item).map(\.1).joined(separator: " ") }.joined(separator: ", "))]
        case .string(let s): return [(name, s)]
        case .null: return []
        default: return [(name, value.serialized())]
        }
    }
}
