import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

/// Arguments that are not UTF-8 (a file, a root, a glob holding byte 0xff) reach the sweep as the
/// bytes they are, and `ArgumentBytes` escapes them exactly both ways.
@Suite("Arguments are bytes", .serialized)
struct ByteExactArgumentTests: SweepRuns {
    @Test("Arguments are bytes: a file, a root and a glob holding byte 0xff on the command line")
    func nonUTF8Arguments() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 1)
        // images/bad\xffdir/bad\xffname.png, made through the shell (names are bytes there).
        let made = try sh(
            """
            d="$1/bad$(printf '\\377')dir"; mkdir "$d" && cp "$1/q000.png" "$d/bad$(printf '\\377')name.png"
            """, [images])
        #expect(made.status == 0, "\(made.stderr)")
        let expected: [UInt8] = Array((images + "/bad").utf8) + [0xFF] + Array("dir/bad".utf8) + [0xFF] + Array("name.png".utf8)

        func check(_ r: ProcessResult, _ what: String) throws {
            #expect(r.status == 0, "\(what): \(r.stderr)")
            let recs = try Self.records(r.stdout)
            let rec = try #require(recs.first { $0["path_b64"] != nil }, "\(what): \(r.stdout)")
            #expect(Base64.decode(rec["path_b64"]?.stringValue ?? "") == expected, "\(what)")
            #expect(rec["status"]?.stringValue == "ok", "\(what)")
            #expect(rec["codes"]?.arrayValue?.count == 1, "\(what)")
        }
        // The file itself.
        try check(try sh("exec \"$CS\" scan -q \"$1/bad$(printf '\\377')dir/bad$(printf '\\377')name.png\"", [images]), "file")
        // Its folder as a root.
        try check(try sh("exec \"$CS\" scan -q \"$1/bad$(printf '\\377')dir\"", [images]), "root")
        // A glob with the byte, over the whole tree: only that file.
        let g = try sh("exec \"$CS\" scan -q --include \"bad$(printf '\\377')*\" \"$1\"", [images])
        try check(g, "glob")
        #expect(try Self.records(g.stdout).count == 1)
    }

    @Test("ArgumentBytes: escaping is exact both ways, and plain UTF-8 is unchanged")
    func argumentBytesRoundTrip() {
        let cases: [[UInt8]] = [
            Array("plain/ascii.png".utf8), Array("héllo wörld €".utf8), [0x61, 0xFF, 0x62], [0xC3],
            [0xE2, 0x82], [0x80, 0x80, 0xFE], Array("\u{F780}\u{F7FF}x".utf8), [], [0xED, 0xA0, 0x80],
        ]
        for c in cases {
            #expect(ArgumentBytes.bytes(ArgumentBytes.escape(c)) == c, "\(c)")
        }
        #expect(ArgumentBytes.escape(Array("héllo €".utf8)) == "héllo €")
        #expect(ArgumentBytes.display(ArgumentBytes.escape([0x61, 0xFF])) == "a\u{FFFD}")
        #expect(ArgumentBytes.escape([0x61, 0xFF]) != ArgumentBytes.escape([0x61, 0xFE]))
    }
}
