import Foundation
import TestSupport
import Testing

/// `generate` with non-ASCII text: an ECI, and a word when there is none. Codes made by the
/// real binary, read back by zbarimg (Debian's zbar-tools, from scripts/install-deps.sh) and by the
/// binary's own scan.
@Suite("generate's charset designator (ECI)")
struct GenerateECITests {
    /// The first code of the scan's record for `path`.
    static func scannedCode(_ path: String) throws -> TestJSON? {
        let r = try run(codesweepBinary, ["scan", "-q", path], check: false)
        return try TestJSON.lines(r.stdout).first?["codes"]?.array?.first
    }

    static func generate(_ args: [String], in dir: TempDir) throws -> ProcessResult {
        try run(codesweepBinary, ["generate"] + args, currentDirectory: dir.path, check: false)
    }

    @Test("generate 'café' carries ECI 26 (UTF-8): zbarimg reads café, not caf矇; the made line says so")
    func utf8TextGetsECI() throws {
        let dir = try TempDir()
        let r = try Self.generate(["café", "-o", "cafe.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("ECI 26 (utf-8)"), "\(r.stderr)")
        #expect(!r.stderr.contains("warning"), "\(r.stderr)")
        #expect(try run(Tools.zbarimg, ["-q", "--raw", dir.file("cafe.png")], check: false).stdout == "café\n")
        let code = try #require(try Self.scannedCode(dir.file("cafe.png")))
        #expect(code["text"]?.string == "café" && code["encoding"]?.string == "utf-8")
        #expect(code["details"]?["eci"]?.int == 26, "the grid decoder sees the designator: \(code)")
        #expect(code["bytes_b64"]?.string == Data("café".utf8).base64EncodedString())

        // ASCII needs no designator.
        let ascii = try Self.generate(["https://example.com/", "-o", "ascii.png"], in: dir)
        #expect(ascii.status == 0 && !ascii.stderr.contains("ECI"), "\(ascii.stderr)")
        #expect(try Self.scannedCode(dir.file("ascii.png"))?["details"]?["eci"] == nil)
    }

    @Test(
        "a payload under an ECI keeps the symbol's own bytes: generate --charset iso-8859-1 café verifies, and its record holds 63 61 66 E9 (ZBar hands over the UTF-8 conversion)"
    )
    func eciPayloadKeepsItsBytes() throws {
        let dir = try TempDir()
        let r = try Self.generate(["--charset", "iso-8859-1", "café", "-o", "latin.png"], in: dir)
        #expect(r.status == 0 && r.stderr.contains("reads back"), "\(r.stderr)")
        let code = try #require(try Self.scannedCode(dir.file("latin.png")))
        #expect(code["bytes_b64"]?.string == "Y2Fm6Q==" && code["text"]?.string == "café", "\(code)")
        #expect(code["details"]?["eci"]?.int == 3, "\(code)")
    }

    @Test("every output form reads a payload in the charset its ECI names: ISO-8859-1 bytes C3 A9 are Ã©, in JSON, CSV, text and --raw alike")
    func everyFormHonoursTheECI() throws {
        let dir = try TempDir()
        let r = try Self.generate(["--charset", "iso-8859-1", "Ã©", "-o", "latin.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let path = dir.file("latin.png")
        let code = try #require(try Self.scannedCode(path))
        // The same bytes read as UTF-8 (no designator) would be "é".
        #expect(code["details"]?["eci"]?.int == 3 && code["text"]?.string == "Ã©" && code["bytes_b64"]?.string == "w6k=", "\(code)")
        let csv = try run(codesweepBinary, ["scan", "-q", "--format", "csv", path], check: false).stdout
        #expect(csv.contains(",Ã©,"), "\(csv)")
        let text = try run(codesweepBinary, ["scan", "-q", "--format", "text", path], check: false).stdout
        #expect(text.hasSuffix(" Ã©\n"), "\(text)")
        let raw = try run(codesweepBinary, ["scan", "-q", "--raw", path], check: false).stdout
        #expect(raw == "Ã©\n", "\(raw)")
    }

    @Test("without an ECI a non-ASCII payload gets a word: --no-eci on UTF-8 text, and bytes that are not UTF-8")
    func noECIIsSaid() throws {
        let dir = try TempDir()
        let r = try Self.generate(["--no-eci", "café", "-o", "plain.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: plain.png: no ECI (--no-eci): readers must guess"), "\(r.stderr)")
        #expect(try Self.scannedCode(dir.file("plain.png"))?["details"]?["eci"] == nil)

        try Data([0x63, 0x61, 0x66, 0xE9]).write(to: URL(fileURLWithPath: dir.file("latin1.bin")))  // "café" in ISO-8859-1
        let bin = try Self.generate(["--file", "latin1.bin", "-o", "latin1.png"], in: dir)
        #expect(bin.status == 0, "\(bin.stderr)")
        #expect(bin.stderr.contains("warning: latin1.png: the payload is not UTF-8 text"), "\(bin.stderr)")
        #expect(try Self.scannedCode(dir.file("latin1.png"))?["bytes_b64"]?.string == "Y2Fm6Q==", "the bytes stay as given")
    }
}
