import CodeContent
import Records
import Reporting
import Testing

/// Payments read to their specifications: IBANs (ISO 13616), creditor references (ISO 11649) and
/// QR references (modulo 10 recursive) against published examples (checked with schwifty and
/// python-stdnum), EPC069-12 SEPA transfers, Swiss QR-bills, EMVCo merchant codes and their CRC.
@Suite("Content: payments")
struct PaymentContentTests {
    @Test func ibanCheckDigitsAgainstPublishedExamples() {
        for good in ["GB82WEST12345698765432", "DE89370400440532013000", "CH9300762011623852957", "CH4431999123000889012"] {
            #expect(IBAN.problem(good) == nil, "\(good)")
        }
        #expect(IBAN.problem("GB82WEST12345698765433")?.contains("check digits") == true)
        #expect(IBAN.problem("DE8937040044053201300")?.contains("a DE IBAN has 22") == true)
        #expect(IBAN.problem("QQ82WEST12345698765432")?.contains("unknown country") == true)
        #expect(IBAN.isQRIBAN("CH4431999123000889012") && !IBAN.isQRIBAN("CH9300762011623852957"))
    }

    @Test func creditorReferenceISO11649PublishedExamples() {
        for good in ["RF18539007547034", "RF18 5390 0754 7034", "RF18000000000539007547034", "RF712348231"] {
            #expect(CreditorReference.problem(good) == nil, "\(good)")
        }
        #expect(CreditorReference.problem("RF19539007547034")?.contains("check digits") == true)
        #expect(CreditorReference.problem("XX18539007547034") != nil)
    }

    @Test func qrReferenceModulo10Recursive() {
        #expect(CheckDigits.mod10Recursive("21000000000313947143000901") == 7)  // SIX's sample reference ...9017
        #expect(CheckDigits.mod10Recursive("") == 0)
    }

    static let epc = "BCD\n002\n1\nSCT\nBHBLDEHHXXX\nFranz Mustermänn\nDE71110220330123456789\nEUR12.3\nGDDS\nRF18539007547034\n\n"

    @Test func epcSEPATransfer() throws {
        let c = try #require(CodeContent.read(Self.epc))
        #expect(c.type == .epc && c.valid, "\(c.problems)")
        #expect(c.string("iban") == "DE71110220330123456789" && c.string("bic") == "BHBLDEHHXXX")
        #expect(c.string("amount") == "12.3" && c.string("currency") == "EUR" && c.string("reference") == "RF18539007547034")
        #expect(c.string("name") == "Franz Mustermänn")
        let bad = try #require(CodeContent.read(Self.epc.replacing("DE7111", with: "DE7211").replacing("EUR12.3", with: "EUR12.345")))
        #expect(!bad.valid && bad.type == .epc)
        #expect(bad.problems.contains { $0.contains("check digits") } && bad.problems.contains { $0.contains("'12.345'") })
        let v3 = try #require(CodeContent.read(Self.epc.replacing("\n002\n", with: "\n003\n")))
        #expect(v3.problems.contains { $0.contains("version '003'") })
    }

    static let qrBill = [
        "SPC", "0200", "1", "CH4431999123000889012", "S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH",
        "", "", "", "", "", "", "", "1949.75", "CHF", "S", "Pia-Maria Rutschmann-Schnyder", "Grosse Marktgasse", "28", "9400",
        "Rorschach", "CH", "QRR", "210000000003139471430009017", "Order of 15 June 2020", "EPD",
    ]

    @Test func swissQRBill() throws {
        let c = try #require(CodeContent.read(Self.qrBill.joined(separator: "\r\n")))
        #expect(c.type == .swissQRBill && c.valid, "\(c.problems)")
        #expect(c.string("iban") == "CH4431999123000889012" && c.string("amount") == "1949.75" && c.string("currency") == "CHF")
        #expect(c.string("reference_type") == "QRR" && c.field("qr_iban") == .bool(true))
        #expect(c.field("debtor")?["name"] == .string("Pia-Maria Rutschmann-Schnyder"))
        var broken = Self.qrBill
        broken[28] = "210000000003139471430009018"
        let qrr = try #require(CodeContent.read(broken.joined(separator: "\n")))
        #expect(qrr.problems == ["the QR reference '210000000003139471430009018' has check digit 8, expected 7 (modulo 10 recursive)"])
        broken = Self.qrBill
        broken[3] = "CH9300762011623852957"  // a plain IBAN with a QR reference
        #expect(CodeContent.read(broken.joined(separator: "\n"))?.problems == ["a QRR reference needs a QR-IBAN; the IBAN is not one"])
        broken = Self.qrBill
        broken[1] = "0100"
        #expect(CodeContent.read(broken.joined(separator: "\n"))?.problems.first?.contains("version '0100'") == true)
    }

    // The example of the Banco Central do Brasil's Pix manual (an EMVCo merchant-presented code).
    static let pix = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"

    @Test func emvcoCRC() throws {
        #expect(CheckDigits.crc16CCITTFalse(Array("123456789".utf8)) == 0x29B1)  // the catalogue's check value
        let c = try #require(CodeContent.read(Self.pix))
        #expect(c.type == .emvco && c.valid, "\(c.problems)")
        #expect(c.string("merchant_name") == "Fulano de Tal" && c.string("merchant_city") == "BRASILIA" && c.string("currency") == "986")
        #expect(c.field("merchant_accounts")?[0]?["gui"] == .string("br.gov.bcb.pix"))
        let bad = try #require(CodeContent.read(String(Self.pix.dropLast(4)) + "1D3E"))
        #expect(bad.problems == ["the CRC is 1D3E, expected 1D3D (CRC-16/CCITT-FALSE)"])
        let cut = try #require(CodeContent.read(String(Self.pix.dropLast(10))))
        #expect(!cut.valid)
    }
}

extension JSONValue {
    subscript(_ i: Int) -> JSONValue? {
        if case .array(let a) = self, i < a.count { return a[i] }
        return nil
    }
}
