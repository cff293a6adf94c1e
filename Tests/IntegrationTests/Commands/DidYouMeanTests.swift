import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import Forensics

/// A misspelt command that is not a file gets `did you mean`; a path, a flag or a far word does
/// not, and a file of that name is scanned.
@Suite("A misspelt command gets a suggestion")
struct DidYouMeanTests {
    static let commands = ["scan", "check", "symbologies", "plan", "summarize", "merge", "report"]

    @Test("did you mean: near misses of a command that are not files get a suggestion; paths and far words do not")
    func didYouMean() throws {
        func meant(_ w: String, exists: Bool = false) -> String? { DidYouMean.subcommand(for: w, commands: Self.commands) { _ in exists } }
        #expect(meant("summarise") == "summarize")
        #expect(meant("reprot") == "report")
        #expect(meant("scna") == "scan")
        #expect(meant("chekc") == "check")
        #expect(meant("summarise", exists: true) == nil, "an existing file of that name is scanned")
        #expect(meant("photos") == nil && meant("a.png") == nil && meant("--html") == nil && meant("dir/report") == nil)
        #expect(DidYouMean.distance("example.com", "exmaple.com") == 2)

        let dir = try TempDir()
        let r = try run(codesweepBinary, ["summarise", "x.jsonl"], currentDirectory: dir.path, check: false)
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean `codesweep summarize`?"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "nothing was scanned")
        let h = try run(codesweepBinary, ["reprot", "--html", "r.html"], currentDirectory: dir.path, check: false)
        #expect(h.status == 2 && h.stderr.contains("`codesweep report`") && !h.stderr.contains("--hash"), "\(h.stderr)")
        // A file of that name exists: it is scanned as before.
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file("reprot")))
        let file = try run(codesweepBinary, ["reprot"], currentDirectory: dir.path, check: false)
        #expect(file.stdout.contains("\"path\":\"reprot\""))
    }
}
