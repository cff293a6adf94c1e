import Foundation
import TestSupport
import Testing

/// A thin frame holding a light-on-dark rMQR code with no quiet zone (Tests/Fixtures/thin): the
/// padding a thin frame gets is black there, so zxing-cpp reads it as it reads the file itself.
@Suite("Thin frames: a light-on-dark rMQR code 14 px high")
struct ThinFrameReadTests {
    @Test("the inverted R7x43 rMQR sample of zxing-cpp reads, inverted")
    func invertedRMQR() throws {
        let r = try run(codesweepBinary, ["scan", "-q", PackageRoot.path + "/Tests/Fixtures/thin/rmqr-R7x43-H-inverted.png"])
        let codes = try TestJSON.parse(r.stdout)["codes"]?.array ?? []
        #expect(codes.count == 1, "\(r.stdout)")
        #expect(codes.first?["symbology"]?.string == "rmqr" && codes.first?["text"]?.string == ",,", "\(r.stdout)")
        #expect(codes.first?["details"]?["inverted"]?.bool == true, "\(r.stdout)")
    }
}
