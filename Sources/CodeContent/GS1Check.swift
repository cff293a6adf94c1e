import Records

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One GS1 element string checked against its AI's format.
enum GS1Check {
    /// GS1 AI encodable character set 82 (GS1 General Specifications, figure 7.11-1).
    static func isSet82(_ c: Character) -> Bool {
        guard c.isASCII, let a = c.asciiValue else { return false }
        return (a >= 0x21 && a <= 0x22) || (a >= 0x25 && a <= 0x3F) || (a >= 0x41 && a <= 0x5A) || a == 0x5F || (a >= 0x61 && a <= 0x7A)
    }

    /// The extra fields of the element (`date`, `decimal`, `check_digit`) and its problems appended.
    static func check(ai: String, spec: GS1AI, value: String, problems: inout [String]) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        let label = "(\(ai)) \(spec.title) '\(value)'"
        guard (spec.minLength...spec.maxLength).contains(value.count) else {
            let want = spec.minLength == spec.maxLength ? "\(spec.minLength)" : "\(spec.minLength) to \(spec.maxLength)"
            problems.append("\(label) has \(value.count) characters; it takes \(want)")
            return out
        }
        guard value.prefix(spec.digits).allSatisfy({ $0.isASCII && $0.isNumber }) else {
            problems.append("\(label) is not digits where the AI takes digits"); return out
        }
        if !value.allSatisfy(isSet82) { problems.append("\(label) holds a character outside GS1's character set 82") }
        if let n = spec.checkLength {
            let digits = value.prefix(n)
            let want = CheckDigits.gs1(digits.dropLast())!
            out.append(("check_digit_valid", .bool(digits.last!.wholeNumberValue == want)))
            if digits.last!.wholeNumberValue != want { problems.append("\(label) has check digit \(digits.last!), expected \(want)") }
        }
        if spec.date {
            if let d = date(value) { out.append(("date", .string(d))) } else { problems.append("\(label) is not a date (YYMMDD)") }
        }
        if spec.decimals, let places = ai.last?.wholeNumberValue {
            let number = spec.codeFirst ? String(value.dropFirst(3)) : value
            if spec.codeFirst { out.append(("currency", .string(String(value.prefix(3))))) }
            out.append(("decimal", .string(decimal(number, places: places))))
        }
        return out
    }

    /// `digits` with a decimal point `places` from the right ("001250", 3 → "1.250").
    static func decimal(_ digits: String, places: Int) -> String {
        guard places > 0 else { return String(digits.drop { $0 == "0" }.isEmpty ? "0" : digits.drop { $0 == "0" }) }
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        var whole = padded.dropLast(places).drop { $0 == "0" }
        if whole.isEmpty { whole = "0" }
        return whole + "." + padded.suffix(places)
    }

    /// YYMMDD as an ISO date, the century by GS1's rule (General Specifications 7.12: within 49
    /// years back and 50 ahead of `referenceYear`); DD 00 is the month's last day. Nil: no date.
    static func date(_ v: String, referenceYear: Int = currentYear) -> String? {
        guard v.count == 6, v.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let yy = Int(v.prefix(2))!, mm = Int(v.dropFirst(2).prefix(2))!, dd = Int(v.suffix(2))!
        let current = referenceYear % 100, century = referenceYear - current
        let diff = yy - current
        let year = diff >= 51 ? century - 100 + yy : diff <= -50 ? century + 100 + yy : century + yy
        guard (1...12).contains(mm) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1]
        guard dd <= days else { return nil }
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(mm))-\(two(dd == 0 ? days : dd))"
    }

    /// This year (UTC), for the century of two-digit years.
    static var currentYear: Int {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        return Int(parts.tm_year) + 1900
    }
}
