import Foundation
import TestSupport
import Testing

@testable import Reporting

/// Issue 27, items 6-9: outputs written where they must not be, or lost. Every file a command
/// writes goes through `SafeFile`: no link followed, temporary file + fsync + rename.
@Suite("Trust: outputs", .serialized)
struct TrustOutputTests {
    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("6: generate refuses a link at its target (batch, dangling, -o link.png); the victim is untouched")
    func generateRefusesLinks() throws {
        let dir = try TempDir("trust-links")
        try dir.mkdir("victim"); try dir.mkdir("out")
        try dir.write("victim/secret.txt", Array("secret\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.file("out/code1.png"), withDestinationPath: "../victim/secret.txt")
        try dir.write("list.csv", Array("name,payload\ncode1,https://www.example.com/a\ncode2,https://www.example.com/b\n".utf8))
        let batch = try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", dir.file("out")], check: false)
        #expect(batch.status == 2, "\(batch.stderr)")
        #expect(batch.stderr.contains("symbolic link"), "\(batch.stderr)")
        #expect(Self.bytes(dir.file("victim/secret.txt")) == Data("secret\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir.file("out/code2.png")), "nothing is made when an output is refused")

        // The manifest through a link, a dangling link, and -o naming a link.
        try FileManager.default.removeItem(atPath: dir.file("out/code1.png"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("out/expected.yml"), withDestinationPath: "../victim/secret.txt")
        let manifest = try run(codesweepBinary, ["generate", "-q", "--batch", dir.file("list.csv"), "-o", dir.file("out")], check: false)
        #expect(manifest.status == 2 && Self.bytes(dir.file("victim/secret.txt")) == Data("secret\n".utf8), "\(manifest.stderr)")
        try FileManager.default.createSymbolicLink(atPath: dir.file("dangling.png"), withDestinationPath: dir.file("victim/new.png"))
        let dangling = try run(codesweepBinary, ["generate", "-q", "https://www.example.com/", "-o", dir.file("dangling.png")], check: false)
        #expect(dangling.status == 2, "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("victim/new.png")), "a dangling link does not create its target")
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.png"), withDestinationPath: dir.file("victim/secret.txt"))
        let single = try run(codesweepBinary, ["generate", "-q", "https://www.example.com/", "-o", dir.file("link.png")], check: false)
        #expect(single.status == 2 && Self.bytes(dir.file("victim/secret.txt")) == Data("secret\n".utf8), "\(single.stderr)")
        // scan -o (a streamed report) and check --junit refuse a link too.
        let scan = try run(codesweepBinary, ["scan", "-q", "-o", dir.file("link.png"), dir.file("list.csv")], check: false)
        #expect(scan.status == 2 && Self.bytes(dir.file("victim/secret.txt")) == Data("secret\n".utf8), "\(scan.stderr)")
    }

    @Test("7: report --root reads pictures only under the root (.., absolute, path_b64, links out)")
    func reportStaysUnderRoot() throws {
        let dir = try TempDir("trust-root")
        try dir.mkdir("root"); try dir.mkdir("secret")
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("root/ok.png"), "https://www.example.com/ok"])
        try FileManager.default.copyItem(atPath: dir.file("root/ok.png"), toPath: dir.file("secret/private.png"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("root/link.png"), withDestinationPath: "../secret/private.png")
        let scanned = try run(codesweepBinary, ["scan", "ok.png"], currentDirectory: dir.file("root"))
        let line = scanned.stdoutLines[0]
        func with(path: String, b64: String? = nil) -> String {
            var l = line.replacingOccurrences(of: #""path":"ok.png""#, with: "\"path\":\"\(path)\"")
            if let b64 { l = l.replacingOccurrences(of: "\"path\":\"\(path)\"", with: "\"path\":\"\(path)\",\"path_b64\":\"\(b64)\"") }
            return l
        }
        let evil = [
            line, with(path: "../secret/private.png"), with(path: dir.file("secret/private.png")), with(path: "link.png"),
            with(path: "x", b64: Data("../secret/private.png".utf8).base64EncodedString()),
        ]
        try dir.write("evil.jsonl", Array((evil.joined(separator: "\n") + "\n").utf8))
        let r = try run(codesweepBinary, ["report", dir.file("evil.jsonl"), "--root", dir.file("root"), "--html", dir.file("page.html")], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: dir.file("page.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "data:image/jpeg").count - 1 == 1, "only ok.png is under the root")
        #expect(r.stderr.contains("4 of 5 pictures could not be opened") && r.stderr.contains("outside --root"), "\(r.stderr)")
    }

    @Test("8: batch names that land on one file, and outputs over inputs, are refused before anything is made")
    func batchCollisions() throws {
        let dir = try TempDir("trust-names")
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

    @Test("9: on a full disk, generate, report --html, check --junit and --json leave the previous file intact")
    func fullDiskKeepsThePreviousFile() throws {
        let dir = try TempDir("trust-full")
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("a.png"), "https://www.example.com/a"])
        try run(codesweepBinary, ["scan", "-o", dir.file("a.jsonl"), dir.file("a.png")])
        guard let mnt = try SmallFileSystem.mount(dir, kib: 256) else {
            Issue.record("cannot mount a tmpfs (not root?)"); return
        }
        defer { SmallFileSystem.unmount(mnt) }
        let old = Data("the previous file\n".utf8)
        let targets = ["code.png", "page.html", "junit.xml", "check.json"]
        for t in targets { try old.write(to: URL(fileURLWithPath: mnt + "/" + t)) }
        try SmallFileSystem.fill(mnt, leaving: 0)
        let runs: [(String, [String])] = [
            ("code.png", ["generate", "-q", "https://www.example.com/a", "-o", mnt + "/code.png"]),
            ("page.html", ["report", dir.file("a.jsonl"), "--html", mnt + "/page.html"]),
            ("junit.xml", ["check", "--no-rules-file", "--isolation", "none", "--junit", mnt + "/junit.xml", dir.file("a.png")]),
            ("check.json", ["check", "--no-rules-file", "--isolation", "none", "--json", mnt + "/check.json", dir.file("a.png")]),
        ]
        for (target, args) in runs {
            let r = try run(codesweepBinary, args, check: false)
            #expect(r.status == 2, "\(target): \(r.stderr)")
            #expect(r.stderr.contains("No space left on device"), "\(target): \(r.stderr)")
            #expect(Self.bytes(mnt + "/" + target) == old, "\(target) must be left as it was")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: mnt).sorted()
        #expect(left == (targets + ["filler"]).sorted(), "no temporary file left: \(left)")
    }

    @Test("SafeFile: a whole file replaces the target only when complete; a link is refused")
    func safeFileUnit() throws {
        let dir = try TempDir("trust-safefile")
        try SafeFile.write("one", to: dir.file("f"))
        try SafeFile.write("two", to: dir.file("f"))
        #expect(Self.bytes(dir.file("f")) == Data("two".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.file("l"), withDestinationPath: dir.file("f"))
        #expect(throws: OutputError.self) { try SafeFile.write("three", to: dir.file("l")) }
        #expect(Self.bytes(dir.file("f")) == Data("two".utf8))
        try dir.mkdir("d")
        #expect(throws: OutputError.self) { try SafeFile.write("x", to: dir.file("d")) }
        let pending = try SafeFile.begin(dir.file("f"))
        pending.out.write("half")
        pending.discard()
        #expect(Self.bytes(dir.file("f")) == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["d", "f", "l"])
        // A character device is written to as named (`--junit /dev/null`).
        try SafeFile.write("discarded", to: "/dev/null")
    }
}
