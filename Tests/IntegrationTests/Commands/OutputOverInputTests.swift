import CodeGenerate
import Foundation
import TestSupport
import Testing

@testable import Reporting

/// Every output flag refuses to write over an input (the same path, a hard link, `./path`, an
/// image in the folder walked), and batch names that land on one file are refused, before anything
/// is made.
@Suite("No output replaces an input", .serialized)
struct OutputOverInputTests: SweepRuns {
    @Test("every output flag refuses to write over an input (same path, hard link, ./path, an image in the folder walked)")
    func outputsOverInputs() throws {
        let dir = try TempDir("over")
        try Make.qr("https://www.example.com/b", to: dir.file("b.png"))
        try dir.mkdir("imgs")
        try Make.qr("https://www.example.com/c", to: dir.file("imgs/c.png"))
        try dir.write("r.yml", Array("url:\n  schemes: [https]\n".utf8))
        try dir.write("list.txt", Array("b.png\n".utf8))
        try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "b.png"], currentDirectory: dir.path)
        #expect(link(dir.file("b.png"), dir.file("hard.png")) == 0)
        let cases: [[String]] = [
            ["scan", "b.png", "-o", "b.png"],
            ["scan", "b.png", "-o", "./b.png"],
            ["scan", "b.png", "-o", "hard.png"],
            ["scan", "--format", "json", "b.png", "-o", "b.png"],
            ["scan", "--format", "csv", "imgs", "-o", "imgs/c.png"],
            ["scan", "--files-from", "list.txt", "-o", "list.txt"],
            ["scan", "--files-from", "list.txt", "-o", "b.png"],
            ["scan", "b.png", "--resume", "b.png"],
            ["check", "--no-rules-file", "--junit", "b.png", "b.png"],
            ["check", "--no-rules-file", "--json", "b.png", "b.png"],
            ["check", "--no-rules-file", "--json", "imgs/c.png", "imgs"],
            ["check", "--rules", "r.yml", "--json", "r.yml", "b.png"],
            ["check", "--rules", "r.yml", "--junit", "./r.yml", "b.png"],
            ["check", "--no-rules-file", "--json", "o.json", "--junit", "o.json", "b.png"],
            ["merge", "r.jsonl", "-o", "r.jsonl"],
            ["merge", "r.jsonl", "--expect-from", "list.txt", "-o", "list.txt"],
            ["report", "r.jsonl", "--html", "b.png"],
            ["report", "r.jsonl", "--html", "hard.png"],
        ]
        let before = ["b.png", "imgs/c.png", "r.yml", "list.txt", "r.jsonl"].map { Self.bytes(dir.file($0)) }
        for args in cases {
            let r = try run(codesweepBinary, args, currentDirectory: dir.path, check: false)
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("would write over") && r.stderr.contains("nothing was written"), "\(args): \(r.stderr)")
            #expect(["b.png", "imgs/c.png", "r.yml", "list.txt", "r.jsonl"].map { Self.bytes(dir.file($0)) } == before, "\(args) changed an input")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("o.json")))
        // Outputs that are not inputs are still written; /dev/null may be named twice.
        for args in [
            ["scan", "-q", "imgs", "-o", "imgs/report.jsonl"], ["check", "--no-rules-file", "--json", "/dev/null", "--junit", "/dev/null", "b.png"],
        ] {
            let r = try run(codesweepBinary, args, currentDirectory: dir.path, check: false)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
    }

    @Test("batch names that land on one file, and outputs over inputs, are refused before anything is made")
    func batchCollisions() throws {
        let dir = try TempDir("names")
        for (list, clash) in [
            ("name,payload\na,https://www.example.com/1\na.png,https://www.example.com/2\n", "a.png"),
            ("name,payload,options\nb,https://www.example.com/1,format=svg\nb.svg,https://www.example.com/2,\n", "b.svg"),
        ] {
            try dir.write("list.csv", Array(list.utf8))
            let r = try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", dir.file("o")], check: false)
            #expect(r.status == 2 && r.stderr.contains(clash) && r.stderr.contains("writes too"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("o/" + clash)))
        }
        // --manifest naming the list itself.
        let list = "name,payload\nc,https://www.example.com/1\n"
        try dir.write("list.csv", Array(list.utf8))
        let m = try run(
            codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", dir.file("o"), "--manifest", dir.file("list.csv")], check: false)
        #expect(m.status == 2 && m.stderr.contains("batch list"), "\(m.stderr)")
        #expect(Self.bytes(dir.file("list.csv")) == Data(list.utf8))
        // An entry named `logo` writing over the logo another entry uses (list and output in one folder).
        try run(Tools.qrencode, ["-s", "2", "-o", dir.file("logo.png"), "L"])
        let logo = Self.bytes(dir.file("logo.png"))
        try dir.write("logos.csv", Array("name,payload,options\nwith,https://www.example.com/1,logo=logo.png\nlogo,https://www.example.com/2,\n".utf8))
        let l = try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("logos.csv"), "-o", dir.path, "--manifest", dir.file("m.yml")], check: false)
        #expect(l.status == 2 && l.stderr.contains("the logo"), "\(l.stderr)")
        #expect(Self.bytes(dir.file("logo.png")) == logo)
    }
}
