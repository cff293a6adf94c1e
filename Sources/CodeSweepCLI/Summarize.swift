import ArgumentParser
import CodeSweep
import Forensics
import Reporting
import SweepCore

struct Summarize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarize a jsonl report: unique payloads with counts and first/last file, by symbology and by URL host.",
        discussion: """
        Text output escapes control and formatting characters in payloads and paths (a payload \
        is attacker-controlled and must not reach a terminal raw). --json writes one JSON object.
        """
    )

    @Argument(help: "A report written by `codesweep scan` (jsonl); '-' reads standard input.")
    var report: String

    @Flag(help: "Write the summary as one JSON object.")
    var json = false

    func run() throws {
        let data: [UInt8]
        do { data = try ReportMerge.readReport(report) } catch {
            Stderr.say("codesweep summarize: \(error)")
            throw ExitCode(2)
        }
        let summary: PayloadSummary
        do { summary = try PayloadSummary.load(data, name: report) } catch {
            Stderr.say("codesweep summarize: \(error)")
            throw ExitCode(2)
        }
        OutputFile.standardOutput.write(json ? summary.json.serialized(pretty: true) + "\n" : summary.text)
    }
}
