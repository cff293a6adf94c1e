extension BaselineDiff {
    /// The kinds of change that fail the check (`--fail-on`). By default a code removed, a code
    /// changed (payload, symbology, print size or grade) and a grade that fell fail; a code added
    /// is reported and left to the other rules, which check every code that is there.
    package struct FailOn: Sendable, Equatable {
        package var kinds: Set<Kind>
        package init(_ kinds: Set<Kind>) { self.kinds = kinds }

        package static let `default` = FailOn([.removed, .changed, .gradeDrop])

        /// The words `--fail-on` takes, for its help and its errors.
        package static let choices = "added, removed, changed, grade-drop, all or none (default: removed,changed,grade-drop)"

        package struct Problem: Error, CustomStringConvertible { package var description: String }

        /// A comma-separated list of kinds, `all` or `none`.
        package init(parsing text: String) throws(Problem) {
            var kinds: Set<Kind> = []
            let words = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpacesLowercased }
            for word in words {
                switch word {
                case "all": kinds.formUnion(Kind.allCases)
                case "none" where words.count == 1: break
                default:
                    guard let kind = Kind(rawValue: word) else {
                        throw Problem(description: "--fail-on takes \(Self.choices), not '\(text)'")
                    }
                    kinds.insert(kind)
                }
            }
            self.kinds = kinds
        }

        /// Whether a change fails the check.
        package func fails(_ change: Change) -> Bool { !kinds.isDisjoint(with: change.kinds) }

        /// "removed,changed,grade-drop" ("none" for none).
        package var description: String { kinds.isEmpty ? "none" : kinds.sorted().map(\.rawValue).joined(separator: ",") }
    }
}

extension Substring {
    fileprivate var trimmingSpacesLowercased: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()).lowercased()
    }
}
