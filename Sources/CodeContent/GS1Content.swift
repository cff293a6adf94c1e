import Records

/// `gs1`: GS1 element strings (GS1 General Specifications, section 7.8: AIs one after another,
/// a variable-length field ended by FNC1, transmitted as GS (0x1D); the symbology identifier
/// `]C1`, `]d2`, `]Q3` or a leading GS may open them; or the bracketed form `(01)...(10)...`),
/// each AI checked: its length, its digits, its check digit, its date.
enum GS1Content {
    static let gs: Character = "\u{1D}"

    /// `(NN)` opens it, with an AI GS1 knows.
    static func looksBracketed(_ text: String) -> Bool {
        guard let close = text.firstIndex(of: ")") else { return false }
        let ai = text[text.index(after: text.startIndex)..<close]
        return (2...4).contains(ai.count) && ai.allSatisfy(\.isNumber) && GS1AI.spec(String(ai)) != nil
    }

    /// The (AI, value) pairs of element strings, or the problem that stopped the reading.
    static func elements(_ text: String) -> (pairs: [(ai: String, value: String)], problem: String?) {
        var s = Substring(text)
        for prefix in ["]C1", "]d2", "]Q3", "]e0", "]J1"] where s.hasPrefix(prefix) { s = s.dropFirst(3) }
        if s.hasPrefix("(") { return bracketed(s) }
        var out: [(String, String)] = []
        while let first = s.first {
            if first == gs { s = s.dropFirst(); continue }
            guard let ai = (2...4).lazy.map({ String(s.prefix($0)) }).first(where: { $0.allSatisfy(\.isNumber) && GS1AI.spec($0) != nil }) else {
                return (out, "'\(s.prefix(4))' does not begin a GS1 Application Identifier")
            }
            s = s.dropFirst(ai.count)
            let value: Substring
            if let fixed = GS1AI.predefinedLengths[String(ai.prefix(2))] {
                value = s.prefix(fixed)
            } else {
                value = s.prefix { $0 != gs }
            }
            out.append((ai, String(value)))
            s = s.dropFirst(value.count)
        }
        return (out, nil)
    }

    static func bracketed(_ text: Substring) -> (pairs: [(ai: String, value: String)], problem: String?) {
        var out: [(String, String)] = [], s = text
        while s.hasPrefix("(") {
            guard let close = s.firstIndex(of: ")") else { return (out, "an AI's '(' is not closed") }
            let ai = String(s[s.index(after: s.startIndex)..<close])
            s = s[s.index(after: close)...]
            let value = s.prefix { $0 != "(" }
            out.append((ai, String(value)))
            s = s.dropFirst(value.count)
        }
        return (out, s.isEmpty ? nil : "'\(s.prefix(10))' follows the last AI")
    }

    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.gs1)
        let (pairs, problem) = elements(text)
        describe(pairs, into: &c)
        if let problem { c.problem(problem) }
        if pairs.isEmpty && problem == nil { c.problem("it holds no element string") }
        return c
    }

    /// `elements` (each AI, its title, its value, its date or decimal) and the common AIs by name.
    static func describe(_ pairs: [(ai: String, value: String)], into c: inout CodeContent) {
        var list: [JSONValue] = []
        for (ai, value) in pairs {
            var o: [(String, JSONValue)] = [("ai", .string(ai))]
            guard let spec = GS1AI.spec(ai) else {
                c.problem("(\(ai)) is not a GS1 Application Identifier")
                list.append(.object(o + [("value", .string(value))])); continue
            }
            o += [("title", .string(spec.title)), ("value", .string(value))]
            o += GS1Check.check(ai: ai, spec: spec, value: value, problems: &c.problems)
            list.append(.object(o))
        }
        c.set("elements", .array(list))
        for (ai, name) in [("01", "gtin"), ("10", "batch"), ("21", "serial"), ("17", "expiry"), ("00", "sscc")] {
            if let v = pairs.first(where: { $0.ai == ai })?.value { c.set(name, ai == "17" ? GS1Check.date(v).map { $0 } ?? v : v) }
        }
    }
}
