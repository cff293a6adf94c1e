import ArgumentParser
import AssetCheck
import CodeSweep
import Foundation
import Records
import Reporting
import UserInput

/// `codesweep check`: a CI gate for the codes in marketing assets. See docs/check.md.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the codes in images, documents, archives, mail and videos against rules (a CI gate for marketing assets).",
        discussion: """
            Scans the assets as `scan` reads them (a container's members each a test case of \
            their own), grades how well each code will scan, and applies the rules from \
            .codesweep.yml (in the current folder, or --rules FILE) and the flags below (lists add to \
            the file's, single values replace them). Prints a summary for people; --junit, --json and \
            GitHub annotations (--github, or automatically when GITHUB_ACTIONS=true) for CI.

            Files only on the command line (no folder) make a spot check: expectations entries for \
            other files are not required, and a require_code glob need only match an image of the \
            full check.

            --baseline REPORT compares each file's codes with a report of the same assets at the \
            base revision (a 'check --json' report, or a scan report) and lists the codes added, \
            removed and changed (payload, symbology, print size, grade); --fail-on picks which fail.

            Exit status: 0 every image passed, 1 some broke a rule, 2 usage error, unreadable images, \
            no image checked at all (paths or --include matching nothing), or a require_code glob \
            matching no checked image.

            --check-links requests every http(s) link the codes hold (HEAD, then GET when refused; \
            each redirect held against the URL rules; no private address unless allowed) and fails \
            an image whose link is broken; a machine without network is one error (exit 2).
            Reference: docs/check.md.
            """
    )

    @Argument(help: "Files and folders to check (default: the rules file's `paths`, else the current folder); files only: a spot check.")
    var paths: [String] = []

    @Option(help: "Rules file (default: .codesweep.yml in the current folder, when there is one).")
    var rules: String?

    @Flag(help: "Ignore .codesweep.yml in the current folder (flags only).")
    var noRulesFile = false

    @OptionGroup var ruleFlags: RuleFlags

    @OptionGroup var globs: GlobOptions<Help>

    @OptionGroup var reports: CheckReportOptions

    @OptionGroup var baseline: BaselineOptions

    @OptionGroup var links: LinkOptions
    @Flag(
        help:
            "Mask what payloads give away (passwords, one-time-password secrets, keys, credentials in URLs) in every output: text, JUnit, GitHub annotations, JSON."
    )
    var redact = false

    @Option(help: "The date campaign expiry is checked against, YYYY-MM-DD (default: today, UTC).")
    var today: String?

    @OptionGroup var jobs: JobsOptions<Help>

    @OptionGroup var isolation: IsolationOptions<Help>

    /// Checked in run() rather than validate(): a CI gate exits 2 on usage errors (ArgumentParser's
    /// validation failure would exit 64).
    func usageProblem() -> String? {
        if let problem = jobs.problem { return problem }
        if let problem = baseline.problem { return problem }
        if let problem = links.problem { return problem }
        if let minGrade = ruleFlags.minGrade, Grade(minimum: minGrade) == nil { return "--min-grade takes \(Grade.minimumChoices), not '\(minGrade)'" }
        if let s = ruleFlags.symbologies { do { _ = try SymbologySet.parse(s) } catch { return error.description } }
        if let today, !Evaluator.isDate(today) { return "--today takes a date like 2025-06-30, not '\(today)'" }
        if let minCodes = ruleFlags.minCodes, let maxCodes = ruleFlags.maxCodes, minCodes > maxCodes { return "--min-codes is larger than --max-codes" }
        if reports.junit == "-" && reports.json == "-" { return "--junit - and --json - both write to stdout; give one of them a file" }
        return nil
    }

    func run() async throws {
        if let problem = usageProblem() {
            Stderr.say("codesweep check: \(problem)\n(see codesweep check --help)")
            throw ExitCode(2)
        }
        let read = Counter.Names()
        let setup = try await exitingOnFailure { try loadSetup(recording: read) }
        try refuseOutputsOverInputs(setup: setup, read: read.names)
        var runner = CheckRunner(
            rules: setup.rules, context: setup.context, today: today ?? Self.todayUTC(),
            jobs: jobs.count, isolation: isolation.setting(timeoutSeconds: 60))
        runner.baseline = try await exitingOnFailure { try baseline.load() }
        runner.redact = redact
        runner.links = links.run(setup.rules)
        if runner.links != nil { for w in links.warnings { Stderr.say("codesweep check: warning: \(w)") } }
        // Files only on the command line (a pre-commit hook's changed files): a spot check.
        let spot = !paths.isEmpty && !paths.contains { Self.isFolder($0) }
        let report = try await exitingOnFailure {
            try await runner.run(
                paths: setup.roots(commandLine: paths), rulesSource: setup.source(withFlags: ruleFlags.given),
                fullCheckRoots: spot ? setup.roots(commandLine: []) : nil)
        }
        for w in report.links?.warnings ?? [] { Stderr.say("codesweep check: warning: \(w)") }
        try await exitingOnFailure { try reports.writeFiles(report) }
        reports.print(report)
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// The rules file (or none) with the flags over it, and the paths to check.
    func loadSetup(recording files: Counter.Names = Counter.Names()) throws -> CheckSetup {
        let cwd = UserPath.currentFolder()
        var setup = try CheckSetup(
            rulesFile: rules, lookForDefault: !noRulesFile, currentDirectory: cwd,
            exists: UserPath.exists,  // a dangling .codesweep.yml is an error, not no rules
            read: { path in
                // The message names which file and says why (errno's words).
                let what = path == (rules ?? CheckSetup.defaultRulesFile) ? "the rules file" : "the expectations file"
                files.names.append((what, path))
                return try FileIO.readInput(path, limit: RulesFile.sizeLimit, what: what)
            })
        try ruleFlags.apply(to: &setup.rules, cwd: cwd)
        try links.apply(to: &setup.rules)
        setup.rules.include += globs.include
        setup.rules.exclude += globs.exclude
        setup.rules.includeIgnoringCase += globs.iinclude
        setup.rules.excludeIgnoringCase += globs.iexclude
        return setup
    }

    /// --junit and --json write over no input (an image named or in a folder checked, the rules
    /// or expectations file) and not over each other.
    func refuseOutputsOverInputs(setup: CheckSetup, read: [(String, String)]) throws {
        var inputs = read.map { OutputGuard.Input($0.0, $0.1) }
        if let e = ruleFlags.expectations { inputs.append(OutputGuard.Input("the expectations file", e)) }
        if let b = baseline.baseline { inputs.append(OutputGuard.Input("the baseline", b)) }
        let roots = setup.roots(commandLine: paths)
        inputs += roots.map { OutputGuard.Input("the image", $0) }
        let walked = roots.map(ArgumentBytes.bytes)
        try OutputGuard.refuse("codesweep check", flag: "--json", output: reports.json, inputs: inputs, roots: walked)
        if let json = reports.json, json != "-" { inputs.append(OutputGuard.Input("the --json report", json)) }
        try OutputGuard.refuse("codesweep check", flag: "--junit", output: reports.junit, inputs: inputs, roots: walked)
    }

    /// `body`'s value; an error it throws is said on stderr and ends the check with status 2.
    func exitingOnFailure<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch {
            Stderr.say("codesweep check: \(error)")
            throw ExitCode(2)
        }
    }

    static func isFolder(_ path: String) -> Bool { UserPath.isFolder(path) }

    static func todayUTC() -> String { Timestamp.now(.date) }

    static func timestamp() -> String { Timestamp.now(.junit) }
}

extension Check {
    /// Check's words for the options it shares with `scan`.
    enum Help: GlobHelp, JobsHelp, IsolationHelp {
        static var include: ArgumentHelp { "Only check files matching this glob; repeatable." }
        static var exclude: ArgumentHelp { "Skip files and folders matching this glob; repeatable." }
        static var iinclude: ArgumentHelp { "As --include, ignoring ASCII case; repeatable." }
        static var iexclude: ArgumentHelp { "As --exclude, ignoring ASCII case; repeatable." }
        static var jobs: ArgumentHelp { "Files read in parallel (default: the cores this process may use)." }
        static var isolation: ArgumentHelp { "Where files are decoded: 'process' (worker processes) or 'none' (in this process)." }
    }
}
