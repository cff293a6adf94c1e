import Foundation
import Testing
@testable import CodeSweep
@testable import FileWalker
import Reporting
import SweepCore

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

    func entry(_ path: String, explicit: Bool = false) throws -> FileEntry {
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        return FileEntry(path: path, pathBytes: Array(path.utf8), explicit: explicit, size: (attrs[.size] as? Int) ?? 0, mtime: 0)
    }
}
