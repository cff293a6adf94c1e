import Foundation
import TestSupport
import Testing

/// Swiss QR-bills made with PyPI's qrbill (scripts/make-qrbill-fixtures.py; IBANs and references
/// checked there with schwifty and python-stdnum), as SVG and as PDF converted by rsvg-convert,
/// scanned by the real CLI: every one reads as a swiss-qr-bill with its IBAN, amount and
/// currency; the broken ones are invalid with the problem named.
@Suite("Content: Swiss QR-bill documents")
struct QRBillFixtureTests {
    @Test func everyBillReadsWithItsFieldsAndEveryBrokenOneIsNamed() throws {
        let dir = PackageRoot.file("Tests/Fixtures/qrbill")
        let expected = try TestJSON.parse(Data(contentsOf: URL(fileURLWithPath: dir + "/expected.json")))
        let r = try run(codesweepBinary, ["scan", "--quiet", "--jobs", "2", dir], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try TestJSON.lines(r.stdout)
        var seen: Set<String> = []
        for record in records {
            let file = URL(fileURLWithPath: try #require(record["path"]?.string)).lastPathComponent
            guard file.hasSuffix(".svg") || file.hasSuffix(".pdf") else { continue }
            let name = String(file.dropLast(4))
            let want = try #require(expected[name], "\(file) is not in expected.json")
            let codes = try #require(record["codes"]?.array)
            #expect(codes.count == 1, "\(file)")
            let content = try #require(codes.first?["content"], "\(file): no content")
            #expect(content["type"]?.string == "swiss-qr-bill", "\(file)")
            #expect(codes.first?["text"]?.string == want["payload"]?.string, "\(file): the text is the payload as made")
            let problems = content["problems"]?.array?.compactMap(\.string) ?? []
            if want["valid"]?.bool == true {
                #expect(content["valid"]?.bool == true && problems.isEmpty, "\(file): \(problems)")
                let fields = try #require(content["fields"])
                #expect(fields["iban"]?.string == want["iban"]?.string, "\(file)")
                #expect(fields["amount"]?.string == want["amount"]?.string, "\(file)")  // nil for the bill without an amount
                #expect(fields["currency"]?.string == want["currency"]?.string, "\(file)")
                #expect(fields["reference_type"]?.string == want["reference_type"]?.string, "\(file)")
                #expect((fields["debtor"] != nil) == (want["debtor"]?.bool == true), "\(file)")
                #expect(
                    (fields["alternative_schemes"]?.array ?? []).compactMap(\.string) == want["alternative_schemes"]?.array?.compactMap(\.string), "\(file)")
            } else {
                #expect(content["valid"]?.bool == false, "\(file)")
                let word = try #require(want["problem"]?.string)
                #expect(problems.count == 1 && problems[0].contains(word), "\(file): \(problems)")
            }
            seen.insert(file)
        }
        // 4 bills as SVG and PDF, 3 broken ones as SVG; every reference type among them.
        #expect(seen.count == 11 && ["QRR", "SCOR", "NON"].allSatisfy { t in expected.keys!.contains { expected[$0]?["reference_type"]?.string == t } })
    }
}
