/// `geo`: a place (RFC 5870: `geo:latitude,longitude[,altitude][;crs=...][;u=...]`). The
/// numbers are kept as written, decimal strings; latitude within ±90, longitude within ±180.
enum GeoContent {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.geo)
        let body = text.dropFirst(4)
        let coordinates = body.prefix { $0 != ";" && $0 != "?" }
        let parts = coordinates.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3 else {
            c.problem("'\(coordinates)' is not latitude,longitude or latitude,longitude,altitude"); return c
        }
        for (i, name) in ["latitude", "longitude", "altitude"].enumerated() where i < parts.count {
            let v = parts[i]
            let digits = v.hasPrefix("-") || v.hasPrefix("+") ? String(v.dropFirst()) : v
            guard DecimalText.isAmount(digits, integerDigits: 9, decimals: 20) else { c.problem("the \(name) '\(v)' is not a decimal number"); continue }
            c.set(name, v)
            let whole = Int(digits.prefix { $0 != "." })!, frac = !DecimalText.isZero(digits.drop { $0 != "." })
            let limit = i == 0 ? 90 : 180
            if i < 2, whole > limit || (whole == limit && frac) { c.problem("the \(name) '\(v)' is beyond ±\(limit)") }
        }
        for param in body.dropFirst(coordinates.count).split(separator: ";") where param.hasPrefix("u=") || param.hasPrefix("crs=") {
            c.set(param.hasPrefix("u=") ? "uncertainty" : "crs", String(param.drop { $0 != "=" }.dropFirst()))
        }
        if let q = body.firstIndex(of: "?") { c.set("query", URLParts.percentDecoded(body[body.index(after: q)...])) }
        return c
    }
}
