import AssetCheck
import FileWalker
import Foundation
import TestSupport
import Testing

/// The walker's --include and `check`'s rules file read one glob dialect alike. (The dialect
/// itself: the unit tests' GlobTests.)
@Suite("Globs: the walker and the rules")
struct GlobRulesTests {
    /// The walker (`--include`) and `check`'s rules (`require_code`) answer the same for every
    /// pattern of the table that names a path below the root.
    @Test func theWalkerAndTheRulesAgree() throws {
        let dir = try TempDir("glob")
        let root = dir.url.resolvingSymlinksInPath()
        let files = ["x.png", "a.png", "a/x.png", "a/b/x.png", "a/bx.png", "assets/sub/x.png", "b1", "p1.png", "photo[1].png"]
        for f in files {
            let url = root.appendingPathComponent(f)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0]).write(to: url)
        }
        let context = PathContext(currentDirectory: root.path, rulesDirectory: root.path)
        for pattern in ["*.png", "**/x.png", "a/**/x.png", "assets/*.png", "[a-c]1", "p?.png", "a/*", "photo\\[1\\].png"] {
            var options = WalkOptions()
            options.include = [pattern]
            let walked = Set(
                Walker(options: options).items([Array(root.path.utf8)]).compactMap { item -> String? in
                    guard case .file(let f) = item else { return nil }
                    return String(f.path.dropFirst(root.path.count + 1))
                })
            let ruled = Set(files.filter { context.matches(pattern, path: root.appendingPathComponent($0).path) })
            #expect(walked == ruled, "\(pattern): walker \(walked.sorted()), rules \(ruled.sorted())")
            #expect(!walked.isEmpty, "\(pattern) matches something")
        }
        withExtendedLifetime(dir) {}
    }
}
