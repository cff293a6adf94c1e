import CodeContent
import LinkCheck
import Records

/// The rules on what a code says (`CodeContent`): `content.type` (the types allowed),
/// `content.valid` (a code whose payload has a known form must keep it) and `forbid_sensitive`
/// (no payload may give away a password, a one-time-password seed, a key or credentials).
package struct ContentRules: Sendable, Equatable {
    /// Content types allowed ("none": a payload of no known form); nil allows every one.
    package var types: Set<String>? = nil
    package var valid = false
    package var forbidSensitive = false
    package init() {}

    package var any: Bool { types != nil || valid || forbidSensitive }
}

extension Evaluator {
    func contentViolations(_ c: CodeResult) -> [Violation] {
        let rules = rules.content
        guard rules.any else { return [] }
        let content = CodeContent.read(c.text, gs1: c.code.isGS1)
        var v: [Violation] = []
        let type = content?.type.rawValue ?? "none"
        if let allowed = rules.types, !allowed.contains(type) {
            v.append(
                Violation(
                    rule: "content.type",
                    message:
                        "\(describe(c)) holds \(content == nil ? "no payload of a known form" : "a \(type) payload") (allowed: \(allowed.sorted().joined(separator: ", ")))",
                    fix: "replace the code with one holding a \(allowed.sorted().joined(separator: " or ")) payload", code: c.index))
        }
        if rules.valid, let content, !content.valid {
            v.append(
                Violation(
                    rule: "content.valid",
                    message: "\(describe(c)) holds a \(type) payload that breaks its specification: \(content.problems.joined(separator: "; "))",
                    fix: "correct the payload's data where it is made (the problem names the field) and generate the code again", code: c.index))
        }
        if rules.forbidSensitive, let content, !content.sensitive.isEmpty {
            let fields = content.sensitive.map { "content.fields.\($0.field) (\($0.kind.rawValue))" }
            v.append(
                Violation(
                    rule: "forbid_sensitive",
                    message: "\(describe(c)) gives away \(fields.joined(separator: ", ")) in its \(type) payload",
                    fix: "take the secret out of the code (or the code out of the asset); anyone who scans the image can read it", code: c.index))
        }
        return v
    }
}

extension ImageResult {
    /// The result with every secret its codes give away masked (`check --redact`): in the codes'
    /// payloads and in every message and fix that quotes them.
    package func redacted() -> ImageResult {
        var r = self
        var secrets: [String] = []
        for c in codes { secrets += CodeContent.read(c.text, gs1: c.code.isGS1)?.sensitive.filter { !$0.redacted }.map(\.written) ?? [] }
        guard !secrets.isEmpty else { return self }
        secrets.sort { $0.count > $1.count }
        let scrub = { (s: String) in secrets.reduce(s) { $0.replacing($1, with: Redaction.mask) } }
        r.codes = codes.map { c in
            var c = c
            c.code = c.code.redacted()
            c.text = c.text.map(scrub)
            if var link = c.link {
                link.url = scrub(link.url); link.finalURL = link.finalURL.map(scrub); link.reason = link.reason.map(scrub)
                link.chain = link.chain.map { LinkHop(url: scrub($0.url), status: $0.status) }
                c.link = link
            }
            return c
        }
        r.violations = violations.map { v in
            var v = v
            v.message = scrub(v.message); v.fix = scrub(v.fix)
            return v
        }
        return r
    }
}
