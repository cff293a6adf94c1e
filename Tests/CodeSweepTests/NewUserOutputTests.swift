import Foundation
import Testing
import SweepCore

/// Smaller things a new user read in the output (issue 28 item 11): the time of an image read
/// from standard input.
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
}
