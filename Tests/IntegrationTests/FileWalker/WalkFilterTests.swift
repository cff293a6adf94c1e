import AssetCheck
import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import CodeSweep
@testable import FileWalker

/// Globs with alternation (`{a,b}`, nested and escaped), case-insensitive forms (`--iinclude`),
/// and folder excludes with a trailing slash, on a real walk; merge and check take the same flags.
@Suite("Walk filters: {a,b} alternatives, case-insensitive globs, folder excludes")
struct WalkFilterTests {
    @Test("globs: {a,b} alternatives, nested and escaped; case-insensitive matching")
    func alternation() {
        let table: [(String, String, Bool)] = [
            ("*.{jpg,JPG}", "a.jpg", true), ("*.{jpg,JPG}", "a.JPG", true), ("*.{jpg,JPG}", "a.Jpg", false), ("*.{jpg,JPG}", "a.png", false),
            ("{a,b}/*.png", "a/x.png", true), ("{a,b}/*.png", "c/x.png", false), ("x{,-[0-9]}.png", "x.png", true), ("x{,-[0-9]}.png", "x-7.png", true),
            ("{a,{b,c}d}", "cd", true), ("{a,{b,c}d}", "c", false), ("{[,]x,y}", ",x", true), ("{[,]x,y}", "y", true),
            ("\\{a,b\\}", "{a,b}", true), ("\\{a,b\\}", "a", false), ("{a,b", "{a,b", true), ("{a,b", "a", false),
            ("{**/,}x.png", "a/b/x.png", true), ("{**/,}x.png", "x.png", true),
        ]
        for (pattern, subject, expected) in table {
            #expect(Glob(pattern).matches(subject) == expected, "\(pattern) ~ \(subject)")
        }
        #expect(Glob("*.{jpg,heic}", caseInsensitive: true).matches("IMG_0001.HEIC"))
        #expect(Glob("*.{JPG,heic}", caseInsensitive: true).matches("a.jpg"))
        #expect(Glob("{a,b}.png").hasWildcard, "an alternation names a set (an expectations key with one is a glob)")
    }

    /// A phone library: `.JPG`, `.jpg` and `.HEIC` mixed, and a folder to leave out.
    @Test("--include '*.{jpg,JPG}', --iinclude, --exclude Photos/ and --include Photos/ on a real walk; merge and check take the same flags")
    func walkFilters() throws {
        let dir = try TempDir("walk-globs")
        try Make.convert(["-size", "20x20", "xc:white", dir.file("blank.png")])
        let blank = try Data(contentsOf: URL(fileURLWithPath: dir.file("blank.png")))
        let files = [
            "lib/Photos/IMG_1.JPG", "lib/Photos/img2.jpg", "lib/Photos/IMG_3.HEIC", "lib/Photos/sub/d.png",
            "lib/other/a.png", "lib/other/b.jpg", "lib/other/Photos.png",
        ]
        for f in files {
            try dir.mkdir(String(f[..<f.lastIndex(of: "/")!]))
            try blank.write(to: URL(fileURLWithPath: dir.file(f)))
        }
        func scanned(_ flags: [String]) throws -> [String] {
            let r = try run(codesweepBinary, ["scan", "-q", "--isolation", "none"] + flags + ["lib"], currentDirectory: dir.path, check: false)
            #expect(r.status == 0, "\(flags): \(r.stderr)")
            return r.stdoutLines.compactMap { line in
                (try? JSONReading.value(line))?["path"]?.stringValue
            }
        }
        #expect(try scanned(["--include", "*.{jpg,JPG}"]) == ["lib/Photos/IMG_1.JPG", "lib/Photos/img2.jpg", "lib/other/b.jpg"])
        #expect(try scanned(["--iinclude", "*.{jpg,heic}"]) == ["lib/Photos/IMG_1.JPG", "lib/Photos/IMG_3.HEIC", "lib/Photos/img2.jpg", "lib/other/b.jpg"])
        #expect(
            try scanned(["--exclude", "Photos/"]) == ["lib/other/Photos.png", "lib/other/a.png", "lib/other/b.jpg"],
            "the folder is excluded, a file named Photos.png is not")
        #expect(try scanned(["--iexclude", "photos/"]) == ["lib/other/Photos.png", "lib/other/a.png", "lib/other/b.jpg"])
        #expect(
            try scanned(["--exclude", "Photos/sub/"]) == [
                "lib/Photos/IMG_1.JPG", "lib/Photos/IMG_3.HEIC", "lib/Photos/img2.jpg",
                "lib/other/Photos.png", "lib/other/a.png", "lib/other/b.jpg",
            ])
        #expect(
            try scanned(["--include", "Photos/"]) == ["lib/Photos/IMG_1.JPG", "lib/Photos/IMG_3.HEIC", "lib/Photos/img2.jpg", "lib/Photos/sub/d.png"],
            "a folder pattern includes the files below the folder")

        // An --include that matches nothing says that --iinclude ignores case.
        let none = try run(codesweepBinary, ["scan", "--include", "*.PNG", "lib"], currentDirectory: dir.path, check: false)
        #expect(none.stderr.contains("matching --include '*.PNG' (globs are case-sensitive); --iinclude matches without regard to case"), "\(none.stderr)")
        #expect(try scanned(["--iinclude", "*.PNG"]) == ["lib/Photos/sub/d.png", "lib/other/Photos.png", "lib/other/a.png"])

        // merge walks as scan walked: with the same --iinclude the report is complete.
        let s = try run(
            codesweepBinary, ["scan", "-q", "--isolation", "none", "--iinclude", "*.jpg", "-o", "r.jsonl", "lib"], currentDirectory: dir.path, check: false)
        #expect(s.status == 0, "\(s.stderr)")
        let same = try run(codesweepBinary, ["merge", "--root", "lib", "--iinclude", "*.jpg", "r.jsonl"], currentDirectory: dir.path, check: false)
        #expect(same.status == 0 && same.stdoutLines.count == 3, "\(same.stderr)")
        let plain = try run(codesweepBinary, ["merge", "--root", "lib", "--include", "*.jpg", "r.jsonl"], currentDirectory: dir.path, check: false)
        #expect(plain.status == 1 && plain.stderr.contains("not expected: lib/Photos/IMG_1.JPG"), "\(plain.stderr)")

        // check: --iinclude and the rules file's iinclude.
        let check = try run(codesweepBinary, ["check", "--no-rules-file", "--iinclude", "*.JPG", "lib"], currentDirectory: dir.path, check: false)
        #expect(check.stdout.contains("3 images"), "\(check.stdout)\(check.stderr)")
        let rules = try RulesFile.parse("iinclude: ['*.JPG']\niexclude: ['PHOTOS/']\n")
        #expect(rules.includeIgnoringCase == ["*.JPG"] && rules.excludeIgnoringCase == ["PHOTOS/"])
    }
}
