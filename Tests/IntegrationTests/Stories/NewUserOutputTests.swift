import Foundation
import Reporting
import TestSupport
import Testing

/// Smaller things a new user read in the output (issue 28 item 11): the time of an image read
/// from standard input, a folder written with a trailing slash, and "1 reports".
@Suite("New user: output wording")
struct NewUserOutputTests {
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

    @Test("generate --batch -o codes/ names the manifest codes/expected.yml, not codes//expected.yml")
    func manifestPathWithTrailingSlash() throws {
        let dir = try TempDir("manifest-slash")
        try Data("name,payload,options\nposter,https://www.example.com/p?utm_source=poster,\nflyer,https://www.example.com/p?utm_source=flyer,\n".utf8).write(
            to: URL(fileURLWithPath: dir.file("list.csv")))
        let g = try run(codesweepBinary, ["generate", "--batch", "list.csv", "-o", "codes/"], currentDirectory: dir.path, check: false)
        #expect(g.status == 0, "\(g.stderr)")
        #expect(g.stderr.contains("manifest codes/expected.yml") && !g.stderr.contains("//"), "\(g.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.file("codes/expected.yml")))
    }

    @Test("merge of one report says '1 report', of one record '1 record'")
    func mergeCountsSingular() throws {
        let dir = try TempDir("merge-words")
        try Make.qr("one", to: dir.file("q.png"), scale: 4, margin: 4)
        let s = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", "-o", "r.jsonl", "q.png"], currentDirectory: dir.path, check: false)
        #expect(s.status == 0, "\(s.stderr)")
        let m = try run(codesweepBinary, ["merge", "r.jsonl"], currentDirectory: dir.path, check: false)
        #expect(m.status == 0 && m.stderr.contains("codesweep merge: 1 record from 1 report\n"), "\(m.stderr)")
    }
}
