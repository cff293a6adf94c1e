import Foundation
import Reporting
import SweepSelection
import TestSupport
import Testing

@testable import CodeSweep

/// --files-from, --shard, merge and summarize: shards of a real tree, merged, equal a single run.
@Suite("Forensic scale-out", .serialized)
struct ForensicScaleOutTests {
    /// A tree whose names test the walker's order ("a/..." before "a-c/..." although "-" < "/"),
    /// with repeated payloads, a URL host in two spellings, a control character, and a non-image.
    static func makeTree(_ root: URL) throws -> [String: String] {
        let files: [String: String] = [
            "a/x.png": "https://Example.com/a",
            "a/y/deep.png": "https://example.com/a",
            "a-c/z.png": "https://example.com./b?q=1",
            "a.b.png": "https://user@other.org:8443/x",
            "b/c.png": "plain text",
            "b/c/d/e.png": "bell\u{07} and \u{1B}[31m red, in a payload long enough to read as text\u{202E}",
            "b/c/d/f.png": "https://Example.com/a",
            "b0.png": "bell\u{07} and \u{1B}[31m red, in a payload long enough to read as text\u{202E}",
            "c.jpg": "https://example.com/a",
            "d/e f.png": "plain text",
            "d/g.png": "unique",
            "e.png": "one more",
        ]
        for (path, text) in files { try Forensic.makeQR(text, at: root.appendingPathComponent(path)) }
        try Data("walked, not an image: skipped\n".utf8).write(to: root.appendingPathComponent("b/notes.txt"))
        return files
    }

    @Test("The shard hash is FNV-1a 64 (published test vectors), so other tools can compute shards too")
    func fnvVectors() {
        #expect(Shard.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        #expect(Shard(parsing: "2/3") == Shard(index: 2, count: 3))
        #expect(Shard(parsing: "3/3") == nil && Shard(parsing: "-1/3") == nil && Shard(parsing: "1/0") == nil && Shard(parsing: "1") == nil)
    }

