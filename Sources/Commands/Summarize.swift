import ArgumentParser
import Forensics
import Reporting
import UserInput

#if canImport(Glibc)
import Glibc
#endif

struct Summarize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarize reports (jsonl or json, one or several: shards): unique payloads with counts and first/last file, by symbology and by URL host.",
        discussion: """
            Reads reports as `report` does (JSON Lines or a --format json document) and counts them \
            together, in the order given. Text output escapes control and formatting characters in \
            payloads and paths (a payload is attacker-controlled and must not reach a terminal raw) \
            and cuts payloads longer than 200 characters, saying how long they are; --json writes \
            one JSON object with every payload whole. URL hosts are those of http, https, ws, wss \
            and ftp URLs, in Unicode with their punycode, look-alikes marked.
            """
    )

    @Argument(help: "Reports written by `codesweep scan` (jsonl or json), e.g. shards; '-' reads standard input (once).")
    var reports: [String] = []

    @Flag(help: "Write the summary as one JSON object.")
    var json = false

    func run() throws {
        func fail(_ message: String) -> ExitCode {
            Stderr.say("codesweep summarize: \(message)")
            return ExitCode(2)
        }
        if reports.isEmpty { throw fail("give one report or more (jsonl or json; '-' for standard input)") }
        if reports.filter({ $0 == "-" }).count > 1 { throw fail("standard input ('-') can be named once") }
        var summary = PayloadSummary()
        summary.sources = reports.map(ArgumentBytes.display)
        // Which report each path came from first: a path in two reports is counted twice, and said.
        var seen: [[UInt8]: Int] = [:]
        var repeated: [(path: String, first: Int, again: Int)] = []
        for (index, name) in reports.enumerated() {
            // Read a piece at a time: a JSON Lines report of millions of records is counted
            // without being held (a `--format json` document is still read whole).
            let fd: Int32
            do { fd = try UserPath.openInput(name) } catch { throw fail("\(error)") }
            defer { UserPath.closeInput(fd) }
            let skipped: [String]
            do {
                skipped = try ReportInput.stream(fd, source: name == "-" ? "(standard input)" : ArgumentBytes.display(name)) { r, texts in
                    if let first = seen[r.pathBytes] {
                        if first != index { repeated.append((r.path, first, index)) }
                    } else {
                        seen[r.pathBytes] = index
                    }
                    summary.add(r, texts: texts)
                }
            } catch {
                throw fail("\(error)")
            }
            for note in skipped { Stderr.say("codesweep summarize: \(note)") }
        }
        if let one = repeated.first {
            Stderr.say(
                "codesweep summarize: warning: \(repeated.count) path\(repeated.count == 1 ? " is" : "s are") in more than one report, counted each time (first: \(one.path) in \(summary.sources[one.first]) and \(summary.sources[one.again])); `codesweep merge` refuses such shards"
            )
        }
        OutputFile.standardOutput.write(json ? WorkflowSafeJSON.text(summary.json.serialized(pretty: true)) + "\n" : summary.text)
    }
}
