import Foundation
import Reporting
import SweepCore
import Testing

/// A folder of real QR images with hostile payloads and names, scanned by the real CLI in each
/// format; the outputs are parsed by independent strict parsers (python3's csv module, our
/// strict JSON parser) and checked against the jsonl records and the JSON Schemas.
struct HostileFixture {
    let dir: String
    /// File name -> payload bytes.
    static let payloads: [(name: String, bytes: [UInt8])] = [
        ("formula.png", Array("=HYPERLINK(\"http://evil.example\",\"click, here\")".utf8)),
        ("multiline.png", Array("a,b,\"c\"\r\nline2\nline3 \"end\"".utf8)),
        ("plus.png", Array("+1234".utf8)),
        ("minus.png", Array("-2+3".utf8)),
        ("at.png", Array("@SUM(A1:A9)".utf8)),
        ("tab.png", Array("\tTAB-led".utf8)),
        // Few enough controls to count as text (more than 1 in 10 makes it binary).
        ("escape.png", Array("Note: \u{1B}[31mred\u{1B}[0m alert \u{1B}]0;title\u{07} then \u{202E}gnp.exe and \u{9B}2J; the rest is ordinary text".utf8)),
        // A quote and a comma followed by combining marks: one Swift Character each, but a CSV
        // reader still sees the quote and the comma (Foundation's contains/replacingOccurrences miss them).
        ("combining.png", Array("x\"\u{301}y,\u{301}z".utf8)),
        ("url.png", Array("https://example.com/?a=1&b=2".utf8)),
        ("sjis.png", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x83, 0x65, 0x83, 0x4C, 0x83, 0x58, 0x83, 0x67]), // 日本語のテキスト
        ("binary.png", [0x00, 0xFF, 0x1B, 0x80, 0x01, 0x02, 0xFE, 0x9B, 0x0A, 0x0D, 0x00, 0x7F, 0x10, 0x11, 0x12, 0x13]),
        ("evil\u{1B}[2J\u{202E}name\n.png", Array("named badly".utf8)),
    ]

    init() throws {
        dir = try ReportTestSupport.makeTempDir("hostile")
        do { try populate() } catch { remove(); throw error }
    }

    private func populate() throws {
        for p in Self.payloads { try ReportTestSupport.makeQR(p.bytes, at: dir + "/" + p.name) }
        // An image without a code, and a file that is not an image.
        let blank = try ReportTestSupport.run("/usr/bin/convert", ["-size", "64x64", "xc:white", dir + "/blank.png"])
        guard blank.status == 0 else { throw TestFailure("convert failed: \(blank.err)") }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }

    func scan(_ args: [String]) throws -> ReportTestSupport.Result {
        try ReportTestSupport.run(ReportTestSupport.cliPath, ["scan", "--quiet", "--jobs", "2"] + args + [dir])
    }

    /// The jsonl records, the reference the other formats are compared with.
    func records() throws -> [TJSON] {
        let r = try scan([])
        #expect(r.status == 1, "broken.jpg fails, so exit status 1: \(r.err)")
        return try r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { try TJSON.parse(String($0)) }
    }
}

@Suite("Report formats")
struct ReportFormatTests {
    static let pythonCSV = """
    import csv, json, sys
    with open(sys.argv[1], newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f, strict=True))
    json.dump(rows, sys.stdout)
    """

    static func parseCSV(_ data: Data) throws -> [[String]] {
        let file = NSTemporaryDirectory() + "codesweep-csv-\(UUID().uuidString).csv"
        try data.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let py = try ReportTestSupport.run("/usr/bin/env", ["python3", "-c", pythonCSV, file])
        guard py.status == 0 else { throw TestFailure("python csv rejected the file: \(py.err)") }
        return try TJSON.parse(py.out).array!.map { $0.array!.map { $0.string! } }
    }

    static func formulaSafe(_ s: String) -> String {
        guard let f = s.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(f) else { return s }
        return "'" + s
    }

