import Foundation
import TestSupport
import Testing

/// Every QR code read carries its version, EC level, mask and mirroring (issue 39), checked on
/// symbols of another encoder: zint, told the version, the level and the mask, so what the record
/// must say is known before the scan. Drawn at 4-6 px a module with zint's 4-module quiet zone,
/// some mirrored (`-flop`), turned or tilted in perspective with ImageMagick, and scanned by the
/// binary with its default symbologies at the fast and the normal effort, where ZBar may read a
/// code first: its record must still carry the details, all of them right.
/// Before, the version 40 code was not located (see `DenseLocateTests`): ZBar read it and its
/// record had no details. `make bench-qr-details` does the same on 160 codes of segno's.
@Suite("QR details: version, EC level, mask and mirroring in every QR record")
struct QRDetailsTests {
    struct Symbol {
        var name: String, version: Int, level: String, mask: Int, px: Double, mirrored: Bool
        var convert: [String] = []
        var text: String
    }

    static let levels = ["L": "1", "M": "2", "Q": "3", "H": "4"]

    /// A payload of `count` characters of `alphabet` (seeded by the length, no randomness).
    static func text(_ count: Int, _ alphabet: String) -> String {
        let a = Array(alphabet)
        return String((0..<count).map { a[($0 * 7 + count) % a.count] })
    }

    static let symbols: [Symbol] = [
        Symbol(name: "v01-H-plain", version: 1, level: "H", mask: 6, px: 4, mirrored: false, text: "QR 1-H"),
        Symbol(
            name: "v07-L-mirrored", version: 7, level: "L", mask: 3, px: 5, mirrored: true,
            text: "https://example.com/mirrored?" + text(90, "abcdefghijklmnopqrstuvwxyz0123456789")),
        Symbol(
            name: "v12-Q-turned", version: 12, level: "Q", mask: 1, px: 4, mirrored: false,
            convert: ["-background", "white", "-rotate", "17"], text: text(150, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:")),
        Symbol(
            name: "v25-M-tilted-mirrored", version: 25, level: "M", mask: 7, px: 5, mirrored: true,
            convert: ["-virtual-pixel", "white", "-distort", "Perspective", "0,0 30,12  700,0 690,0  700,700 680,690  0,700 8,700"],
            text: text(700, "0123456789")),
        Symbol(
            name: "v40-L-turned-mirrored", version: 40, level: "L", mask: 0, px: 6, mirrored: true,
            convert: ["-background", "white", "-rotate", "-8"], text: text(1800, "abcdefghijklmnopqrstuvwxyz -/.")),
    ]

    /// Writes each symbol as OUT/name.png: zint's symbol (its QR modules at `px` px), mirrored and
    /// distorted by ImageMagick as the symbol asks.
    static func draw(_ dir: TempDir) throws -> String {
        let root = try dir.mkdir("codes")
        for s in symbols {
            let made = dir.file(s.name + "-zint.png")
            try run(
                Tools.zint,
                [
                    "-b", "58", "--vers=\(s.version)", "--secure=\(levels[s.level]!)", "--mask=\(s.mask)", "--quietzones",
                    "--scale=\(s.px / 2)", "-d", s.text, "-o", made,
                ])
            try Make.convert([made] + (s.mirrored ? ["-flop"] : []) + s.convert + [root + "/" + s.name + ".png"])
        }
        return root
    }

    @Test("versions 1, 7, 12, 25, 40 at every level and mask 0, 1, 3, 6, 7, mirrored, turned and tilted: fast and normal records carry them all, right")
    func detailsRight() throws {
        let dir = try TempDir("qrdetails")
        let root = try Self.draw(dir)
        for effort in ["fast", "normal"] {
            let r = try CLITests.codesweep(["scan", "-q", "--effort", effort, root])
            #expect(r.status == 0, "\(effort): \(r.stderr)")
            let records = try CLITests.records(r.stdout)
            #expect(records.count == Self.symbols.count, "\(effort)")
            for s in Self.symbols {
                let record = try #require(records.first { ($0["path"] as? String)?.hasSuffix("/" + s.name + ".png") == true }, "\(effort) \(s.name)")
                let codes = record["codes"] as? [[String: Any]] ?? []
                #expect(codes.count == 1, "\(effort) \(s.name): \(codes.count) codes")
                let code = try #require(codes.first, "\(effort) \(s.name): not read")
                #expect(code["symbology"] as? String == "qr" && code["text"] as? String == s.text, "\(effort) \(s.name)")
                let details = code["details"] as? [String: Any] ?? [:]
                let pass = code["pass"] as? String ?? "?"
                #expect(details["version"] as? Int == s.version, "\(effort) \(s.name) (pass \(pass)): \(details)")
                #expect(details["ec_level"] as? String == s.level, "\(effort) \(s.name) (pass \(pass)): \(details)")
                #expect(details["mask"] as? Int == s.mask, "\(effort) \(s.name) (pass \(pass)): \(details)")
                #expect(details["mirrored"] as? Bool == s.mirrored, "\(effort) \(s.name) (pass \(pass)): \(details)")
            }
        }
    }
}
