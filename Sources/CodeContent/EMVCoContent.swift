import Records

/// `emvco`: a merchant-presented payment code (EMV QR Code Specification for Payment Systems,
/// Merchant-Presented Mode, v1.1): ID-length-value data objects of two-digit IDs and lengths,
/// beginning `000201`, ending with the CRC (`6304` and four hex digits, CRC-16/CCITT-FALSE over
/// everything before them including `6304`). Pix (Brazil), PromptPay (Thailand), UPI (India),
/// SGQR, DuitNow, QRIS and others are this form.
enum EMVCoContent {
    /// One data object; a template's value is itself data objects.
    struct Object { var id: String; var value: String }

    /// The data objects of `s`, or why they cannot be read.
    static func objects(_ s: Substring) -> Result<[Object], ParseFailure> {
        var out: [Object] = [], rest = s.unicodeScalars[...]
        while !rest.isEmpty {
            guard rest.count >= 4 else { return .failure(ParseFailure("the data ends inside an ID and length ('\(String(String.UnicodeScalarView(rest)))')")) }
            let id = String(String.UnicodeScalarView(rest.prefix(2))), lengthText = String(String.UnicodeScalarView(rest.dropFirst(2).prefix(2)))
            guard id.allSatisfy(\.isNumber), let length = Int(lengthText), lengthText.allSatisfy(\.isNumber) else {
                return .failure(ParseFailure("'\(id)\(lengthText)' is not a two-digit ID and a two-digit length"))
            }
            rest = rest.dropFirst(4)
            guard rest.count >= length else { return .failure(ParseFailure("data object \(id) says \(length) characters; \(rest.count) remain")) }
            out.append(Object(id: id, value: String(String.UnicodeScalarView(rest.prefix(length)))))
            rest = rest.dropFirst(length)
        }
        return .success(out)
    }

    struct ParseFailure: Error { var message: String; init(_ m: String) { message = m } }

    static let additionalNames = [
        "01": "bill_number", "02": "mobile_number", "03": "store_label", "04": "loyalty_number", "05": "reference_label",
        "06": "customer_label", "07": "terminal_label", "08": "purpose", "09": "consumer_data_request",
    ]

    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.emvco)
        let list: [Object]
        switch objects(text[...]) {
        case .success(let l): list = l
        case .failure(let f): c.problem("its data objects cannot be read: \(f.message)"); return c
        }
        let value = { (id: String) in list.first { $0.id == id }?.value }
        if value("00") != "01" { c.problem("the payload format indicator (ID 00) is not 01") }
        if let p = value("01") {
            c.set("point_of_initiation", p == "11" ? "static" : p == "12" ? "dynamic" : p)
            if p != "11" && p != "12" { c.problem("the point of initiation (ID 01) '\(p)' is not 11 or 12") }
        }
        c.set("merchant_accounts", .array(list.filter { (2...51).contains(Int($0.id)!) }.map(account)))
        c.set("merchant_category_code", value("52"))
        c.set("currency", value("53"))
        c.set("amount", value("54"))
        if let a = value("54"), !DecimalText.isAmount(a, integerDigits: 13, decimals: 3) { c.problem("the amount (ID 54) '\(a)' is not a decimal number") }
        c.set("country", value("58"))
        c.set("merchant_name", value("59"))
        c.set("merchant_city", value("60"))
        c.set("postal_code", value("61"))
        if let add = value("62"), case .success(let sub) = objects(add[...]) {
            c.set("additional_data", .object(sub.map { (additionalNames[$0.id] ?? $0.id, JSONValue.string($0.value)) }))
        }
        for (id, name) in [("52", "merchant category code"), ("53", "currency"), ("58", "country code"), ("59", "merchant name"), ("60", "merchant city")]
        where value(id) == nil {
            c.problem("the \(name) (ID \(id)) is missing")
        }
        if list.filter({ (2...51).contains(Int($0.id)!) }).isEmpty { c.problem("it names no merchant account (IDs 02 to 51)") }
        checkCRC(text, list, into: &c)
        return c
    }

    static func account(_ o: Object) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(o.id))]
        if Int(o.id)! >= 26, case .success(let sub) = objects(o.value[...]) {
            for s in sub { fields.append((s.id == "00" ? "gui" : s.id, .string(s.value))) }
        } else {
            fields.append(("value", .string(o.value)))
        }
        return .object(fields)
    }

    static func checkCRC(_ text: String, _ list: [Object], into c: inout CodeContent) {
        guard let last = list.last, last.id == "63" else { c.problem("it does not end with the CRC (ID 63)"); return }
        guard last.value.count == 4, let found = UInt16(last.value, radix: 16) else {
            c.problem("the CRC (ID 63) '\(last.value)' is not four hex digits"); return
        }
        let covered = text.unicodeScalars.dropLast(4)
        let want = CheckDigits.crc16CCITTFalse(String(String.UnicodeScalarView(covered)).utf8)
        c.set("crc", last.value)
        if found != want {
            c.problem("the CRC is \(last.value), expected \(hex4(want)) (CRC-16/CCITT-FALSE)")
        }
    }

    static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}
