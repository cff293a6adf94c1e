import Foundation
import TestSupport
import Testing

/// The symbologies zxing-cpp 3.1 adds, read from the fixtures of Tests/Fixtures: one code of
/// our own for each (segno, zint; `scripts/make-symbology-fixtures.py`) and one real sample of
/// zxing-cpp's own test set, each with the bytes zxing-cpp 3.1 from PyPI read (its manifest.json).
@Suite("zxing-cpp 3.1's symbologies: every fixture read, with its details")
struct SymbologyFixtureTests {
    struct Expected { var file: String, symbology: String, bytes: String, version: String? }

    static func expected(_ folder: String) throws -> [Expected] {
        let manifest = try TestJSON.parse(try String(contentsOfFile: folder + "/manifest.json", encoding: .utf8))
        return try #require(manifest["files"]?.array).compactMap { f in
            guard let file = f["file"]?.string, let symbology = f["symbology"]?.string, !file.hasPrefix("qr-sequence"),
                let read = f["zxing_cpp_pypi"]?.array?.first, let bytes = read["bytes_b64"]?.string
            else { return nil }
            return Expected(file: file, symbology: symbology, bytes: bytes, version: read["extra"]?["Version"]?.string)
        }
    }

    /// Each file's record, by name, from one scan of the folder.
    static func scan(_ folder: String, _ extra: [String] = []) throws -> [String: TestJSON] {
        let r = try run(codesweepBinary, ["scan", "-q"] + extra + [folder], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        var records: [String: TestJSON] = [:]
        for line in r.stdoutLines {
            let rec = try TestJSON.parse(line)
            if let path = rec["path"]?.string { records[(path as NSString).lastPathComponent] = rec }
        }
        return records
    }

    @Test("each new symbology, our own code and zxing-cpp's sample, reads with zxing-cpp 3.1's bytes", arguments: ["symbologies", "zxing-samples"])
    func everyFixture(_ folder: String) throws {
        let dir = PackageRoot.path + "/Tests/Fixtures/" + folder
        let want = try Self.expected(dir)
        #expect(
            Set(want.map(\.symbology)).isSuperset(of: [
                "microqr", "rmqr", "maxicode", "databar-ltd", "databar-exp-stacked", "micropdf417", "telepen", "dxfilmedge",
            ]))
        let records = try Self.scan(dir)
        for e in want {
            let codes = records[e.file]?["codes"]?.array ?? []
            let code = codes.first { $0["symbology"]?.string == e.symbology && $0["bytes_b64"]?.string == e.bytes }
            #expect(code != nil, "\(folder)/\(e.file): \(codes.map { "\($0["symbology"]?.string ?? "?") \($0["bytes_b64"]?.string ?? "?")" })")
            #expect(codes.count == 1, "\(folder)/\(e.file): \(codes.count) codes")
            if let v = e.version, let code {
                let got = code["details"]?["version"]
                #expect(
                    got?.string == v || got?.int.map(String.init) == v, "\(e.file): version \(String(describing: got?.string ?? got?.int.map(String.init)))")
            }
            #expect(code?["details"]?["symbology_id"]?.string?.hasPrefix("]") == true, "\(e.file)")
        }
    }

    @Test("--symbologies names each new one, and a scan for another finds none of them")
    func onlyWhatIsAsked() throws {
        let dir = PackageRoot.path + "/Tests/Fixtures/symbologies"
        let only = try Self.scan(dir, ["--symbologies", "microqr,rmqr"])
        let found = only.values.flatMap { $0["codes"]?.array ?? [] }.compactMap { $0["symbology"]?.string }
        #expect(Set(found) == ["microqr", "rmqr"], "\(found)")
        let qrOnly = try Self.scan(dir, ["--symbologies", "qr"])
        let qrFound = qrOnly.values.flatMap { $0["codes"]?.array ?? [] }.compactMap { $0["symbology"]?.string }
        #expect(Set(qrFound) == ["qr"], "\(qrFound)")
    }
}
