import Records
import Reporting

/// The four outputs CI systems and people read. All pure: a report in, text out.
package enum CheckOutput {
    // MARK: Human summary

    package static func text(_ r: CheckReport, verbose: Bool = false) -> String {
        var out = ""
        for img in r.images {
            switch img.status {
            case .passed:
                guard verbose || !img.warnings.isEmpty else { continue }
                out += "PASS   \(safe(img.path))\(codesLine(img))\n"
            case .failed:
                out += "FAIL   \(safe(img.path))\(codesLine(img))\n"
            case .error:
                out += "ERROR  \(safe(img.path))\n"
            }
            for c in img.codes where verbose || img.status != .passed {
                out += "       code \(c.index): \(c.code.symbology.displayName) \(c.text.map { safe(quote($0)) } ?? "<binary>")\n"
                if let s = c.scan { out += "         grade \(s.grade): \(s.summary)\n" }
                if let l = c.link { out += "         link: \(safe(l.summary))\n" }
            }
            for v in img.violations {
                out += "  ✗ \(v.rule): \(safe(v.message))\n"
                out += "    fix: \(safe(v.fix))\n"
            }
            for w in img.warnings { out += "  ! warning: \(safe(w))\n" }
            if img.status != .passed || !img.warnings.isEmpty { out += "\n" }
        }
        out += baselineText(r) + linksText(r)
        let verdict = r.exitStatus == 0 ? "PASSED" : r.exitStatus == 1 ? "FAILED" : "ERROR"
        out += "codesweep check \(verdict): \(r.images.count) image\(r.images.count == 1 ? "" : "s"), \(r.passed) passed, \(r.failed) failed"
        if r.errors > 0 { out += ", \(r.errors) unreadable" }
        let warnings = r.images.reduce(0) { $0 + $1.warnings.count }
        out +=
            " (\(r.violations) problem\(r.violations == 1 ? "" : "s")\(warnings == 0 ? "" : ", \(warnings) warning\(warnings == 1 ? "" : "s")"); rules: \(safe(r.rulesSource)))\n"
        return out
    }

    static func codesLine(_ img: ImageResult) -> String {
        if img.codes.isEmpty { return img.error == nil ? "  — no code found" : "" }
        let grades = img.codes.compactMap { $0.scan?.grade.description }
        return "  — \(img.codes.count) code\(img.codes.count == 1 ? "" : "s")" + (grades.isEmpty ? "" : ", grade \(grades.joined(separator: "/"))")
    }

    /// Paths, payloads and messages, escaped once for every output (summary, JUnit, annotations,
    /// JSON `message`/`fix`): control, format and bidi characters shown as escapes, with the
    /// escaper every other text output of the tool uses. Messages hold payloads unescaped, so
    /// this is the only escaping they get.
    static func safe(_ s: String) -> String { TerminalText.escape(s) }

    // MARK: JUnit XML

    /// JUnit XML as Jenkins, GitLab, CircleCI and Azure read it: one testsuite, one testcase per
    /// image (classname "codesweep.check", name = path), a <failure> for rule violations and an
    /// <error> for unreadable images, each with message/type attributes and the details as text.
    package static func junit(_ r: CheckReport, timestamp: String) -> String {
        let time = NumberText.fixed(r.seconds, decimals: 3)
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<testsuites name=\"codesweep check\" tests=\"\(r.images.count)\" failures=\"\(r.failed)\" errors=\"\(r.errors)\" time=\"\(time)\">\n"
        x +=
            "  <testsuite name=\"codesweep check\" tests=\"\(r.images.count)\" failures=\"\(r.failed)\" errors=\"\(r.errors)\" skipped=\"0\" time=\"\(time)\" timestamp=\"\(xml(timestamp))\" hostname=\"localhost\">\n"
        x += "    <properties>\n      <property name=\"rules\" value=\"\(xml(r.rulesSource))\"/>\n    </properties>\n"
        for img in r.images {
            x += "    <testcase name=\"\(xml(safe(img.path)))\" classname=\"codesweep.check\" time=\"\(NumberText.fixed(img.seconds, decimals: 3))\""
            switch img.status {
            case .passed:
                x += ">\n"
                let notes = changeNotes(r, img.path)
                if !img.codes.isEmpty || !img.warnings.isEmpty || !notes.isEmpty {
                    x += "      <system-out>\(xml(([detail(img)] + notes).joined(separator: "\n")))</system-out>\n"
                }
                x += "    </testcase>\n"
            case .failed, .error:
                let tag = img.status == .error ? "error" : "failure"
                let first = img.violations.first
                let message =
                    img.violations.count == 1 ? safe(first!.message) : "\(img.violations.count) problems: " + img.violations.map(\.rule).joined(separator: ", ")
                let type = Array(Set(img.violations.map(\.rule))).sorted().joined(separator: ",")
                let text = ([detail(img)] + changeNotes(r, img.path)).joined(separator: "\n")
                x += ">\n      <\(tag) message=\"\(xml(message))\" type=\"\(xml(type))\">\(xml(text))</\(tag)>\n    </testcase>\n"
            }
        }
        x += baselineJUnit(r) + linksJUnit(r)
        x += "  </testsuite>\n</testsuites>\n"
        return x
    }

    static func detail(_ img: ImageResult) -> String {
        var lines: [String] = []
        for c in img.codes {
            lines.append(
                "code \(c.index): \(c.code.symbology.displayName) \(c.text.map { safe(quote($0)) } ?? "<binary>")"
                    + (c.scan.map { " — grade \($0.grade): \($0.summary)" } ?? "") + (c.link.map { "\n  link: \(safe($0.summary))" } ?? ""))
        }
        for v in img.violations {
            lines.append("\(v.rule): \(safe(v.message))\n  fix: \(safe(v.fix))")
        }
        for w in img.warnings { lines.append("warning: \(safe(w))") }
        return lines.joined(separator: "\n")
    }

    /// XML 1.0 text/attribute escaping. Characters XML 1.0 cannot hold at all (C0 controls other
    /// than tab/newline/CR, U+FFFE/U+FFFF) become U+FFFD; newlines in attributes are kept as &#10;
    /// (so no text starts a line of the document), and the first `#` of every `##[` is written
    /// `&#35;` (the GitHub runner reads `##[command]` anywhere in a line of `--junit -`).
    package static func xml(_ s: String) -> String {
        var out = ""
        let scalars = Array(s.unicodeScalars)
        for (i, u) in scalars.enumerated() {
            if u == "#", i + 2 < scalars.count, scalars[i + 1] == "#", scalars[i + 2] == "[" {
                out += "&#35;"
                continue
            }
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF { out += "\u{FFFD}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    // MARK: GitHub Actions workflow commands

    /// One `::error file=…,title=…::message` line per violation (and per unreadable image),
    /// one `::warning` line per warning.
    package static func github(_ r: CheckReport) -> String {
        var out = ""
        for img in r.images {
            for v in img.violations {
                let title = "codesweep \(v.rule)" + (v.code.map { " (code \($0))" } ?? "")
                // Every part is shown escaped first (file names and payloads are untrusted: ESC,
                // DEL, C1 controls, U+202E), then escaped as the workflow command syntax needs.
                out +=
                    "::error file=\(githubProperty(safe(img.path))),title=\(githubProperty(safe(title)))::\(githubData(safe(v.message) + ". Fix: " + safe(v.fix)))\n"
            }
            for w in img.warnings {
                out += "::warning file=\(githubProperty(safe(img.path))),title=codesweep warning::\(githubData(safe(w)))\n"
            }
        }
        return out + baselineGitHub(r) + linksGitHub(r)
    }

    /// Escaping of a command's message, as @actions/core does: % \r \n.
    /// Works on Unicode scalars: "\r\n" is one Character in Swift and must still become %0D%0A.
    package static func githubData(_ s: String) -> String {
        escape(s, ["%": "%25", "\r": "%0D", "\n": "%0A"])
    }

    /// Escaping of a property value: the message escapes plus ':' and ','.
    package static func githubProperty(_ s: String) -> String {
        escape(s, ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
    }

    static func escape(_ s: String, _ table: [Unicode.Scalar: String]) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if let r = table[u] { out += r } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    // MARK: JSON

    package static func json(_ r: CheckReport) -> JSONValue {
        let report: JSONValue = .object([
            ("passed", .bool(r.exitStatus == 0)),
            ("exit_status", .int(Int(r.exitStatus))),
            ("rules", .string(r.rulesSource)),
            (
                "summary",
                .object([
                    ("images", .int(r.images.count)), ("passed", .int(r.passed)), ("failed", .int(r.failed)),
                    ("errors", .int(r.errors)), ("problems", .int(r.violations)),
                    ("warnings", .int(r.images.reduce(0) { $0 + $1.warnings.count })), ("seconds", .double((r.seconds * 1000).rounded() / 1000)),
                ])
            ),
            ("images", .array(r.images.map(imageJSON))),
        ])
        return withLinks(withBaseline(report, r), r)
    }

    static func imageJSON(_ img: ImageResult) -> JSONValue {
        var f: [(String, JSONValue)] = [("path", .string(img.path)), ("status", .string(img.status.rawValue))]
        if let e = img.error { f.append(("error", .string(e))) }
        f.append(
            (
                "codes",
                .array(
                    img.codes.map { c in
                        var cf: [(String, JSONValue)] = [("index", .int(c.index))]
                        if case .object(let fields) = c.code.json() { cf += fields }
                        if let s = c.scan { cf.append(("scannability", scanJSON(s))) }
                        if let p = printJSON(c, img.pages) { cf.append(("print", p)) }
                        if let l = c.link { cf.append(("link", linkJSON(l))) }
                        return .object(cf)
                    })
            ))
        f.append(
            (
                "violations",
                .array(
                    img.violations.map { v in
                        .object([
                            ("rule", .string(v.rule)), ("code", v.code.map(JSONValue.int) ?? .null), ("message", .string(safe(v.message))),
                            ("fix", .string(safe(v.fix))),
                        ])
                    })
            ))
        f.append(("warnings", .array(img.warnings.map { .string(safe($0)) })))
        return .object(f)
    }

    static func scanJSON(_ s: Scannability) -> JSONValue {
        func r(_ d: Double) -> JSONValue { .double((d * 100).rounded() / 100) }
        return .object([
            ("grade", .string(s.grade.description)),
            ("grade_value", .int(s.grade.rawValue)),
            ("module_px", s.modulePx.map(r) ?? .null),
            ("modules_per_side", s.modulesPerSide.map(JSONValue.int) ?? .null),
            ("version", s.version.map(JSONValue.int) ?? .null),
            ("quiet_zone_px", r(s.quietZonePx)),
            ("quiet_zone_modules", s.quietZoneModules.map(r) ?? .null),
            ("quiet_zone_at_least", .bool(s.quietZoneAtLeast)),
            ("contrast", r(s.contrast)),
            ("reads_as_is", .bool(s.readsAsIs)),
            ("shrink_margin", r(s.scaleMargin)),
            ("blur_margin_modules", r(s.blurMargin)),
            ("contrast_margin", r(s.contrastMargin)),
            ("inverted", .bool(s.inverted)),
            ("notes", .array(s.notes.map(JSONValue.string))),
            ("grades", .object(s.grades.map { ($0.parameter, .string($0.grade.description)) })),
        ])
    }
}
