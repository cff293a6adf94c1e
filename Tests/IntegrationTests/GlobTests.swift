import TestSupport
import AssetCheck
import FileWalker
import Foundation
import SweepCore
import Testing

/// One glob dialect (`Glob`) for the walker's --include/--exclude and the rules file's paths.
@Suite("Globs")
struct GlobTests {
    static let table: [(pattern: String, subject: String, matches: Bool)] = [
        ("*.png", "a.png", true), ("*.png", "a.PNG", false), ("*.png", "a/b.png", true),
        ("a?c", "abc", true), ("a?c", "ac", false), ("a?c", "aéc", true),
        ("[ab]x", "bx", true), ("[!ab]x", "bx", false), ("[^ab]x", "cx", true), ("[a-c]1", "b1", true), ("[a-c]1", "d1", false),
        ("[]]", "]", true), ("[x", "[x", true), ("\\*.png", "*.png", true), ("\\*.png", "a.png", false),
        ("**/x.png", "x.png", true), ("**/x.png", "a/b/x.png", true), ("**/x.png", "a/bx.png", false),
        ("a/**/x.png", "a/x.png", true), ("a/**/x.png", "a/b/c/x.png", true), ("a/**/x.png", "b/x.png", false),
        ("assets/*.png", "assets/sub/x.png", true), ("assets/*.png", "other/x.png", false),
        ("*", "", true), ("", "", true), ("", "a", false), ("a*b*c*d", "aXbYcZd", true), ("a*b*c*d", "aXbYcZ", false),
    ]

    @Test func theDialect() {
        for t in Self.table {
            #expect(Glob(t.pattern).matches(t.subject) == t.matches, "\(t.pattern) ~ \(t.subject)")
        }
        #expect(Glob("*.PNG", caseInsensitive: true).matches("a.png"))
        #expect(!Glob("photo.png").hasWildcard && Glob("p[0-9].png").hasWildcard && !Glob("p\\*.png").hasWildcard)
        // Bytes that are not UTF-8 are matched as bytes; `?` takes one of them.
        #expect(Glob(Array("caf?.png".utf8)).matches(Array("caf".utf8) + [0xE9] + Array(".png".utf8)))
        // No exponential backtracking on many stars.
        #expect(!Glob(String(repeating: "*a", count: 30) + "b").matches(String(repeating: "a", count: 200)))
    }

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
            let walked = Set(Walker(options: options).items([Array(root.path.utf8)]).compactMap { item -> String? in
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
