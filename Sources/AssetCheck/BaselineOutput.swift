import CodeDiff
import Records

/// The outputs' parts for `--baseline` and print sizes: the changes in the summary, JUnit,
/// GitHub annotations and JSON. The failing changes are also violations of their images (with a
/// fix), shown where every violation is; these list every change, failing or not.
extension CheckOutput {
    /// "1 added, 1 removed, 2 changed (1 with a lower grade)".
    static func changeCounts(_ b: BaselineComparison) -> String {
        let drops = b.count(.gradeDrop)
        return "\(b.count(.added)) added, \(b.count(.removed)) removed, \(b.count(.changed)) changed"
            + (drops > 0 ? " (\(drops) with a lower grade)" : "")
    }

    /// The header of the changes: the baseline, the counts, what fails.
    static func changesHeader(_ b: BaselineComparison) -> String {
        let ungraded = b.graded ? "" : "; the baseline is a scan report: grades not compared"
        if b.files.isEmpty {
            return "Against the baseline \(safe(b.source)): no code added, removed or changed\(ungraded)"
        }
        return "Against the baseline \(safe(b.source)): \(changeCounts(b)); failing on \(b.failOn.description)\(ungraded)"
    }

    /// One line a change, under its file: ✗ for a change that fails, • for one reported only.
    static func changeLines(_ b: BaselineComparison, indent: String) -> [String] {
        var lines: [String] = []
        for f in b.files {
            let note = f.onlyInBaseline ? " (in the baseline only: deleted, renamed or not checked now)" : f.onlyNow ? " (new: not in the baseline)" : ""
            lines.append("\(indent)\(safe(f.path))\(note)")
            for c in f.changes {
                lines.append("\(indent)  \(b.failOn.fails(c) ? "✗" : "•") \(c.rule): \(safe(c.message))")
            }
        }
        return lines
    }

    static func baselineText(_ r: CheckReport) -> String {
        guard let b = r.baseline else { return "" }
        return ([changesHeader(b) + (b.files.isEmpty ? "" : ":")] + changeLines(b, indent: "  ")).joined(separator: "\n") + "\n\n"
    }

    /// The changes of the file at `path` that do not fail (the failing ones are its violations),
    /// for its JUnit test case: "• baseline.added: code 2 (…) is new: …".
    static func changeNotes(_ r: CheckReport, _ path: String) -> [String] {
        guard let b = r.baseline, let f = b.files.first(where: { $0.path == path }) else { return [] }
        return f.changes.filter { !b.failOn.fails($0) }.map { "• \($0.rule): \(safe($0.message))" }
    }

    /// The suite's `<system-out>`: every change (the failing ones are also in their test cases).
    static func baselineJUnit(_ r: CheckReport) -> String {
        guard let b = r.baseline else { return "" }
        let text = ([changesHeader(b)] + changeLines(b, indent: "  ")).joined(separator: "\n")
        return "    <system-out>\(xml(text))</system-out>\n"
    }

    /// A `::notice` for each change that does not fail (the failing ones are `::error`s of
    /// their images), naming the file and the change.
    static func baselineGitHub(_ r: CheckReport) -> String {
        guard let b = r.baseline else { return "" }
        var out = ""
        for f in b.files {
            for c in f.changes where !b.failOn.fails(c) {
                let title = "codesweep \(c.rule)" + (c.code.map { " (code \($0))" } ?? "")
                out += "::notice file=\(githubProperty(safe(f.path))),title=\(githubProperty(safe(title)))::\(githubData(safe(c.message)))\n"
            }
        }
        return out
    }

    /// The JSON report with `baseline` after its other fields, when there is one.
    static func withBaseline(_ report: JSONValue, _ r: CheckReport) -> JSONValue {
        guard let b = r.baseline, case .object(let fields) = report else { return report }
        return .object(fields + [("baseline", baselineJSON(b))])
    }

    static func baselineJSON(_ b: BaselineComparison) -> JSONValue {
        func code(_ c: DiffCode?) -> JSONValue {
            guard let c else { return .null }
            return .object([
                ("index", .int(c.index)), ("symbology", .string(c.symbology.rawValue)), ("text", c.text.map(JSONValue.string) ?? .null),
                ("frame", .int(c.frame)), ("grade", c.grade.map { .string($0.letter) } ?? .null),
                ("module_mm", c.moduleMM.map { .double(($0 * 1000).rounded() / 1000) } ?? .null),
                ("module_px", c.modulePx.map { .double(($0 * 100).rounded() / 100) } ?? .null),
            ])
        }
        let files = b.files.map { f in
            JSONValue.object([
                ("path", .string(f.path)), ("only_in_baseline", .bool(f.onlyInBaseline)), ("new", .bool(f.onlyNow)),
                (
                    "changes",
                    .array(
                        f.changes.map { c in
                            .object([
                                ("rule", .string(c.rule)), ("kinds", .array(c.kinds.sorted().map { .string($0.rawValue) })),
                                ("fails", .bool(b.failOn.fails(c))), ("message", .string(safe(c.message))),
                                ("differences", .array(c.differences.map { .string(safe($0)) })), ("baseline", code(c.base)), ("now", code(c.head)),
                            ])
                        })
                ),
            ])
        }
        return .object([
            ("source", .string(b.source)), ("graded", .bool(b.graded)),
            ("fail_on", .array(b.failOn.kinds.sorted().map { .string($0.rawValue) })),
            (
                "summary",
                .object([
                    ("added", .int(b.count(.added))), ("removed", .int(b.count(.removed))), ("changed", .int(b.count(.changed))),
                    ("grade_drop", .int(b.count(.gradeDrop))),
                ])
            ),
            ("files", .array(files)),
        ])
    }

    /// A code's printed size on its page (documents), for the JSON report: what a later
    /// `check --baseline` compares.
    static func printJSON(_ c: CodeResult, _ pages: [PageRender]) -> JSONValue? {
        guard Evaluator.printRuled.contains(c.code.symbology), let page = pages.first(where: { $0.page == c.code.frame }),
            let size = Evaluator.printedSize(c, on: page)
        else { return nil }
        return .object([
            ("page", .int(page.page + 1)), ("module_mm", .double((size.module * 1000).rounded() / 1000)),
            ("width_mm", .double((size.width * 100).rounded() / 100)),
        ])
    }
}
