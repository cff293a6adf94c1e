import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

/// `--files-from`: a list holding NUL bytes needs `-0`.
@Suite("--files-from lists", .serialized)
struct FilesFromListTests: SweepRuns {
    @Test("--files-from without -0 refuses a list holding NUL bytes (exit 2, a hint to use -0)")
    func nulListWithoutDashZero() throws {
        let dir = try TempDir()
        let images = try Self.makeImages(dir, "images", count: 2)
        let list = images + "/q000.png\0" + images + "/q001.png\0"
        let r = try sh("exec \"$CS\" scan -q --files-from -", stdin: Data(list.utf8))
        #expect(r.status == 2)
        #expect(r.stderr.contains("NUL") && r.stderr.contains("-0"), "\(r.stderr)")
        #expect(r.stdoutBytes.isEmpty)
        let ok = try sh("exec \"$CS\" scan -q --files-from - -0", stdin: Data(list.utf8))
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try Self.records(ok.stdout).count == 2)
    }
}
