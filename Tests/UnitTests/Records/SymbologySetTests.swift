import Records
import Testing

/// `--symbologies`' selection: names, groups, aliases and removals parsed into a set.
@Suite("Symbology sets")
struct SymbologySetTests {
    @Test func parsesNamesGroupsAliasesAndRemovals() throws {
        #expect(try SymbologySet.parse("qr").members == [.qr])
        #expect(try SymbologySet.parse(" QR , EAN-13 ").members == [.qr, .ean13])
        #expect(try SymbologySet.parse("2d").members == [.qr, .sq, .datamatrix, .pdf417, .aztec, .microqr, .rmqr, .micropdf417, .maxicode])
        #expect(try SymbologySet.parse("micro-qr,rmqr").members == [.microqr, .rmqr])
        #expect(try SymbologySet.parse("ean").members == [.ean13, .ean8, .upca, .upce])
        #expect(try SymbologySet.parse("default") == .standard)
        #expect(try SymbologySet.parse("all").members == Set(Symbology.allCases))
        let noCode39 = try SymbologySet.parse("default,-code39")
        #expect(!noCode39.members.contains(.code39) && noCode39.members.contains(.qr))
        // Starting with a removal starts from the default set.
        #expect(try SymbologySet.parse("-qr").members == SymbologySet.standard.members.subtracting([.qr]))
        let oneD = try SymbologySet.parse("1d")
        // Add-ons are in (reported only beside their EAN/UPC code); ISBN re-labelling is not.
        #expect(!oneD.hasTwoDimensional && oneD.hasLinear && oneD.members.contains(.ean5) && !oneD.members.contains(.isbn13))
        #expect(try SymbologySet.parse("i25,rss14").members == [.itf, .databar])
    }

    @Test(arguments: ["", " , ", "nope", "qr,nope", "qr,-qr", "-all"])
    func rejectsUnknownOrEmptySelections(_ text: String) {
        #expect(throws: SymbologyParseError.self) { try SymbologySet.parse(text) }
    }
}
