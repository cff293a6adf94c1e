import ArgumentParser
import AssetCheck
import CodeDiff
import UserInput

/// `check --baseline FILE [--fail-on KINDS]`: the codes compared with a scan of the base revision.
struct BaselineOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also compare each file's codes with this report of the same assets at the base revision ('check --json' report, or a scan report): codes added, removed, changed.",
            valueName: "report"))
    var baseline: String?

    @Option(help: ArgumentHelp("With --baseline: the changes that fail the check: \(BaselineDiff.FailOn.choices).", valueName: "kinds"))
    var failOn: String?

    /// A usage error in these flags, said as check says usage errors (exit 2).
    var problem: String? {
        guard let failOn else { return nil }
        if baseline == nil { return "--fail-on needs --baseline (the report of the base revision to compare with)" }
        do { _ = try BaselineDiff.FailOn(parsing: failOn) } catch { return error.description }
        return nil
    }

    /// The baseline read, or nil without --baseline. An explicit `grade-drop` with a baseline that
    /// holds no grades (a scan report) is refused: that part of the gate would check nothing.
    func load() throws -> Baseline? {
        guard let baseline else { return nil }
        var failOn = BaselineDiff.FailOn.default
        if let text = self.failOn { failOn = try BaselineDiff.FailOn(parsing: text) }
        let bytes = try FileIO.readInput(baseline, limit: Baseline.sizeLimit, what: "the baseline")
        let read = try Baseline(reading: bytes, source: ArgumentBytes.display(baseline), failOn: failOn)
        if !read.graded, self.failOn != nil, failOn.kinds.contains(.gradeDrop) {
            throw Refusal(
                description:
                    "--fail-on grade-drop: the baseline \(ArgumentBytes.display(baseline)) is a scan report, which holds no grades; make it with `codesweep check --json` at the base revision"
            )
        }
        return read
    }

    struct Refusal: Error, CustomStringConvertible { var description: String }
}
