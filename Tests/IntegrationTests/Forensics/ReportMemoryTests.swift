import Foundation
import TestSupport
import Testing

/// `merge` and `report` read their reports a piece at a time: an endless stream with no newline
/// (`/dev/zero`) is refused at the limit of one line (64 MiB), within 768 MiB of address space,
/// where each held a gigabyte before refusing it. (The debug binary maps 409 MB before it reads
/// anything, libheif's codecs and libcurl's among its libraries; under 512 MiB the 64 MiB line
/// and its copy failed to allocate when the suite ran in two processes on a loaded machine.)
@Suite("Report memory")
struct ReportMemoryTests {
    @Test("merge and report --html on /dev/zero stop at the line limit under ulimit -v 768 MiB")
    func endlessStreamWithinBound() throws {
        let dir = try TempDir("report-memory")
        try Make.qr("https://www.example.com/", to: dir.file("a.png"))
        try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "a.png"], currentDirectory: dir.path)
        let cases: [(String, String)] = [
            ("merge /dev/zero", "cannot read /dev/zero: line 1 is longer than the limit of 64 MiB"),
            ("merge r.jsonl - < /dev/zero", "cannot read standard input: line 1 is longer than the limit of 64 MiB"),
            ("report /dev/zero --html p.html", "/dev/zero: a line longer than the limit of 64 MiB"),
            ("report - --html p.html < /dev/zero", "(standard input): a line longer than the limit of 64 MiB"),
        ]
        for (command, message) in cases {
            let r = try sh("cd \"$1\" && ulimit -v 786432 && exec \"$2\" \(command)", [dir.path, codesweepBinary])
            #expect(r.status == 2, "\(command): \(r.status) \(r.stderr.suffix(500))")
            #expect(r.stderr.contains(message), "\(command): \(r.stderr.suffix(500))")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("memory"), "\(command): \(r.stderr.suffix(500))")
        }
        // The same commands still read a report that has an end.
        let merged = try sh("cd \"$1\" && ulimit -v 786432 && exec \"$2\" merge r.jsonl", [dir.path, codesweepBinary])
        #expect(merged.status == 0 && merged.stdout.contains("https://www.example.com/"), "\(merged.stderr)")
        let page = try sh("cd \"$1\" && ulimit -v 786432 && exec \"$2\" report r.jsonl --html p.html", [dir.path, codesweepBinary])
        #expect(page.status == 0, "\(page.stderr)")
    }
}
