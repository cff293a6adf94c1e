import SweepCore

/// Everything `codesweep check` enforces, as plain values. Built from the rules file
/// (`.codesweep.yml`, see RulesFile) and command-line flags; evaluated by `Evaluator`.
public struct CheckRules: Sendable, Equatable {
    /// Paths checked when none are given on the command line.
    public var paths: [String] = []
    /// Walk filters, as for `codesweep scan` (a glob with '/' matches the path below the argument).
    public var include: [String] = []
    public var exclude: [String] = []
    /// The same, ignoring ASCII case (`iinclude`, `iexclude`; `--iinclude`, `--iexclude`).
    public var includeIgnoringCase: [String] = []
    public var excludeIgnoringCase: [String] = []

    /// Images matching any of these globs must carry at least one code (and at least `minCodes`).
    public var requireCode: [String] = []
    /// Codes per image, for every image checked.
    public var minCodes: Int? = nil
    public var maxCodes: Int? = nil
    /// Symbologies allowed; nil allows every symbology found.
    public var symbologies: Set<Symbology>? = nil
    /// Lowest scannability grade accepted; nil does not grade-gate (grades are still reported).
    public var minGrade: Grade? = nil
    public var url = URLRules()
    /// Exact payloads expected per image (path or glob → payloads, order-free).
    public var expectations: [Expectation] = []

    public init() {}
}

public struct URLRules: Sendable, Equatable {
    /// The symbologies whose payloads are checked as URLs.
    public var appliesTo: Set<Symbology> = [.qr, .sq]
    /// Every payload of those symbologies must be a URL (false: non-URL payloads are not checked).
    public var required = true
    /// Allowed schemes (lowercase).
    public var schemes: [String] = ["https"]
    /// Host allow-list (empty: any host) and deny-list, with wildcards ("*.example.com").
    public var allowHosts: [String] = []
    public var denyHosts: [String] = []
    /// A regular expression the whole URL must match.
    public var pattern: String? = nil
    /// Query parameter names (wildcards allowed, "utm_*") that must be present / must not be.
    public var requiredQuery: [String] = []
    public var forbiddenQuery: [String] = []
    /// Campaign expiry: the value of `campaignParameter` → last valid day (YYYY-MM-DD).
    public var campaignParameter = "utm_campaign"
    public var campaignExpiry: [String: String] = [:]
    public init() {}
}

public struct Expectation: Sendable, Equatable {
    /// A path (relative to the rules file's folder, or as given on the command line) or a glob.
    public var path: String
    public var payloads: [String]
    public init(path: String, payloads: [String]) { self.path = path; self.payloads = payloads }
}

/// One rule broken, said for the person who has to fix the asset.
public struct Violation: Sendable, Equatable {
    /// Stable rule id: "require_code", "min_codes", "max_codes", "symbologies", "url.valid",
    /// "url.scheme", "url.allow_hosts", "url.deny_hosts", "url.pattern", "url.required_query",
    /// "url.forbidden_query", "url.campaign_expired", "expectations", "min_grade", "unreadable",
    /// "decoder_failed" (the second decoder failed on the image: its codes may be missing).
    public var rule: String
    /// What is wrong.
    public var message: String
    /// How to fix it.
    public var fix: String
    /// 1-based index of the code in the image, when the violation is about one code.
    public var code: Int?
    public init(rule: String, message: String, fix: String, code: Int? = nil) {
        self.rule = rule; self.message = message; self.fix = fix; self.code = code
    }
}
