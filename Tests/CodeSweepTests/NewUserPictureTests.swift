import Foundation
import Testing
@testable import Forensics
import SweepCore

/// `--annotate` as a new user met it (issue 28 items 5 and 11): two inputs with the same name
/// gave one picture, and labels overlapped each other and the first corner's dot.
@Suite("New user: annotated pictures")
struct NewUserPictureTests {
    typealias S = PictureSupport

    /// FNV-1a 64 written here again (not the code under test's), first 8 hex digits.
    static func tag(_ path: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in path.utf8 { h ^= UInt64(b); h &*= 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(8))
    }

    @Test("two inputs named image001.png in different folders give two pictures, named by a tag of their paths, the same in every run and shard")
    func sameNameTwoPictures() throws {
        let dir = try TempDir("picture-names")
        try S.makeQR("first", at: dir.url.appendingPathComponent("a/image001.png"), scale: 4, canvas: (w: 300, h: 260, x: 90, y: 80))
        try S.makeQR("second", at: dir.url.appendingPathComponent("b/image001.png"), scale: 4, canvas: (w: 300, h: 260, x: 90, y: 80))
        try S.makeQR("alone", at: dir.url.appendingPathComponent("b/other.png"), scale: 4, canvas: (w: 300, h: 260, x: 90, y: 80))
        // As `find . -name '*.png' -print0 | codesweep scan --files-from - -0 --annotate out`.
        let list = Data(["a/image001.png", "b/image001.png", "b/other.png"].joined(separator: "\0").utf8 + [0])
        let r = try run(codesweepBinary, ["scan", "-q", "--files-from", "-", "-0", "--annotate", "out"], stdin: list,
                        currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = ["image001.png.\(Self.tag("a/image001.png")).annotated.png",
                        "image001.png.\(Self.tag("b/image001.png")).annotated.png", "other.png.annotated.png"].sorted()
        #expect(S.files(below: dir.url.appendingPathComponent("out")) == expected)
        // Each picture holds its own input's code.
        for (name, text) in [(expected.first { $0.contains(Self.tag("a/image001.png")) }!, "first"),
                             (expected.first { $0.contains(Self.tag("b/image001.png")) }!, "second")] {
            let back = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", "out/" + name], currentDirectory: dir.path, check: false)
            #expect(try S.records(back).first?["codes"]?.arrayValue?.first?["text"]?.stringValue == text, "\(name)")
        }

        // Named as files on the command line: the same names.
        let args = try run(codesweepBinary, ["scan", "-q", "a/image001.png", "b/image001.png", "--annotate", "out2"], currentDirectory: dir.path, check: false)
        #expect(args.status == 0, "\(args.stderr)")
        #expect(S.files(below: dir.url.appendingPathComponent("out2")) == expected.filter { !$0.hasPrefix("other") })

        // Shards annotating into one folder: each picture gets the name the whole run gives it.
        for k in 0..<2 {
            let s = try run(codesweepBinary, ["scan", "-q", "--shard", "\(k)/2", "--files-from", "-", "-0", "--annotate", "out3"], stdin: list,
                            currentDirectory: dir.path, check: false)
            #expect(s.status == 0, "\(s.stderr)")
        }
        #expect(S.files(below: dir.url.appendingPathComponent("out3")) == expected)
    }
}
