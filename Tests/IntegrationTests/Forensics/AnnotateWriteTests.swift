import CodeGenerate
import Foundation
import TestSupport
import Testing

/// Where `--annotate` writes: a picture whose name would be too long costs a warning on its
/// record, not the sweep; a symbolic link at a picture's path is replaced, never written through.
@Suite("--annotate: an unnamable picture is a warning; a link at its path is replaced", .serialized)
struct AnnotateWriteTests: SweepRuns {
    @Test("a file whose picture name is too long gets a warning on its record; the other files are scanned and annotated")
    func annotateLongName() throws {
        let dir = try TempDir("annotate-long")
        let assets = try dir.mkdir("assets")
        let long = String(repeating: "l", count: 251) + ".png"
        try Make.qr("https://www.example.com/long", to: assets + "/" + long)
        try Make.qr("https://www.example.com/z", to: assets + "/z.png")
        let r = try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "--annotate", "pics", "assets"], currentDirectory: dir.path, check: false)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("stopped") && r.stderr.contains("File name too long"), "\(r.stderr)")
        let records = try TestJSON.lines(String(contentsOfFile: dir.file("r.jsonl"), encoding: .utf8))
        #expect(records.count == 2)
        let longRecord = try #require(records.first { $0["path"]?.string == "assets/" + long })
        let warnings = (longRecord["warnings"]?.array ?? []).compactMap(\.string)
        #expect(warnings.contains { $0.contains("File name too long") }, "\(warnings)")
        #expect(records.first { $0["path"]?.string == "assets/z.png" }?["codes"]?.array?.count == 1)
        #expect(FileManager.default.fileExists(atPath: dir.file("pics/z.png.annotated.png")))
    }

    @Test("--annotate replaces a symbolic link at a picture's path (never writing where it points), as docs/report.md says")
    func annotateReplacesLink() throws {
        let dir = try TempDir("annotate-link")
        try dir.mkdir("assets"); try dir.mkdir("pics")
        try Make.qr("https://www.example.com/a", to: dir.file("assets/a.png"))
        try dir.write("victim.txt", Array("keep\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.file("pics/a.png.annotated.png"), withDestinationPath: "../victim.txt")
        let r = try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "--annotate", "pics", "assets"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("pics/a.png.annotated.png"))
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the link is replaced by the picture")
        #expect(Self.bytes(dir.file("victim.txt")) == Data("keep\n".utf8))
    }
}
