import LinkCheck
import Records

/// `--check-links` in each output: every code's link result beside the code (Reports.swift),
/// and the links' tally and warnings here.
extension CheckOutput {
    static func linksLine(_ s: LinkSummary) -> String {
        var line = "links: \(s.checked) distinct, \(s.passed) ok, \(s.failed) broken"
        if s.excluded > 0 { line += ", \(s.excluded) excluded" }
        if s.cached > 0 { line += ", \(s.cached) ok from the link cache" }
        return line
    }

    static func linksText(_ r: CheckReport) -> String {
        guard let s = r.links else { return "" }
        return s.warnings.map { "! warning: \(safe($0))\n" }.joined() + linksLine(s) + "\n"
    }

    static func linksJUnit(_ r: CheckReport) -> String {
        guard let s = r.links else { return "" }
        let lines = [linksLine(s)] + s.warnings.map { "warning: \(safe($0))" }
        return "    <system-out>\(xml(lines.joined(separator: "\n")))</system-out>\n"
    }

    static func linksGitHub(_ r: CheckReport) -> String {
        guard let s = r.links else { return "" }
        return s.warnings.map { "::warning title=codesweep link check::\(githubData(safe($0)))\n" }.joined()
    }

    static func withLinks(_ report: JSONValue, _ r: CheckReport) -> JSONValue {
        guard let s = r.links, case .object(let fields) = report else { return report }
        let links: JSONValue = .object([
            ("distinct", .int(s.checked)), ("passed", .int(s.passed)), ("failed", .int(s.failed)), ("excluded", .int(s.excluded)),
            ("cached", .int(s.cached)), ("warnings", .array(s.warnings.map { .string(safe($0)) })),
        ])
        return .object(fields + [("links", links)])
    }

    static func linkJSON(_ l: LinkResult) -> JSONValue {
        .object([
            ("url", .string(l.url)), ("outcome", .string(l.outcome.rawValue)), ("status", l.status.map(JSONValue.int) ?? .null),
            ("final_url", l.finalURL.map(JSONValue.string) ?? .null),
            ("redirects", .array(l.chain.map { .object([("url", .string($0.url)), ("status", $0.status.map(JSONValue.int) ?? .null)]) })),
            ("failure", l.failure.map { .string("link.\($0.rawValue)") } ?? .null), ("reason", l.reason.map { .string(safe($0)) } ?? .null),
            ("cached", .bool(l.cached)),
        ])
    }
}
