import CodeSweep
import FileWalker
import Records
import Reporting
import SweepCore
import UserInput

/// The whole check: one result per image, in walk order.
package struct CheckReport: Sendable, Equatable {
    package var images: [ImageResult]
    /// Where the rules came from, for the summary ("Samples/check/.codesweep.yml", "flags").
    package var rulesSource: String
    package var seconds: Double
    /// The changes against `--baseline`, when one was given.
    package var baseline: BaselineComparison?
    /// What `--check-links` found (nil: links were not checked).
    package var links: LinkSummary?
    package init(images: [ImageResult], rulesSource: String, seconds: Double, baseline: BaselineComparison? = nil) {
        self.images = images; self.rulesSource = rulesSource; self.seconds = seconds; self.baseline = baseline
    }
    package var passed: Int { images.count { $0.status == .passed } }
    package var failed: Int { images.count { $0.status == .failed } }
    package var errors: Int { images.count { $0.status == .error } }
    package var violations: Int { images.reduce(0) { $0 + $1.violations.count } }
    /// 0 every image passed, 1 some broke a rule, 2 some could not be read.
    package var exitStatus: Int32 { errors > 0 ? 2 : failed > 0 ? 1 : 0 }
}

/// Scans with the existing engine (Walker → Sweep → FileScanner, worker processes as configured),
/// grading every code where it is read (`CheckGrading`, in the worker that scanned its file),
/// then applies the rules to the records and their grades in this process.
package struct CheckRunner: Sendable {
    package var rules: CheckRules
    package var context: PathContext
    package var today: String
    package var jobs: Int
    package var isolation: Isolation
    package var followSymlinks = false
    package var hidden = false
    /// `--baseline`: the codes are also compared with this scan of the base revision.
    package var baseline: Baseline?
    /// `--redact`: secrets in payloads masked in every result (ContentRules.swift).
    package var redact = false
    /// `--check-links`: how links are requested (nil: no request is made, nothing touches the network).
    package var links: LinkRun?

    package init(rules: CheckRules, context: PathContext, today: String, jobs: Int = Sweep.coreCount, isolation: Isolation = .none) {
        self.rules = rules; self.context = context; self.today = today; self.jobs = jobs; self.isolation = isolation
    }

    /// A check that found no image to check: an error, not a pass (exit 2), so a gate whose
    /// paths or include patterns match nothing cannot turn green by mistake.
    package struct NothingChecked: Error, CustomStringConvertible, Equatable {
        package var paths: [String]
        package var include: [String]
        package var includeIgnoringCase: [String]
        /// `exclude` and `iexclude`: what may have left nothing.
        package var exclude: [String]
        package var excludeIgnoringCase: [String]
        package init(paths: [String], include: [String], includeIgnoringCase: [String] = [], exclude: [String] = [], excludeIgnoringCase: [String] = []) {
            self.paths = paths; self.include = include; self.includeIgnoringCase = includeIgnoringCase
            self.exclude = exclude; self.excludeIgnoringCase = excludeIgnoringCase
        }
        package var description: String {
            func list(_ name: String, _ globs: [String]) -> String? {
                globs.isEmpty ? nil : "\(name) \(globs.map { "'\($0)'" }.joined(separator: ", "))"
            }
            var s = "no image was checked: no image file found in \(paths.map { "'\($0)'" }.joined(separator: ", "))"
            let includes = [list("include", include), list("iinclude", includeIgnoringCase)].compactMap { $0 }
            if !includes.isEmpty { s += " matching " + includes.joined(separator: " or ") }
            let excludes = [list("exclude", exclude), list("iexclude", excludeIgnoringCase)].compactMap { $0 }
            if !excludes.isEmpty { s += " once " + excludes.joined(separator: " and ") + " left files out" }
            if !include.isEmpty {
                s += "; include patterns are case-sensitive ('*.PNG' does not match a.png; iinclude, --iinclude ignore case)"
            }
            return s + ". A gate that checks nothing cannot pass: check the paths (command line or `paths:`) and the include/exclude patterns."
        }
    }

    /// A `require_code` glob that matches no image the check could see: a rule that checks
    /// nothing (a typo, a folder renamed) is an error (exit 2), not a silent pass.
    package struct RequireCodeMatchesNothing: Error, CustomStringConvertible, Equatable {
        package var globs: [String]
        /// Set in a spot check: the roots of the full check the globs were also looked for in.
        package var fullCheckRoots: [String]?
        package var description: String {
            let quoted = globs.map { "'\($0)'" }.joined(separator: ", ")
            let where_ =
                fullCheckRoots.map { roots in
                    "no image given matches it, nor any image in the full check's paths (\(roots.map { "'\($0)'" }.joined(separator: ", ")))"
                } ?? "no image checked matches it"
            return "require_code \(quoted): \(where_). A rule that checks nothing cannot pass. Fix: correct the glob (without '/' it matches the file name, "
                + "with '/' the path relative to the rules file's folder, e.g. 'assets/posters/*'; globs are case-sensitive), "
                + "or remove it from require_code"
        }
    }

    /// Checks the images below `paths`. `fullCheckRoots` set makes it a **spot check** (the
    /// command line named files only, as a pre-commit hook does): expectations entries for
    /// other files are not required, and a `require_code` glob matching none of the given
    /// files must still match an image in the full check's roots (walked, not scanned). In a
    /// full check every exact expectations entry must be checked and every `require_code` glob
    /// must match a checked image.
    package func run(paths: [String], rulesSource: String, fullCheckRoots: [String]? = nil) async throws -> CheckReport {
        let evaluator = try Evaluator(rules: rules, context: context, today: today)
        if links != nil { _ = try rules.links.excludeMatchers() }  // a bad pattern is said before the scan
        let clock = ContinuousClock.now
        let (records, scans) = await scan(paths: paths)
        guard !records.isEmpty else {
            throw NothingChecked(
                paths: paths, include: rules.include, includeIgnoringCase: rules.includeIgnoringCase, exclude: rules.exclude,
                excludeIgnoringCase: rules.excludeIgnoringCase)
        }
        var unmatched = rules.requireCode.filter { glob in !records.contains { context.matches(glob, path: $0.path) } }
        if let fullCheckRoots, !unmatched.isEmpty {
            let seen = Walker(options: walkOptions).items(fullCheckRoots.map(ArgumentBytes.bytes)).lazy.filter { FileScanner.willRecord($0) }
            var left = Set(unmatched)
            for item in seen where !left.isEmpty {
                guard case .file(let f) = item else { continue }
                left = left.filter { !context.matches($0, path: f.path) }
            }
            unmatched = unmatched.filter(left.contains)
        }
        if !unmatched.isEmpty { throw RequireCodeMatchesNothing(globs: unmatched, fullCheckRoots: fullCheckRoots) }
        var results: [ImageResult] = []
        for (i, r) in records.enumerated() {
            var result = evaluator.evaluate(r, scans: scans[i])
            result.seconds = (r.timings?.sum ?? 0) / 1000
            results.append(result)
        }
        var linkSummary: LinkSummary?
        if let links { linkSummary = try await checkLinks(&results, links, evaluator: evaluator) }
        if redact { results = results.map { $0.redacted() } }
        let comparison = baseline?.apply(to: &results, records: records, scans: scans, spot: fullCheckRoots != nil)
        if fullCheckRoots == nil { results += evaluator.unmatchedExpectations(checked: records.map(\.path)) }
        var report = CheckReport(images: results, rulesSource: rulesSource, seconds: clock.duration(to: .now).seconds, baseline: comparison)
        report.links = linkSummary
        return report
    }

    var walkOptions: WalkOptions {
        var walk = WalkOptions()
        walk.include = rules.include
        walk.exclude = rules.exclude
        walk.includeIgnoringCase = rules.includeIgnoringCase
        walk.excludeIgnoringCase = rules.excludeIgnoringCase
        walk.followSymlinks = followSymlinks
        walk.hidden = hidden
        return walk
    }

    /// Walks and sweeps `paths` with the engine, grading every code found: the records in walk
    /// order, each with its codes' scannability (nil where a code could not be graded).
    package func scan(paths: [String]) async -> ([FileRecord], [[Scannability?]]) {
        let items = Walker(options: walkOptions).walk(paths)
        var settings = ScanSettings()
        settings.reader = ReaderOptions(symbologies: .standard, effort: .normal)
        settings.timings = true
        settings.grade = true
        var records: [FileRecord] = []
        var sweep = Sweep(settings: settings, jobs: jobs, isolation: isolation)
        sweep.timeoutHint = " (check allows 60 s per image)"  // check has no --timeout flag
        sweep.grader = CheckGrading.grader
        await sweep.run(items, emit: { records.append($0) })
        // Each code was graded where it was read (`CheckGrading`): in the worker that scanned
        // the file, with the scan's limits, on the same bytes (no second read that could see a
        // changed file). A code without a readable measurement is ungraded, and said so.
        let scans = records.map { record in
            record.codes.indices.map { k in
                k < record.measurements.count ? record.measurements[k].flatMap(Scannability.init(json:)) : nil
            }
        }
        return (records, scans)
    }
}
