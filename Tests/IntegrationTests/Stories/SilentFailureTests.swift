import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import SweepCore
import TestSupport
import Testing
import UserInput

/// Issue 14, "nothing silent, nothing unbounded": write errors, NUL lists, byte-exact
/// arguments, concurrent and mismatched resumes, interrupts, worker lifetimes and multi-frame
/// budgets. Everything runs the real `codesweep` binary on real files made here.
@Suite("Nothing silent", .serialized)
struct SilentFailureTests {
    static func records(_ text: String) throws -> [JSONValue] { try JSONL.values(text) }

    /// `count` QR code PNGs with longish payloads (records of ~400 bytes each).
    /// Pictures that hang their worker in the fault-injecting binary (named to sort after the images).
    static func addHangingFiles(_ folder: String, _ names: String...) throws {
        for name in names { try Make.faultFrame(.hang, to: folder + "/" + name) }
    }

    static func makeImages(_ dir: TempDir, _ folder: String, count: Int) throws -> String {
        let d = try dir.mkdir(folder)
        for i in 0..<count {
            try run(
                Tools.qrencode,
                [
                    "-s", "3", "-o", d + String(format: "/q%03d.png", i),
                    "payload \(i): some text that makes each record a little longer",
                ])
        }
        return d
    }

    // MARK: - 1. Write errors

