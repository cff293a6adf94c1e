import Foundation
import Records
import Reporting
import TestSupport
import Testing

/// A folder of real QR images with hostile payloads and names, scanned by the real CLI in each
/// format; the outputs are parsed by independent strict parsers (python3's csv module, and
/// python3's json module in scripts/validate-schema.py) and checked against the jsonl records and
/// the JSON Schemas (PyPI's jsonschema).
struct HostileFixture {
    /// Holds `dir` (the scanned folder) and the reports written beside it.
    private let temp: TempDir
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
        ("sjis.png", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x83, 0x65, 0x83, 0x4C, 0x83, 0x58, 0x83, 0x67]),  // 日本語のテキスト
        ("binary.png", [0x00, 0xFF, 0x1B, 0x80, 0x01, 0x02, 0xFE, 0x9B, 0x0A, 0x0D, 0x00, 0x7F, 0x10, 0x11, 0x12, 0x13]),
        ("evil\u{1B}[2J\u{202E}name\n.png", Array("named badly".utf8)),
    ]

    init() throws {
        temp = try TempDir("report")
        dir = try temp.mkdir("hostile")
        for p in Self.payloads { try Make.qr(bytes: p.bytes, to: dir + "/" + p.name) }
        // An image without a code, and a file that is not an image.
        try Make.convert(["-size", "64x64", "xc:white", dir + "/blank.png"])
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
    }

    func scan(_ args: [String]) throws -> ProcessResult {
        try run(codesweepBinary, ["scan", "--quiet", "--jobs", "2"] + args + [dir], check: false)
    }

    /// The jsonl output, the reference the other formats are compared with.
    func jsonl() throws -> ProcessResult {
        let r = try scan([])
        #expect(r.status == 1, "broken.jpg fails, so exit status 1: \(r.stderr)")
        return r
    }

    /// The jsonl records.
    func records() throws -> [TestJSON] { try TestJSON.lines(try jsonl().stdout) }
}

@Suite("Report formats")
struct ReportFormatTests {
    static let pythonCSV = """
        import csv, io, json, sys
        rows = list(csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline=''), strict=True))
        json.dump(rows, sys.stdout)
        """

    static func parseCSV(_ data: Data) throws -> [[String]] {
        let py = try run("python3", ["-c", pythonCSV], stdin: data, check: false)
        guard py.status == 0 else { throw ToolFailure("python csv rejected the file: \(py.stderr)") }
        return try #require(try TestJSON.parse(py.stdoutBytes).value as? [[String]])
    }

    static func formulaSafe(_ s: String) -> String {
        guard let f = s.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(f) else { return s }
        return "'" + s
    }

