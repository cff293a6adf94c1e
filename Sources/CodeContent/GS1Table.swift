/// GS1 Application Identifiers (GS1 General Specifications, section 3): each AI's data title
/// and format. A format: the data's length range, how many leading characters are digits, a
/// GS1 check digit ending the first `checkLength` digits, a YYMMDD date, an implied decimal
/// point (the AI's last digit), an ISO 4217 or ISO 3166 number first.
struct GS1AI: Sendable {
    var title: String
    var minLength: Int
    var maxLength: Int
    /// Leading characters that must be digits (all of a numeric AI's).
    var digits: Int
    var checkLength: Int? = nil
    var date = false
    var decimals = false
    var codeFirst = false

    static func n(_ title: String, _ length: Int, check: Bool = false) -> GS1AI {
        GS1AI(title: title, minLength: length, maxLength: length, digits: length, checkLength: check ? length : nil)
    }
    static func nv(_ title: String, _ max: Int) -> GS1AI { GS1AI(title: title, minLength: 1, maxLength: max, digits: max) }
    static func x(_ title: String, _ max: Int) -> GS1AI { GS1AI(title: title, minLength: 1, maxLength: max, digits: 0) }
    static func date(_ title: String) -> GS1AI { GS1AI(title: title, minLength: 6, maxLength: 6, digits: 6, date: true) }

    /// The spec of AI `ai` (2 to 4 digits), or nil.
    static func spec(_ ai: String) -> GS1AI? {
        if let s = table[ai] { return s }
        guard ai.count == 4, let last = ai.last?.wholeNumberValue, last <= 9 else { return nil }
        let head = String(ai.prefix(3))
        switch head {
        case "390", "392": return GS1AI(title: head == "390" ? "AMOUNT" : "PRICE", minLength: 1, maxLength: 15, digits: 15, decimals: true)
        case "391", "393": return GS1AI(title: head == "391" ? "AMOUNT" : "PRICE", minLength: 4, maxLength: 18, digits: 18, decimals: true, codeFirst: true)
        default:
            guard let n = Int(head), (310...369).contains(n) else { return nil }
            return GS1AI(title: measureTitles[head] ?? "MEASURE", minLength: 6, maxLength: 6, digits: 6, decimals: true)
        }
    }

    /// Data lengths of the AIs whose first two digits fix their length (no separator after them).
    static let predefinedLengths: [String: Int] = [
        "00": 18, "01": 14, "02": 14, "03": 14, "04": 16, "11": 6, "12": 6, "13": 6, "14": 6, "15": 6, "16": 6, "17": 6, "18": 6,
        "19": 6, "20": 2, "31": 6, "32": 6, "33": 6, "34": 6, "35": 6, "36": 6, "41": 13,
    ]

    static let measureTitles: [String: String] = [
        "310": "NET WEIGHT (kg)", "311": "LENGTH (m)", "312": "WIDTH (m)", "313": "HEIGHT (m)", "314": "AREA (m2)", "315": "NET VOLUME (l)",
        "316": "NET VOLUME (m3)", "320": "NET WEIGHT (lb)", "330": "GROSS WEIGHT (kg)", "356": "NET WEIGHT (t oz)",
    ]

    static let table: [String: GS1AI] = {
        var t: [String: GS1AI] = [
            "00": .n("SSCC", 18, check: true), "01": .n("GTIN", 14, check: true), "02": .n("CONTENT", 14, check: true),
            "10": .x("BATCH/LOT", 20), "11": .date("PROD DATE"), "12": .date("DUE DATE"), "13": .date("PACK DATE"),
            "15": .date("BEST BEFORE or BEST BY"), "16": .date("SELL BY"), "17": .date("USE BY or EXPIRY"), "20": .n("VARIANT", 2),
            "21": .x("SERIAL", 20), "22": .x("CPV", 20), "235": .x("TPX", 28), "240": .x("ADDITIONAL ID", 30), "241": .x("CUST. PART No.", 30),
            "242": .nv("MTO VARIANT", 6), "243": .x("PCN", 20), "250": .x("SECONDARY SERIAL", 30), "251": .x("REF. TO SOURCE", 30),
            "253": GS1AI(title: "GDTI", minLength: 13, maxLength: 30, digits: 13, checkLength: 13),
            "254": .x("GLN EXTENSION COMPONENT", 20),
            "255": GS1AI(title: "GCN", minLength: 13, maxLength: 25, digits: 25, checkLength: 13),
            "30": .nv("VAR. COUNT", 8), "37": .nv("COUNT", 8), "400": .x("ORDER NUMBER", 30), "401": .x("GINC", 30),
            "402": .n("GSIN", 17, check: true), "403": .x("ROUTE", 30), "420": .x("SHIP TO POST", 20),
            "421": GS1AI(title: "SHIP TO POST", minLength: 4, maxLength: 12, digits: 3, codeFirst: true),
            "422": .n("ORIGIN", 3), "423": .nv("COUNTRY - INITIAL PROCESS", 15), "424": .n("COUNTRY - PROCESS", 3),
            "425": .nv("COUNTRY - DISASSEMBLY", 15), "426": .n("COUNTRY - FULL PROCESS", 3), "427": .x("ORIGIN SUBDIVISION", 3),
            "7001": .n("NSN", 13), "7002": .x("MEAT CUT", 30), "7003": .n("EXPIRY TIME", 10), "7006": .date("FIRST FREEZE DATE"),
            "7240": .x("PROTOCOL", 20), "8001": .n("DIMENSIONS", 14), "8002": .x("CMT No.", 20),
            "8003": GS1AI(title: "GRAI", minLength: 14, maxLength: 30, digits: 14, checkLength: 14),
            "8004": .x("GIAI", 30), "8005": .n("PRICE PER UNIT", 6),
            "8006": GS1AI(title: "ITIP", minLength: 18, maxLength: 18, digits: 18, checkLength: 14),
            "8007": .x("IBAN", 34), "8008": GS1AI(title: "PROD TIME", minLength: 8, maxLength: 12, digits: 12), "8010": .x("CPID", 30),
            "8011": .nv("CPID SERIAL", 12), "8012": .x("VERSION", 20), "8013": .x("GMN", 25), "8017": .n("GSRN - PROVIDER", 18, check: true),
            "8018": .n("GSRN - RECIPIENT", 18, check: true), "8019": .nv("SRIN", 10), "8020": .x("REF No.", 25), "8200": .x("PRODUCT URL", 70),
            "90": .x("INTERNAL", 30),
        ]
        for ai in 410...417 {
            t[String(ai)] = .n(
                ["SHIP TO LOC", "BILL TO", "PURCHASE FROM", "SHIP FOR LOC", "LOC No.", "PAY TO", "PROD/SERV LOC", "PARTY"][ai - 410], 13, check: true)
        }
        for ai in 91...99 { t[String(ai)] = .x("INTERNAL", 90) }
        return t
    }()
}
