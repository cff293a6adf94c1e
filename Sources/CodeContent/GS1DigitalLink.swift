/// A GS1 Digital Link URI (GS1 Digital Link Standard: URI Syntax 1.x): an http(s) URL whose
/// path holds a primary key AI and its value (`/01/09506000134352`), qualifiers after it
/// (`/10/ABC/21/123`), and data attributes as numeric query parameters (`?17=271231`). Read as
/// `gs1` with its elements checked; credentials in the URL are flagged as for `url`.
enum GS1DigitalLink {
    static let primaryKeys: Set<String> = ["01", "00", "253", "255", "401", "402", "414", "417", "8003", "8004", "8006", "8010", "8013", "8017", "8018"]

    static func read(_ text: String) -> CodeContent? {
        guard let u = try? URLParts.parse(text), u.scheme == "http" || u.scheme == "https" else { return nil }
        let segments = u.path.split(separator: "/").map { URLParts.percentDecoded($0.replacing("+", with: "%2B")) }
        guard let start = segments.indices.first(where: { primaryKeys.contains(segments[$0]) && $0 + 1 < segments.count }) else { return nil }
        var pairs: [(ai: String, value: String)] = []
        var i = start
        while i + 1 < segments.count {
            pairs.append((segments[i], segments[i + 1]))
            i += 2
        }
        for q in u.query where !q.name.isEmpty && q.name.allSatisfy(\.isNumber) { pairs.append((q.name, q.value ?? "")) }
        var c = CodeContent(.gs1)
        c.set("digital_link", .bool(true))
        c.set("host", u.host)
        GS1Content.describe(pairs, into: &c)
        if i < segments.count { c.problem("the path ends with '\(segments[i])' without a value") }
        URLContent.flagCredentials(text, in: &c)
        return c
    }
}