    @Test(arguments: [false, true])
    func csvParsesStrictlyAndMatchesTheRecords(rawFormulas: Bool) throws {
        let fx = try HostileFixture()
        let records = try fx.records()
        let r = try fx.scan(["--format", "csv", "--csv-all-files"] + (rawFormulas ? ["--csv-raw-formulas"] : []))
        #expect(r.status == 1)
        #expect(r.stdoutBytes.suffix(2) == Data("\r\n".utf8), "rows end in CRLF")
        let rows = try Self.parseCSV(r.stdoutBytes)
        #expect(rows.first == CSVSink.codeColumns + CSVSink.fileColumns)
        let body = Array(rows.dropFirst())
        #expect(body.allSatisfy { $0.count == 19 }, "every row has every column")
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
                #expect(cell(row, "content_type") == (code["content"]?["type"]?.string ?? ""))  // url.png: "url"
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
            #expect(
                body.allSatisfy { row in row.allSatisfy { c in !["=", "+", "-", "@", "\t", "\r"].contains(c.unicodeScalars.first ?? " ") || Double(c) != nil } }
            )
        }
    }

    @Test func csvDefaultHasOneRowPerCodeOnly() throws {
        let fx = try HostileFixture()
        let rows = try Self.parseCSV(try fx.scan(["--format", "csv"]).stdoutBytes)
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
        let r = try fx.scan(["--format", "text"])
        #expect(r.status == 1)
        let out = r.stdout
        #expect(String(validating: [UInt8](r.stdoutBytes), as: UTF8.self) != nil)
        for u in out.unicodeScalars where u != "\n" {
            #expect(!TerminalText.isUnsafe(u), "raw U+\(String(u.value, radix: 16)) in text output")
        }
        #expect(!r.stdoutBytes.contains(0x1B))
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        // One line per code plus one per failed file; the blank image prints nothing.
        #expect(lines.count == HostileFixture.payloads.count + 1)
        let d = fx.dir
        #expect(lines.contains("\(d)/url.png: QR Code https://example.com/?a=1&b=2"))
        #expect(
            lines.contains(
                "\(d)/escape.png: QR Code Note: \\x1b[31mred\\x1b[0m alert \\x1b]0;title\\x07 then \\u{202E}gnp.exe and \\u{009B}2J; the rest is ordinary text")
        )
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
        let jsonl = try fx.jsonl()
        #expect(try TestJSON.lines(jsonl.stdout).count == HostileFixture.payloads.count + 2)
        #expect(try SchemaCheck.problems(jsonl.stdoutBytes, schema: "record.schema.json", lines: true) == [])
    }

    @Test(arguments: [true, false])
    func jsonDocumentMatchesTheReportSchema(toFile: Bool) throws {
        let fx = try HostileFixture()
        let target = fx.dir + ".report.json"
        let r = try fx.scan(["--format", "json"] + (toFile ? ["-o", target] : []))
        #expect(r.status == 1)
        let text = toFile ? try String(contentsOfFile: target, encoding: .utf8) : r.stdout
        if toFile { #expect(r.stdoutBytes.isEmpty) }
        let doc = try TestJSON.parse(text)
        #expect(try SchemaCheck.problems(text, schema: "report.schema.json", lines: false) == [])
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
        let schema = try TestJSON.parse(Data(contentsOf: URL(fileURLWithPath: SchemaCheck.schemaFile("record.schema.json"))))
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
        let out = fx.dir + ".txt"
        let command = "'\(codesweepBinary)' scan --format text '\(fx.dir)' > '\(out)'"
        let r = try run("/usr/bin/script", ["-qec", command, "/dev/null"], check: false)
        let n = HostileFixture.payloads.count
        #expect(r.stdout.contains("\(n + 2) files: \(n) with codes, 1 without, 1 failed; \(n) codes (\(n) unique) — qr \(n); "), "\(r.stdout)")
        #expect(r.stdout.contains(" img/s") || r.stdout.contains(" s/img"))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains(": QR Code https://example.com/?a=1&b=2\n"))
        #expect(!text.contains("files:"), "the summary goes to stderr only")
    }

    @Test func docsNameEverySymbology() throws {
        let doc = try String(contentsOfFile: PackageRoot.file("docs/output.md"), encoding: .utf8)
        for s in Symbology.allCases {
            #expect(doc.contains("| `\(s.rawValue)`"), "\(s.rawValue)")
            #expect(doc.contains("| `\(s.zbarName)`"), "\(s.zbarName)")
            #expect(doc.contains("| \(s.displayName) "), "\(s.displayName)")
        }
        for k in ErrorKind.allCases { #expect(doc.contains("| `\(k.rawValue)`"), "\(k.rawValue)") }
    }

    @Test func usageErrors() throws {
        let r = try run(codesweepBinary, ["scan", "--csv-all-files", "/nonexistent"], check: false)
        #expect(r.status != 0 && r.status != 1)
        #expect(r.stderr.contains("--format csv"))
        let f = try run(codesweepBinary, ["scan", "--format", "xml", "/nonexistent"], check: false)
        #expect(f.status != 0 && f.status != 1)
        // An output that cannot be written is fatal (2), in every format.
        for format in ["jsonl", "json", "csv", "text"] {
            let o = try run(codesweepBinary, ["scan", "--format", format, "-o", "/nonexistent-dir/out", "/nonexistent"], check: false)
            #expect(o.status == 2, "\(format): \(o.status)")
            #expect(o.stderr.contains("/nonexistent-dir/"))
        }
    }
}
