import ArgumentParser
import AssetCheck
import Foundation
import Reporting

/// `check`'s reports: JUnit and JSON to files or stdout, GitHub annotations, the summary.
struct CheckReportOptions: ParsableArguments {
    @Option(help: "Write a JUnit XML report to FILE ('-' for stdout instead of the summary).")
    var junit: String?

    @Option(help: "Write a JSON report to FILE ('-' for stdout instead of the summary).")
    var json: String?

    @Flag(help: "Print GitHub Actions ::error annotations (automatic when GITHUB_ACTIONS=true).")
    var github = false

    @Flag(name: [.short, .long], help: "Also list passing images and every code's grade.")
    var verbose = false

    /// The reports for files (not '-'), each written whole or not at all.
    func writeFiles(_ report: CheckReport) throws {
        if let junit, junit != "-" { try SafeFile.write(CheckOutput.junit(report, timestamp: Check.timestamp()), to: junit) }
        if let json, json != "-" { try SafeFile.write(WorkflowSafeJSON.text(CheckOutput.json(report).serialized(pretty: true)) + "\n", to: json) }
    }

    /// On stdout: the GitHub annotations (with --github or in GitHub Actions), then the report
    /// named '-', else the summary for people. When the report on stdout is JSON or JUnit, the
    /// annotations go to stderr (the runner reads workflow commands from both), so that a
    /// `check --json - | jq` in GitHub Actions reads a report and nothing else.
    func print(_ report: CheckReport) {
        if github || ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            let machineReadable = json == "-" || junit == "-"
            (machineReadable ? OutputFile.standardError : OutputFile.standardOutput).write(CheckOutput.github(report))
        }
        if json == "-" {
            OutputFile.standardOutput.write(WorkflowSafeJSON.text(CheckOutput.json(report).serialized(pretty: true)) + "\n")
        } else if junit == "-" {
            OutputFile.standardOutput.write(CheckOutput.junit(report, timestamp: Check.timestamp()))
        } else {
            OutputFile.standardOutput.write(CheckOutput.text(report, verbose: verbose))
        }
    }
}
