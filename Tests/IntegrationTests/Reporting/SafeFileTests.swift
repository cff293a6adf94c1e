import Foundation
import TestSupport
import Testing

@testable import Reporting

/// Every file a command writes goes through `SafeFile`: no link followed, the target replaced
/// only by a complete file.
@Suite("Outputs are written whole and never through a link", .serialized)
struct SafeFileTests: SweepRuns {
    @Test("generate refuses a link at its target (batch, dangling, -o link.png); the victim is untouched")
    func generateRefusesLinks() throws {
        let dir = try TempDir("links")
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

    @Test("SafeFile: a whole file replaces the target only when complete; a link is refused")
    func safeFileUnit() throws {
        let dir = try TempDir("safefile")
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
