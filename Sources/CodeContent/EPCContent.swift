/// `epc`: a SEPA credit transfer (EPC069-12, "Quick Response Code: guidelines to enable data
/// capture for the initiation of a SEPA credit transfer"): `BCD`, version 001 or 002, character
/// set 1 to 8, `SCT`, BIC (optional from 002), name, IBAN, `EUR` amount, purpose, a structured
/// reference (ISO 11649) or a text, information; lines ended by LF or CR LF; 331 bytes at most.
enum EPCContent {
    static func lines(_ text: String) -> [String] {
        // "\r\n" is one Character: both are line ends.
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }

    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.epc)
        var l = lines(text)
        while l.count > 12, l.last == "" { l.removeLast() }
        let line = { (i: Int) in i < l.count ? l[i] : "" }
        let version = line(1)
        c.set("version", version)
        if version != "001" && version != "002" { c.problem("the version '\(version)' is not 001 or 002") }
        if !(1...8).contains(Int(line(2)) ?? 0) { c.problem("the character set '\(line(2))' is not 1 to 8") }
        if line(3) != "SCT" { c.problem("the identification '\(line(3))' is not SCT") }
        let bic = line(4)
        c.set("bic", bic)
        if bic.isEmpty && version == "001" { c.problem("version 001 requires the BIC") }
        if !bic.isEmpty, let p = BIC.problem(bic) { c.problem(p) }
        c.set("name", line(5))
        if line(5).isEmpty || line(5).count > 70 { c.problem("the beneficiary's name is \(line(5).isEmpty ? "missing" : "longer than 70 characters")") }
        let iban = IBAN.compact(line(6))
        c.set("iban", iban)
        if let p = IBAN.problem(iban) { c.problem(p) }
        readAmount(line(7), into: &c)
        c.set("purpose", line(8))
        if !line(8).isEmpty, !(line(8).count == 4 && line(8).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            c.problem("the purpose code '\(line(8))' is not four letters or digits")
        }
        c.set("reference", line(9))
        c.set("text", line(10))
        c.set("information", line(11))
        if !line(9).isEmpty {
            if !line(10).isEmpty { c.problem("it holds both a structured reference and a text; EPC069-12 allows one") }
            if let p = CreditorReference.problem(line(9)) { c.problem(p) }
        }
        if l.count > 12 { c.problem("it has \(l.count) lines; EPC069-12 allows 12 at most") }
        if text.utf8.count > 331 { c.problem("it is \(text.utf8.count) bytes; EPC069-12 allows 331 at most") }
        return c
    }

    static func readAmount(_ text: String, into c: inout CodeContent) {
        guard !text.isEmpty else { return }
        guard text.count > 3, text.hasPrefix("EUR") else { c.problem("the amount '\(text)' is not EUR followed by a number"); return }
        let amount = String(text.dropFirst(3))
        c.set("amount", amount)
        c.set("currency", "EUR")
        if !DecimalText.isAmount(amount, integerDigits: 9, decimals: 2) || DecimalText.isZero(amount) {
            c.problem("the amount '\(amount)' is not from 0.01 to 999999999.99 with at most two decimals")
        }
    }
}

/// Business Identifier Codes (ISO 9362): 4 letters (institution), 2 letters (country), 2 letters
/// or digits (location), optionally 3 letters or digits (branch).
enum BIC {
    static func problem(_ bic: String) -> String? {
        let b = Array(bic)
        let alnum = { (c: Character) in c.isASCII && (c.isUppercase || c.isNumber) }
        guard b.count == 8 || b.count == 11, b[0..<6].allSatisfy({ $0.isASCII && $0.isUppercase }), b[6...].allSatisfy(alnum) else {
            return "the BIC '\(bic)' is not 8 or 11 characters of a BIC's form (ISO 9362)"
        }
        return nil
    }
}
