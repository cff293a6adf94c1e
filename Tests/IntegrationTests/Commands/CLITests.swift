import CodeSweep
import Foundation
import Records
import TestSupport
import Testing

@testable import SweepCore

/// The built `codesweep` executable, run end to end as a user would.
@Suite("CLI")
struct CLITests {
    static func codesweep(_ args: [String], in cwd: String? = nil) throws -> ProcessResult {
        #expect(FileManager.default.isExecutableFile(atPath: codesweepBinary), "codesweep not built at \(codesweepBinary)")
        return try run(codesweepBinary, args, currentDirectory: cwd, check: false)
    }

    static func records(_ text: String) throws -> [[String: Any]] {
        try TestJSON.lines(text).map { try #require($0.value as? [String: Any], "not a JSON object: \($0)") }
    }

    /// Each record's path, a container's member by its location (`bundle.zip!/labels/a-qr.png`).
    static func paths(_ records: [[String: Any]]) -> [String] { records.map { ($0["location"] ?? $0["path"]) as? String ?? "?" } }

    static func texts(_ record: [String: Any]) -> [String] {
        (record["codes"] as? [[String: Any]] ?? []).map { $0["text"] as? String ?? "?" }
    }

    /// A small tree under `dir/scan`: two QR images and a QR + Code 128 image.
    static func goodTree(_ dir: TempDir) throws -> String {
        try dir.mkdir("scan/sub")
        _ = try Make.qrOnCanvas("cli one", in: dir, name: "scan/one.png", width: 200, height: 150, at: 10, 10)
        _ = try Make.qrOnCanvas("cli two", in: dir, name: "scan/sub/two.jpg", width: 200, height: 150, at: 40, 10)
        let bars = dir.file("bars.png")
        try Make.zint(type: 20, "CLI-128", to: bars)
        _ = try Make.qrOnCanvas(
            "cli both", in: dir, name: "scan/both.png", width: 480, height: 200, at: 10, 20,
            extra: [bars, "-geometry", "+200+50", "-composite"])
        return dir.file("scan")
    }

    @Test func scanWritesOneValidRecordPerFileAndExitsZero() throws {
        let dir = try TempDir()
        let root = try Self.goodTree(dir)
        let r = try Self.codesweep(["scan", "--quiet", root])
        #expect(r.status == 0, "\(r.stderr)")
        let recs = try Self.records(r.stdout)
        #expect(Self.paths(recs) == [root + "/both.png", root + "/one.png", root + "/sub/two.jpg"])
        #expect(recs.allSatisfy { $0["status"] as? String == "ok" })
        #expect(Self.texts(recs[0]).sorted() == ["CLI-128", "cli both"])
        #expect(Self.texts(recs[1]) == ["cli one"])
        #expect(Self.texts(recs[2]) == ["cli two"])
        let code = try #require((recs[1]["codes"] as? [[String: Any]])?.first)
        for key in ["symbology", "text", "bytes_b64", "encoding", "corners", "frame", "quality", "pass"] {
            #expect(code[key] != nil, "code field \(key) missing")
        }
        for key in ["path", "status", "format", "width", "height", "orientation", "frames", "codes", "size", "mtime"] {
            #expect(recs[1][key] != nil, "record field \(key) missing")
        }
        // The default subcommand is scan.
        let implicit = try Self.codesweep(["--quiet", root])
        #expect(implicit.status == 0 && implicit.stdout == r.stdout)
    }

    @Test func failedFilesGiveExitOneAndEveryOtherRecord() throws {
        let dir = try TempDir()
        let root = try Self.goodTree(dir)
        try dir.write("scan/bad.jpg", [0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 0x41, count: 300))
        try dir.write("scan/zero.gif", [])
        let r = try Self.codesweep(["scan", root])
        #expect(r.status == 1, "\(r.stderr)")
        let recs = try Self.records(r.stdout)
        #expect(Self.paths(recs).map { String($0.dropFirst(root.count + 1)) } == ["bad.jpg", "both.png", "one.png", "sub/two.jpg", "zero.gif"])
        #expect(recs.map { $0["status"] as? String ?? "" } == ["error", "ok", "ok", "ok", "error"])
        #expect((recs[4]["error"] as? [String: Any])?["kind"] as? String == "empty")
        #expect(((recs[0]["error"] as? [String: Any])?["message"] as? String)?.isEmpty == false)
        // A path that does not exist is a record too, with the same exit status.
        let missing = try Self.codesweep(["scan", dir.file("nope.png"), root + "/one.png"])
        #expect(missing.status == 1)
        let mrecs = try Self.records(missing.stdout)
        #expect(mrecs.count == 2 && (mrecs[0]["error"] as? [String: Any])?["kind"] as? String == "not_found")
    }

    @Test(arguments: [
        ["scan", "--jobs", "0", "."],
        ["scan", "--symbologies", "nope", "."],
        ["scan", "--roi", "0.9,0,0.5,0.5", "."],
        ["scan", "--no-such-option", "."],
        ["scan"],
        ["plan", "--effort", "extreme"],
    ])
    func usageErrorsExitTwo(_ args: [String]) throws {
        let r = try Self.codesweep(args)
        #expect(r.status == 2, "\(args) exited \(r.status): \(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.isEmpty)
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try Self.codesweep(["--help"])
        #expect(help.status == 0)
        // Help is wrapped to the terminal's width: compare with runs of white space collapsed.
        let flat = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(flat.contains("Exit status: 0 every file was read, 1 some files failed, 2 usage or fatal error, 4 no code found (scan --fail-if-none)."))
        let scanHelp = try Self.codesweep(["scan", "--help"])
        #expect(scanHelp.status == 0 && scanHelp.stdout.contains("--follow-symlinks"))
        let version = try Self.codesweep(["--version"])
        #expect(version.status == 0 && !version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    /// Issue 63: the first thing a user runs said the tool "decodes barcodes and QR codes with
    /// ZBar at several scales". The overview names the readers and the libraries each input
    /// kind is read with (the ones `codesweep formats` lists), and scan's says '-' is any input.
    @Test("--help says what the engine does now")
    func helpSaysWhatTheEngineDoes() throws {
        func flat(_ args: [String]) throws -> String {
            let r = try Self.codesweep(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            return r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        }
        let help = try flat(["--help"])
        for name in [
            "zxing-cpp \(BarcodeReader.zxingVersion)", "ZBar", "QR locator and grid decoder", "ImageMagick", "Poppler", "librsvg", "libarchive", "GMime",
            "FFmpeg", "libcurl", "`codesweep formats`", "`codesweep plan`",
        ] {
            #expect(help.contains(name), "\(name) in \(help)")
        }
        #expect(!help.contains("several scales"))
        let scan = try flat(["scan", "--help"])
        #expect(scan.contains("'-' reads one input from standard input"), "\(scan)")
        #expect(scan.contains("scan never goes online"), "\(scan)")
    }

    @Test func unwritableOutputIsAFatalErrorWithExitTwo() throws {
        let dir = try TempDir()
        let root = try Self.goodTree(dir)
        let r = try Self.codesweep(["scan", "--output", dir.file("no/such/folder/out.jsonl"), root])
        #expect(r.status == 2, "exited \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("cannot open"))
        #expect(r.stdout.isEmpty)
    }

    @Test func outputOptionWritesTheReportToAFile() throws {
        let dir = try TempDir()
        let root = try Self.goodTree(dir)
        let toStdout = try Self.codesweep(["scan", "-q", root])
        let out = dir.file("report.jsonl")
        try dir.write("report.jsonl", Array("old content that must be replaced\n".utf8))
        let r = try Self.codesweep(["scan", "-q", "--output", out, root])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written == toStdout.stdout)
        #expect(try Self.records(written).count == 3)
    }

    @Test func symbologiesFilterWhatIsReported() throws {
        let dir = try TempDir()
        let root = try Self.goodTree(dir)
        let both = root + "/both.png"
        let qrOnly = try Self.codesweep(["scan", "-q", "--symbologies", "qr", both])
        #expect(Self.texts(try Self.records(qrOnly.stdout)[0]) == ["cli both"])
        let barsOnly = try Self.codesweep(["scan", "-q", "--symbologies", "code128", both])
        #expect(Self.texts(try Self.records(barsOnly.stdout)[0]) == ["CLI-128"])
        let noQR = try Self.codesweep(["scan", "-q", "--symbologies", "default,-qr", both])
        #expect(Self.texts(try Self.records(noQR.stdout)[0]) == ["CLI-128"])
        let ean = try Self.codesweep(["scan", "-q", "--symbologies", "ean", both])
        #expect(Self.texts(try Self.records(ean.stdout)[0]).isEmpty)
        #expect(ean.status == 0)
    }

    @Test func symbologiesCommandListsEveryNameAndGroup() throws {
        let r = try Self.codesweep(["symbologies"])
        #expect(r.status == 0)
        let firstWords = Set(r.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        for s in Symbology.allCases { #expect(firstWords.contains(s.rawValue), "\(s.rawValue) not listed") }
        for g in SymbologySet.groups { #expect(firstWords.contains(g.name), "group \(g.name) not listed") }
    }

    @Test(arguments: Effort.allCases)
    func planCommandPrintsThePlan(_ effort: Effort) throws {
        let r = try Self.codesweep(["plan", "--effort", effort.rawValue])
        #expect(r.status == 0)
        let plan = ScanPlan.forEffort(effort)
        #expect(r.stdout.trimmingCharacters(in: .newlines) == plan.listing)
        // A header, what the level is for, a line a pass of each path with a line naming the path,
        // then "settings:" and a line a setting.
        #expect(r.stdoutLines.count == plan.passes.count + plan.digital.count + 5 + plan.settings.listing.count)
        #expect(r.stdoutLines[1] == "for: \(effort.purpose)")
        #expect(r.stdoutLines[2] == "a photo or a scan:")
        #expect(
            r.stdout.contains(
                "a clean digital frame (a screenshot, a rendered page; no camera noise):\n  1. zxing-frame: full resolution → zxing-cpp[all] tries harder"))
        for p in plan.passes + plan.digital { #expect(r.stdout.contains(p.name)) }
    }

    @Test func jobsDoNotChangeTheOutput() throws {
        let dir = try TempDir()
        let root = try Self.goodTree(dir)
        for i in 0..<5 { _ = try Make.qrOnCanvas("extra \(i)", in: dir, name: "scan/e\(i).png", width: 150, height: 150, at: 5, 5) }
        try dir.write("scan/e2-broken.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let one = try Self.codesweep(["scan", "-q", "--jobs", "1", root])
        let four = try Self.codesweep(["scan", "-q", "-j", "4", root])
        #expect(one.status == 1 && four.status == 1)
        #expect(try Self.records(one.stdout).count == 9)
        #expect(one.stdout == four.stdout)
    }

    @Test func walkingOptions() throws {
        let dir = try TempDir()
        try dir.mkdir("w/.secret")
        try dir.mkdir("w/photos/raw")
        for name in ["a.png", ".b.png", ".secret/c.png", "photos/d.jpg", "photos/raw/e.png"] {
            _ = try Make.qrOnCanvas("walk " + name, in: dir, name: "w/" + name, width: 150, height: 150, at: 5, 5)
        }
        // A loop back to the top and a link to a folder outside the tree.
        try FileManager.default.createSymbolicLink(atPath: dir.file("w/photos/loop"), withDestinationPath: "..")
        try dir.mkdir("elsewhere")
        _ = try Make.qrOnCanvas("walk linked", in: dir, name: "elsewhere/f.png", width: 150, height: 150, at: 5, 5)
        try FileManager.default.createSymbolicLink(atPath: dir.file("w/linked"), withDestinationPath: dir.file("elsewhere"))
        let root = dir.file("w")

        func walked(_ extra: [String]) throws -> [String] {
            let r = try Self.codesweep(["scan", "-q"] + extra + [root])
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            return Self.paths(try Self.records(r.stdout)).map { String($0.dropFirst(root.count + 1)) }
        }
        #expect(try walked([]) == ["a.png", "photos/d.jpg", "photos/raw/e.png"])
        #expect(try walked(["--hidden"]) == [".b.png", ".secret/c.png", "a.png", "photos/d.jpg", "photos/raw/e.png"])
        #expect(try walked(["--include", "*.png"]) == ["a.png", "photos/raw/e.png"])
        #expect(try walked(["--exclude", "raw"]) == ["a.png", "photos/d.jpg"])
        #expect(try walked(["--include", "*.jpg", "--include", "a.*"]) == ["a.png", "photos/d.jpg"])
        #expect(try walked(["--follow-symlinks"]) == ["a.png", "linked/f.png", "photos/d.jpg", "photos/raw/e.png"])
        let r = try Self.codesweep(["scan", "-q", "--follow-symlinks", root])
        #expect(Self.texts(try Self.records(r.stdout)[1]) == ["walk linked"])
    }

    @Test func samplesFolderEndToEnd() throws {
        let r = try Self.codesweep(["scan", "-q", "Samples"], in: PackageRoot.path)
        // Samples/corrupt.jpg fails on purpose.
        #expect(r.status == 1)
        let recs = try Self.records(r.stdout)
        let expected = try String(contentsOfFile: PackageRoot.samples + "/expected.jsonl", encoding: .utf8)
            .split(separator: "\n").compactMap { line -> String? in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
            }
        #expect(Self.paths(recs) == expected.map { "Samples/" + $0 })
        #expect(recs.filter { $0["status"] as? String == "error" }.count == 1)
    }
}
