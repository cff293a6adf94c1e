extension URLPattern {
    /// Reads `URLPattern`'s dialect into a tree; what it cannot run without backtracking is refused.
    struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

        mutating func skip(_ text: String) -> Bool {
            let t = Array(text.unicodeScalars)
            guard s.count - i >= t.count, Array(s[i..<i + t.count]) == t else { return false }
            i += t.count
            return true
        }

        func invalid(_ what: String) -> Invalid { Invalid(description: "\(what) at character \(i + 1)") }

        mutating func alternation() throws(Invalid) -> Node {
            var options = [try sequence()]
            while peek == "|" {
                i += 1
                options.append(try sequence())
            }
            return options.count == 1 ? options[0] : .either(options)
        }

        mutating func sequence() throws(Invalid) -> Node {
            var parts: [Node] = []
            while let c = peek, c != "|", c != ")" {
                let atom = try self.atom()
                parts.append(try quantified(atom))
            }
            return .sequence(parts)
        }

        mutating func quantified(_ atom: Node) throws(Invalid) -> Node {
            var node = atom
            while let c = peek {
                let bounds: (Int, Int?)
                switch c {
                case "*": bounds = (0, nil); i += 1
                case "+": bounds = (1, nil); i += 1
                case "?": bounds = (0, 1); i += 1
                case "{":
                    guard let b = try braces() else { return node }
                    bounds = b
                default: return node
                }
                if case .start = atom { throw invalid("a quantifier on an anchor") }
                if case .end = atom { throw invalid("a quantifier on an anchor") }
                node = .repeated(node, min: bounds.0, max: bounds.1)
                if peek == "?" || peek == "+" { i += 1 }  // lazy or possessive: same whole match
            }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (and nothing read) when the brace is a literal.
        mutating func braces() throws(Invalid) -> (Int, Int?)? {
            let begin = i
            i += 1
            func number() -> Int? {
                var n: Int? = nil
                while let c = peek, let d = Int(String(c)), c.isASCII {
                    n = (n ?? 0) * 10 + d
                    if n! > 100_000 { n = 100_000 }
                    i += 1
                }
                return n
            }
            let low = number()
            var high = low
            if peek == "," {
                i += 1
                high = number()
            } else if low == nil {
                i = begin
                return nil
            }
            guard let low, peek == "}" else {
                i = begin
                return nil
            }
            i += 1
            if let high, high < low { throw invalid("{\(low),\(high)}: the bounds are the wrong way round") }
            return (low, high)
        }

        mutating func atom() throws(Invalid) -> Node {
            let c = s[i]
            i += 1
            switch c {
            case "^": return .start
            case "$": return .end
            case ".": return .chars(CharClass(ranges: [0x0A...0x0A], negated: true))
            case "[": return .chars(try bracket())
            case "(":
                if skip("?:") {
                } else if peek == "?" {
                    if skip("?<"), let c = peek, c != "=", c != "!" {
                        while let c = peek, c != ">" { i += 1 }
                        guard peek == ">" else { throw invalid("an unfinished group name") }
                        i += 1
                    } else {
                        throw invalid("lookaround or inline options (not supported: url.pattern is matched without backtracking)")
                    }
                }
                let inner = try alternation()
                guard peek == ")" else { throw invalid("a '(' without its ')'") }
                i += 1
                return inner
            case "\\": return .chars(try escape())
            case "*", "+", "?": throw invalid("a quantifier with nothing before it")
            default: return .chars(CharClass(ranges: [c.value...c.value]))
            }
        }

        /// After a backslash, outside or inside brackets.
        mutating func escape() throws(Invalid) -> CharClass {
            guard let c = peek else { throw invalid("a pattern ending in '\\'") }
            i += 1
            let digits: [ClosedRange<UInt32>] = [0x30...0x39]
            let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
            let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x2000...0x200A, 0x2028...0x2029, 0x3000...0x3000]
            switch c {
            case "d": return CharClass(ranges: digits)
            case "D": return CharClass(ranges: digits, negated: true)
            case "w": return CharClass(ranges: word)
            case "W": return CharClass(ranges: word, negated: true)
            case "s": return CharClass(ranges: space)
            case "S": return CharClass(ranges: space, negated: true)
            case "t": return CharClass(ranges: [0x09...0x09])
            case "n": return CharClass(ranges: [0x0A...0x0A])
            case "r": return CharClass(ranges: [0x0D...0x0D])
            default:
                if c.properties.isAlphabetic || c.properties.numericType != nil {
                    throw invalid("'\\\(c)' (not supported: no backreferences, anchors other than ^ and $, or other escapes)")
                }
                return CharClass(ranges: [c.value...c.value])
            }
        }

        /// After `[`: a class with ranges, escapes and a leading `^`.
        mutating func bracket() throws(Invalid) -> CharClass {
            var out = CharClass()
            if peek == "^" { out.negated = true; i += 1 }
            var first = true
            while let c = peek, c != "]" || first {
                first = false
                i += 1
                let low: UInt32
                if c == "\\" {
                    let e = try escape()
                    guard !e.negated, e.ranges.count == 1, e.ranges[0].count == 1 else {
                        if e.negated { throw invalid("a negated class escape inside brackets") }
                        out.ranges += e.ranges
                        continue
                    }
                    low = e.ranges[0].lowerBound
                } else if c == "[" && peek == ":" {
                    throw invalid("POSIX classes like [:alpha:] (not supported)")
                } else {
                    low = c.value
                }
                if peek == "-", i + 1 < s.count, s[i + 1] != "]" {
                    i += 1
                    var high = s[i].value
                    i += 1
                    if s[i - 1] == "\\" {
                        let e = try escape()
                        guard e.ranges.count == 1, e.ranges[0].count == 1, !e.negated else { throw invalid("a range ending in a class") }
                        high = e.ranges[0].lowerBound
                    }
                    guard high >= low else { throw invalid("a range the wrong way round") }
                    out.ranges.append(low...high)
                } else {
                    out.ranges.append(low...low)
                }
            }
            guard peek == "]" else { throw invalid("a '[' without its ']'") }
            i += 1
            return out
        }
    }
}
