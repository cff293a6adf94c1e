/// `tel`: a phone number to call (RFC 3966: `tel:+1-201-555-0123`, visual separators `-.()`
/// allowed; a global number starts with `+`).
enum TelContent {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.tel)
        let written = String(text.dropFirst(4).prefix { $0 != ";" })
        c.set("number", URLParts.percentDecoded(written.replacing("+", with: "%2B")))
        if let p = numberProblem(URLParts.percentDecoded(written.replacing("+", with: "%2B"))) { c.problem(p) }
        return c
    }

    /// Why `number` is not a phone number (digits after an optional `+`, with `-.() ` between; `*#` allowed for local
    /// numbers), or nil.
    static func numberProblem(_ number: String) -> String? {
        let body = number.hasPrefix("+") ? number.dropFirst() : number[...]
        let digits = body.filter { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || "-.() *#".contains($0)) }) else {
            return "'\(number)' is not a phone number (digits, an optional leading +, and - . ( ) as separators)"
        }
        if number.hasPrefix("+"), digits.count > 15 { return "the number '\(number)' has \(digits.count) digits; an international number has 15 at most" }
        return nil
    }
}