    @Test("A full device ends the sweep with exit 2 naming the output: jsonl keeps whole lines, json leaves the old report, csv, annotate")
    func writeErrorsEndTheSweep() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 40)

        // To stdout: /dev/full fails every write.
        for format in ["jsonl", "json", "csv", "text"] {
            let r = try sh("exec \"$CS\" scan -q --format \"$1\" \"$2\" > /dev/full", [format, images])
            #expect(r.status == 2, "\(format): \(r.stderr)")
            #expect(r.stderr.contains("cannot write to standard output: No space left on device"), "\(format): \(r.stderr)")
        }

        // Other commands' stdout too.
        for command in ["symbologies", "plan"] {
            let r = try sh("exec \"$CS\" \"$1\" > /dev/full", [command])
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("cannot write to standard output"), "\(command): \(r.stderr)")
        }

        // A closed stdout: EBADF, not a report written into whatever was opened next.
        let closed = try sh("exec \"$CS\" scan -q \"$1\" >&-", [images])
        #expect(closed.status == 2)
        #expect(closed.stderr.contains("cannot write to standard output: Bad file descriptor"), "\(closed.stderr)")

        guard let mnt = try SmallFileSystem.mount(dir, kib: 64) else {
            Issue.record("cannot mount a tmpfs (not root?): only the /dev/full half of this test ran")
            return
        }
        defer { SmallFileSystem.unmount(mnt) }

        // An earlier good json report, then a full disk: exit 2, the old report untouched,
        // no temporary file left.
        let report = mnt + "/report.json"
        let first = try sh("exec \"$CS\" scan -q --format json -o \"$1\" \"$2\"", [report, images + "/q000.png"])
        #expect(first.status == 0, "\(first.stderr)")
        let good = try Data(contentsOf: URL(fileURLWithPath: report))
        try SmallFileSystem.fill(mnt, leaving: 8192)
        let json = try sh("exec \"$CS\" scan -q --format json -o \"$1\" \"$2\"", [report, images])
        #expect(json.status == 2)
        #expect(json.stderr.contains("cannot write to '\(report)'") && json.stderr.contains("No space left on device"), "\(json.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == good)
        #expect(try JSONReading.value(String(decoding: good, as: UTF8.self))["files"]?.arrayValue?.count == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: mnt).sorted()
        #expect(left == ["filler", "report.json"], "\(left)")

        // jsonl: exit 2, every line written is a complete record, fewer than all of them.
        let jsonl = mnt + "/report.jsonl"
        let lines = try sh("exec \"$CS\" scan -q -o \"$1\" \"$2\"", [jsonl, images])
        #expect(lines.status == 2)
        #expect(lines.stderr.contains("cannot write to '\(jsonl)': No space left on device"), "\(lines.stderr)")
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        #expect(text.isEmpty || text.hasSuffix("\n"))
        let recs = try Self.records(text)
        #expect(recs.count >= 5 && recs.count < 40, "\(recs.count) records")
        for r in recs { #expect((try? FileRecord.read(json: Array(r.serialized().utf8))) != nil, "\(r.serialized())") }
        try FileManager.default.removeItem(atPath: jsonl)

        // csv: exit 2, the file ends with a whole row.
        let csv = mnt + "/codes.csv"
        let c = try sh("exec \"$CS\" scan -q --format csv -o \"$1\" \"$2\"", [csv, images])
        #expect(c.status == 2)
        #expect(c.stderr.contains("cannot write to '\(csv)': No space left on device"), "\(c.stderr)")
        let rows = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(rows.hasSuffix("\r\n"))
        try FileManager.default.removeItem(atPath: csv)

        // --annotate into the full file system: the pictures cannot all be written, exit 2.
        let pictures = mnt + "/pictures"
        let a = try sh("exec \"$CS\" scan -q --annotate \"$1\" \"$2\" > /dev/null", [pictures, images])
        #expect(a.status == 2, "\(a.stderr)")
        #expect(a.stderr.contains("--annotate: cannot"), "\(a.stderr)")
    }

    // MARK: - 2. NUL lists

    @Test("--files-from without -0 refuses a list holding NUL bytes (exit 2, a hint to use -0)")
    func nulListWithoutDashZero() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 2)
        let list = images + "/q000.png\0" + images + "/q001.png\0"
        let r = try sh("exec \"$CS\" scan -q --files-from -", stdin: Data(list.utf8))
        #expect(r.status == 2)
        #expect(r.stderr.contains("NUL") && r.stderr.contains("-0"), "\(r.stderr)")
        #expect(r.stdoutBytes.isEmpty)
        let ok = try sh("exec \"$CS\" scan -q --files-from - -0", stdin: Data(list.utf8))
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try Self.records(ok.stdout).count == 2)
    }

    // MARK: - 3. Byte-exact arguments

    @Test("Arguments are bytes: a file, a root and a glob holding byte 0xff on the command line")
    func nonUTF8Arguments() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 1)
        // images/bad\xffdir/bad\xffname.png, made through the shell (names are bytes there).
        let made = try sh(
            """
            d="$1/bad$(printf '\\377')dir"; mkdir "$d" && cp "$1/q000.png" "$d/bad$(printf '\\377')name.png"
            """, [images])
        #expect(made.status == 0, "\(made.stderr)")
        let expected: [UInt8] = Array((images + "/bad").utf8) + [0xFF] + Array("dir/bad".utf8) + [0xFF] + Array("name.png".utf8)

        func check(_ r: ProcessResult, _ what: String) throws {
            #expect(r.status == 0, "\(what): \(r.stderr)")
            let recs = try Self.records(r.stdout)
            let rec = try #require(recs.first { $0["path_b64"] != nil }, "\(what): \(r.stdout)")
            #expect(Base64.decode(rec["path_b64"]?.stringValue ?? "") == expected, "\(what)")
            #expect(rec["status"]?.stringValue == "ok", "\(what)")
            #expect(rec["codes"]?.arrayValue?.count == 1, "\(what)")
        }
        // The file itself.
        try check(try sh("exec \"$CS\" scan -q \"$1/bad$(printf '\\377')dir/bad$(printf '\\377')name.png\"", [images]), "file")
        // Its folder as a root.
        try check(try sh("exec \"$CS\" scan -q \"$1/bad$(printf '\\377')dir\"", [images]), "root")
        // A glob with the byte, over the whole tree: only that file.
        let g = try sh("exec \"$CS\" scan -q --include \"bad$(printf '\\377')*\" \"$1\"", [images])
        try check(g, "glob")
        #expect(try Self.records(g.stdout).count == 1)
    }

    // MARK: - 4. --resume: a lock, stored settings, the earlier part's failures

    /// Waits (polling, up to `limit` seconds) until FILE holds at least `lines` lines.
    static func waitForLines(_ file: String, _ lines: Int, limit: Double = 60) -> Int {
        let end = Date().addingTimeInterval(limit)
        var n = 0
        while Date() < end {
            n = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count
            if n >= lines { break }
            usleep(20_000)
        }
        return n
    }

    @Test("Two sweeps resuming one file at once: one proceeds, the other exits 2; no line is written twice")
    func concurrentResumesAreRefused() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 5)
        try Self.addHangingFiles(images, "z-hang.png")
        let report = dir.file("report.jsonl")
        // The first sweep reaches the hanging file last and holds the lock until its timeout.
        let first = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "1", "--timeout", "5", "--resume", report, images])
        #expect(Self.waitForLines(report, 5) == 5)
        let second = try sh("exec \"$FAULTY\" scan -q --jobs 1 --timeout 5 --resume \"$1\" \"$2\"", [report, images])
        #expect(second.status == 2)
        #expect(second.stderr.contains("is locked by another codesweep sweep"), "\(second.stderr)")
        first.waitUntilExit()
        #expect(first.terminationStatus == 1)  // the hanging file is a timeout
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        let paths = try lines.map { try JSONReading.value(String($0))["path"]?.stringValue ?? "" }
        #expect(Set(paths).count == 6)
    }

    @Test("A resume with other record-changing settings exits 2 naming the setting; its exit status counts earlier failures")
    func resumeChecksSettingsAndEarlierFailures() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 3)
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: images + "/broken.png"))
        let report = dir.file("report.jsonl")
        let first = try sh("exec \"$CS\" scan -q --hash sha256 --resume \"$1\" \"$2\"", [report, images])
        #expect(first.status == 1, "\(first.stderr)")  // broken.png
        let written = try Data(contentsOf: URL(fileURLWithPath: report))
        #expect(try Self.records(String(decoding: written, as: UTF8.self)).count == 4)
        try run(Tools.qrencode, ["-s", "3", "-o", images + "/q100.png", "added later"])

        for (flags, named) in [
            ([] as [String], "--hash"), (["--hash", "md5"], "--hash"),
            (["--hash", "sha256", "--effort", "fast"], "--effort"),
            (["--hash", "sha256", "--symbologies", "qr"], "--symbologies"),
        ] {
            let r = try sh("exec \"$CS\" scan -q \"$@\"", ["--resume", report] + flags + [images])
            #expect(r.status == 2, "\(flags)")
            #expect(r.stderr.contains("cannot resume") && r.stderr.contains(named + ":"), "\(flags): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == written, "\(flags)")  // nothing appended
        }
        // The same settings: the new file is appended, and the earlier failure still counts.
        let same = try sh("exec \"$CS\" scan -q --hash sha256 --resume \"$1\" \"$2\"", [report, images])
        #expect(same.status == 1, "\(same.stderr)")
        let recs = try Self.records(try String(contentsOfFile: report, encoding: .utf8))
        #expect(recs.count == 5)
        #expect(recs.allSatisfy { $0["status"]?.stringValue == "error" || $0["hashes"]?["sha256"] != nil })
        // A report written with -o has no stored settings: what its records show is compared.
        let plain = dir.file("plain.jsonl")
        #expect(try sh("exec \"$CS\" scan -q -o \"$1\" \"$2/q000.png\"", [plain, images]).status == 0)
        let mixed = try sh("exec \"$CS\" scan -q --hash sha256 --resume \"$1\" \"$2\"", [plain, images])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("--hash:"), "\(mixed.stderr)")
    }

    // MARK: - 5. Interrupts and worker lifetimes

    /// The worker processes of `parent` (children whose command is `codesweep __worker`).
    static func workers(of parent: pid_t) -> [pid_t] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        return pids.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == parent else { return false }
            let cmd = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return String(decoding: cmd, as: UTF8.self).contains("__worker")
        }
    }

    /// Alive: the process exists and is not a zombie (a dead child not yet reaped).
    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    @Test("SIGINT while a worker hangs: exit 130 within 3 s, every finished record written")
    func sigintDuringAHangingFile() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 5)
        try Self.addHangingFiles(images, "z-hang.png")
        let out = dir.file("out.jsonl")
        let p = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "2", "--timeout", "60", "-o", out, images])
        #expect(Self.waitForLines(out, 5) == 5)  // the five images are done; the last file hangs
        let workers = Self.workers(of: p.processIdentifier)
        #expect(workers.count == 2)
        let sent = Date()
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        #expect(p.terminationStatus == 130)
        #expect(took < 3, "took \(took) s")
        let recs = try Self.records(try String(contentsOfFile: out, encoding: .utf8))
        #expect(recs.count == 5)
        #expect(recs.allSatisfy { $0["status"]?.stringValue == "ok" })
        for w in workers { #expect(!Self.alive(w), "worker \(w)") }
    }

    @Test("SIGTERM to the sweep and its workers at once (scancel, a systemd stop): exit 130, no file recorded as a crash")
    func sigtermToEveryProcess() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 5)
        try Self.addHangingFiles(images, "z-hang.png")
        let out = dir.file("out.jsonl")
        let p = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "2", "--timeout", "60", "-o", out, images])
        #expect(Self.waitForLines(out, 5) == 5)  // the five images are done; a worker is in the hanging file
        let workers = Self.workers(of: p.processIdentifier)
        #expect(workers.count == 2)
        // As a scheduler stops a job: every process of it gets the signal, here the workers first.
        for w in workers { kill(w, SIGTERM) }
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let recs = try Self.records(try String(contentsOfFile: out, encoding: .utf8))
        // The hanging file was not finished: unrecorded (--resume scans it), not a crash record.
        #expect(recs.count == 5, "\(recs.map { $0.serialized() })")
        #expect(recs.allSatisfy { $0["status"]?.stringValue == "ok" })
        let end = Date().addingTimeInterval(2)
        while Date() < end && workers.contains(where: Self.alive) { usleep(20_000) }
        for w in workers { #expect(!Self.alive(w), "worker \(w)") }
    }

    @Test("kill -9 of the sweep leaves no worker alive after 2 s, hung or idle")
    func workersDieWithTheSweep() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 3)
        try Self.addHangingFiles(images, "y-hang.png", "z-hang.png")
        let out = dir.file("out.jsonl")
        let p = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "2", "--timeout", "600", "-o", out, images])
        #expect(Self.waitForLines(out, 3) == 3)  // both workers are now in the hanging files
        let workers = Self.workers(of: p.processIdentifier)
        #expect(workers.count == 2)
        #expect(workers.allSatisfy(Self.alive))
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let end = Date().addingTimeInterval(2)
        while Date() < end && workers.contains(where: Self.alive) { usleep(20_000) }
        for w in workers {
            #expect(!Self.alive(w), "worker \(w) still alive 2 s after its sweep was killed")
            if Self.alive(w) { kill(w, SIGKILL) }
        }
    }

    // MARK: - 6. Multi-frame bombs and the memory limit

    /// Writes the bombs of issue 14 with python3's zlib (a declared dependency): a 4.6 KB GIF
    /// of 200 1x1 frames on a 10000x10000 screen, a TIFF of 300 deflated 2000x2000 pages, and a
    /// 116 KB PNG of 10950x10950 zeros.
    static let bombMaker = """
        import struct, zlib, sys
        d = sys.argv[1]
        g = bytearray(b'GIF89a' + struct.pack('<HH', 10000, 10000) + bytes([0x80, 0, 0, 0, 0, 0, 255, 255, 255]))
        for i in range(200):
            g += b'\\x21\\xf9\\x04\\x04\\x00\\x00\\x00\\x00' + b'\\x2c' + struct.pack('<HHHH', i % 100, i // 100, 1, 1) + b'\\x00\\x02\\x02\\x44\\x01\\x00'
        open(d + '/frames.gif', 'wb').write(g + b'\\x3b')
        w = h = 2000
        strip = zlib.compress(b'\\xff' * (w * h), 9)
        t = bytearray(b'II*\\x00\\x00\\x00\\x00\\x00')
        link = 4
        for p in range(300):
            off = len(t); t += strip
            if len(t) % 2: t += b'\\x00'
            struct.pack_into('<I', t, link, len(t))
            tags = [(256,4,w),(257,4,h),(258,3,8),(259,3,8),(262,3,1),(273,4,off),(277,3,1),(278,4,h),(279,4,len(strip))]
            t += struct.pack('<H', len(tags))
            for tag, typ, val in tags:
                t += struct.pack('<HHI', tag, typ, 1) + (struct.pack('<HH', val, 0) if typ == 3 else struct.pack('<I', val))
            link = len(t); t += b'\\x00\\x00\\x00\\x00'
        open(d + '/pages.tif', 'wb').write(t)
        def chunk(k, b): return struct.pack('>I', len(b)) + k + b + struct.pack('>I', zlib.crc32(k + b) & 0xffffffff)
        c = zlib.compressobj(9)
        row = bytes(10951)
        idat = b''.join(c.compress(row) for _ in range(10950)) + c.flush()
        open(d + '/zlib.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 10950, 10950, 8, 0, 0, 0, 0)) + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
        """

    /// Runs codesweep under python3 and returns its result with the peak RSS (KiB) over the
    /// sweep and its workers (RUSAGE_CHILDREN of the python process, which waits for it).
    static let peakRSS = """
        import resource, subprocess, sys
        r = subprocess.run(sys.argv[1:])
        sys.stderr.write('peak_rss_kib=%d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(r.returncode)
        """

    @Test("Multi-frame and zlib bombs get too_large with the numbers, before decoding: peak RSS under 1 GB, no temp files left")
    func bombsAreRefusedBeforeDecoding() throws {
        let dir = try TempDir()
        let bombs = try dir.mkdir("bombs")
        try run("/usr/bin/env", ["python3", "-c", Self.bombMaker, bombs])
        let tmp = try dir.mkdir("tmp")
        let r = try sh("exec python3 -c \"$1\" \"$CS\" scan -q --jobs 1 \"$2\"", [Self.peakRSS, bombs], env: ["TMPDIR": tmp])
        #expect(r.status == 1, "\(r.stderr)")
        let recs = try Self.records(r.stdout)
        #expect(recs.count == 3)
        var byName: [String: JSONValue] = [:]
        for rec in recs { byName[URL(fileURLWithPath: rec["path"]?.stringValue ?? "").lastPathComponent] = rec }
        let gif = try #require(byName["frames.gif"]?["error"])
        #expect(gif["kind"]?.stringValue == "too_large")
        #expect(gif["message"]?.stringValue?.contains("10000x10000 screen") == true, "\(gif)")
        #expect(gif["message"]?.stringValue?.contains("budget is 64 megapixels") == true, "\(gif)")
        let tiff = try #require(byName["pages.tif"]?["error"])
        #expect(tiff["kind"]?.stringValue == "too_large")
        #expect(tiff["message"]?.stringValue?.contains("the first 64 frames (the file has more) of up to 4.0 megapixels") == true, "\(tiff)")
        let png = try #require(byName["zlib.png"]?["error"])
        #expect(png["kind"]?.stringValue == "too_large")
        #expect(png["message"]?.stringValue?.contains("10950x10950") == true, "\(png)")
        let peak = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak_rss_kib=") }.flatMap { Int($0.dropFirst(13)) }
        let kib = try #require(peak, "\(r.stderr)")
        #expect(kib < 1_000_000, "peak RSS \(kib) KiB")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test("A worker that grows past --max-memory dies at the limit; the file is too_large and the sweep goes on")
    func workerMemoryLimit() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 1)
        try Make.faultFrame(.greedy, to: images + "/a-greedy.png")
        let r = try sh("exec python3 -c \"$1\" \"$FAULTY\" scan -q --jobs 1 --max-memory 256 \"$2\"", [Self.peakRSS, images])
        #expect(r.status == 1, "\(r.stderr)")
        let recs = try Self.records(r.stdout)
        #expect(recs.count == 2)
        #expect(recs.first?["error"]?["kind"]?.stringValue == "too_large", "\(recs.first.map { $0.serialized() } ?? "")")
        #expect(recs.first?["error"]?["message"]?.stringValue?.contains("256 MiB") == true)
        #expect(recs.last?["status"]?.stringValue == "ok")
        let peak = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak_rss_kib=") }.flatMap { Int($0.dropFirst(13)) }
        let kib = try #require(peak, "\(r.stderr)")
        #expect(kib < 512 * 1024, "peak RSS \(kib) KiB with a 256 MiB limit")
    }

    // MARK: - 7. Smaller items

    @Test("A CSV cell like x;=1+1 is quoted, so a spreadsheet splitting on ';' cannot make a formula of it")
    func csvSemicolonIsQuoted() throws {
        let dir = try TempDir()
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("semi.png"), "x;=1+1"])
        let r = try sh("exec \"$CS\" scan -q --format csv \"$1\"", [dir.file("semi.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(",\"x;=1+1\","), "\(r.stdout)")
        #expect(!r.stdout.contains(",x;=1+1,"))
    }

    @Test("No raw terminal escape reaches stderr: --annotate messages with a file name holding ESC, a YAML error echoing one")
    func stderrIsEscaped() throws {
        let dir = try TempDir()
        let input = try dir.mkdir("in")
        try run(Tools.qrencode, ["-s", "6", "-m", "4", "-o", input + "/red\u{1B}[31m.png", "escape test"])
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: dir.file("bogus.ttf")))
        let a = try sh(
            "exec \"$CS\" scan -q --annotate \"$1\" \"$2\" > /dev/null", [dir.file("out"), input],
            env: ["CODESWEEP_FONT": dir.file("bogus.ttf")])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stderr.contains("red\\x1b[31m.png: no usable font"), "\(a.stderr)")
        #expect(!a.stderr.utf8.contains(0x1B))

        try Data("url:\n  scheme: [https\n  \u{1B}]0;owned\u{07}\u{1B}[2J: [\n".utf8).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let y = try sh("exec \"$CS\" check --rules \"$1\" \"$2\"", [dir.file("rules.yml"), input])
        #expect(y.status == 2, "\(y.stderr)")
        #expect(y.stderr.contains("rules.yml"), "\(y.stderr)")
        #expect(!y.stderr.utf8.contains(0x1B) && !y.stderr.utf8.contains(0x07), "\(y.stderr)")
    }

    @Test("A HEIC whose header declares 65535x65535 is too_large, not corrupt")
    func hugeHEICIsTooLarge() throws {
        let dir = try TempDir()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: PackageRoot.samples + "/qr-card.heic")))
        // Every 'ispe' box (image spatial extents) now declares 65535x65535.
        var patched = 0
        for i in 4..<(bytes.count - 16) where bytes[i..<(i + 4)].elementsEqual(Array("ispe".utf8)) {
            for k in 0..<8 { bytes[i + 8 + k] = [0, 0, 0xFF, 0xFF][k % 4] }
            patched += 1
        }
        #expect(patched >= 1)
        try dir.write("huge.heic", bytes)
        let r = try sh("exec \"$CS\" scan -q \"$1\"", [dir.file("huge.heic")])
        #expect(r.status == 1)
        let rec = try #require(try Self.records(r.stdout).first)
        #expect(rec["error"]?["kind"]?.stringValue == "too_large", "\(r.stdout)")
        #expect(rec["error"]?["message"]?.stringValue?.contains("65535x65535") == true)
    }

    @Test("ArgumentBytes: escaping is exact both ways, and plain UTF-8 is unchanged")
    func argumentBytesRoundTrip() {
        let cases: [[UInt8]] = [
            Array("plain/ascii.png".utf8), Array("héllo wörld €".utf8), [0x61, 0xFF, 0x62], [0xC3],
            [0xE2, 0x82], [0x80, 0x80, 0xFE], Array("\u{F780}\u{F7FF}x".utf8), [], [0xED, 0xA0, 0x80],
        ]
        for c in cases {
            #expect(ArgumentBytes.bytes(ArgumentBytes.escape(c)) == c, "\(c)")
        }
        #expect(ArgumentBytes.escape(Array("héllo €".utf8)) == "héllo €")
        #expect(ArgumentBytes.display(ArgumentBytes.escape([0x61, 0xFF])) == "a\u{FFFD}")
        #expect(ArgumentBytes.escape([0x61, 0xFF]) != ArgumentBytes.escape([0x61, 0xFE]))
    }

    @Test("A JPEG over the pixel budget is decoded DCT-scaled to fit on a first decode, refused otherwise")
    func jpegOverBudgetIsReduced() throws {
        let dir = try TempDir()
        _ = try Make.qrOnCanvas("reduced to fit", in: dir, name: "big.jpg", width: 2000, height: 1500, at: 600, 400, scale: 12)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("big.jpg"))))
        var limits = LoadLimits()
        limits.maxTotalPixels = 1_000_000  // 3 MP of JPEG: over it, 1/2 size (0.75 MP) fits
        let reduced = try ImageLoader.load(bytes, format: .jpeg, limits: limits, reduceToFit: true)
        #expect(reduced.scale == 0.5)
        #expect(reduced.width == 2000 && reduced.height == 1500)
        #expect(reduced.frames.first?.width == 1000)
        #expect(reduced.warnings.contains { $0.contains("decoded at 1/2 size") })
        #expect(throws: RecordError.self) { try ImageLoader.load(bytes, format: .jpeg, limits: limits) }
        do {
            _ = try ImageLoader.load(bytes, format: .jpeg, limits: limits)
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.message.contains("2000x1500"), "\(error.message)")
        }
    }
}
