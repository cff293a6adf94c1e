import CodeGenerate
import Foundation
import TestSupport
import Testing

/// Issue 40, items 5 to 8: no output replaces an input, one file's picture problem does not stop
/// the sweep, `generate`'s manifest names and its outputs survive a full disk.
@Suite("Trust: inputs and outputs", .serialized)
struct TrustInputsTests {
    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("5: every output flag refuses to write over an input (same path, hard link, ./path, an image in the folder walked)")
    func outputsOverInputs() throws {
        let dir = try TempDir("trust-over")
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

    @Test("6: a file whose picture name is too long gets a warning on its record; the other files are scanned and annotated")
    func annotateLongName() throws {
        let dir = try TempDir("trust-annotate-long")
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

    @Test("9: --annotate replaces a symbolic link at a picture's path (never writing where it points), as docs/report.md says")
    func annotateReplacesLink() throws {
        let dir = try TempDir("trust-annotate-link")
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

    @Test("7: generate -o codes/ names the codes right in codes/expected.yml, and README's generate-then-check runs as written")
    func readmeGenerateThenCheck() throws {
        let readme = try String(contentsOfFile: PackageRoot.file("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "Make campaign QR codes and gate them").dropFirst().first)
        let commands = block.components(separatedBy: "```sh\n")[1].components(separatedBy: "```")[0]
            .split(separator: "\n").map { String($0.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces) }
        #expect(commands.count == 2 && commands[0].hasPrefix("codesweep generate --batch") && commands[0].hasSuffix("-o codes/"), "\(commands)")
        let dir = try TempDir("trust-readme")
        try FileManager.default.createSymbolicLink(atPath: dir.file("Samples"), withDestinationPath: PackageRoot.samples)
        let bin = URL(fileURLWithPath: codesweepBinary).deletingLastPathComponent().path
        for command in commands {
            let r = try sh("cd \"$1\" && PATH=\"$2:$PATH\" && \(command)", [dir.path, bin])
            #expect(r.status == 0, "\(command): \(r.stdout) \(r.stderr)")
        }
        let manifest = try String(contentsOfFile: dir.file("codes/expected.yml"), encoding: .utf8)
        #expect(manifest.contains("01-poster.png") && !manifest.contains("\n1-poster.png"), "\(manifest)")
        #expect(Manifest.name("codes//a.png", in: "codes//") == "a.png")
        #expect(Manifest.name("/a.png", in: "/") == "a.png")
    }

    @Test("8: a full disk leaves generate's previous outputs (code and manifest) as they were")
    func generateOnFullDisk() throws {
        let dir = try TempDir("trust-generate-full")
        guard let mnt = try SmallFileSystem.mount(dir, kib: 200) else {
            Issue.record("mounting a tmpfs needs root; this test must run as root (CI does)")
            return
        }
        defer { SmallFileSystem.unmount(mnt) }
        try run(codesweepBinary, ["generate", "-q", "-o", mnt + "/code.png", "https://www.example.com/a"])
        try dir.write("list.csv", Array("name,payload\none,https://www.example.com/1\n".utf8))
        try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", mnt + "/batch/"])
        let before = ["code.png", "batch/one.png", "batch/expected.yml"].map { Self.bytes(mnt + "/" + $0) }
        try SmallFileSystem.fill(mnt, leaving: 0)
        let single = try run(
            codesweepBinary, ["generate", "-q", "-o", mnt + "/code.png", "https://www.example.com/" + String(repeating: "b", count: 600)], check: false)
        #expect(single.status == 2 && single.stderr.contains("No space left"), "\(single.stderr)")
        try dir.write("list.csv", Array("name,payload\none,https://www.example.com/\(String(repeating: "c", count: 600))\n".utf8))
        let batch = try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", mnt + "/batch/"], check: false)
        #expect(batch.status == 2, "\(batch.stderr)")
        #expect(["code.png", "batch/one.png", "batch/expected.yml"].map { Self.bytes(mnt + "/" + $0) } == before)
        let left = try FileManager.default.subpathsOfDirectory(atPath: mnt).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }
}