    @Test(arguments: [false, true])
    func csvParsesStrictlyAndMatchesTheRecords(rawFormulas: Bool) throws {
        let fx = try HostileFixture()
        defer { fx.remove() }
        let records = try fx.records()
        let r = try fx.scan(["--format", "csv", "--csv-all-files"] + (rawFormulas ? ["--csv-raw-formulas"] : []))
        #expect(r.status == 1)
        #expect(r.stdout.suffix(2) == Data("\r\n".utf8), "rows end in CRLF")
        let rows = try Self.parseCSV(r.stdout)
        #expect(rows.first == CSVSink.codeColumns + CSVSink.fileColumns)
        let body = Array(rows.dropFirst())
        #expect(body.allSatisfy { $0.count == 18 }, "every row has every column")
        let cell = { (row: [String], name: String) -> String in row[rows[0].firstIndex(of: name)!] }
        let fix = { (s: String) -> String in rawFormulas ? s : Self.formulaSafe(s) }

        var expectedRows = 0
        for rec in records {
            let path = rec["path"]!.string!
            let mine = body.filter { cell($0, "path") == fix(path) }
            let codes = rec["codes"]!.array!
            if codes.isEmpty {
                expectedRows += 1
                #expect(mine.count == 1, "one row for \(path)")
                #expect(mine.first.map { cell($0, "status") } == rec["status"]!.string)
                #expect(mine.first.map { cell($0, "error_kind") } == (rec["error"]?["kind"]?.string ?? ""))
                #expect(mine.first.map { cell($0, "error_message") } == (rec["error"]?["message"]?.string).map(fix) ?? "")
                continue
            }
            expectedRows += codes.count
            #expect(mine.count == codes.count)
            for (row, code) in zip(mine, codes) {
                #expect(cell(row, "text") == fix(code["text"]?.string ?? ""))
                #expect(cell(row, "bytes_b64") == fix(code["bytes_b64"]!.string!))
                #expect(cell(row, "encoding") == code["encoding"]!.string!)
                #expect(cell(row, "symbology") == code["symbology"]!.string!)
                #expect(cell(row, "frame") == String(code["frame"]!.int!))
                #expect(cell(row, "pass") == code["pass"]!.string!)
                let corners = code["corners"]!.array!.flatMap { $0.array!.map { $0.double! } }
                let csvCorners = ["x0", "y0", "x1", "y1", "x2", "y2", "x3", "y3"].map { Double(cell(row, $0))! }
                #expect(csvCorners == corners)
                #expect(cell(row, "status") == "ok")
            }
        }
        #expect(body.count == expectedRows)
        // The hostile payloads survived exactly (modulo the documented leading quote).
        let texts = Set(body.map { cell($0, "text") })
        for p in HostileFixture.payloads where p.name != "binary.png" && p.name != "sjis.png" {
            #expect(texts.contains(fix(String(decoding: p.bytes, as: UTF8.self))), "\(p.name)")
        }
        #expect(texts.contains("日本語のテキスト"))
        if !rawFormulas {
            #expect(body.allSatisfy { row in row.allSatisfy { c in !["=", "+", "-", "@", "\t", "\r"].contains(c.unicodeScalars.first ?? " ") || Double(c) != nil } })
        }
    }

    @Test func csvDefaultHasOneRowPerCodeOnly() throws {
        let fx = try HostileFixture()
        defer { fx.remove() }
        let rows = try Self.parseCSV(try fx.scan(["--format", "csv"]).stdout)
        #expect(rows.first == CSVSink.codeColumns)
        #expect(rows.count == 1 + HostileFixture.payloads.count)
    }

    @Test func csvQuotingIsByteLevel() {
        // A quote or comma followed by a combining mark is one Swift Character, but still a
        // quote or comma to every CSV reader.
        #expect(CSVSink.quoted("a\"\u{301}b") == "\"a\"\"\u{301}b\"")
        #expect(CSVSink.quoted("a,\u{301}b") == "\"a,\u{301}b\"")
        #expect(CSVSink.quoted("plain") == "plain")
        #expect(CSVSink.neutralised("=1+1") == "'=1+1")
        #expect(CSVSink.neutralised("\r=1") == "'\r=1")
        #expect(CSVSink.neutralised("a=1") == "a=1")
    }

