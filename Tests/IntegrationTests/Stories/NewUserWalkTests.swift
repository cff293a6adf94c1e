import AssetCheck
import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import CodeSweep
@testable import FileWalker

/// What a new user tripped over while walking folders (issue 28): the progress line's total
/// counted documents, and globs had no alternation, no case-insensitive form, and a trailing
/// slash excluded nothing.
@Suite("New user: walking (progress total, globs)")
struct NewUserWalkTests {
    /// A folder of 4 images and 8 documents, scanned under a pseudo-terminal (util-linux
    /// `script`): every live line that shows a total says 4 files, not 12.
    @Test("the progress line's total counts only the files that will be scanned, not the documents beside them")
    func progressTotalCountsImagesOnly() throws {
        let dir = try TempDir("walk-progress")
        try dir.mkdir("case")
        for i in 0..<4 { try Make.qr("https://www.example.com/p\(i)", to: dir.file("case/img-\(i).png"), scale: 3, margin: 4) }
        for i in 0..<8 { try Data("notes \(i)\n".utf8).write(to: URL(fileURLWithPath: dir.file("case/doc-\(i).txt"))) }
        // What counts is what the scan records: an image by its bytes (no extension), and a
        // broken file with an image name, both get records; the .txt files do not.
        try Data(try Data(contentsOf: URL(fileURLWithPath: dir.file("case/img-0.png")))).write(to: URL(fileURLWithPath: dir.file("case/noext")))
        try Data("not really".utf8).write(to: URL(fileURLWithPath: dir.file("case/broken.jpg")))
        #expect(FileScanner.willRecord(.file(try entry(dir.file("case/noext")))))
        #expect(FileScanner.willRecord(.file(try entry(dir.file("case/broken.jpg")))))
        #expect(!FileScanner.willRecord(.file(try entry(dir.file("case/doc-0.txt")))))
        #expect(FileScanner.willRecord(.file(try entry(dir.file("case/doc-0.txt"), explicit: true))), "a file named on the command line is always recorded")

        let command = "stty cols 200; '\(codesweepBinary)' scan -j 1 -o '\(dir.file("out.jsonl"))' '\(dir.file("case"))'"
        let r = try run("/usr/bin/script", ["-qec", command, "/dev/null"], check: false)
        let segments = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\r\u{1B}[K").dropFirst()
        let live = Array(segments.dropLast())
        let totals = live.compactMap { s -> String? in
            guard let slash = s.firstIndex(of: "/"), let end = s.range(of: " files")?.lowerBound, slash < end else { return nil }
            return String(s[s.index(after: slash)..<end])
        }
        #expect(!totals.isEmpty, "some live line shows a total: \(live)")
        #expect(totals.allSatisfy { $0 == "6" }, "4 images, 1 image without extension, 1 broken .jpg; not the 8 .txt files: \(live)")
        let records = try String(contentsOfFile: dir.file("out.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(records.count == 6, "the total is what the scan recorded")
    }

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

    func entry(_ path: String, explicit: Bool = false) throws -> FileEntry {
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        return FileEntry(path: path, pathBytes: Array(path.utf8), explicit: explicit, size: (attrs[.size] as? Int) ?? 0, mtime: 0)
    }
}
