import CodeContent
import Records
import Reporting
import Testing

/// GS1 element strings and Digital Link URIs: AIs parsed with and without separators, check
/// digits and dates checked against GS1's published examples (checked with python-stdnum).
@Suite("Content: GS1")
struct GS1ContentTests {
    @Test func checkDigitsOfPublishedKeys() {
        #expect(CheckDigits.gs1Valid("09506000134352"))  // GS1's example GTIN
        #expect(CheckDigits.gs1Valid("4006381333931"))
        #expect(CheckDigits.gs1Valid("106141411234567897"))  // GS1's example SSCC
        #expect(!CheckDigits.gs1Valid("09506000134353"))
    }

    @Test func elementStringsWithSeparators() throws {
        let c = try #require(CodeContent.read("]C10109506000134352" + "17201225" + "10ABC123\u{1D}" + "3103001250" + "21XYZ"))
        #expect(c.type == .gs1 && c.valid, "\(c.problems)")
        #expect(c.string("gtin") == "09506000134352" && c.string("batch") == "ABC123" && c.string("serial") == "XYZ")
        #expect(c.string("expiry") == "2020-12-25")
        guard case .array(let elements)? = c.field("elements") else { Issue.record("no elements"); return }
        #expect(elements.map { $0["ai"] } == ["01", "17", "10", "3103", "21"].map { JSONValue.string($0) })
        #expect(elements[3]["decimal"] == .string("1.250") && elements[0]["check_digit_valid"] == .bool(true))
    }

    @Test func brokenCheckDigitsAndDates() throws {
        let c = try #require(CodeContent.read("(01)09506000134353(17)201345(15)210200"))
        #expect(c.type == .gs1)
        #expect(c.problems == ["(01) GTIN '09506000134353' has check digit 3, expected 2", "(17) USE BY or EXPIRY '201345' is not a date (YYMMDD)"])
        guard case .array(let elements)? = c.field("elements") else { Issue.record("no elements"); return }
        #expect(elements[2]["date"] == .string("2021-02-28"))  // day 00: the month's last day
        #expect(CodeContent.read("\u{1D}0109506000134352991")?.problems.isEmpty == true)
        #expect(CodeContent.read("\u{1D}01095060001343")?.problems == ["(01) GTIN '095060001343' has 12 characters; it takes 14"])
    }

    @Test func digitalLink() throws {
        let c = try #require(CodeContent.read("https://id.gs1.org/01/09506000134352/10/ABC%2F1?17=271231&utm_source=x"))
        #expect(c.type == .gs1 && c.valid && c.field("digital_link") == .bool(true), "\(c.problems)")
        #expect(c.string("gtin") == "09506000134352" && c.string("batch") == "ABC/1" && c.string("expiry") == "2027-12-31")
        #expect(CodeContent.read("https://example.com/01/09506000134353")?.problems == ["(01) GTIN '09506000134353' has check digit 3, expected 2"])
        #expect(CodeContent.read("https://example.com/products/1")?.type == .url)
    }
}