    @Test func textNeverPrintsControlCharacters() throws {
        let fx = try HostileFixture()
        defer { fx.remove() }
        let r = try fx.scan(["--format", "text"])
        #expect(r.status == 1)
        let out = r.out
        #expect(String(validating: [UInt8](r.stdout), as: UTF8.self) != nil)
        for u in out.unicodeScalars where u != "\n" {
            #expect(!TerminalText.isUnsafe(u), "raw U+\(String(u.value, radix: 16)) in text output")
        }
        #expect(!r.stdout.contains(0x1B))
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        // One line per code plus one per failed file; the blank image prints nothing.
        #expect(lines.count == HostileFixture.payloads.count + 1)
        let d = fx.dir
        #expect(lines.contains("\(d)/url.png: QR Code https://example.com/?a=1&b=2"))
        #expect(lines.contains("\(d)/escape.png: QR Code Note: \\x1b[31mred\\x1b[0m alert \\x1b]0;title\\x07 then \\u{202E}gnp.exe and \\u{009B}2J; the rest is ordinary text"))
        #expect(lines.contains("\(d)/multiline.png: QR Code a,b,\"c\"\\r\\nline2\\nline3 \"end\""))
        #expect(lines.contains("\(d)/evil\\x1b[2J\\u{202E}name\\n.png: QR Code named badly"))
        #expect(lines.contains("\(d)/sjis.png: QR Code 日本語のテキスト"))
        #expect(lines.contains { $0.hasPrefix("\(d)/binary.png: QR Code [binary, 16 bytes] ") })
        #expect(lines.contains { $0.hasPrefix("\(d)/broken.jpg: error not_image: ") })
        #expect(!lines.contains { $0.hasPrefix("\(d)/blank.png") })
    }

    @Test func terminalEscaping() {
        #expect(TerminalText.escape("a\u{1B}[2Jb") == "a\\x1b[2Jb")
        #expect(TerminalText.escape("x\\n") == "x\\\\n", "a literal backslash-n stays distinguishable from a newline")
        #expect(TerminalText.escape("\u{7F}\u{0}\u{85}\u{2066}\u{2029}") == "\\x7f\\x00\\u{0085}\\u{2066}\\u{2029}")
        #expect(TerminalText.escape("日本 é 😀") == "日本 é 😀")
    }

    @Test func jsonlRecordsMatchTheRecordSchema() throws {
        let fx = try HostileFixture()
        defer { fx.remove() }
        let validator = try SchemaValidator(file: ReportTestSupport.packageRoot.appendingPathComponent("docs/schema/record.schema.json").path)
        let records = try fx.records()
        #expect(records.count == HostileFixture.payloads.count + 2)
        for rec in records {
            #expect(validator.validate(rec) == [], "\(rec["path"]?.string ?? "?")")
        }
    }

