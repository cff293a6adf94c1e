/// "Did you mean" for words a person types: a misspelt subcommand (`codesweep summarise x.jsonl`,
/// `codesweep reprot --html r.html`) and typo'd hosts in `check`. Pure.
package enum DidYouMean {
    /// Levenshtein distance (insertions, deletions, substitutions), by Character.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count), cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }

    /// The word of `candidates` nearest to `word` when it is within two edits of it (and the
    /// candidate is longer than the edits), or nil: `requre_code` → `require_code`.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let lower = word.lowercased()
        let ranked = candidates.map { ($0, distance(lower, $0)) }.filter { $0.1 <= min(2, $0.0.count / 2) }
        return ranked.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// The subcommand a first argument was meant to be, or nil. Only a word that looks like a
    /// command — letters and '-' only, no '/' or '.', not an option — that is not an existing
    /// file or folder (`exists`), and within two edits of a command (a swapped pair of letters
    /// counts as two), gets a suggestion: anything else stays a path for the default `scan`.
    package static func subcommand(for word: String, commands: [String], exists: (String) -> Bool) -> String? {
        guard word.count >= 3, !word.hasPrefix("-"), !commands.contains(word),
            word.allSatisfy({ ($0.isASCII && $0.isLetter) || $0 == "-" }), !exists(word)
        else { return nil }
        return closest(to: word, among: commands)
    }
}
