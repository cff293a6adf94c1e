import Foundation
import QRSymbol
import TestSupport
import Testing

@testable import SweepCore

/// Every version 1-10 at every level, as qrencode renders it filled to capacity, scanned by the
/// binary for QR codes only at the fast effort: each record carries the grid decoder's details
/// (version, level, mask), so the grid decoder read every one (where ZBar read a code first,
/// the grid decoder read it again for its details). A version 2-L code once failed there: a
/// sharp alignment pattern was matched a quarter module off and the far corner thrown out.
@Suite("QR grid decoder sweep")
struct QRGridSweepTests {
    /// Bytes that fill version `v` at level `ec` in byte mode (4 mode bits, 8 or 16 length bits).
    static func capacity(_ v: Int, _ ec: QRErrorCorrection) -> Int {
        (QRBlockLayout(version: v, ec: ec).dataCodewords * 8 - 4 - (v < 10 ? 8 : 16)) / 8
    }

    @Test("versions 1-10 x L, M, Q, H from qrencode: every record has the right version, level and mask")
    func everyVersionAndLevel() throws {
        let dir = try TempDir("gridsweep")
        let root = try dir.mkdir("codes")
        var expected: [String: (payload: String, version: Int, ec: QRErrorCorrection, mask: Int)] = [:]
        for v in 1...10 {
            for ec in QRErrorCorrection.allCases {
                let payload = String((0..<Self.capacity(v, ec)).map { Character(UnicodeScalar(UInt8(97 + ($0 * 7 + v) % 26))) })
                let name = "v\(v)-\(ec.rawValue).png"
                try run(Tools.qrencode, ["-8", "-l", ec.rawValue, "-v", String(v), "-s", "5", "-o", root + "/" + name, payload])
                // The mask qrencode chose: its symbol's modules read back with the codeword layer.
                let ascii = try run(Tools.qrencode, ["-8", "-l", ec.rawValue, "-v", String(v), "-t", "ASCII", "-m", "0", "-o", "-", payload]).stdout
                let rows = ascii.split(separator: "\n").map { line in stride(from: 0, to: line.count, by: 2).map { Array(line)[$0] == "#" } }
                try #require(rows.count == QRStructure.size(version: v), "\(name): qrencode made another version")
                let matrix = QRMatrix(version: v, ec: ec, size: rows.count, modules: rows.flatMap { $0 })
                expected[name] = (payload, v, ec, try #require(matrix.detectMask(), "\(name)"))
            }
        }
        let r = try CLITests.codesweep(["scan", "--symbologies", "qr", "--effort", "fast", root])
        let records = try CLITests.records(r.stdout)
        #expect(records.count == 40)
        for record in records {
            let name = URL(fileURLWithPath: record["path"] as? String ?? "?").lastPathComponent
            let want = try #require(expected[name], "unexpected record \(name)")
            let codes = record["codes"] as? [[String: Any]] ?? []
            let code = try #require(codes.first, "\(name): not read")
            #expect(codes.count == 1 && code["text"] as? String == want.payload, "\(name)")
            let details = code["details"] as? [String: Any] ?? [:]
            #expect(details["version"] as? Int == want.version, "\(name): \(details)")
            #expect(details["ec_level"] as? String == want.ec.rawValue, "\(name): \(details)")
            #expect(details["mask"] as? Int == want.mask, "\(name): \(details)")
            #expect(details["mirrored"] as? Bool == false, "\(name): \(details)")
        }
    }
}
