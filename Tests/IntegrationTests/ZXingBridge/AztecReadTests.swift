import Foundation
import TestSupport
import Testing

/// zxing-cpp 1.4's Aztec decoder read past the end of the data bits on some codes (bytes from
/// beyond its buffer, different from run to run); 3.1 reads them as they are.
@Suite("Aztec: the data bits read exactly")
struct AztecReadTests {
    @Test("zxing-cpp's padding_bs.png reads as its 996 zero bytes, the same ten times")
    func paddingBS() throws {
        // A copy of zxing-cpp's test image kept in the repository (Tests/Fixtures/zxing-cpp).
        let path = PackageRoot.path + "/Tests/Fixtures/zxing-cpp/padding_bs.png"
        #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        var seen: Set<[UInt8]> = []
        for _ in 0..<10 {
            let r = try run(codesweepBinary, ["scan", "--isolation", "none", "--symbologies", "aztec", path])
            let json = try TestJSON.parse(r.stdout)
            let b64 = try #require(json["codes"]?.array?.first?["bytes_b64"]?.string)
            seen.insert(Array(try #require(Data(base64Encoded: b64))))
        }
        #expect(seen == [[UInt8](repeating: 0, count: 996)], "\(seen.map(\.count))")
    }
}