    @Test(arguments: [true, false])
    func jsonDocumentMatchesTheReportSchema(toFile: Bool) throws {
        let fx = try HostileFixture()
        defer { fx.remove() }
        let target = fx.dir + ".report.json"
        defer { try? FileManager.default.removeItem(atPath: target) }
        let r = try fx.scan(["--format", "json"] + (toFile ? ["-o", target] : []))
        #expect(r.status == 1)
        let text = toFile ? try String(contentsOfFile: target, encoding: .utf8) : r.out
        if toFile { #expect(r.stdout.isEmpty) }
        let doc = try TJSON.parse(text)
        let validator = try SchemaValidator(file: ReportTestSupport.packageRoot.appendingPathComponent("docs/schema/report.schema.json").path)
        #expect(validator.validate(doc) == [])
        let files = try #require(doc["files"]?.array)
        #expect(files.count == HostileFixture.payloads.count + 2)
        let summary = try #require(doc["summary"])
        #expect(summary["files_scanned"]?.int == files.count)
        #expect(summary["files_failed"]?.int == 1)
        #expect(summary["files_without_codes"]?.int == 1)
        #expect(summary["codes"]?.int == HostileFixture.payloads.count)
        #expect(summary["codes_by_symbology"]?["qr"]?.int == HostileFixture.payloads.count)
        #expect(summary["unique_payloads"]?.int == HostileFixture.payloads.count)
        #expect(doc["tool"]?["name"]?.string == "codesweep")
        #expect(doc["started"]!.string! <= doc["finished"]!.string!)
        // No temporary file is left beside the target.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (fx.dir as NSString).deletingLastPathComponent)
            .filter { $0.contains((fx.dir as NSString).lastPathComponent) && $0.hasSuffix(".tmp") }
        #expect(leftovers == [])
    }

    @Test func schemasNameEveryCaseTheCodeHas() throws {
        let schema = try TJSON.parse(String(contentsOfFile: ReportTestSupport.packageRoot
            .appendingPathComponent("docs/schema/record.schema.json").path, encoding: .utf8))
        let symbologies = schema["$defs"]?["code"]?["properties"]?["symbology"]?["enum"]?.array?.compactMap(\.string)
        #expect(symbologies == Symbology.allCases.map(\.rawValue))
        let kinds = schema["properties"]?["error"]?["properties"]?["kind"]?["enum"]?.array?.compactMap(\.string)
        #expect(kinds == ErrorKind.allCases.map(\.rawValue))
        let formats = schema["properties"]?["format"]?["enum"]?.array?.compactMap(\.string)
        #expect(formats == ImageFormat.allCases.map(\.rawValue))
    }

    /// Run under a pseudo-terminal (util-linux `script`) with stdout sent to a file: stderr is
    /// a terminal, so the run ends with the summary there.
    @Test func terminalRunEndsWithSummaryOnStderr() throws {
        let fx = try HostileFixture()
        defer { fx.remove() }
        let out = fx.dir + ".txt"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let command = "'\(ReportTestSupport.cliPath)' scan --format text '\(fx.dir)' > '\(out)'"
        let r = try ReportTestSupport.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        let n = HostileFixture.payloads.count
        #expect(r.out.contains("\(n + 2) files: \(n) with codes, 1 without, 1 failed; \(n) codes (\(n) unique) — qr \(n); "), "\(r.out)")
        #expect(r.out.contains(" img/s") || r.out.contains(" s/img"))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains(": QR Code https://example.com/?a=1&b=2\n"))
        #expect(!text.contains("files:"), "the summary goes to stderr only")
    }

    @Test func docsNameEverySymbology() throws {
        let doc = try String(contentsOfFile: ReportTestSupport.packageRoot.appendingPathComponent("docs/output.md").path, encoding: .utf8)
        for s in Symbology.allCases {
            #expect(doc.contains("| `\(s.rawValue)`"), "\(s.rawValue)")
            #expect(doc.contains("| `\(s.zbarName)`"), "\(s.zbarName)")
            #expect(doc.contains("| \(s.displayName) "), "\(s.displayName)")
        }
        for k in ErrorKind.allCases { #expect(doc.contains("| `\(k.rawValue)`"), "\(k.rawValue)") }
    }

    @Test func usageErrors() throws {
        let r = try ReportTestSupport.run(ReportTestSupport.cliPath, ["scan", "--csv-all-files", "/nonexistent"])
        #expect(r.status != 0 && r.status != 1)
        #expect(r.err.contains("--format csv"))
        let f = try ReportTestSupport.run(ReportTestSupport.cliPath, ["scan", "--format", "xml", "/nonexistent"])
        #expect(f.status != 0 && f.status != 1)
        // An output that cannot be written is fatal (2), in every format.
        for format in ["jsonl", "json", "csv", "text"] {
            let o = try ReportTestSupport.run(ReportTestSupport.cliPath, ["scan", "--format", format, "-o", "/nonexistent-dir/out", "/nonexistent"])
            #expect(o.status == 2, "\(format): \(o.status)")
            #expect(o.err.contains("/nonexistent-dir/"))
        }
    }
}
