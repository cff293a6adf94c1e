import ArgumentParser
import AssetCheck
import Foundation
import Records
import UserInput

/// `check`'s rule flags: each adds to the rules file's lists or replaces its single value.
struct RuleFlags: ParsableArguments {
    @Option(help: "Images matching this glob must carry a code; repeatable.")
    var requireCode: [String] = []

    @Option(help: "Fewest codes every image must carry.")
    var minCodes: Int?

    @Option(help: "Most codes an image may carry.")
    var maxCodes: Int?

    @Option(help: "Symbologies allowed (names and groups, comma-separated, as for scan).")
    var symbologies: String?

    @Option(help: "Allowed URL schemes, comma-separated (default https).")
    var scheme: String?

    @Option(help: "Allowed host (wildcards: *.example.com); repeatable.")
    var allowHost: [String] = []

    @Option(help: "Denied host (wildcards: staging.*); repeatable.")
    var denyHost: [String] = []

    @Option(help: "Regular expression the whole URL must match (run without backtracking: no backreferences or lookaround; docs/check.md).")
    var urlPattern: String?

    @Option(help: "Query parameter that must be present (wildcards: utm_*); repeatable.")
    var requireQuery: [String] = []

    @Option(help: "Query parameter that must not be present (e.g. debug); repeatable.")
    var forbidQuery: [String] = []

    @Flag(help: "Check URL rules only on payloads that are URLs (do not fail non-URL payloads).")
    var urlOptional = false

    @Option(help: "Expectations file: YAML mapping of image path → expected payload(s).")
    var expectations: String?

    @Option(help: "Lowest scannability grade accepted: \(Grade.minimumChoices).")
    var minGrade: String?

    @Flag(help: "A document page rendered too coarsely (or degenerately) to verify its codes is a warning, not a failure.")
    var allowUnverified = false

    /// Some rule was given by a flag (the report says the rules came from the file and flags).
    var given: Bool {
        !requireCode.isEmpty || minCodes != nil || maxCodes != nil || symbologies != nil || scheme != nil || !allowHost.isEmpty
            || !denyHost.isEmpty || urlPattern != nil || !requireQuery.isEmpty || !forbidQuery.isEmpty || expectations != nil
            || minGrade != nil || urlOptional || allowUnverified
    }

    /// The flags over the rules file's rules: lists added to, single values replaced; the
    /// --expectations file is read (relative to `cwd`).
    func apply(to r: inout CheckRules, cwd: String) throws {
        r.requireCode += requireCode
        if let minCodes { r.minCodes = minCodes }
        if let maxCodes { r.maxCodes = maxCodes }
        if let symbologies { r.symbologies = try SymbologySet.parse(symbologies).members }
        if let scheme { r.url.schemes = scheme.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty } }
        r.url.allowHosts += allowHost
        r.url.denyHosts += denyHost
        if let urlPattern { r.url.pattern = urlPattern }
        r.url.requiredQuery += requireQuery
        r.url.forbiddenQuery += forbidQuery
        if urlOptional { r.url.required = false }
        if let minGrade { r.minGrade = Grade(minimum: minGrade) }
        if allowUnverified { r.allowUnverified = true }
        if let expectations {
            let d = try FileIO.readInput(expectations, limit: RulesFile.sizeLimit, what: "the expectations file")
            let full = expectations.hasPrefix("/") ? expectations : cwd + "/" + expectations
            r.expectations += try RulesFile.parseExpectations(
                String(decoding: d, as: UTF8.self), source: ArgumentBytes.display(expectations),
                directory: PathContext.normalize(full + "/.."))
        }
    }
}
