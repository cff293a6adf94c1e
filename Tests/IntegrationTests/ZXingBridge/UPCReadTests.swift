import Foundation
import TestSupport
import Testing

/// zxing-cpp 3 returns a UPC-A as a 13-digit EAN-13 and a UPC-E expanded to 13 digits; a record
/// gives them as ZBar does (Tests/Fixtures/upc), so one code reads the same from either reader.
@Suite("UPC-A and UPC-E read the same from zxing-cpp as from ZBar")
struct UPCReadTests {
    static let dir = PackageRoot.path + "/Tests/Fixtures/upc"

    static func codes(_ file: String, _ extra: [String] = []) throws -> [TestJSON] {
        let r = try run(codesweepBinary, ["scan", "-q"] + extra + [Self.dir + "/" + file])
        return try TestJSON.parse(r.stdout)["codes"]?.array ?? []
    }

    @Test("a drawn UPC-A (a digital frame, read by zxing-cpp): upca with its 12 digits; an ean13 with a leading 0 when only EAN-13 is asked")
    func upcA() throws {
        let codes = try Self.codes("upca.png")
        #expect(codes.count == 1)
        #expect(codes.first?["symbology"]?.string == "upca" && codes.first?["text"]?.string == "012345678905", "\(codes)")
        #expect(codes.first?["pass"]?.string == "zxing-frame")
        let asEAN = try Self.codes("upca.png", ["--symbologies", "ean13"])
        #expect(asEAN.map { $0["symbology"]?.string } == ["ean13"] && asEAN.first?["text"]?.string == "0012345678905", "\(asEAN)")
    }

    @Test("a drawn UPC-E: upce with the 8 digits it prints, not zxing-cpp's 13")
    func upcE() throws {
        let codes = try Self.codes("upce.png")
        #expect(codes.count == 1)
        #expect(codes.first?["symbology"]?.string == "upce" && codes.first?["text"]?.string == "01234565", "\(codes)")
    }
}
