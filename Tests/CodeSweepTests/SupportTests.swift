import Foundation
import Testing

/// The helpers checked themselves, so that a lax runner cannot make the other tests pass by accident.
@Suite("Test helpers")
struct SupportTests {
    @Test("run: megabytes on stdout and stderr at once, stdin fed while the child writes, exit status, check")
    func runReadsBothStreamsConcurrently() throws {
        // Far more than a pipe holds (64 KiB), written alternately to both streams.
        let script = "import sys\nfor i in range(2000):\n    sys.stdout.write('o' * 999 + '\\n'); sys.stderr.write('e' * 999 + '\\n')\nsys.exit(3)"
        let r = try run("python3", ["-c", script], check: false)
        #expect(r.status == 3)
        #expect(r.stdoutBytes.count == 2_000_000 && r.stderrBytes.count == 2_000_000)
        #expect(r.stdoutLines.count == 2000 && r.stdoutLines.allSatisfy { $0 == String(repeating: "o", count: 999) })
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0 == String(repeating: "e", count: 999) })
        // stdin larger than a pipe, echoed back while it is still being written.
        let input = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let echo = try run("cat", [], stdin: input)
        #expect(echo.status == 0 && echo.stdoutBytes == input)
        // A child that does not read its stdin at all.
        #expect(try run("true", [], stdin: input).status == 0)
        #expect(throws: ToolFailure.self) { try run("false", []) }
        #expect(throws: ToolFailure.self) { try run("no-such-program-codesweep", [], check: false) }
        let env = try run("sh", ["-c", "printf '%s %s' \"$CODESWEEP_X\" \"$PWD\""], env: ["CODESWEEP_X": "set"], currentDirectory: "/")
        #expect(env.stdout == "set /")
    }

    @Test("TempDir: a new empty folder, removed with its contents")
    func tempDirIsRemoved() throws {
        var path = ""
        do {
            let dir = try TempDir("support")
            path = dir.path
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == [])
            try dir.mkdir("a/b")
            try dir.write("a/b/c", [1, 2, 3])
            #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("a/b/c").path))
            #expect(path.contains("codesweep-support-"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the codesweep binary is the one built next to the test runner")
    func binaryIsFound() throws {
        #expect(FileManager.default.isExecutableFile(atPath: codesweepBinary), "\(codesweepBinary)")
        let r = try run(codesweepBinary, ["--help"], check: false)
        #expect(r.status == 0 && r.stdout.contains("scan"), "\(r.stderr)")
    }
}
