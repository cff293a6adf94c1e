/// International Bank Account Numbers (ISO 13616): country, length from the SWIFT IBAN
/// registry, MOD 97-10 check digits; the Swiss QR-IBAN (an IID from 30000 to 31999).
public enum IBAN {
    /// Lengths per country, from the SWIFT IBAN registry.
    static let lengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27, "BR": 29, "BY": 28,
        "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
        "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28,
        "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
        "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
        "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
        "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26,
        "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
        // Territories using their country's IBAN (the registry lists them under FR, FI, GB).
        "BL": 27, "GF": 27, "GP": 27, "MF": 27, "MQ": 27, "NC": 27, "PF": 27, "PM": 27, "RE": 27, "TF": 27, "WF": 27, "YT": 27,
        "AX": 18, "GG": 22, "IM": 22, "JE": 22,
    ]

    /// The IBAN without spaces, upper-cased.
    public static func compact(_ s: some StringProtocol) -> String { String(s.filter { $0 != " " }).uppercased() }

    /// Why `iban` (compact) is not a valid IBAN, or nil when it is.
    public static func problem(_ iban: String) -> String? {
        guard iban.count >= 5, iban.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }) else {
            return "the IBAN '\(iban)' is not letters and digits of an IBAN's form"
        }
        let country = String(iban.prefix(2))
        guard let length = lengths[country] else { return "the IBAN '\(iban)' has an unknown country code '\(country)'" }
        guard iban.count == length else { return "the IBAN '\(iban)' has \(iban.count) characters; a \(country) IBAN has \(length)" }
        guard mod97Valid(iban) else { return "the IBAN '\(iban)' has wrong check digits (ISO 13616 MOD 97-10)" }
        return nil
    }

    static func mod97Valid(_ iban: String) -> Bool { CheckDigits.mod97(iban.dropFirst(4) + iban.prefix(4)) == 1 }

    /// A Swiss or Liechtenstein QR-IBAN: its institution identification (positions 5 to 9) is
    /// from 30000 to 31999.
    public static func isQRIBAN(_ iban: String) -> Bool {
        guard iban.hasPrefix("CH") || iban.hasPrefix("LI"), iban.count == 21, let iid = Int(iban.dropFirst(4).prefix(5)) else { return false }
        return (30000...31999).contains(iid)
    }
}

/// The structured creditor reference (ISO 11649): `RF`, two check digits, up to 21 letters
/// and digits; valid when MOD 97-10 of the reference moved behind its first four is 1.
public enum CreditorReference {
    public static func problem(_ ref: String) -> String? {
        let r = IBAN.compact(ref)
        guard r.hasPrefix("RF"), (5...25).contains(r.count), r.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }),
            r.dropFirst(2).prefix(2).allSatisfy(\.isNumber)
        else { return "the creditor reference '\(ref)' is not of the form RF, two check digits, 1 to 21 letters or digits (ISO 11649)" }
        guard CheckDigits.mod97(r.dropFirst(4) + r.prefix(4)) == 1 else {
            return "the creditor reference '\(ref)' has wrong check digits (ISO 11649 MOD 97-10)"
        }
        return nil
    }
}
