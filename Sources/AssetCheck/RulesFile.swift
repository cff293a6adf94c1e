import CodeContent
import Records
import UserInput
import Yams

/// Reads `.codesweep.yml` (see docs/check.md for the reference). Every value is read as a YAML
/// scalar string and converted here, so `2025-06-30` stays a date string and `on` stays a word.
/// Unknown keys are errors: a misspelt rule must not pass silently.
package enum RulesFile {
    package struct Error: Swift.Error, CustomStringConvertible {
        package var description: String
        init(_ d: String) { description = d }
        package init(_ path: String, _ message: String) { description = "\(path): \(message)" }
    }

    /// The largest rules or expectations file read (a rules file is a few hundred bytes; an
    /// expectations list of 10,000 entries about 2 MB): a bigger one is refused before it is read.
    package static let sizeLimit = 16 << 20

    /// YAML text may hold no control characters but tab, line feed and carriage return (YAML
    /// 1.2, 5.1): a file that does is refused at once with the place of the first one, rather
    /// than handed to the YAML parser (whose error for a line of control bytes quoted the whole
    /// line, and took time quadratic in its length: 1 MB of NULs ran for minutes).
    package static func checkText(_ text: String, source: String) throws {
        var line = 1, column = 1
        for u in text.unicodeScalars {
            if u == "\n" { line += 1; column = 1; continue }
            if (u.value < 0x20 && u != "\t" && u != "\r") || u.value == 0x7F || (0x80...0x9F).contains(u.value) && u.value != 0x85 || u.value == 0xFFFE
                || u.value == 0xFFFF
            {
                throw Error("\(source):\(line):\(column): a control character (U+\(Self.hex4(u.value))), which YAML text cannot hold; is this the right file?")
            }
            column += 1
        }
    }

    static func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A YAML parser's message, cut to a sensible length (it may quote a whole line of the input).
    package static func shortened(_ error: Swift.Error) -> String {
        let text = "\(error)"
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    /// Reads and parses the rules file at `path` (relative to `cwd` unless absolute), with the
    /// expectations file it names; also returns the rules file's folder (absolute).
    package static func load(path: String, cwd: String, read: (String) throws -> [UInt8]?) throws -> (rules: CheckRules, directory: String) {
        let shown = ArgumentBytes.display(path)
        guard let data = try read(path) else { throw Error(shown, "cannot read the rules file") }
        let dir = PathContext.normalize((path.hasPrefix("/") ? path : cwd + "/" + path) + "/..")
        let rules = try parse(String(decoding: data, as: UTF8.self), source: shown) { p in
            let full = p.hasPrefix("/") ? p : dir + "/" + p
            guard let d = try read(full) else { throw Error(ArgumentBytes.display(full), "no such file") }
            return (String(decoding: d, as: UTF8.self), PathContext.normalize(full + "/.."))
        }
        return (rules, dir)
    }

    /// Parses the rules text. `expectationsLoader` reads the `expectations` file named in it (a
    /// path relative to the rules file), returning its text and its folder (absolute): the paths
    /// in an expectations file are relative to the file's own folder.
    package static func parse(
        _ text: String, source: String = ".codesweep.yml",
        expectationsLoader: (String) throws -> (text: String, directory: String) = { p in throw Error(p, "no expectations loader") }
    ) throws -> CheckRules {
        try checkText(text, source: source)
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw Error("\(source): not valid YAML: \(shortened(error))") }
        var rules = CheckRules()
        guard let root else { return rules }
        guard let map = root.mapping else { throw Error("\(source): the top level must be a mapping of rule names to values") }
        let known = [
            "paths", "include", "exclude", "iinclude", "iexclude", "require_code", "min_codes", "max_codes", "symbologies", "min_grade",
            "url", "expectations", "expect", "version", "min_module_mm", "min_quiet_zone_modules",
            "svg_px_per_mm", "content", "forbid_sensitive", "links",
        ]
        for (k, value) in map {
            let key = k.string ?? ""
            let at = "\(source): \(key)"
            switch key {
            case "version":
                guard value.string == "1" else { throw Error("\(at): only version 1 is understood") }
            case "paths": rules.paths = try strings(value, at)
            case "include": rules.include = try strings(value, at)
            case "exclude": rules.exclude = try strings(value, at)
            case "iinclude": rules.includeIgnoringCase = try strings(value, at)
            case "iexclude": rules.excludeIgnoringCase = try strings(value, at)
            case "require_code": rules.requireCode = try strings(value, at)
            case "min_codes": rules.minCodes = try int(value, at)
            case "max_codes": rules.maxCodes = try int(value, at)
            case "symbologies": rules.symbologies = try symbologies(strings(value, at).joined(separator: ","), at)
            case "min_grade":
                guard let s = value.string, let g = Grade(minimum: s) else { throw Error("\(at) takes \(Grade.minimumChoices), not '\(value.string ?? "")'") }
                rules.minGrade = g
            case "url": rules.url = try url(value, at)
            case "content": rules.content = try content(value, at, rules.content)
            case "links": rules.links = try links(value, at)
            case "forbid_sensitive": rules.content.forbidSensitive = try bool(value, at)
            case "min_module_mm": rules.print.minModuleMM = try printLimit(value, at)
            case "min_quiet_zone_modules": rules.print.minQuietZoneModules = try printLimit(value, at)
            case "svg_px_per_mm":
                guard let d = value.string.flatMap(Double.init), d.isFinite, d > 0 else {
                    throw Error("\(at) takes a positive number of CSS pixels a millimetre (96 / 25.4 = 3.7795 is CSS's own), not '\(value.string ?? "")'")
                }
                rules.print.svgPixelsPerMM = d
            case "expect": rules.expectations += try expectations(value, at)
            case "expectations":
                guard let path = value.string else { throw Error("\(at): the path of an expectations file (YAML: image path → payload)") }
                let loaded: (text: String, directory: String)
                // The loader's error names the file and says why it cannot be read.
                do { loaded = try expectationsLoader(path) } catch { throw Error("\(at): \(error)") }
                rules.expectations += try parseExpectations(loaded.text, source: path, directory: loaded.directory)
            default:
                throw unknownKey(at, key, known: known)
            }
        }
        return rules
    }

    /// A positive number, or `off` / null / 0 (the rule is not applied).
    static func printLimit(_ node: Node, _ at: String) throws -> Double? {
        if node.null != nil || node.string == "off" { return nil }
        guard let text = node.string, let d = Double(text), d >= 0, d.isFinite else {
            throw Error("\(at) takes a number of millimetres or modules (0 or off: no rule), not '\(node.string ?? "")'")
        }
        return d == 0 ? nil : d
    }

    /// An expectations file: a YAML (or JSON) mapping of image path (or glob) → payload or list of
    /// payloads. Paths (and globs with a '/') are made absolute against `directory`, the file's folder.
    package static func parseExpectations(_ text: String, source: String, directory: String) throws -> [Expectation] {
        try checkText(text, source: source)
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw Error("\(source): not valid YAML: \(shortened(error))") }
        guard let root else { return [] }
        return try expectations(root, source).map { e in
            var e = e
            let isNameGlob = Evaluator.hasWildcard(e.path) && !e.path.contains("/")
            if !isNameGlob && !e.path.hasPrefix("/") { e.path = PathContext.normalize(directory + "/" + e.path) }
            return e
        }
    }

    static func expectations(_ node: Node, _ at: String) throws -> [Expectation] {
        guard let map = node.mapping else { throw Error("\(at): a mapping of image path → expected payload(s)") }
        return try map.map { k, v in
            guard let path = k.string else { throw Error("\(at): keys must be paths") }
            return Expectation(path: path, payloads: try strings(v, "\(at): \(path)"))
        }
    }

    static func url(_ node: Node, _ at: String) throws -> URLRules {
        guard let map = node.mapping else { throw Error("\(at): a mapping (schemes, allow_hosts, ...)") }
        var u = URLRules()
        for (k, value) in map {
            let key = k.string ?? ""
            let here = "\(at).\(key)"
            switch key {
            case "applies_to": u.appliesTo = try symbologies(strings(value, here).joined(separator: ","), here)
            case "required": u.required = try bool(value, here)
            case "schemes": u.schemes = try strings(value, here).map { $0.lowercased() }
            case "allow_hosts": u.allowHosts = try strings(value, here)
            case "deny_hosts": u.denyHosts = try strings(value, here)
            case "pattern":
                guard let s = value.string else { throw Error("\(here): a regular expression") }
                u.pattern = s
            case "required_query": u.requiredQuery = try strings(value, here)
            case "forbidden_query": u.forbiddenQuery = try strings(value, here)
            case "campaigns":
                guard let m = value.mapping else { throw Error("\(here): a mapping with param and expires") }
                for (ck, cv) in m {
                    switch ck.string ?? "" {
                    case "param":
                        guard let s = cv.string else { throw Error("\(here).param: a query parameter name") }
                        u.campaignParameter = s
                    case "expires":
                        guard let em = cv.mapping else { throw Error("\(here).expires: a mapping of campaign → last day (YYYY-MM-DD)") }
                        for (name, date) in em {
                            guard let n = name.string, let d = date.string else { throw Error("\(here).expires: campaign → YYYY-MM-DD") }
                            u.campaignExpiry[n] = d
                        }
                    default: throw unknownKey("\(here).\(ck.string ?? "")", ck.string ?? "", known: ["param", "expires"])
                    }
                }
            default:
                throw unknownKey(
                    here, key,
                    known: [
                        "applies_to", "required", "schemes", "allow_hosts", "deny_hosts", "pattern",
                        "required_query", "forbidden_query", "campaigns",
                    ])
            }
        }
        return u
    }

    /// `content: {type: [...], valid: true, forbid_sensitive: true}`.
    static func content(_ node: Node, _ at: String, _ start: ContentRules) throws -> ContentRules {
        guard let map = node.mapping else { throw Error("\(at): a mapping (type, valid, forbid_sensitive)") }
        var c = start
        let known = ["type", "valid", "forbid_sensitive"]
        for (k, value) in map {
            let key = k.string ?? "", here = "\(at).\(key)"
            switch key {
            case "type":
                let names = try strings(value, here)
                let all = Set(ContentType.allCases.map(\.rawValue) + ["none"])
                if let bad = names.first(where: { !all.contains($0) }) {
                    throw Error("\(here): unknown content type '\(bad)' (known: \(all.sorted().joined(separator: ", ")))")
                }
                c.types = Set(names)
            case "valid": c.valid = try bool(value, here)
            case "forbid_sensitive": c.forbidSensitive = try bool(value, here)
            default: throw unknownKey(here, key, known: known)
            }
        }
        return c
    }

    /// An unknown key, with the known key it is most likely a typo of.
    static func unknownKey(_ at: String, _ key: String, known: [String]) -> Error {
        let hint = DidYouMean.closest(to: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
        return Error("\(at): unknown key\(hint) (known: \(known.joined(separator: ", ")))")
    }

    static func strings(_ node: Node, _ at: String) throws -> [String] {
        if let s = node.scalar { return [s.string] }
        if let seq = node.sequence {
            return try seq.map { item in
                guard let s = item.scalar?.string else { throw Error("\(at): a list of strings") }
                return s
            }
        }
        throw Error("\(at): a string or a list of strings")
    }

    static func int(_ node: Node, _ at: String) throws -> Int {
        guard let s = node.string, let i = Int(s), i >= 0 else { throw Error("\(at): a whole number ≥ 0") }
        return i
    }

    static func bool(_ node: Node, _ at: String) throws -> Bool {
        switch node.string?.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw Error("\(at): true or false")
        }
    }

    static func symbologies(_ list: String, _ at: String) throws -> Set<Symbology> {
        do { return try SymbologySet.parse(list).members } catch { throw Error("\(at): \(error.description)") }
    }
}
