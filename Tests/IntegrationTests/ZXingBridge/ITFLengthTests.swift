import Foundation
import TestSupport
import Testing

/// The shortest ITF payload: by default each reader's own rule (ZBar 6 digits; zxing-cpp 6, or 4
/// for a code alone on its line), as zbarimg and ZXingReader read; `--min-itf-length` holds for
/// every reader (Tests/Fixtures/itf).
@Suite("ITF length: each reader's rule, or the one given for all")
struct ITFLengthTests {
    static let dir = PackageRoot.path + "/Tests/Fixtures/itf"

    static func texts(_ file: String, _ extra: [String] = []) throws -> [String] {
        let r = try run(codesweepBinary, ["scan", "-q"] + extra + [Self.dir + "/" + file])
        let codes = try TestJSON.parse(r.stdout)["codes"]?.array ?? []
        return codes.compactMap { $0["symbology"]?.string == "itf" ? $0["text"]?.string : nil }
    }

    @Test("a 4-digit ITF alone in its image is read as zxing-cpp reads it; --min-itf-length 6 drops it, 4 keeps it")
    func fourDigits() throws {
        #expect(try Self.texts("itf-1515.png") == ["1515"])
        #expect(try Self.texts("itf-1515.png", ["--min-itf-length", "6"]).isEmpty)
        #expect(try Self.texts("itf-1515.png", ["--min-itf-length", "4"]) == ["1515"])
        // ZBar alone (its own minimum of 6) does not read it: thorough's ZBar passes run too.
        #expect(try Self.texts("itf-1515.png", ["--effort", "thorough", "--min-itf-length", "4"]) == ["1515"])
    }

    @Test("a given minimum holds for every reader: a 6-digit ITF is dropped under --min-itf-length 8")
    func givenMinimum() throws {
        #expect(try Self.texts("itf-123456.png") == ["123456"])
        #expect(try Self.texts("itf-123456.png", ["--min-itf-length", "8"]).isEmpty)
        #expect(try Self.texts("itf-123456.png", ["--effort", "thorough", "--min-itf-length", "8"]).isEmpty)
    }

    @Test("--min-itf-length under 2 is refused with a clear message")
    func refused() throws {
        let r = try run(codesweepBinary, ["scan", "-q", "--min-itf-length", "1", Self.dir], check: false)
        #expect(r.status == 2, "\(r.status)")
        #expect(r.stderr.contains("--min-itf-length takes a number of digits, at least 2"), "\(r.stderr)")
    }
}
