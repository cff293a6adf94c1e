import Foundation
import TestSupport
import Testing

/// The shipped binary (`CodeSweepCLI`: main.swift calling the commands) as a user runs it: its
/// version and help, the exit status of a usage error, and the same commands as the
/// fault-injecting binary the tests of isolation run. (The commands' behaviour end to end:
/// `Commands/`.)
@Suite("The shipped codesweep binary")
struct ShippedBinaryTests {
    @Test("--version prints the version and exits 0; the fault-injecting binary prints the same version and help")
    func versionAndHelp() throws {
        let version = try run(codesweepBinary, ["--version"], check: false)
        #expect(version.status == 0 && version.stderr.isEmpty, "\(version.stderr)")
        #expect(version.stdout.range(of: #"^\d+\.\d+\.\d+\S*\n$"#, options: .regularExpression) != nil, "\(version.stdout)")
        #expect(try run(faultInjectingBinary, ["--version"], check: false).stdout == version.stdout)
        let help = try run(codesweepBinary, ["--help"], check: false)
        #expect(help.status == 0)
        for command in ["scan", "check", "generate", "plan", "summarize", "merge", "report"] {
            #expect(help.stdout.contains("  \(command)"), "\(command) in \(help.stdout)")
        }
        #expect(!help.stdout.contains("__worker"), "the worker command is not offered")
        #expect(try run(faultInjectingBinary, ["--help"], check: false).stdout == help.stdout)
    }

    @Test("a usage error exits 2 naming the flag on stderr, nothing on stdout")
    func usageErrorExitsTwo() throws {
        let dir = try TempDir("cli-usage")
        let r = try run(codesweepBinary, ["scan", "--no-such-flag", "."], currentDirectory: dir.path, check: false)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("--no-such-flag"), "\(r.stderr)")
    }
}
