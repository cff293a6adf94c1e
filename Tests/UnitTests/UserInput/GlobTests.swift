import Testing
import UserInput

/// One glob dialect (`Glob`) for the walker's --include/--exclude and the rules file's paths.
/// (That the walker and `check`'s rules agree: the integration tests' GlobRulesTests.)
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
}
