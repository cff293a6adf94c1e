import FileWalker
import Foundation
import Records
import Reporting
import TestSupport
import Testing

/// `scan -`: the record of an image read from standard input (no mtime), and the file it is
/// held in while it is read (named with the pid, removed by the next `scan -` if a run was killed).
@Suite("scan -: the image read from standard input", .serialized)
struct StdinImageTests {
    @Test("scan - killed mid-stream leaves a file named with its pid; the next scan - removes it")
    func staleStdinFiles() throws {
        let tmp = try TempDir("stdin")
        let env = ["TMPDIR": tmp.path]
        // A scan reading a stream that never ends, killed with SIGKILL.
        let script = """
            mkfifo "$TMPDIR/in"
            (head -c 300000 /dev/zero; sleep 30) > "$TMPDIR/in" & writer=$!
            "$CS" scan - < "$TMPDIR/in" > /dev/null 2>&1 & cs=$!
            sleep 2; kill -KILL $cs; kill $writer; wait; rm -f "$TMPDIR/in"
            """
        try run("/bin/sh", ["-c", script], env: env.merging(["CS": codesweepBinary]) { $1 }, check: false)
        var left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("codesweep-stdin-") }
        if left.isEmpty {
            // The kill did not land where wanted: plant what a killed run leaves (a dead pid).
            let dead = try run("/bin/sh", ["-c", "/bin/true & echo $!; wait"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try tmp.write("codesweep-stdin-\(dead)-AbCdEf", Array(repeating: 0, count: 1000))
            left = ["codesweep-stdin-\(dead)-AbCdEf"]
        }
        #expect(left.count == 1 && left[0].split(separator: "-").count == 4, "\(left)")
        // One of a live process (this test runner) is kept.
        let live = "codesweep-stdin-\(getpid())-LiVe00"
        try tmp.write(live, [1])
        let r = try run(
            "/bin/sh", ["-c", "\"$CS\" scan - < \"$1\"", "sh", PackageRoot.file("Tests/IntegrationTests/Commands/StdinImageTests.swift")],
            env: env.merging(["CS": codesweepBinary]) { $1 }, check: false)
        #expect(r.status == 1, "a text file is not an image: \(r.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("codesweep-stdin-") }
        #expect(after == [live], "\(after)")
    }

    @Test("scan - : the record has no mtime (standard input has none), and stays valid against the record schema")
    func stdinHasNoMtime() throws {
        let dir = try TempDir("stdin-mtime")
        try Make.qr("from stdin", to: dir.file("q.png"), scale: 4, margin: 4)
        let image = try Data(contentsOf: URL(fileURLWithPath: dir.file("q.png")))
        let r = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", "-"], stdin: image, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let record = try JSONReading.value(try #require(r.stdoutLines.first))
        #expect(record["path"]?.stringValue == "-")
        #expect(record["mtime"] == nil, "\(r.stdout)")
        #expect(record["size"]?.intValue == image.count, "the size is still the image's")
        #expect(try SchemaCheck.problems(r.stdout, schema: "record.schema.json", lines: true) == [])
        // A file on disk keeps its mtime.
        let file = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", dir.file("q.png")], check: false)
        #expect(try JSONReading.value(try #require(file.stdoutLines.first))["mtime"] != nil)
    }
}
