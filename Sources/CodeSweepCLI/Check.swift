import ArgumentParser
import AssetCheck
import CodeSweep
import Foundation
import Reporting
import SweepCore

/// `codesweep check`: a CI gate for the codes in marketing assets. See docs/check.md.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the codes in images against rules (a CI gate for marketing assets).",
        discussion: """
        Scans the images, grades how well each code will scan, and applies the rules from \
        .codesweep.yml (in the current folder, or --rules FILE) and the flags below (lists add to \
        the file's, single values replace them). Prints a summary for people; --junit, --json and \
        GitHub annotations (--github, or automatically when GITHUB_ACTIONS=true) for CI.

        Files only on the command line (no folder) make a spot check: expectations entries for \
        other files are not required, and a require_code glob need only match an image of the \
        full check.

        Exit status: 0 every image passed, 1 some broke a rule, 2 usage error, unreadable images, \
        no image checked at all (paths or --include matching nothing), or a require_code glob \
        matching no checked image.
        Reference: docs/check.md.
        """
    )

    @Argument(help: "Files and folders to check (default: the rules file's `paths`, else the current folder); files only: a spot check.")
    var paths: [String] = []

    @Option(help: "Rules file (default: .codesweep.yml in the current folder, when there is one).")
    var rules: String?

    @Flag(help: "Ignore .codesweep.yml in the current folder (flags only).")
    var noRulesFile = false

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

    @Option(help: "Regular expression the whole URL must match.")
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

    @Option(help: "Only check files matching this glob; repeatable.")
    var include: [String] = []

    @Option(help: "Skip files and folders matching this glob; repeatable.")
    var exclude: [String] = []

    @Option(help: "As --include, ignoring ASCII case; repeatable.")
    var iinclude: [String] = []

    @Option(help: "As --exclude, ignoring ASCII case; repeatable.")
    var iexclude: [String] = []

    @Option(help: "Write a JUnit XML report to FILE ('-' for stdout instead of the summary).")
    var junit: String?

    @Option(help: "Write a JSON report to FILE ('-' for stdout instead of the summary).")
    var json: String?

    @Flag(help: "Print GitHub Actions ::error annotations (automatic when GITHUB_ACTIONS=true).")
    var github = false

    @Flag(name: [.short, .long], help: "Also list passing images and every code's grade.")
    var verbose = false

    @Option(help: "The date campaign expiry is checked against, YYYY-MM-DD (default: today, UTC).")
    var today: String?

    @Option(name: [.short, .long], help: "Images decoded in parallel (default: number of cores).")
    var jobs: Int?

    @Option(help: "Where images are decoded: 'process' (worker processes) or 'none' (in this process).")
    var isolation: IsolationMode = .process

    /// Checked in run() rather than validate(): a CI gate exits 2 on usage errors (ArgumentParser's
    /// validation failure would exit 64).
    func usageProblem() -> String? {
        if let jobs, jobs < 1 { return "--jobs must be at least 1" }
        if let minGrade, Grade(minimum: minGrade) == nil { return "--min-grade takes \(Grade.minimumChoices), not '\(minGrade)'" }
        if let s = symbologies { do { _ = try SymbologySet.parse(s) } catch { return error.description } }
        if let today, !Evaluator.isDate(today) { return "--today takes a date like 2025-06-30, not '\(today)'" }
        if let minCodes, let maxCodes, minCodes > maxCodes { return "--min-codes is larger than --max-codes" }
        if junit == "-" && json == "-" { return "--junit - and --json - both write to stdout; give one of them a file" }
        return nil
    }

    func run() async throws {
        if let problem = usageProblem() {
            Stderr.say("codesweep check: \(problem)\n(see codesweep check --help)")
            throw ExitCode(2)
        }
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath
        var setup: CheckSetup
        do {
            setup = try CheckSetup(rulesFile: rules, lookForDefault: !noRulesFile, currentDirectory: cwd,
                                   exists: { fm.fileExists(atPath: $0) }, read: { path in
                                       // The message names which file and says why (errno's words).
                                       let what = path == (rules ?? CheckSetup.defaultRulesFile) ? "the rules file" : "the expectations file"
                                       return try FileIO.readInput(path, limit: RulesFile.sizeLimit, what: what)
                                   })
            try applyFlags(&setup.rules, cwd: cwd)
        } catch {
            Stderr.say("codesweep check: \(error)")
            throw ExitCode(2)
        }
        let checkRules = setup.rules, source = setup.source(withFlags: hasRuleFlags)
        let roots = setup.roots(commandLine: paths)
        let isolationSetting: Isolation = isolation == .none ? .none
            : .processes(executable: CodeSweepInfo.executablePath, timeoutSeconds: 60)
        let runner = CheckRunner(rules: checkRules, context: setup.context,
                                 today: today ?? Self.todayUTC(), jobs: jobs ?? Sweep.coreCount, isolation: isolationSetting)
        let report: CheckReport
        do {
            // Files only on the command line (a pre-commit hook's changed files): a spot check.
            let spot = !paths.isEmpty && !paths.contains { Self.isFolder($0) }
            report = try await runner.run(paths: roots, rulesSource: source, fullCheckRoots: spot ? setup.roots(commandLine: []) : nil)
        } catch {
            Stderr.say("codesweep check: \(error)")
            throw ExitCode(2)
        }

        do {
            if let junit, junit != "-" { try write(CheckOutput.junit(report, timestamp: Self.timestamp()), to: junit) }
            if let json, json != "-" { try write(CheckOutput.json(report).serialized(pretty: true) + "\n", to: json) }
        } catch {
            Stderr.say("codesweep check: \(error)")
            throw ExitCode(2)
        }
        if github || ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            OutputFile.standardOutput.write(CheckOutput.github(report))
        }
        if json == "-" {
            OutputFile.standardOutput.write(CheckOutput.json(report).serialized(pretty: true) + "\n")
        } else if junit == "-" {
            OutputFile.standardOutput.write(CheckOutput.junit(report, timestamp: Self.timestamp()))
        } else {
            OutputFile.standardOutput.write(CheckOutput.text(report, verbose: verbose))
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    var hasRuleFlags: Bool {
        !requireCode.isEmpty || minCodes != nil || maxCodes != nil || symbologies != nil || scheme != nil || !allowHost.isEmpty
            || !denyHost.isEmpty || urlPattern != nil || !requireQuery.isEmpty || !forbidQuery.isEmpty || expectations != nil
            || minGrade != nil || urlOptional
    }

    func applyFlags(_ r: inout CheckRules, cwd: String) throws {
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
        r.include += include
        r.exclude += exclude
        r.includeIgnoringCase += iinclude
        r.excludeIgnoringCase += iexclude
        if let expectations {
            let d = try FileIO.readInput(expectations, limit: RulesFile.sizeLimit, what: "the expectations file")
            let full = expectations.hasPrefix("/") ? expectations : cwd + "/" + expectations
            r.expectations += try RulesFile.parseExpectations(String(decoding: d, as: UTF8.self), source: expectations,
                                                              directory: PathContext.normalize(full + "/.."))
        }
    }

    func write(_ text: String, to path: String) throws {
        try SafeFile.write(text, to: path)
    }

    static func isFolder(_ path: String) -> Bool {
        var st = stat()
        let ok = (ArgumentBytes.bytes(path) + [0]).withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &st) }
        }
        return ok == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func todayUTC() -> String { Timestamp.now(.date) }

    static func timestamp() -> String { Timestamp.now(.junit) }
}
