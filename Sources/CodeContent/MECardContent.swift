/// `mecard`: a contact in NTT Docomo's MECARD form (`MECARD:N:Doe,John;TEL:...;EMAIL:...;;`,
/// `\` escaping `\ ; , :`): names, phones, emails, URLs, the note.
enum MECardContent {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.mecard)
        let (pairs, terminated) = WifiContent.pairs(text.dropFirst("MECARD:".count))
        let all = { (k: String) in pairs.filter { $0.key == k }.map(\.value).filter { !$0.isEmpty } }
        let name = all("N").first.map { n in n.split(separator: ",").reversed().joined(separator: " ") }
        c.set("name", name)
        c.set("nickname", all("NICKNAME").first)
        c.set("organization", all("ORG").first)
        VCardContent.setList("phones", all("TEL") + all("TEL-AV"), into: &c)
        VCardContent.setList("emails", all("EMAIL"), into: &c)
        VCardContent.setList("urls", all("URL"), into: &c)
        c.set("address", all("ADR").first)
        c.set("birthday", all("BDAY").first)
        c.set("note", all("NOTE").first)
        if name == nil { c.problem("it names nobody (N is missing)") }
        if let b = all("BDAY").first, !(b.count == 8 && b.allSatisfy(\.isNumber)) { c.problem("the birthday '\(b)' is not YYYYMMDD") }
        if !terminated { c.problem("it does not end with ';;'") }
        return c
    }
}
