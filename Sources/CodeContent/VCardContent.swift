import Records

/// `vcard`: a contact (vCard 2.1, 3.0 (RFC 2426), 4.0 (RFC 6350)): `BEGIN:VCARD` ... `END:VCARD`,
/// folded lines joined; the name (FN, else N), organisation, phones, emails, URLs.
enum VCardContent {
    /// Unfolded content lines: a line starting with a space or tab continues the one before it.
    static func unfolded(_ text: String) -> [String] {
        var out: [String] = []
        for raw in EPCContent.lines(text) {
            if let first = raw.first, first == " " || first == "\t", !out.isEmpty { out[out.count - 1] += raw.dropFirst() } else { out.append(raw) }
        }
        return out
    }

    /// A property line's name (upper-cased, without group or parameters) and value.
    static func property(_ line: String) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        var name = line[..<colon].prefix { $0 != ";" }
        if let dot = name.lastIndex(of: ".") { name = name[name.index(after: dot)...] }
        return (name.uppercased(), unescaped(line[line.index(after: colon)...]))
    }

    static func unescaped(_ s: Substring) -> String {
        var out = "", escaping = false
        for ch in s {
            if escaping { out.append(ch == "n" || ch == "N" ? "\n" : ch); escaping = false } else if ch == "\\" { escaping = true } else { out.append(ch) }
        }
        return out
    }

    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.vcard)
        let lines = unfolded(text).filter { !$0.isEmpty }
        var props: [(name: String, value: String)] = []
        for line in lines { if let p = property(line) { props.append(p) } }
        let all = { (n: String) in props.filter { $0.name == n }.map(\.value).filter { !$0.isEmpty } }
        c.set("version", all("VERSION").first)
        let structured = all("N").first.map { n in
            n.split(separator: ";", omittingEmptySubsequences: false).prefix(3).reversed().filter { !$0.isEmpty }.joined(separator: " ")
        }
        c.set("name", all("FN").first ?? structured)
        c.set("organization", all("ORG").first.map { $0.split(separator: ";").joined(separator: ", ") })
        c.set("title", all("TITLE").first)
        setList("phones", all("TEL"), into: &c)
        setList("emails", all("EMAIL"), into: &c)
        setList("urls", all("URL"), into: &c)
        setList("addresses", all("ADR").map { $0.split(separator: ";").joined(separator: ", ") }, into: &c)
        if c.string("name") == nil { c.problem("it names nobody (no FN or N)") }
        if !lines.contains(where: { $0.uppercased() == "END:VCARD" }) { c.problem("it does not end with END:VCARD") }
        if let v = c.string("version"), !["2.1", "3.0", "4.0"].contains(v) { c.problem("the version '\(v)' is not 2.1, 3.0 or 4.0") }
        return c
    }

    static func setList(_ name: String, _ values: [String], into c: inout CodeContent) {
        if !values.isEmpty { c.set(name, .array(values.map(JSONValue.string))) }
    }
}
