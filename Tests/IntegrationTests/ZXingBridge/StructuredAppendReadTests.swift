import Foundation
import TestSupport
import Testing

/// A structured-append QR sequence (segno; Tests/Fixtures/symbologies) read in one image and
/// over three files: the record joins what it holds, `summarize` joins the files.
@Suite("Structured append: a sequence read and joined")
struct StructuredAppendReadTests {
    static let dir = PackageRoot.path + "/Tests/Fixtures/symbologies"

    static func message() throws -> String {
        let manifest = try TestJSON.parse(try String(contentsOfFile: dir + "/manifest.json", encoding: .utf8))
        return try #require(manifest["structured_append"]?["sequence_text"]?.string)
    }

    @Test("three parts in one image: each part with its index, count and id; the record's sequence complete")
    func withinOneImage() throws {
        let r = try run(codesweepBinary, ["scan", "-q", Self.dir + "/qr-sequence-3in1.png"])
        let rec = try TestJSON.parse(r.stdout)
        let codes = rec["codes"]?.array ?? []
        #expect(codes.count == 3)
        let indices = codes.compactMap { $0["details"]?["sequence_index"]?.int }.sorted()
        #expect(indices == [0, 1, 2], "\(rec)")
        #expect(codes.allSatisfy { $0["details"]?["sequence_count"]?.int == 3 && $0["details"]?["sequence_id"]?.string == "105" })
        let seq = try #require(rec["sequences"]?.array?.first)
        #expect(seq["complete"]?.bool == true)
        #expect(seq["text"]?.string == (try Self.message()))
        #expect(seq["parts"]?.array?.compactMap(\.int) == [0, 1, 2])
    }

    @Test("one part a file: each record's sequence incomplete; summarize joins the three files, and says what is missing without one")
    func acrossFiles() throws {
        let files = (1...3).map { Self.dir + "/qr-sequence-\($0)of3.png" }
        let scan = try run(codesweepBinary, ["scan", "-q"] + files)
        #expect(scan.stdoutLines.count == 3)
        for line in scan.stdoutLines {
            let rec = try TestJSON.parse(line)
            #expect(rec["sequences"]?.array?.first?["complete"]?.bool == false, "\(line.prefix(300))")
        }
        let dir = try TempDir("sequence")
        let report = dir.file("report.jsonl")
        try scan.stdout.write(toFile: report, atomically: true, encoding: .utf8)
        let summary = try TestJSON.parse(try run(codesweepBinary, ["summarize", "--json", report]).stdout)
        let joined = try #require(summary["sequences"]?.array?.first)
        #expect(joined["complete"]?.bool == true)
        #expect(joined["text"]?.string == (try Self.message()))
        #expect(joined["parts"]?.array?.count == 3)
        let text = try run(codesweepBinary, ["summarize", report]).stdout
        #expect(text.contains("structured append: 1 sequence") && text.contains("3 of 3 parts (complete)"), "\(text)")
        // Two of the three: incomplete, the missing part named.
        let two = dir.file("two.jsonl")
        try (scan.stdoutLines.prefix(2).joined(separator: "\n") + "\n").write(toFile: two, atomically: true, encoding: .utf8)
        let partial = try run(codesweepBinary, ["summarize", two]).stdout
        #expect(partial.contains("2 of 3 parts (incomplete, missing part 3)"), "\(partial)")
    }

    @Test("merge joins a sequence whose parts are in different shards, and names what is missing; the report stays byte for byte")
    func mergeJoinsAcrossShards() throws {
        let files = (1...3).map { Self.dir + "/qr-sequence-\($0)of3.png" }
        let dir = try TempDir("sequence-merge")
        let a = dir.file("a.jsonl"), b = dir.file("b.jsonl")
        try run(codesweepBinary, ["scan", "-q"] + files.prefix(2)).stdout.write(toFile: a, atomically: true, encoding: .utf8)
        try run(codesweepBinary, ["scan", "-q", files[2]]).stdout.write(toFile: b, atomically: true, encoding: .utf8)
        let merged = try run(codesweepBinary, ["merge", a, b])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdoutLines.count == 3)
        #expect(
            merged.stderr.contains("structured append across files: qr id 105, 3 of 3 parts (complete) in 3 files: \(try Self.message())"),
            "\(merged.stderr)")
        let one = try run(codesweepBinary, ["merge", a])
        #expect(one.stderr.contains("2 of 3 parts (incomplete, missing part 3) in 2 files"), "\(one.stderr)")
    }
}
