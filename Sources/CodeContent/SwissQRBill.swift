import Records

/// `swiss-qr-bill`: the payment part of a Swiss QR-bill (SIX, Swiss Implementation Guidelines
/// for the QR-bill, version 2.x: `SPC`, version `0200`, coding type 1). Lines ended by LF or
/// CR LF: IBAN (CH or LI; a QR-IBAN takes a QRR reference, an IBAN a SCOR reference or none),
/// the creditor's address, the ultimate creditor (reserved, empty), amount (optional), currency
/// (CHF or EUR), the debtor's address (optional), the reference (QRR: 27 digits, modulo 10
/// recursive; SCOR: ISO 11649; NON: none), the message, `EPD`, billing information and up to
/// two alternative schemes.
enum SwissQRBill {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.swissQRBill)
        var l = EPCContent.lines(text)
        while l.count > 31, l.last == "" { l.removeLast() }
        let line = { (i: Int) in i < l.count ? l[i] : "" }
        let version = line(1)
        c.set("version", version)
        if !(version.count == 4 && version.hasPrefix("02") && version.allSatisfy(\.isNumber)) {
            c.problem("the version '\(version)' is not 0200 (Swiss Implementation Guidelines 2.x)")
        }
        if line(2) != "1" { c.problem("the coding type '\(line(2))' is not 1") }
        let iban = IBAN.compact(line(3))
        c.set("iban", iban)
        let qrIBAN = IBAN.isQRIBAN(iban)
        c.set("qr_iban", .bool(qrIBAN))
        if let p = IBAN.problem(iban) {
            c.problem(p)
        } else if !(iban.hasPrefix("CH") || iban.hasPrefix("LI")) {
            c.problem("the IBAN '\(iban)' is not a Swiss or Liechtenstein IBAN")
        }
        c.set("creditor", address(l, from: 4, role: "creditor", required: true, into: &c))
        if (11...17).contains(where: { !line($0).isEmpty }) { c.problem("the ultimate creditor (lines 12 to 18) is reserved and must be empty") }
        readAmount(line(18), currency: line(19), into: &c)
        c.set("debtor", address(l, from: 20, role: "debtor", required: false, into: &c))
        readReference(type: line(27), reference: line(28), qrIBAN: qrIBAN, into: &c)
        c.set("message", line(29))
        if line(29).count > 140 { c.problem("the message is \(line(29).count) characters; 140 at most") }
        if line(30) != "EPD" { c.problem("the trailer (line 31) is '\(line(30))', not EPD") }
        c.set("billing_information", line(31))
        if line(29).count + line(31).count > 140 { c.problem("the message and the billing information are over 140 characters together") }
        let alternatives = l.count > 32 ? Array(l[32...]).filter { !$0.isEmpty } : []
        if !alternatives.isEmpty { c.set("alternative_schemes", .array(alternatives.map(JSONValue.string))) }
        if alternatives.count > 2 { c.problem("it holds \(alternatives.count) alternative schemes; 2 at most") }
        if let long = alternatives.first(where: { $0.count > 100 }) { c.problem("the alternative scheme '\(long.prefix(20))...' is over 100 characters") }
        if l.count < 31 { c.problem("it has \(l.count) lines; a QR-bill has 31 to 34") }
        return c
    }

    /// The address at lines `from`...`from + 6` (type S structured, K combined), or nil when empty.
    static func address(_ l: [String], from: Int, role: String, required: Bool, into c: inout CodeContent) -> JSONValue? {
        let line = { (i: Int) in from + i < l.count ? l[from + i] : "" }
        guard (0..<7).contains(where: { !line($0).isEmpty }) else {
            if required { c.problem("the \(role)'s address is missing") }
            return nil
        }
        let kind = line(0)
        var o: [(String, JSONValue)] = [("address_type", .string(kind)), ("name", .string(line(1)))]
        if kind == "K" {
            o += [("address_line1", .string(line(2))), ("address_line2", .string(line(3)))]
            if !line(4).isEmpty || !line(5).isEmpty { c.problem("the \(role)'s combined address (K) must leave postal code and town empty") }
        } else {
            o += [("street", .string(line(2))), ("building_number", .string(line(3))), ("postal_code", .string(line(4))), ("town", .string(line(5)))]
            if line(4).isEmpty || line(5).isEmpty { c.problem("the \(role)'s structured address (S) needs a postal code and a town") }
        }
        o.append(("country", .string(line(6))))
        if kind != "S" && kind != "K" { c.problem("the \(role)'s address type '\(kind)' is not S or K") }
        if line(1).isEmpty { c.problem("the \(role)'s name is missing") }
        if !(line(6).count == 2 && line(6).allSatisfy { $0.isASCII && $0.isUppercase }) {
            c.problem("the \(role)'s country '\(line(6))' is not a two-letter code")
        }
        return .object(o.filter { if case .string(let s) = $0.1 { return !s.isEmpty } else { return true } })
    }

    static func readAmount(_ amount: String, currency: String, into c: inout CodeContent) {
        c.set("amount", amount)
        c.set("currency", currency)
        if !amount.isEmpty, !DecimalText.isAmount(amount, integerDigits: 9, decimals: 2) || DecimalText.isZero(amount) {
            c.problem("the amount '\(amount)' is not from 0.01 to 999999999.99 with at most two decimals")
        }
        if currency != "CHF" && currency != "EUR" { c.problem("the currency '\(currency)' is not CHF or EUR") }
    }

    static func readReference(type: String, reference: String, qrIBAN: Bool, into c: inout CodeContent) {
        c.set("reference_type", type)
        c.set("reference", reference)
        switch type {
        case "QRR":
            if !qrIBAN { c.problem("a QRR reference needs a QR-IBAN; the IBAN is not one") }
            let digits = reference.filter { $0 != " " }
            guard digits.count == 27, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                c.problem("the QR reference '\(reference)' is not 27 digits"); return
            }
            let want = CheckDigits.mod10Recursive(digits.dropLast())!
            if digits.last!.wholeNumberValue != want {
                c.problem("the QR reference '\(reference)' has check digit \(digits.last!), expected \(want) (modulo 10 recursive)")
            }
        case "SCOR":
            if qrIBAN { c.problem("a QR-IBAN needs a QRR reference, not SCOR") }
            if let p = CreditorReference.problem(reference) { c.problem(p) }
        case "NON":
            if qrIBAN { c.problem("a QR-IBAN needs a QRR reference, not NON") }
            if !reference.isEmpty { c.problem("the reference type is NON but a reference '\(reference)' is given") }
        default:
            c.problem("the reference type '\(type)' is not QRR, SCOR or NON")
        }
    }
}
