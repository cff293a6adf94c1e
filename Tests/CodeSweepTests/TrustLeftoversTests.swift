import FileWalker
import Foundation
import SweepCore
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
