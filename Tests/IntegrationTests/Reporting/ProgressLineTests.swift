import AssetCheck
import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import CodeSweep
@testable import FileWalker
@testable import Forensics

/// The live progress line (rates, ETA, singular counts, one line that fits the terminal), its
/// total (the files that will be scanned, not the documents beside them), and the end summary.
@Suite("The progress line and the end summary")
struct ProgressLineTests {
    func entry(_ path: String, explicit: Bool = false) throws -> FileEntry {
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        return FileEntry(path: path, pathBytes: Array(path.utf8), explicit: explicit, size: (attrs[.size] as? Int) ?? 0, mtime: 0)
    }

    @Test("progress words: no '0 img/s', an ETA, singular counts, one line that fits the width")
    func progressWords() {
        #expect(ProgressLine.rate(files: 1, elapsed: 12) == "12 s/img")
        #expect(ProgressLine.rate(files: 5, elapsed: 2) == "2.5 img/s")
        #expect(ProgressLine.rate(files: 300, elapsed: 10) == "30 img/s")
        #expect(ProgressLine.rate(files: 0, elapsed: 3) == nil)
        #expect(ProgressLine.eta(done: 10, total: 100, elapsed: 5) == "ETA 45s")
        #expect(ProgressLine.eta(done: 1, total: 100, elapsed: 10) == "ETA 16m30s")
        #expect(ProgressLine.count(1, "code") == "1 code" && ProgressLine.count(2, "code") == "2 codes")
        let wide = ProgressLine.live(
            done: 12, total: 340, codes: 1, failed: 0, elapsed: 6, current: "photos/2024/holiday-" + String(repeating: "写真", count: 20) + ".jpg", width: 120)
        #expect(wide.hasPrefix("12/340 files, 1 code, 2 img/s, ETA 2m44s, …"), "\(wide)")
        #expect(wide.hasSuffix("写真.jpg") && ProgressLine.columns(wide) <= 119)
        for width in [20, 30, 40, 60] {
            let line = ProgressLine.live(done: 12, total: 340, codes: 7, failed: 2, elapsed: 600, current: "a/very/long/path/name.png", width: width)
            #expect(ProgressLine.columns(line) <= width - 1, "\(width): \(line)")
        }
        #expect(ProgressLine.failed(["a.png (corrupt)", "b.gif (timeout)"], total: 5) == "failed: a.png (corrupt), b.gif (timeout) and 3 more")
        // While the walk that counts the files runs, no total and no ETA.
        #expect(ProgressLine.live(done: 12, total: nil, codes: 1, failed: 0, elapsed: 6, current: nil, width: 120) == "12 files, 1 code, 2 img/s")
    }

    /// Under a pseudo-terminal 40 columns wide (util-linux `script`), every redraw of the live
    /// line fits on one line, and the end summary names the failed file.
    @Test("a real run on a 40-column terminal: each progress redraw fits; the end names failed files; an empty folder says so")
    func terminalRun() throws {
        let dir = try TempDir()
        try dir.mkdir("in")
        for i in 0..<4 { try Make.qr("https://www.example.com/\(i)", to: dir.file("in/code-\(i)-with-a-rather-long-file-name.png"), scale: 3, margin: 4) }
        try Data("not an image".utf8).write(to: dir.file("in/zz-broken.jpg").withURL)
        let command = "stty cols 40; '\(codesweepBinary)' scan -j 1 -o '\(dir.file("out.jsonl"))' '\(dir.file("in"))'"
        let r = try run("/usr/bin/script", ["-qec", command, "/dev/null"], check: false)
        let segments = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\r\u{1B}[K").dropFirst()
        #expect(!segments.isEmpty, "\(r.stdout)")
        let live = segments.dropLast()
        #expect(!live.isEmpty, "the first record always draws the live line")
        for s in live { #expect(!s.contains("\n") && ProgressLine.columns(s) <= 39, "\(s)") }
        #expect(!live.contains { $0.contains(" 0 img/s") })
        let end = try #require(segments.last)
        #expect(end.contains("5 files: 4 with codes") && end.contains("4 codes (4 unique)"), "\(end)")
        #expect(end.contains("failed: \(dir.file("in/zz-broken.jpg")) (not_image)"), "\(end)")

        try dir.mkdir("empty")
        let empty = try run(codesweepBinary, ["scan", dir.file("empty")], check: false)
        #expect(empty.stderr.contains("no images found in '\(dir.file("empty"))'"), "\(empty.stderr)")
        let filtered = try run(codesweepBinary, ["scan", "--include", "*.PNG", dir.file("in")], check: false)
        #expect(filtered.stderr.contains("matching --include '*.PNG' (globs are case-sensitive)"), "\(filtered.stderr)")
    }

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
}

extension String {
    fileprivate var withURL: URL { URL(fileURLWithPath: self) }
}
