import ArgumentParser
import AssetCheck
import CodeGenerate
import UserInput

/// `generate`'s flags for verifying each code before it is written: the grade, the rules, the day.
struct VerifyOptions: ParsableArguments {
    @Flag(help: "Do not verify (no read-back, no grade, no rules).")
    var noVerify = false

    @Option(help: "Lowest grade accepted: \(Grade.minimumChoices) (default B).")
    var minGrade: String?

    @Option(help: "Rules file (.codesweep.yml) applied to every code made.")
    var rules: String?

    @Option(
        help:
            "With --rules: the day campaign expiry is checked against, YYYY-MM-DD (default: today, UTC); try a code as a later or earlier day's check will see it."
    )
    var today: String?

    /// The verifier the flags ask for (nil with --no-verify), its rules loaded from `cwd`.
    func verifier(cwd: String) throws(GenerateError) -> Verifier? {
        var grade = Grade.B
        if let minGrade {
            guard let g = Grade(minimum: minGrade) else { throw .usage("--min-grade takes \(Grade.minimumChoices), not '\(minGrade)'") }
            grade = g
        }
        if let today {
            guard rules != nil else { throw .usage("--today sets the date --rules checks campaign expiry against; it needs --rules") }
            guard Evaluator.isDate(today) else { throw .usage("--today takes a date like 2025-06-30 (a real day, YYYY-MM-DD), not '\(today)'") }
        }
        guard !noVerify else {
            if rules != nil || minGrade != nil || today != nil {
                throw .usage("--rules, --min-grade and --today verify; they do not go with --no-verify")
            }
            return nil
        }
        var v = Verifier(minGrade: grade, context: PathContext(currentDirectory: cwd), today: today ?? Check.todayUTC())
        if let rules {
            do {
                let loaded = try RulesFile.load(path: rules, cwd: cwd) { try FileIO.readInput($0, limit: RulesFile.sizeLimit, what: "file") }
                v.rules = loaded.rules
                v.context = PathContext(currentDirectory: cwd, rulesDirectory: loaded.directory)
                _ = try Evaluator(rules: loaded.rules, context: v.context, today: v.today)
            } catch { throw .usage("\(error)") }
        }
        return v
    }
}
