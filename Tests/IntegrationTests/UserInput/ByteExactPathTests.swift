import Foundation
import Records
import Reporting
import TestSupport
import Testing
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// Every path a user gives (a report, an output, a rules file, a folder) is opened,
/// created and read by its exact bytes. Each test gives each command names holding byte 0xff
/// (built in the shell: Foundation's Process cannot pass them) and checks, with readdir on raw
/// bytes, that exactly those names were read or written.
@Suite("User paths are bytes", .serialized)
struct ByteExactPathTests: SweepRuns {
    /// `name` with each `~` as byte 0xff (the byte that is never UTF-8).
    static func ff(_ name: String) -> [UInt8] { name.utf8.map { $0 == UInt8(ascii: "~") ? 0xFF : $0 } }

    /// The names in a folder, as bytes (no "." and "..").
    static func names(_ dir: [UInt8]) -> Set<[UInt8]> {
        guard let d = (dir + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }) else { return [] }
        defer { closedir(d) }
        var out = Set<[UInt8]>()
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [46] && name != [46, 46] { out.insert(name) }
        }
        return out
    }

    static func names(_ dir: TempDir) -> Set<[UInt8]> { names(Array(dir.path.utf8)) }

    /// A file's bytes, opened by its exact path bytes (nil when it cannot be opened).
    static func contents(_ path: [UInt8]) -> [UInt8]? {
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try? FileIO.readAll(fd)
    }

    static func contents(_ dir: TempDir, _ name: String) -> String {
        String(decoding: contents(Array(dir.path.utf8) + [47] + ff(name)) ?? [], as: UTF8.self)
    }

    /// A folder with `images/q0.png`... (QR codes holding "https://example.com/bytes-0", ...).
    static func fixture(images count: Int = 1) throws -> TempDir {
        let dir = try TempDir("nonutf8")
        let images = try dir.mkdir("images")
        for i in 0..<count { try run(Tools.qrencode, ["-s", "4", "-o", images + "/q\(i).png", "https://example.com/bytes-\(i)"]) }
        return dir
    }

    /// Runs `script` in the shell inside `dir`, with `$X` the byte 0xff and `$CS` the binary.
    static func inDir(_ dir: TempDir, _ script: String) throws -> ProcessResult {
        try sh("X=$(printf '\\377'); cd \"$1\" || exit 99\n" + script, [dir.path])
    }

    /// Removes what Foundation's TempDir clean-up might not (names that are not UTF-8).
    static func clean(_ dir: TempDir) { _ = try? sh("rm -rf \"$1\"/*", [dir.path]) }

    @Test("scan -o and --resume create, lock and reread a report and its settings by their bytes")
    func scanOutputAndResume() throws {
        let dir = try Self.fixture()
        defer { Self.clean(dir) }
        let o = try Self.inDir(dir, "exec \"$CS\" scan -q -o \"out$X.jsonl\" images")
        #expect(o.status == 0, "\(o.stderr)")
        #expect(Self.names(dir) == [Array("images".utf8), Self.ff("out~.jsonl")])
        #expect(try Self.records(Self.contents(dir, "out~.jsonl")).count == 1)

        let first = try Self.inDir(dir, "exec \"$CS\" scan -q --resume \"r$X.jsonl\" images")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.names(dir).isSuperset(of: [Self.ff("r~.jsonl"), Self.ff("r~.jsonl.codesweep-settings.json")]))
        let again = try Self.inDir(dir, "exec \"$CS\" scan -q --resume \"r$X.jsonl\" images")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.records(Self.contents(dir, "r~.jsonl")).count == 1)
        // The stored settings are read back from the sidecar's bytes: another --hash is refused.
        let other = try Self.inDir(dir, "exec \"$CS\" scan -q --hash sha256 --resume \"r$X.jsonl\" images")
        #expect(other.status == 2)
        #expect(other.stderr.contains("cannot resume r\u{FFFD}.jsonl with other settings"), "\(other.stderr)")
        // A --files-from list so named.
        let list = try Self.inDir(dir, "printf 'images/q0.png\\n' > \"l$X.txt\" && exec \"$CS\" scan -q --files-from \"l$X.txt\"")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try Self.records(list.stdout).count == 1)
    }

    @Test("merge reads shard reports and writes -o by their bytes; a missing one is named as shown")
    func mergeInputsAndOutput() throws {
        let dir = try Self.fixture(images: 3)
        defer { Self.clean(dir) }
        let r = try Self.inDir(
            dir,
            """
            "$CS" scan -q --shard 0/2 -o "s$X.1.jsonl" images && "$CS" scan -q --shard 1/2 -o "s$X.2.jsonl" images || exit 98
            exec "$CS" merge -o "m$X.jsonl" --root images "s$X.1.jsonl" "s$X.2.jsonl"
            """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.names(dir).contains(Self.ff("m~.jsonl")))
        #expect(try Self.records(Self.contents(dir, "m~.jsonl")).count == 3)

        // Checked against an --expect-from list so named: each listed file is in one shard.
        let expect = try Self.inDir(
            dir,
            "printf 'images/q0.png\\nimages/q1.png\\nimages/q2.png\\n' > \"l$X.txt\" && exec \"$CS\" merge --expect-from \"l$X.txt\" \"s$X.1.jsonl\" \"s$X.2.jsonl\""
        )
        #expect(expect.status == 0, "\(expect.stderr)")
        #expect(try Self.records(expect.stdout).count == 3)
        let missing = try Self.inDir(dir, "exec \"$CS\" merge \"nope$X.jsonl\"")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open nope\u{FFFD}.jsonl: No such file or directory"), "\(missing.stderr)")
    }

    @Test("summarize reads a report by its bytes")
    func summarizeInput() throws {
        let dir = try Self.fixture(images: 2)
        defer { Self.clean(dir) }
        let r = try Self.inDir(dir, "\"$CS\" scan -q -o \"r$X.jsonl\" images || exit 98\nexec \"$CS\" summarize --json \"r$X.jsonl\"")
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try JSONReading.value(r.stdout)
        #expect(summary["files"]?.intValue == 2, "\(r.stdout)")
        let missing = try Self.inDir(dir, "exec \"$CS\" summarize \"nope$X.jsonl\"")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open nope\u{FFFD}.jsonl"), "\(missing.stderr)")
    }

    @Test("report reads REPORT and writes --html by their bytes, and refuses --html over the report by identity")
    func reportInputAndPage() throws {
        let dir = try Self.fixture()
        defer { Self.clean(dir) }
        let r = try Self.inDir(dir, "\"$CS\" scan -q -o \"r$X.jsonl\" images || exit 98\nexec \"$CS\" report \"r$X.jsonl\" --html \"p$X.html\"")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.names(dir).contains(Self.ff("p~.html")))
        let page = Self.contents(dir, "p~.html")
        #expect(page.contains("<html") && page.contains("example.com/bytes-0"), "\(page.prefix(200))")
        // A hard link to the report under another name is the report.
        let over = try Self.inDir(dir, "ln \"r$X.jsonl\" \"l$X.jsonl\" || exit 98\nexec \"$CS\" report \"r$X.jsonl\" --html \"l$X.jsonl\"")
        #expect(over.status != 0)
        #expect(over.stderr.contains("--html would write over the report"), "\(over.stderr)")
        let missing = try Self.inDir(dir, "exec \"$CS\" report \"nope$X.jsonl\" --html p.html")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open nope\u{FFFD}.jsonl: No such file or directory"), "\(missing.stderr)")
    }

    @Test("scan --annotate makes its folder and pictures by their bytes")
    func annotateFolder() throws {
        let dir = try Self.fixture()
        defer { Self.clean(dir) }
        let r = try Self.inDir(dir, "exec \"$CS\" scan -q -o r.jsonl --annotate \"ann$X\" images")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.names(dir).contains(Self.ff("ann~")))
        let pictures = Self.names(Array(dir.path.utf8) + [47] + Self.ff("ann~"))
        #expect(!pictures.isEmpty)
    }

    @Test("check reads a rules file and expectations and writes --junit and --json by their bytes")
    func checkRulesAndReports() throws {
        let dir = try Self.fixture()
        defer { Self.clean(dir) }
        let r = try Self.inDir(
            dir,
            """
            printf 'require_code: ["*.png"]\\n' > "rules$X.yml"
            printf 'images/q0.png: "https://example.com/bytes-0"\\n' > "e$X.yml"
            exec "$CS" check --isolation none --rules "rules$X.yml" --expectations "e$X.yml" --junit "j$X.xml" --json "c$X.json" images
            """)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("rules: rules\u{FFFD}.yml + flags"), "\(r.stdout)")
        #expect(Self.names(dir).isSuperset(of: [Self.ff("j~.xml"), Self.ff("c~.json")]))
        #expect(Self.contents(dir, "j~.xml").contains("<testsuite"))
        let json = try JSONReading.value(Self.contents(dir, "c~.json"))
        #expect(json["passed"]?.boolValue == true)
        // The expectations are read: a wrong one fails the check.
        let wrong = try Self.inDir(
            dir,
            "printf 'images/q0.png: \"other\"\\n' > \"e$X.yml\"\nexec \"$CS\" check --isolation none --rules \"rules$X.yml\" --expectations \"e$X.yml\" images")
        #expect(wrong.status == 1, "\(wrong.stdout)\(wrong.stderr)")
        // A rules file that is not YAML is named as shown.
        let bad = try Self.inDir(dir, "printf 'a: [\\n' > \"bad$X.yml\" && exec \"$CS\" check --isolation none --rules \"bad$X.yml\" images")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad\u{FFFD}.yml: not valid YAML"), "\(bad.stderr)")
    }

    @Test("generate writes -o, into an existing folder, and a batch's folder by their bytes")
    func generateOutputs() throws {
        let dir = try TempDir("nonutf8")
        defer { Self.clean(dir) }
        try Data(try Make.logoPNG()).write(to: URL(fileURLWithPath: dir.file("logo.png")))
        let one = try Self.inDir(dir, "cp logo.png \"logo$X.png\" && exec \"$CS\" generate -q \"one\" --logo \"logo$X.png\" -o \"g$X.png\"")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(Self.names(dir).contains(Self.ff("g~.png")))
        // An existing folder named without a trailing slash: the code goes inside it.
        let folder = try Self.inDir(dir, "mkdir \"f$X\" && exec \"$CS\" generate -q \"two\" -o \"f$X\"")
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(Self.names(Array(dir.path.utf8) + [47] + Self.ff("f~")).count == 1)
        // A batch list and its output folder, made by the run.
        let batch = try Self.inDir(
            dir,
            """
            printf 'name,payload,options\\nc1,three,\\nc2,four,\\n' > "list$X.csv"
            exec "$CS" generate -q --batch "list$X.csv" -o "out$X"
            """)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(Self.names(dir).contains(Self.ff("out~")))
        let made = Self.names(Array(dir.path.utf8) + [47] + Self.ff("out~"))
        #expect(made == [Array("c1.png".utf8), Array("c2.png".utf8), Array("expected.yml".utf8)], "\(made)")
        // What was written reads back: scan the single code and the folder.
        let s = try Self.inDir(dir, "exec \"$CS\" scan -q \"g$X.png\" \"out$X\"")
        #expect(s.status == 0, "\(s.stderr)")
        let payloads = try Self.records(s.stdout).compactMap { $0["codes"]?.arrayValue?.first?["text"]?.stringValue }
        #expect(Set(payloads) == ["one", "three", "four"], "\(s.stdout)")
    }

    @Test("check and generate run in a folder whose name is not UTF-8: files named relative to it are read")
    func currentFolderIsBytes() throws {
        let dir = try Self.fixture()
        defer { Self.clean(dir) }
        try Data(try Make.logoPNG()).write(to: URL(fileURLWithPath: dir.file("logo.png")))
        // The rules file's expectations, its paths: and a batch's logo are relative to the
        // folder; a path built on the current folder must keep its byte 0xff.
        let r = try Self.inDir(
            dir,
            """
            mkdir "w$X" && mv images logo.png "w$X"/ && cd "w$X" || exit 98
            printf 'paths: [images]\\nrequire_code: ["*.png"]\\nexpectations: expected.yml\\n' > .codesweep.yml
            printf 'images/q0.png: "https://example.com/bytes-0"\\n' > expected.yml
            "$CS" check --isolation none --json c.json || exit $?
            printf 'name,payload,options\\nc1,https://example.com/l,ec=H logo=logo.png logo-size=0.08\\n' > list.csv
            exec "$CS" generate -q --batch list.csv -o out
            """)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let folder = Array(dir.path.utf8) + [47] + Self.ff("w~")
        let json = try JSONReading.value(String(decoding: Self.contents(folder + Array("/c.json".utf8)) ?? [], as: UTF8.self))
        #expect(json["passed"]?.boolValue == true, "\(json)")
        #expect(Self.names(folder + Array("/out".utf8)) == [Array("c1.png".utf8), Array("expected.yml".utf8)])
        // The expectations are matched, not only read: a wrong one fails.
        let wrong = try Self.inDir(dir, "cd \"w$X\" && printf 'images/q0.png: \"other\"\\n' > expected.yml && exec \"$CS\" check --isolation none")
        #expect(wrong.status == 1, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stdout.contains("expectations"), "\(wrong.stdout)")
    }
}
