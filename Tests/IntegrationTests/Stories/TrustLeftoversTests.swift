import FileWalker
import Foundation
import Records
import TestSupport
import Testing

/// Issue 27, items 15-16: a file gone after the walk listed it; what a killed `scan -` leaves.
@Suite("Trust: leftovers", .serialized)
struct TrustLeftoversTests {
    @Test("15: a file deleted after its folder was listed is not_found, not unreadable")
    func deletedAfterListing() throws {
        let dir = try TempDir("trust-gone")
        try dir.mkdir("d/sub")
        for name in ["a.png", "b.png"] { try dir.write("d/" + name, [1]) }
        var walk = Walker().items([Array(dir.file("d").utf8)])
        guard case .file(let first)? = walk.next() else { Issue.record("no first item"); return }
        #expect(first.path.hasSuffix("/a.png"))
        // The folder's names were read; now b.png and sub go.
        try FileManager.default.removeItem(atPath: dir.file("d/b.png"))
        try FileManager.default.removeItem(atPath: dir.file("d/sub"))
        var kinds: [String: ErrorKind] = [:]
        while let item = walk.next() {
            if case .failure(let path, _, let error) = item { kinds[(path as NSString).lastPathComponent] = error.kind }
        }
        #expect(kinds == ["b.png": .notFound, "sub": .notFound], "\(kinds)")
    }
}

extension TrustLeftoversTests {
    @Test("16: scan - killed mid-stream leaves a file named with its pid; the next scan - removes it")
    func staleStdinFiles() throws {
        let tmp = try TempDir("trust-stdin")
        let env = ["TMPDIR": tmp.path]
        // A scan reading a stream that never ends, killed with SIGKILL.
        let script = """
            mkfifo "$TMPDIR/in"
            (head -c 300000 /dev/zero; sleep 30) > "$TMPDIR/in" & writer=$!
            "$CS" scan - < "$TMPDIR/in" > /dev/null 2>&1 & cs=$!
            sleep 2; kill -KILL $cs; kill $writer; wait; rm -f "$TMPDIR/in"
            """
        try run("/bin/sh", ["-c", script], env: env.merging(["CS": codesweepBinary]) { $1 }, check: false)
        var left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("codesweep-stdin-") }
        if left.isEmpty {
            // The kill did not land where wanted: plant what a killed run leaves (a dead pid).
            let dead = try run("/bin/sh", ["-c", "/bin/true & echo $!; wait"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try tmp.write("codesweep-stdin-\(dead)-AbCdEf", Array(repeating: 0, count: 1000))
            left = ["codesweep-stdin-\(dead)-AbCdEf"]
        }
        #expect(left.count == 1 && left[0].split(separator: "-").count == 4, "\(left)")
        // One of a live process (this test runner) is kept.
        let live = "codesweep-stdin-\(getpid())-LiVe00"
        try tmp.write(live, [1])
        let r = try run(
            "/bin/sh", ["-c", "\"$CS\" scan - < \"$1\"", "sh", PackageRoot.file("Tests/IntegrationTests/Stories/TrustLeftoversTests.swift")],
            env: env.merging(["CS": codesweepBinary]) { $1 }, check: false)
        #expect(r.status == 1, "a text file is not an image: \(r.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("codesweep-stdin-") }
        #expect(after == [live], "\(after)")
    }
}
