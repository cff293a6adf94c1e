/// The one glob dialect of CodeSweep: `--include`/`--exclude` (scan and check), the rules
/// file's `include`/`exclude`, `require_code` and expectation keys, host patterns and query
/// names. Patterns and subjects are bytes (names need not be UTF-8).
///
/// - `*` any run of bytes, `/` included (so `assets/*.png` also matches `assets/a/b.png`);
/// - `**/` zero or more whole folders: `**/x.png` matches `x.png` and `a/b/x.png`,
///   `a/**/x.png` matches `a/x.png`;
/// - `?` one character (a whole UTF-8 sequence, or one byte that is not one);
/// - `[abc]`, `[a-z]`, `[!a-z]` or `[^a-z]` one byte of (or not of) the set (ASCII); a `]` first in
///   the set is literal; `[` without a closing `]` is literal;
/// - `{jpg,JPG,heic}` any one of the comma-separated alternatives, each a glob itself (nested
///   braces allowed); a `{` without its closing `}` is literal, `\{` `\,` `\}` are literal;
/// - `\c` the byte c itself.
///
/// `caseInsensitive` folds ASCII letters in the pattern and the subject (`--iinclude`).
///
/// Which text a pattern is matched against is the caller's rule (the walker's `WalkPattern` and
/// `check`'s `PathContext`: a pattern without `/` matches the name, one with `/` the path below
/// the root; for the walker a trailing `/` names folders only).
package struct Glob: Sendable, Equatable {
    enum Token: Equatable, Sendable {
        case byte(UInt8)
        case any  // ?
        case star  // *
        case folders  // **/ : zero or more "name/"
        case set([ClosedRange<UInt8>], negated: Bool)
        case alternatives([Glob])  // {a,b}
    }
    let tokens: [Token]
    let caseInsensitive: Bool

    package init(_ pattern: [UInt8], caseInsensitive: Bool = false) {
        self.caseInsensitive = caseInsensitive
        let p = caseInsensitive ? pattern.map(Self.lower) : pattern
        var out: [Token] = []
        var i = 0
        while i < p.count {
            let c = p[i]
            switch c {
            case UInt8(ascii: "*"):
                let atFolderStart = i == 0 || p[i - 1] == UInt8(ascii: "/")
                if atFolderStart, i + 2 < p.count, p[i + 1] == UInt8(ascii: "*"), p[i + 2] == UInt8(ascii: "/") {
                    out.append(.folders); i += 3; continue
                }
                if out.last != .star { out.append(.star) }
                i += 1
            case UInt8(ascii: "?"): out.append(.any); i += 1
            case UInt8(ascii: "\\") where i + 1 < p.count: out.append(.byte(p[i + 1])); i += 2
            case UInt8(ascii: "["):
                if let (set, next) = Self.parseSet(p, from: i) { out.append(set); i = next } else { out.append(.byte(c)); i += 1 }
            case UInt8(ascii: "{"):
                if let (parts, next) = Self.alternatives(p, from: i) {
                    out.append(.alternatives(parts.map { Glob($0) })); i = next
                } else {
                    out.append(.byte(c)); i += 1
                }
            default: out.append(.byte(c)); i += 1
            }
        }
        tokens = out
    }

    package init(_ pattern: String, caseInsensitive: Bool = false) {
        self.init(ArgumentBytes.bytes(pattern), caseInsensitive: caseInsensitive)
    }

    /// Whether the pattern names a set of paths rather than one (holds `*`, `?` or `[`…`]`).
    package var hasWildcard: Bool { tokens.contains { if case .byte = $0 { false } else { true } } }

    /// `{` at `start`: the alternatives' patterns (split at the commas outside nested braces,
    /// sets and escapes) and the index after the closing `}`, or nil when it is not closed.
    static func alternatives(_ p: [UInt8], from start: Int) -> ([[UInt8]], Int)? {
        var parts: [[UInt8]] = [], current: [UInt8] = []
        var depth = 0, i = start + 1
        while i < p.count {
            let c = p[i]
            if c == UInt8(ascii: "\\"), i + 1 < p.count { current += [c, p[i + 1]]; i += 2; continue }
            if c == UInt8(ascii: "["), let (_, next) = parseSet(p, from: i) { current += p[i..<next]; i = next; continue }
            if c == UInt8(ascii: "{") { depth += 1 }
            if c == UInt8(ascii: "}") {
                if depth == 0 { return (parts + [current], i + 1) }
                depth -= 1
            }
            if c == UInt8(ascii: ","), depth == 0 { parts.append(current); current = []; i += 1; continue }
            current.append(c)
            i += 1
        }
        return nil
    }

    static func lower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b + 0x20 : b }

    /// `[` at `start`: the set and the index after its `]`, or nil when there is no `]`.
    static func parseSet(_ p: [UInt8], from start: Int) -> (Token, Int)? {
        var i = start + 1
        var negated = false
        if i < p.count, p[i] == UInt8(ascii: "!") || p[i] == UInt8(ascii: "^") { negated = true; i += 1 }
        var ranges: [ClosedRange<UInt8>] = []
        var first = true
        while i < p.count {
            var c = p[i]
            if c == UInt8(ascii: "]") && !first { return (.set(ranges, negated: negated), i + 1) }
            first = false
            if c == UInt8(ascii: "\\"), i + 1 < p.count { i += 1; c = p[i] }
            if i + 2 < p.count, p[i + 1] == UInt8(ascii: "-"), p[i + 2] != UInt8(ascii: "]") {
                let hi = p[i + 2]
                if c <= hi { ranges.append(c...hi) }
                i += 3
            } else {
                ranges.append(c...c)
                i += 1
            }
        }
        return nil
    }

    package func matches(_ subject: [UInt8]) -> Bool {
        let s = caseInsensitive ? subject.map(Self.lower) : subject
        // memo[(ti * (tokens + 1)) + pi]: 0 unknown, 1 no, 2 yes. Patterns are short; the
        // table keeps `*` and `**/` from backtracking exponentially.
        var memo = [UInt8](repeating: 0, count: (s.count + 1) * (tokens.count + 1))
        return match(0, 0, s, &memo)
    }

    package func matches(_ subject: String) -> Bool { matches(Array(subject.utf8)) }

    func match(_ pi: Int, _ ti: Int, _ s: [UInt8], _ memo: inout [UInt8]) -> Bool {
        let key = ti * (tokens.count + 1) + pi
        if memo[key] != 0 { return memo[key] == 2 }
        let result: Bool
        if pi == tokens.count {
            result = ti == s.count
        } else {
            switch tokens[pi] {
            case .star:
                result = (ti...s.count).contains { match(pi + 1, $0, s, &memo) }
            case .folders:
                // Zero folders, or skip to just after any later "/".
                result =
                    match(pi + 1, ti, s, &memo)
                    || (ti..<s.count).contains { s[$0] == UInt8(ascii: "/") && match(pi + 1, $0 + 1, s, &memo) }
            case .any:
                result = ti < s.count && match(pi + 1, ti + Self.characterLength(s, at: ti), s, &memo)
            case .byte(let b):
                result = ti < s.count && s[ti] == b && match(pi + 1, ti + 1, s, &memo)
            case .set(let ranges, let negated):
                result = ti < s.count && ranges.contains { $0.contains(s[ti]) } != negated && match(pi + 1, ti + 1, s, &memo)
            case .alternatives(let globs):
                // The subject is folded already when the pattern is case-insensitive.
                result = (ti...s.count).contains { end in
                    globs.contains { $0.matches(Array(s[ti..<end])) } && match(pi + 1, end, s, &memo)
                }
            }
        }
        memo[key] = result ? 2 : 1
        return result
    }

    /// The length of the UTF-8 sequence at `i` when it is a valid one, else 1.
    static func characterLength(_ s: [UInt8], at i: Int) -> Int {
        let b = s[i]
        let n = b < 0xC2 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF5 ? 4 : 1
        guard n > 1, i + n <= s.count, String(validating: s[i..<(i + n)], as: UTF8.self) != nil else { return 1 }
        return n
    }
}
