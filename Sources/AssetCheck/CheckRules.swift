import Records

/// Everything `codesweep check` enforces, as plain values. Built from the rules file
/// (`.codesweep.yml`, see RulesFile) and command-line flags; evaluated by `Evaluator`.
package struct CheckRules: Sendable, Equatable {
    /// Paths checked when none are given on the command line.
    package var paths: [String] = []
    /// Walk filters, as for `codesweep scan` (a glob with '/' matches the path below the argument).
    package var include: [String] = []
    package var exclude: [String] = []
    /// The same, ignoring ASCII case (`iinclude`, `iexclude`; `--iinclude`, `--iexclude`).
    package var includeIgnoringCase: [String] = []
    package var excludeIgnoringCase: [String] = []

    /// Images matching any of these globs must carry at least one code (and at least `minCodes`).
    package var requireCode: [String] = []
    /// Codes per image, for every image checked.
    package var minCodes: Int? = nil
    package var maxCodes: Int? = nil
    /// Symbologies allowed; nil allows every symbology found.
    package var symbologies: Set<Symbology>? = nil
    /// Lowest scannability grade accepted; nil does not grade-gate (grades are still reported).
    package var minGrade: Grade? = nil
    package var url = URLRules()
    /// Exact payloads expected per image (path or glob → payloads, order-free).
    package var expectations: [Expectation] = []
    /// Print size of codes in documents (PDF, SVG: their pages know their size), PrintSize.swift.
    package var print = PrintRules()
    /// A page that could not be looked at closely enough to verify it (rendered too coarsely
    /// to resolve the smallest module graded, or degenerately) is a warning, not a failure
    /// (`--allow-unverified`).
    package var allowUnverified = false
    /// What codes say: `content.type`, `content.valid`, `forbid_sensitive` (ContentRules.swift).
    package var content = ContentRules()
    /// `--check-links` and `links:`: each code's link requested and judged (LinkRules.swift).
    package var links = LinkRules()

    package init() {}
}

package struct URLRules: Sendable, Equatable {
    /// The symbologies whose payloads are checked as URLs.
    package var appliesTo: Set<Symbology> = [.qr, .sq]
    /// Every payload of those symbologies must be a URL (false: non-URL payloads are not checked).
    package var required = true
    /// Allowed schemes (lowercase).
    package var schemes: [String] = ["https"]
    /// Host allow-list (empty: any host) and deny-list, with wildcards ("*.example.com").
    package var allowHosts: [String] = []
    package var denyHosts: [String] = []
    /// A regular expression the whole URL must match.
    package var pattern: String? = nil
    /// Query parameter names (wildcards allowed, "utm_*") that must be present / must not be.
    package var requiredQuery: [String] = []
    package var forbiddenQuery: [String] = []
    /// Campaign expiry: the value of `campaignParameter` → last valid day (YYYY-MM-DD).
    package var campaignParameter = "utm_campaign"
    package var campaignExpiry: [String: String] = [:]
    package init() {}
}

package struct Expectation: Sendable, Equatable {
    /// A path (relative to the rules file's folder, or as given on the command line) or a glob.
    package var path: String
    package var payloads: [String]
    package init(path: String, payloads: [String]) { self.path = path; self.payloads = payloads }
}

/// Codes on a document's page at print size. The defaults are GS1's for QR codes scanned at
/// retail point of sale (GS1 General Specifications, section 5.12.3.1, Symbol Specification
/// Table 1: X-dimension 0.396 to 0.990 mm, a quiet zone of 4 modules); nil turns a rule off.
package struct PrintRules: Sendable, Equatable {
    package var minModuleMM: Double? = 0.396
    package var minQuietZoneModules: Double? = 4
    /// CSS pixels a millimetre for an SVG whose root gives no size in absolute units (a viewBox
    /// only, or a percentage): nil leaves such a drawing without a print size.
    package var svgPixelsPerMM: Double? = nil
    /// The smallest module a page's rendering must resolve: `minModuleMM`, else GS1's.
    package var smallestModuleMM: Double { minModuleMM ?? 0.396 }
    package init() {}
}

/// One rule broken, said for the person who has to fix the asset.
package struct Violation: Sendable, Equatable {
    /// Stable rule id: "require_code", "min_codes", "max_codes", "symbologies", "url.valid",
    /// "url.scheme", "url.allow_hosts", "url.deny_hosts", "url.pattern", "url.required_query",
    /// "url.forbidden_query", "url.campaign_expired", "expectations", "min_grade", "print.module_size",
    /// "print.quiet_zone", "unverified" (a page rendered too coarsely, or degenerately, to be checked),
    /// "content.type", "content.valid", "forbid_sensitive", "unreadable",
    /// "decoder_failed" (the isolated reader failed on the image: its codes may be missing).
    package var rule: String
    /// What is wrong.
    package var message: String
    /// How to fix it.
    package var fix: String
    /// 1-based index of the code in the image, when the violation is about one code.
    package var code: Int?
    package init(rule: String, message: String, fix: String, code: Int? = nil) {
        self.rule = rule; self.message = message; self.fix = fix; self.code = code
    }
}
