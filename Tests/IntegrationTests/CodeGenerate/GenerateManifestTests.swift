import CodeGenerate
import Foundation
import Reporting
import TestSupport
import Testing

/// `generate -o codes/` writes codes/expected.yml naming the codes as check finds them, and
/// README's generate-then-check runs as written.
@Suite("generate's manifest names the codes where they are written", .serialized)
struct GenerateManifestTests {
    @Test("generate -o codes/ names the codes right in codes/expected.yml, and README's generate-then-check runs as written")
    func readmeGenerateThenCheck() throws {
        let readme = try String(contentsOfFile: PackageRoot.file("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "Make campaign QR codes and gate them").dropFirst().first)
        let commands = block.components(separatedBy: "```sh\n")[1].components(separatedBy: "```")[0]
            .split(separator: "\n").map { String($0.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces) }
        #expect(commands.count == 2 && commands[0].hasPrefix("codesweep generate --batch") && commands[0].hasSuffix("-o codes/"), "\(commands)")
        let dir = try TempDir("readme")
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
}
