/// `url.pattern`'s matcher: the regular expression is compiled to a Thompson NFA and run by
/// simulation (every state at once, one input character at a time), so matching costs at most
/// the URL's length × the pattern's size, whatever either holds. A backtracking engine (Swift's
/// `Regex`, PCRE) takes exponential time on patterns like `^https://(www\.)?example\.com/([a-z0-9]+-?)*$`
/// against `https://www.example.com/aaaaaaaaaaaaaaaaaaaaaaaa!`, and the payload is chosen by
/// whoever prints the poster: such a payload must not decide how long CI runs.
///
/// The dialect: literals, `.` (any character but a newline), `[...]` classes with ranges and
/// negation, `\d \D \w \W \s \S`, escaped punctuation, `\t \n \r`, `^` and `$`, groups `(...)`,
/// `(?:...)` and `(?<name>...)`, alternation `|`, the quantifiers `* + ? {n} {n,} {n,m}` (lazy
/// `?` and possessive `+` suffixes are accepted: a whole match does not depend on them), and a
/// leading `(?i)` for case-insensitive matching. Backreferences and lookaround cannot be run
/// without backtracking and are refused when the rules are loaded, as is a pattern whose
/// compiled form exceeds `maxProgram` steps (a large `{n,m}` over a large group). Characters
/// are Unicode scalars.
package struct URLPattern: Sendable {
    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    /// The largest compiled program: a bound on the work per character of the URL.
    static let maxProgram = 20_000

    struct CharClass: Sendable {
        var ranges: [ClosedRange<UInt32>] = []
        var negated = false
        func contains(_ u: UInt32, ignoringCase: Bool) -> Bool {
            var hit = ranges.contains { $0.contains(u) }
            if !hit, ignoringCase, let s = Unicode.Scalar(u) {
                for v in [s.properties.lowercaseMapping, s.properties.uppercaseMapping] where v.unicodeScalars.count == 1 {
                    if ranges.contains(where: { $0.contains(v.unicodeScalars.first!.value) }) { hit = true }
                }
            }
            return hit != negated
        }
    }

    indirect enum Node {
        case chars(CharClass), start, end, sequence([Node]), either([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    enum Step: Sendable {
        case char(Int), start, end, split(Int, Int), jump(Int), match
    }

    var steps: [Step] = []
    var classes: [CharClass] = []
    let ignoringCase: Bool

    package init(_ pattern: String) throws(Invalid) {
        var parser = Parser(Array(pattern.unicodeScalars))
        ignoringCase = parser.skip("(?i)")
        let tree = try parser.alternation()
        if parser.i < parser.s.count { throw Invalid(description: "unbalanced ')' at character \(parser.i + 1)") }
        try compile(tree)
        steps.append(.match)
    }

    /// True when the whole of `text` matches.
    package func wholeMatch(_ text: String) -> Bool {
        let input = Array(text.unicodeScalars)
        var current: [Int] = [], next: [Int] = []
        var mark = [Int](repeating: -1, count: steps.count)
        var generation = 0
        func add(_ pc: Int, at pos: Int, to list: inout [Int]) {
            var stack = [pc]
            while let p = stack.popLast() {
                guard mark[p] != generation else { continue }
                mark[p] = generation
                switch steps[p] {
                case .jump(let t): stack.append(t)
                case .split(let a, let b): stack.append(b); stack.append(a)
                case .start: if pos == 0 { stack.append(p + 1) }
                case .end: if pos == input.count { stack.append(p + 1) }
                case .char, .match: list.append(p)
                }
            }
        }
        add(0, at: 0, to: &current)
        for (pos, u) in input.enumerated() {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for p in current {
                if case .char(let c) = steps[p], classes[c].contains(u.value, ignoringCase: ignoringCase) { add(p + 1, at: pos + 1, to: &next) }
            }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return current.contains { if case .match = steps[$0] { true } else { false } }
    }

    // MARK: Compiling

    mutating func compile(_ node: Node) throws(Invalid) {
        guard steps.count <= Self.maxProgram else {
            throw Invalid(description: "the pattern is too large once its repetitions are counted out (more than \(Self.maxProgram) steps)")
        }
        switch node {
        case .chars(let c):
            classes.append(c)
            steps.append(.char(classes.count - 1))
        case .start: steps.append(.start)
        case .end: steps.append(.end)
        case .sequence(let parts): for p in parts { try compile(p) }
        case .either(let options):
            var jumps: [Int] = []
            for (k, option) in options.enumerated() {
                let split = steps.count
                if k < options.count - 1 { steps.append(.split(split + 1, -1)) }
                try compile(option)
                if k < options.count - 1 {
                    jumps.append(steps.count)
                    steps.append(.jump(-1))
                    steps[split] = .split(split + 1, steps.count)
                }
            }
            for j in jumps { steps[j] = .jump(steps.count) }
        case .repeated(let inner, let min, let max):
            for _ in 0..<min { try compile(inner) }
            if let max {
                var exits: [Int] = []
                for _ in min..<max {
                    exits.append(steps.count)
                    steps.append(.split(steps.count + 1, -1))
                    try compile(inner)
                }
                for e in exits { steps[e] = .split(e + 1, steps.count) }
            } else {
                let loop = steps.count
                steps.append(.split(loop + 1, -1))
                try compile(inner)
                steps.append(.jump(loop))
                steps[loop] = .split(loop + 1, steps.count)
            }
        }
    }
}
