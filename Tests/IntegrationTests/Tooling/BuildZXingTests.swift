import Foundation
import TestSupport
import Testing

/// scripts/build-zxing.sh, the set-up's build of zxing-cpp 3.1.1: a source archive that is not
/// the pinned one stops it, before anything is unpacked or built, with a message saying why.
@Suite("Set-up: zxing-cpp's source is checked")
struct BuildZXingTests {
    @Test("a tampered archive (wrong sha256) stops the set-up with a clear message, and nothing is installed")
    func tamperedArchive() throws {
        let dir = try TempDir("zxing-archive")
        let archive = dir.file("zxing_cpp-3.1.1.tar.gz")
        try Data("not the release source\n".utf8).write(to: URL(fileURLWithPath: archive))
        let prefix = dir.file("prefix"), pcdir = dir.file("pc")
        let r = try run(
            "/usr/bin/env",
            [
                "CODESWEEP_ZXING_ARCHIVE=\(archive)", "CODESWEEP_ZXING_PREFIX=\(prefix)", "CODESWEEP_ZXING_PCDIR=\(pcdir)",
                "bash", PackageRoot.path + "/scripts/build-zxing.sh",
            ], check: false)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("not the pinned 1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b"), "\(r.stderr)")
        #expect(r.stderr.contains("refusing to build it"))
        #expect(!FileManager.default.fileExists(atPath: prefix + "/lib") && !FileManager.default.fileExists(atPath: pcdir + "/codesweep-zxing.pc"))
    }

    @Test("the installed build is the pinned one: its stamp holds the sha256 and the binary says zxing-cpp 3.1.1")
    func installedBuild() throws {
        let pc = try run("pkg-config", ["--variable=prefix", "codesweep-zxing"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stamp = try String(contentsOfFile: pc + "/.source-sha256", encoding: .utf8)
        #expect(stamp.hasPrefix("1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b"))
        let symbologies = try run(codesweepBinary, ["symbologies"]).stdout
        #expect(symbologies.contains("zxing-cpp 3.1.1"), "\(symbologies.suffix(400))")
    }
}