    @Test("Shards are disjoint and complete; merge of shards is byte-identical to a single run; merge finds missing and duplicated files")
    func shardsAndMerge() throws {
        let dir = try TempDir("forensic-shards")
        let tree = dir.url.appendingPathComponent("tree")
        let files = try Self.makeTree(tree)
        let cs = codesweepBinary
        // Relative paths, as a user would type them: the shard of a file is a hash of these bytes.
        let single = try run(cs, ["scan", "-q", "--hash", "sha256", "tree"], currentDirectory: dir.path, check: false)
        #expect(single.status == 0, "\(single.stderr)")
        let singleLines = Forensic.lines(single.stdoutBytes)
        let singlePaths = try Forensic.records(single.stdoutBytes).map { $0["path"]!.stringValue! }
        #expect(singlePaths.count == files.count)
        #expect(Set(singlePaths) == Set(files.keys.map { "tree/" + $0 }))
        #expect(singlePaths.firstIndex(of: "tree/a/y/deep.png")! < singlePaths.firstIndex(of: "tree/a-c/z.png")!)

        let n = 3
        var shardPaths: [Set<String>] = []
        var shardFiles: [String] = []
        for k in 0..<n {
            let out = dir.url.appendingPathComponent("shard-\(k).jsonl")
            let r = try run(cs, ["scan", "-q", "--hash", "sha256", "--shard", "\(k)/\(n)", "-o", out.path, "tree"], currentDirectory: dir.path, check: false)
            #expect(r.status == 0, "\(r.stderr)")
            let recs = try Forensic.records(try Data(contentsOf: out))
            shardPaths.append(Set(recs.map { $0["path"]!.stringValue! }))
            shardFiles.append(out.path)
        }
        for i in 0..<n { for j in (i + 1)..<n { #expect(shardPaths[i].isDisjoint(with: shardPaths[j]), "shards \(i) and \(j) overlap") } }
        #expect(shardPaths.reduce(Set()) { $0.union($1) } == Set(singlePaths), "shards cover the tree")
        #expect(shardPaths.allSatisfy { !$0.isEmpty && $0.count < files.count })

        // Merged in any input order, the lines are exactly the single run's.
        let merged = try run(cs, ["merge", shardFiles[2], shardFiles[0], shardFiles[1]], currentDirectory: dir.path, check: false)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(Forensic.lines(merged.stdoutBytes) == singleLines)
        let checked = try run(cs, ["merge", "--root", "tree", "-o", "merged.jsonl"] + shardFiles, currentDirectory: dir.path, check: false)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(try Data(contentsOf: dir.url.appendingPathComponent("merged.jsonl")) == single.stdoutBytes)

        // A shard left out: missing files named, nothing written, exit 1.
        let missing = try run(cs, ["merge", "--root", "tree", shardFiles[0], shardFiles[1]], currentDirectory: dir.path, check: false)
        #expect(missing.status == 1)
        #expect(missing.stdoutBytes.isEmpty)
        let someMissing = shardPaths[2].sorted().first!
        #expect(missing.stderr.contains("missing: \(someMissing)"))
        #expect(!missing.stderr.contains("notes.txt"), "a walked non-image is not expected")
        // A shard given twice: duplicated.
        let dup = try run(cs, ["merge", shardFiles[0], shardFiles[1], shardFiles[2], shardFiles[1]], currentDirectory: dir.path, check: false)
        #expect(dup.status == 1)
        #expect(dup.stderr.contains("duplicated: "))

        // --files-from stdin, NUL-separated, sharded: the same records (listed files are explicit).
        let find = try run("find", ["tree", "-name", "*.png", "-o", "-name", "*.jpg"], currentDirectory: dir.path, check: false)
        let listed = Forensic.lines(find.stdoutBytes)
        #expect(listed.count == files.count)
        let nulList = Data(listed.joined(separator: "\u{0}").utf8) + Data([0])
        var fromList: [String] = []
        for k in 0..<n {
            let r = try run(
                cs, ["scan", "-q", "--hash", "sha256", "--files-from", "-", "-0", "--shard", "\(k)/\(n)"], stdin: nulList, currentDirectory: dir.path,
                check: false)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(Set(try Forensic.records(r.stdoutBytes).map { $0["path"]!.stringValue! }) == shardPaths[k], "same shard whatever feeds the walker")
            let out = dir.url.appendingPathComponent("list-\(k).jsonl")
            try r.stdoutBytes.write(to: out)
            fromList.append(out.path)
        }
        try Data(listed.joined(separator: "\n").utf8).write(to: dir.url.appendingPathComponent("list.txt"))
        let listMerged = try run(cs, ["merge", "--expect-from", "list.txt"] + fromList, currentDirectory: dir.path, check: false)
        #expect(listMerged.status == 0, "\(listMerged.stderr)")
        #expect(Set(Forensic.lines(listMerged.stdoutBytes)) == Set(singleLines))
        #expect(Forensic.lines(listMerged.stdoutBytes).map { try! JSONReading.value($0)["path"]!.stringValue! } == listed, "in the list's order")

        let badShard = try run(cs, ["scan", "--shard", "3/3", "tree"], currentDirectory: dir.path, check: false)
        #expect(badShard.status != 0 && badShard.stderr.contains("0 <= K < N"))
    }

    @Test("summarize counts unique payloads per symbology and URL host, first/last file, and escapes control characters")
    func summarize() throws {
        let dir = try TempDir("forensic-summary")
        _ = try Self.makeTree(dir.url.appendingPathComponent("tree"))
        let cs = codesweepBinary
        let scan = try run(cs, ["scan", "-q", "-o", "report.jsonl", "tree"], currentDirectory: dir.path, check: false)
        #expect(scan.status == 0, "\(scan.stderr)")

        let j = try run(cs, ["summarize", "--json", "report.jsonl"], currentDirectory: dir.path, check: false)
        #expect(j.status == 0, "\(j.stderr)")
        let s = try JSONReading.value(j.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(s["files"]?.intValue == 12)
        #expect(s["codes"]?.intValue == 12)
        // Example.com/a and example.com/a are different bytes: 8 unique payloads.
        #expect(s["unique_payloads"]?.intValue == 8)
        let qr = try #require(s["by_symbology"]?["qr"])
        #expect(qr["codes"]?.intValue == 12)
        let payloads = try #require(qr["payloads"]?.arrayValue)
        #expect(payloads.count == 8)
        // Most frequent first; equal counts in order of first appearance (walk order).
        #expect(payloads.map { $0["count"]!.intValue! } == [2, 2, 2, 2, 1, 1, 1, 1])
        #expect(payloads[0]["text"]?.stringValue == "https://Example.com/a")
        #expect(payloads[0]["first"]?.stringValue == "tree/a/x.png")
        #expect(payloads[0]["last"]?.stringValue == "tree/b/c/d/f.png")
        #expect(payloads[1]["text"]?.stringValue == "https://example.com/a")
        #expect(payloads[1]["first"]?.stringValue == "tree/a/y/deep.png")
        #expect(payloads[1]["last"]?.stringValue == "tree/c.jpg")
        let bell = try #require(payloads.first { $0["text"]?.stringValue?.hasPrefix("bell") == true })
        #expect(bell["count"]?.intValue == 2 && bell["files"]?.intValue == 2)
        #expect(bell["first"]?.stringValue == "tree/b/c/d/e.png")
        #expect(bell["last"]?.stringValue == "tree/b0.png")
        let hosts = try #require(s["by_host"]?.arrayValue)
        #expect(hosts.map { $0["host"]!.stringValue! } == ["example.com", "other.org"])
        #expect(hosts[0]["codes"]?.intValue == 5)
        #expect(hosts[0]["unique_payloads"]?.intValue == 3)
        #expect(hosts[0]["first"]?.stringValue == "tree/a/x.png")
        #expect(hosts[0]["last"]?.stringValue == "tree/c.jpg")

        let t = try run(cs, ["summarize", "report.jsonl"], currentDirectory: dir.path, check: false)
        #expect(t.status == 0)
        #expect(!t.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F || $0.value == 0x202E })
        #expect(t.stdout.contains(#""bell\x07 and \x1b[31m red, in a payload long enough to read as text\u{202E}""#))
        #expect(t.stdout.contains("example.com: 5 codes, 3 unique, in 5 files"))
        #expect(t.stdout.contains("12 files, 12 with codes, 0 failed; 12 codes, 8 unique payloads"))
    }
}
