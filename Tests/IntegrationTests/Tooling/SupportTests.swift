import Foundation
import TestSupport
import Testing

/// The helpers checked themselves, so that a lax runner, parser or schema check cannot make the
/// other tests pass by accident.
@Suite("Test helpers")
struct SupportTests {
    @Test("run: megabytes on stdout and stderr at once, stdin fed while the child writes, exit status, check")
    func runReadsBothStreamsConcurrently() throws {
        // Far more than a pipe holds (64 KiB), written alternately to both streams.
        let script = "import sys\nfor i in range(2000):\n    sys.stdout.write('o' * 999 + '\\n'); sys.stderr.write('e' * 999 + '\\n')\nsys.exit(3)"
        let r = try run("python3", ["-c", script], check: false)
        #expect(r.status == 3)
        #expect(r.stdoutBytes.count == 2_000_000 && r.stderrBytes.count == 2_000_000)
        #expect(r.stdoutLines.count == 2000 && r.stdoutLines.allSatisfy { $0 == String(repeating: "o", count: 999) })
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0 == String(repeating: "e", count: 999) })
        // stdin larger than a pipe, echoed back while it is still being written.
        let input = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let echo = try run("cat", [], stdin: input)
        #expect(echo.status == 0 && echo.stdoutBytes == input)
        // A child that does not read its stdin at all (SIGPIPE must not reach the test runner), and
        // children that do not inherit SIGPIPE ignored (bit 13 of SigIgn: signal 13).
        #expect(try run("true", [], stdin: input).status == 0)
        let sigIgn = try run("sh", ["-c", "grep SigIgn /proc/self/status"]).stdout.split(separator: "\t").last
        let ignored = try #require(sigIgn.flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) })
        #expect(ignored & (1 << (SIGPIPE - 1)) == 0, "a child inherits SIGPIPE ignored: SigIgn \(String(ignored, radix: 16))")
        #expect(throws: ToolFailure.self) { try run("false", []) }
        #expect(throws: ToolFailure.self) { try run("no-such-program-codesweep", [], check: false) }
        let env = try run("sh", ["-c", "printf '%s %s' \"$CODESWEEP_X\" \"$PWD\""], env: ["CODESWEEP_X": "set"], currentDirectory: "/")
        #expect(env.stdout == "set /")
    }

    @Test("TempDir: a new empty folder, removed with its contents")
    func tempDirIsRemoved() throws {
        var path = ""
        do {
            let dir = try TempDir("support")
            path = dir.path
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == [])
            try dir.mkdir("a/b")
            try dir.write("a/b/c", [1, 2, 3])
            #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("a/b/c").path))
            #expect(path.contains("codesweep-support-"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the codesweep binary is the one built next to the test runner")
    func binaryIsFound() throws {
        #expect(FileManager.default.isExecutableFile(atPath: codesweepBinary), "\(codesweepBinary)")
        let r = try run(codesweepBinary, ["--help"], check: false)
        #expect(r.status == 0 && r.stdout.contains("scan"), "\(r.stderr)")
    }

    @Test("TestJSON: integers are numbers written without fraction; null is not absent")
    func testJSONAccessors() throws {
        let v = try TestJSON.parse(#"{"a":[1,2.5,"\u00e9\ud83d\ude00",null,true,1.0,1e2],"b":null}"#)
        let a = try #require(v["a"]?.array)
        #expect(a.count == 7)
        #expect(a[0].int == 1 && a[1].int == nil && a[1].double == 2.5)
        #expect(a[2].string == "é😀")
        #expect(a[3].isNull && !a[0].isNull)
        #expect(a[4].bool == true && a[4].int == nil && a[0].bool == nil)
        #expect(a[5].int == nil && a[6].int == nil, "1.0 and 1e2 are not written as integers")
        #expect(v["b"]?.isNull == true && v["c"] == nil)
        for bad in ["[1,2", "{\"a\":\"x\ny\"}", "01", "{\"a\":1}{", "'a'", "\"\\ud800\""] {
            #expect(throws: ToolFailure.self, "\(bad) should not parse") { try TestJSON.parse(bad) }
        }
        #expect(try TestJSON.lines("{\"a\":1}\n[2]\n").count == 2)
        #expect(throws: ToolFailure.self) { try TestJSON.lines("{\"a\":1}\n{\"a\"") }
    }

    static let good = #"{"path":"a.png","status":"ok","codes":[]}"#
    static let code =
        #"{"symbology":"qr","text":"hi","bytes_b64":"aGk=","encoding":"utf-8","corners":[[0,0],[1,0],[1,1],[0,1]],"frame":0,"quality":1,"pass":"full"}"#

    @Test("The schema check (PyPI jsonschema) passes valid records and names each broken one by its line")
    func schemaCheckReportsViolations() throws {
        let valid = Self.good + "\n" + #"{"path":"b.png","status":"ok","codes":[\#(Self.code)]}"# + "\n"
        #expect(try SchemaCheck.problems(valid, schema: "record.schema.json", lines: true) == [])
        // Missing field, wrong type, unknown field, bad enum, a code without bytes_b64, a frame that is not an integer.
        let broken = [
            #"{"path":"a.png","codes":[]}"#, #"{"path":1,"status":"ok","codes":[]}"#,
            #"{"path":"a.png","status":"ok","codes":[],"extra":1}"#, #"{"path":"a.png","status":"maybe","codes":[]}"#,
            #"{"path":"a.png","status":"ok","codes":[\#(Self.code.replacingOccurrences(of: #""bytes_b64":"aGk=","#, with: ""))]}"#,
            #"{"path":"a.png","status":"ok","codes":[\#(Self.code.replacingOccurrences(of: #""frame":0"#, with: #""frame":"0""#))]}"#,
        ]
        for bad in broken {
            let problems = try SchemaCheck.problems(Self.good + "\n" + bad + "\n", schema: "record.schema.json", lines: true)
            #expect(!problems.isEmpty && problems.allSatisfy { $0.hasPrefix("<stdin>:2: ") }, "\(bad): \(problems)")
        }
        let noBytes = try SchemaCheck.problems(broken[4] + "\n", schema: "record.schema.json", lines: true)
        #expect(noBytes == ["<stdin>:1: $.codes[0]: 'bytes_b64' is a required property"])
        // A report whose file record is broken: the reference into record.schema.json is followed.
        let report = """
            {"schema_version":1,"tool":{"name":"codesweep","version":"1"},"started":"2026-01-01T00:00:00Z",
             "finished":"2026-01-01T00:00:01Z","files":[\(broken[4])],"summary":{}}
            """
        let problems = try SchemaCheck.problems(report, schema: "report.schema.json", lines: false)
        #expect(problems.contains("<stdin>:1: $.files[0].codes[0]: 'bytes_b64' is a required property"), "\(problems)")
        #expect(problems.contains("<stdin>:1: $.summary: 'files_scanned' is a required property"), "\(problems)")
    }

    @Test("The schema check reads JSON strictly: what Foundation lets through is refused too")
    func schemaCheckRejectsWhatJSONForbids() throws {
        for bad in [
            #"{"path":"a.png","status":"ok","codes":[],}"#, #"{"path":"a.png","path":"b","status":"ok","codes":[]}"#,
            "{\"path\":\"a\tb\",\"status\":\"ok\",\"codes\":[]}", #"{"path":"\ud800","status":"ok","codes":[]}"#,
            #"{"path":"a.png","status":"ok","codes":[]} x"#, #"{"path":"a.png","status":"ok","width":01,"codes":[]}"#,
            #"{"path":"a.png","status":"ok","width":NaN,"codes":[]}"#, "'a'", "",
        ] {
            let problems = try SchemaCheck.problems(bad + "\n", schema: "record.schema.json", lines: true)
            #expect(problems.count == 1 && problems[0].hasPrefix("<stdin>:1: "), "\(bad): \(problems)")
        }
        var invalidUTF8 = Data(#"{"path":""#.utf8)
        invalidUTF8.append(contentsOf: [0xFF, 0xFE])
        invalidUTF8.append(Data(#"","status":"ok","codes":[]}"#.utf8 + [0x0A]))
        #expect(try SchemaCheck.problems(invalidUTF8, schema: "record.schema.json", lines: true) == ["<stdin>:1: invalid UTF-8 at byte 9"])
        // A cut-off last line is an incomplete record.
        #expect(
            try SchemaCheck.problems(Self.good, schema: "record.schema.json", lines: true)
                == ["<stdin>:1: the last line has no newline (an incomplete record?)"])
    }

    @Test("Without jsonschema the check fails loudly (exit 2 naming the module), it does not pass")
    func schemaCheckWithoutJsonschemaFails() throws {
        // -S: no site-packages, where pip (or Debian) puts jsonschema.
        let r = try run(
            "python3", ["-S", SchemaCheck.script, SchemaCheck.schemaFile("record.schema.json"), "-", "--lines"],
            stdin: Data((Self.good + "\n").utf8), check: false)
        #expect(r.status == 2)
        #expect(r.stderr.contains("'jsonschema' is missing") && r.stderr.contains("pip install"), "\(r.stderr)")
    }
}
